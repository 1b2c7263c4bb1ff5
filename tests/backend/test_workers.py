"""The native worker threads (backend/speed/workers.py) and the sgemm jobs they run (speed/blas.py)."""
import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from backend import config
from backend import loop_ir as L
from backend import wrapper
from backend.codegen import llvm as codegen
from backend.codegen import llvm_jit
from backend.speed import blas, workers
from minitorch2 import _dtype as dt

pytestmark = pytest.mark.speed_wing
RNG = np.random.default_rng(0)


def affine_kernel(n):
    """out[i] = 2 * x[i] + 1 over [start, end): arguments (x, out, start, end)."""
    x0 = L.Var("x0")
    value = L.Op("add", (L.Op("mul", (L.Load("in_ptr0", x0, dt.float32), L.Constant(2.0, dt.float32)), dt.float32),
                         L.Constant(1.0, dt.float32)), dt.float32)
    args = [L.KernelArg("in_ptr0", "x", dt.float32, n, "in"), L.KernelArg("out_ptr0", "y", dt.float32, n, "out")]
    return codegen.compile_kernel(L.Kernel("affine", args, L.Loop(("x0",), (n,), [L.Store("out_ptr0", x0, value)])))


def run_in_chunks(kernel, x, out, chunks, count=1):
    """Each job covers `count` consecutive slices of 10 elements (its arguments stepped by 10 each call)."""
    size = 10 * count
    jobs = [workers.Job(kernel._loaded.address, [x.ctypes.data, out.ctypes.data, i * size, i * size + 10],
                        count, [0, 0, 10, 10]) for i in range(chunks)]
    workers.run_jobs(jobs)


@pytest.mark.parametrize("chunks,count", [(1, 1), (2, 3), (5, 2)])  # 5: more workers than this machine's cores
def test_jobs_run_every_chunk_once_on_the_workers(chunks, count):
    n = 10 * chunks * count
    kernel = affine_kernel(n)
    x, out = RNG.standard_normal(n).astype(np.float32), np.full(n, np.nan, np.float32)
    run_in_chunks(kernel, x, out, chunks, count)
    np.testing.assert_array_equal(out, x * np.float32(2) + np.float32(1))


def test_a_worker_that_went_to_sleep_wakes_for_the_next_job(monkeypatch):
    kernel = affine_kernel(20)
    x = RNG.standard_normal(20).astype(np.float32)
    run_in_chunks(kernel, x, np.empty(20, np.float32), 2)
    worker = workers.workers(1)[0]
    deadline = time.monotonic() + 5
    while not worker.sleeping and time.monotonic() < deadline:  # idle for longer than its spin
        time.sleep(0.01)
    assert worker.sleeping
    out = np.full(20, np.nan, np.float32)
    run_in_chunks(kernel, x, out, 2)
    np.testing.assert_array_equal(out, x * np.float32(2) + np.float32(1))


def test_callers_on_two_threads_take_turns_with_the_workers():
    kernel = affine_kernel(40)
    x = RNG.standard_normal(40).astype(np.float32)
    outs = [np.full(40, np.nan, np.float32) for _ in range(2)]

    def caller(out):
        for _ in range(200):
            out[:] = np.nan
            run_in_chunks(kernel, x, out, 4)
            np.testing.assert_array_equal(out, x * np.float32(2) + np.float32(1))

    with ThreadPoolExecutor(2) as pool:
        for future in [pool.submit(caller, out) for out in outs]:
            future.result()


