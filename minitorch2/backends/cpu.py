"""torch.backends.cpu: the instruction set ATen's CPU kernels dispatch to on this machine, as torch reports it.

Runtime library surface (see backends/__init__.py). minitorch2's kernels are numpy's and LLVM's, but a few of ATen's
vectorised loops give bits that depend on the instruction set (the float gelu loop, _aten/pointwise_unary.py); ours
follow this answer, so that both agree on one machine. As ATen's: ATEN_CPU_CAPABILITY (default, avx2, avx512) when
set, else AVX512 where the CPU has avx512vl, avx512bw, avx512dq and fma, AVX2 where it has avx2 and fma, else
DEFAULT.
"""
import functools
import os


@functools.cache
def get_cpu_capability():
    chosen = os.environ.get("ATEN_CPU_CAPABILITY", "").upper()
    if chosen in ("DEFAULT", "AVX2", "AVX512"):
        return chosen
    flags = _cpu_flags()
    if {"avx512vl", "avx512bw", "avx512dq", "fma"} <= flags:
        return "AVX512"
    return "AVX2" if {"avx2", "fma"} <= flags else "DEFAULT"


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            return next((set(line.split(":", 1)[1].split()) for line in cpuinfo if line.startswith("flags")), set())
    except OSError:  # (not Linux)
        return set()
