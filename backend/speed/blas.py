"""OpenBLAS sgemm calls as worker jobs: how the wrapper's `extern_mm` splits a matmul across threads.

Speed wing, called by `wrapper.extern_mm` (through `speed.matmul`). np.matmul on a second Python
thread would need the GIL to start, a wake-up that costs as much as the
split saves on mid-sized products, so the chunks are sgemm calls made by
`workers.run_jobs` from native code. The Fortran interface is used because
it takes every argument by address, which is what a job carries.

The sgemm is that of an OpenBLAS of our own (the scipy-openblas32 package,
the build numpy and scipy bundle), loaded once with the settings our jobs
need, which numpy's copy, loaded before we run, cannot be given:
- one thread: each job is a thread's share already; numpy's OpenBLAS, left
  at a thread per core, split every job again, its threads fighting ours for
  the cores (measured: the MLP's products 2.5-3x slower);
- kernels chosen for the host: on AMD Zen 4 and 5 OpenBLAS picks its
  AVX-512 (SkylakeX) kernels, which Zen runs as two 256-bit halves; its
  AVX2 Zen kernels measured 5-7% faster here on the MLP's products, at one
  and two threads (`config.blas_coretype` overrides the choice).

The one idea to hold: BLAS is column-major and our arrays are row-major, so
out = a @ b is computed as out^T = b^T @ a^T, where each row-major matrix,
read column-major, already is its transpose; a matrix stored transposed
(stride 1 between rows) is passed with 'T' instead.

    jobs = matmul_jobs(a, b, out, chunks=2)   # None: no sgemm found, or a layout BLAS cannot take
    workers.run_jobs(jobs)
"""
import ctypes
import os

import numpy as np

from .. import config
from ..codegen import llvm_jit
from . import workers

MM_JOB_MIN_FLOPS = 1 << 22  # below this many multiply-adds a matmul is one np.matmul on the calling thread
OPENBLAS_CORETYPES = {"znver4": "Zen", "znver5": "Zen"}  # host CPU (LLVM's name) -> OpenBLAS kernels
_sgemm = None


def sgemm_address():
    """Address of our OpenBLAS's sgemm_ (Fortran interface, 32-bit integers), or 0 when it is not installed."""
    global _sgemm
    if _sgemm is None:
        library = load_openblas()
        _sgemm = ctypes.cast(library.scipy_sgemm_, ctypes.c_void_p).value if library else 0
    return _sgemm


def load_openblas():
    """scipy-openblas32's library, loaded at one thread with the host's kernels (None if not installed).
    OpenBLAS reads its settings from the environment when it loads, which importing the package does, so
    they are set for that moment. (Imported earlier by someone else, it keeps its kernels but is still set
    to one thread.)"""
    settings = {"OPENBLAS_NUM_THREADS": "1"}
    coretype = config.blas_coretype or OPENBLAS_CORETYPES.get(llvm_jit.host().cpu)
    if coretype:
        settings["OPENBLAS_CORETYPE"] = coretype
    saved = {name: os.environ.get(name) for name in settings}
    os.environ.update(settings)
    try:
        import scipy_openblas32  # optional; and OpenBLAS reads the settings above when this import loads it
        library = ctypes.CDLL(os.path.join(scipy_openblas32.get_lib_dir(), scipy_openblas32.get_library(fullname=True)))
    except (ImportError, OSError):
        return None
    finally:
        for name, value in saved.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value
    library.scipy_openblas_set_num_threads(1)
    return library


def column_major_form(x):
    """(trans, ld) that make BLAS read the 2-d row-major x as x^T, or None (strides BLAS cannot take)."""
    rows, cols = x.shape
    item = x.itemsize
    if any(s % item or s < 0 for s in x.strides):
        return None
    row_stride, col_stride = x.strides[0] // item, x.strides[1] // item
    if col_stride == 1 or cols == 1:
        ld = row_stride if rows > 1 else cols
        if ld >= max(1, cols):
            return "N", ld
    if row_stride == 1 or rows == 1:
        ld = col_stride if cols > 1 else rows
        if ld >= max(1, rows):
            return "T", ld
    return None


def sgemm_job(a, b, out, count=1, batch_strides=(0, 0, 0)):
    """A Job computing out = a @ b (2-d float32), `count` times stepping a, b, out by batch_strides
    bytes; None when sgemm is missing or a layout is one BLAS cannot take."""
    function = sgemm_address()
    forms = [column_major_form(x) for x in (b, a, out)]
    if not function or None in forms or forms[2][0] != "N":
        return None
    (trans_b, ld_b), (trans_a, ld_a), (_, ld_out) = forms
    (m, k), n = a.shape, b.shape[1]
    # every argument by address; integers stored as int64, which this LP64 sgemm_ reads as int32 (little-endian)
    integers = np.array([ord(trans_b), ord(trans_a), n, m, k, ld_b, ld_a, ld_out], np.int64)
    scalars = np.array([1.0, 0.0], np.float32)  # alpha, beta
    at = integers.ctypes.data
    args = [at, at + 8, at + 16, at + 24, at + 32, scalars.ctypes.data, b.ctypes.data, at + 40,
            a.ctypes.data, at + 48, scalars.ctypes.data + 4, out.ctypes.data, at + 56, 1, 1]
    steps = [0] * 6 + [batch_strides[1], 0, batch_strides[0], 0, 0, batch_strides[2]]
    return workers.Job(function, args, count, steps, keep=(integers, scalars))


def matmul(a, b, out):
    """out = a @ b as sgemm jobs, one per `config.threads` thread, for a large float32 product; False (nothing
    done) for anything else, or where no sgemm is installed or a layout is one BLAS cannot take."""
    if not (out.dtype == a.dtype == b.dtype == np.float32 and out.size * a.shape[-1] >= MM_JOB_MIN_FLOPS):
        return False
    jobs = matmul_jobs(a, b, out, config.threads)
    if jobs is None:
        return False
    workers.run_jobs(jobs)
    return True


def matmul_jobs(a, b, out, chunks):
    """One job per chunk for out = a @ b, batched split by batch, 2-d by rows of out unless b is stored
    column-major: then by columns, each a contiguous block of b (measured on the MLP's products at 2
    threads: 4-6% faster each way than the other split). None if any chunk has a layout BLAS cannot take."""
    if out.ndim == 3:
        bounds = _bounds(out.shape[0], chunks)
        strides = (a.strides[0], b.strides[0], out.strides[0])
        jobs = [sgemm_job(a[lo], b[lo], out[lo], hi - lo, strides) for lo, hi in bounds]
    elif b.strides[0] == b.itemsize and b.shape[1] > 1:
        jobs = [sgemm_job(a, b[:, lo:hi], out[:, lo:hi]) for lo, hi in _bounds(out.shape[1], chunks)]
    else:
        jobs = [sgemm_job(a[lo:hi], b, out[lo:hi]) for lo, hi in _bounds(out.shape[0], chunks)]
    return None if None in jobs else jobs


def _bounds(extent, chunks):
    chunks = max(1, min(chunks, extent))
    edges = [extent * i // chunks for i in range(chunks + 1)]
    return list(zip(edges, edges[1:]))