def test_a_job_takes_at_most_max_args():
    with pytest.raises(ValueError, match="at most"):
        workers.Job(0, [0] * (workers.MAX_ARGS + 1))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_starts_its_own_workers():
    kernel = affine_kernel(20)
    x = RNG.standard_normal(20).astype(np.float32)
    run_in_chunks(kernel, x, np.empty(20, np.float32), 2)  # the parent's workers exist
    pid = os.fork()
    if pid == 0:  # the child: the parent's threads are gone; run_jobs must not wait for them
        out = np.full(20, np.nan, np.float32)
        run_in_chunks(kernel, x, out, 2)
        os._exit(0 if np.array_equal(out, x * np.float32(2) + np.float32(1)) else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


# ---- sgemm jobs ----------------------------------------------------------------------------------

needs_sgemm = pytest.mark.skipif(not blas.sgemm_address(), reason="scipy-openblas32 is not installed")


def stored(shape, layout):
    """A float32 matrix of `shape` stored row-major, column-major or as a strided slice of a bigger one."""
    if layout == "row":
        return RNG.standard_normal(shape).astype(np.float32)
    if layout == "column":
        return np.asfortranarray(RNG.standard_normal(shape).astype(np.float32))
    return RNG.standard_normal((shape[0] + 3, shape[1] + 5)).astype(np.float32)[2:2 + shape[0], 1:1 + shape[1]]


@pytest.mark.parametrize("layout_a", ["row", "column", "slice"])
@pytest.mark.parametrize("layout_b", ["row", "column", "slice"])
@pytest.mark.parametrize("m,k,n", [(37, 19, 23), (1, 8, 5), (6, 1, 4), (5, 7, 1)])
@needs_sgemm
def test_sgemm_jobs_match_numpy_for_every_layout(layout_a, layout_b, m, k, n):
    a, b = stored((m, k), layout_a), stored((k, n), layout_b)
    out = np.full((m, n), np.nan, np.float32)
    jobs = blas.matmul_jobs(a, b, out, 3)
    assert jobs is not None
    workers.run_jobs(jobs)
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("broadcast_a", [False, True])
@needs_sgemm
def test_batched_sgemm_jobs_step_through_the_batch(broadcast_a):
    a = RNG.standard_normal((1 if broadcast_a else 5, 9, 6)).astype(np.float32)
    a = np.broadcast_to(a, (5, 9, 6))  # batch stride 0: every product reads the same matrix
    b = RNG.standard_normal((5, 11, 6)).astype(np.float32).swapaxes(1, 2)  # column-major matrices
    out = np.full((5, 9, 11), np.nan, np.float32)
    workers.run_jobs(blas.matmul_jobs(a, b, out, 2))
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)


def test_layouts_blas_cannot_take_have_no_form_and_fall_back_to_numpy(monkeypatch):
    a = RNG.standard_normal((40, 30)).astype(np.float32)
    assert blas.column_major_form(a) == ("N", 30)
    assert blas.column_major_form(a.T) == ("T", 30)
    assert blas.column_major_form(a[::-1]) is None  # negative stride
    assert blas.column_major_form(a[:, ::2]) is None  # neither stride is 1
    assert blas.matmul_jobs(a[::-1], a.T, np.empty((40, 40), np.float32), 2) is None
    monkeypatch.setattr(blas, "MM_JOB_MIN_FLOPS", 1)
    monkeypatch.setattr(config, "threads", 2)
    out = np.empty((40, 40), np.float32)
    wrapper.extern_mm(a[::-1], a.T, out)
    np.testing.assert_allclose(out, a[::-1] @ a.T, rtol=1e-5, atol=1e-5)


@needs_sgemm
@pytest.mark.parametrize("threads", [1, 2])
def test_extern_mm_makes_large_float32_products_sgemm_jobs_one_per_thread(threads, monkeypatch):
    ran, run_jobs = [], workers.run_jobs
    monkeypatch.setattr(workers, "run_jobs", lambda jobs: ran.append(len(jobs)) or run_jobs(jobs))
    monkeypatch.setattr(config, "threads", threads)
    a, b = RNG.standard_normal((256, 128)).astype(np.float32), RNG.standard_normal((128, 160)).astype(np.float32)
    out = np.empty((256, 160), np.float32)
    wrapper.extern_mm(a, b, out)
    assert ran == [threads]
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)
    wrapper.extern_mm(a.astype(np.float64), b.astype(np.float64), out.astype(np.float64))  # not float32: numpy
    assert ran == [threads]


@needs_sgemm
def test_our_openblas_loads_at_one_thread_with_the_kernels_asked_for():
    """Whatever the environment says (a thread per core, the default), our OpenBLAS runs one thread per job,
    and the environment is left as it was; MINITORCH2_BLAS_CORETYPE picks its kernels."""
    import subprocess
    import sys

    program = ("import ctypes, os\n"
               "from backend.speed import blas\n"
               "library = blas.load_openblas()\n"
               "library.scipy_openblas_get_corename.restype = ctypes.c_char_p\n"
               "print(library.scipy_openblas_get_num_threads(), os.environ['OPENBLAS_NUM_THREADS'],\n"
               "      library.scipy_openblas_get_corename().decode(), 'OPENBLAS_CORETYPE' in os.environ)\n")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="2", MINITORCH2_BLAS_CORETYPE="Haswell")
    env.pop("OPENBLAS_CORETYPE", None)
    result = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True,
                            cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    threads, environment_threads, corename, coretype_left_set = result.stdout.split()
    assert (threads, environment_threads, coretype_left_set) == ("1", "2", "False")
    if llvm_jit.host().triple.startswith("x86_64"):
        assert corename == "Haswell"
