"""The LLVM code generator alone: transcendental kernels vs numpy and torch eager, and compile times.

    python benchmarks/llvm_kernels.py [--log2n 24] [--threads 1,2] [--skip-compile] [--torch-compile]
                                      [--crossover]

For 2^log2n float32 elements it prints ns/element for numpy's copy (the
memory-bandwidth floor: a pointwise kernel reads and writes each element
once, as a copy does), then for exp, tanh, erf, sigmoid and erf-GELU: our
kernel (hand-built loop IR, compiled by backend/codegen/llvm.py), numpy
(scipy.special.erf for erf) and torch eager, at each thread count
(backend.config.threads and torch.set_num_threads; numpy has one thread).

Then compile times for a 10-op pointwise kernel, each in a fresh process:
cold (empty kernel cache: LLVM O3 + code generation) and warm (the same
kernel again in a second process: the object file comes from the disk
cache). With --torch-compile, torch.compile's first call on the same
10-op function, in a fresh process with its caches disabled, for scale.
With --crossover, the time of a cheap kernel (x * 2 + 1) on one thread and on
config.threads threads for growing sizes, ignoring speed/parallel.PARALLEL_MIN_WORK: where
threads start to pay is what that threshold should be.
"""
import argparse
import dataclasses
import os
import subprocess
import sys
import tempfile
import textwrap
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import scipy.special  # noqa: E402
import torch  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from backend import config  # noqa: E402
from backend import loop_ir as L  # noqa: E402
from backend.codegen import llvm as codegen  # noqa: E402
from backend.codegen.llvm_emit import kernel_error  # noqa: E402
from backend.speed import parallel  # noqa: E402
from minitorch2 import _dtype as dt  # noqa: E402

X0 = L.Var("x0")


def f32(name, *args):
    return L.Op(name, args, dt.float32)


def gelu(x):
    half = f32("mul", x, L.Constant(0.5, dt.float32))
    return f32("mul", half, f32("add", L.Constant(1.0, dt.float32),
                                 f32("erf", f32("mul", x, L.Constant(0.7071067811865476, dt.float32)))))


EXPRESSIONS = {
    "exp": lambda x: f32("exp", x), "tanh": lambda x: f32("tanh", x), "erf": lambda x: f32("erf", x),
    "sigmoid": lambda x: f32("sigmoid", x), "gelu": gelu,
}
NUMPY = {
    "exp": lambda x, out: np.exp(x, out=out), "tanh": lambda x, out: np.tanh(x, out=out),
    "erf": lambda x, out: scipy.special.erf(x, out=out), "sigmoid": lambda x, out: scipy.special.expit(x, out=out),
    "gelu": lambda x, out: np.multiply(x * 0.5, 1 + scipy.special.erf(x * np.float32(0.7071067811865476)), out=out),
}
TORCH = {
    "exp": lambda x, out: torch.exp(x, out=out), "tanh": lambda x, out: torch.tanh(x, out=out),
    "erf": lambda x, out: torch.erf(x, out=out), "sigmoid": lambda x, out: torch.sigmoid(x, out=out),
    "gelu": lambda x, out: out.copy_(torch.nn.functional.gelu(x)),
}


def pointwise_kernel(name, expression, n):
    args = [L.KernelArg("in_ptr0", "x", dt.float32, n, "in"), L.KernelArg("out_ptr0", "y", dt.float32, n, "out")]
    store = L.Store("out_ptr0", X0, expression(L.Load("in_ptr0", X0, dt.float32)))
    return L.Kernel(name, args, L.Loop(("x0",), (n,), [store]))


def best_ns_per_element(fn, n, repeats=5):
    fn()
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return min(times) / n * 1e9


def run_kernels(n, thread_counts):
    x = np.random.default_rng(0).normal(0, 2, n).astype(np.float32)
    out = np.empty_like(x)
    tx, tout = torch.from_numpy(x), torch.from_numpy(out)
    copy = best_ns_per_element(lambda: np.copyto(out, x), n)
    print(f"n = 2^{n.bit_length() - 1} float32; numpy copy: {copy:.3f} ns/element "
          f"({8 / copy:.1f} GB/s read+write)")
    print(f"{'kernel':<9}{'threads':>8}{'ours':>9}{'numpy':>9}{'torch':>9}{'ours/copy':>11}"
          f"{'numpy/ours':>12}{'torch/ours':>12}   (ns/element)")
    for name, expression in EXPRESSIONS.items():
        kernel = codegen.compile_kernel(pointwise_kernel(f"bench_{name}", expression, n))
        numpy_time = best_ns_per_element(lambda: NUMPY[name](x, out), n)
        for threads in thread_counts:
            config.threads = threads
            torch.set_num_threads(threads)
            ours = best_ns_per_element(lambda: kernel.run(x.ctypes.data, out.ctypes.data), n)
            torch_time = best_ns_per_element(lambda: TORCH[name](tx, tout), n)
            print(f"{name:<9}{threads:>8}{ours:>9.3f}{numpy_time:>9.3f}{torch_time:>9.3f}{ours / copy:>11.2f}"
                  f"{numpy_time / ours:>12.1f}{torch_time / ours:>12.1f}")


COMPILE_SCRIPT = textwrap.dedent("""
    import sys, time
    import backend, minitorch2  # loaded before any kernel compiles in real use: not the code generator's cost
    began = time.perf_counter()
    from backend import config, loop_ir as L
    from backend.codegen import llvm as codegen
    from minitorch2 import _dtype as dt
    imported = time.perf_counter()
    config.kernel_cache_dir = sys.argv[1]
    x0 = L.Var("x0")
    def op(name, *args):
        return L.Op(name, args, dt.float32)
    x = L.Load("in_ptr0", x0, dt.float32)
    c = L.Constant(0.5, dt.float32)
    value = op("add", op("mul", op("tanh", op("add", op("mul", x, c), c)), op("sigmoid", x)),
               op("exp", op("neg", op("abs", op("sub", x, op("erf", op("mul", x, c)))))))
    kernel = L.Kernel("chain10", [L.KernelArg("in_ptr0", "x", dt.float32, 1 << 20, "in"),
                                  L.KernelArg("out_ptr0", "y", dt.float32, 1 << 20, "out")],
                      L.Loop(("x0",), (1 << 20,), [L.Store("out_ptr0", x0, value)]))
    compiled = codegen.compile_kernel(kernel)
    done = time.perf_counter()
    print(compiled.source, imported - began, done - imported)
""")

TORCH_COMPILE_SCRIPT = textwrap.dedent("""
    import time, torch
    def chain(x):
        y = torch.tanh(x * 0.5 + 0.5) * torch.sigmoid(x)
        return y + torch.exp(-torch.abs(x - torch.erf(x * 0.5)))
    x = torch.randn(1 << 20)
    began = time.perf_counter()
    torch.compile(chain)(x)
    print(time.perf_counter() - began)
""")


def measure_compile_times(with_torch_compile):
    with tempfile.TemporaryDirectory() as cache_dir:
        # a second process also finds its modules' bytecode cached (kept out of the source tree)
        env = dict(os.environ, PYTHONPATH=ROOT, PYTHONPYCACHEPREFIX=os.path.join(cache_dir, "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for label in ("cold", "warm"):
            out = subprocess.run([sys.executable, "-c", COMPILE_SCRIPT, cache_dir], env=env, capture_output=True,
                                 text=True, check=True).stdout.split()
            print(f"10-op pointwise kernel, {label} process ({out[0]}): import of backend.codegen.llvm "
                  f"{float(out[1]) * 1e3:.0f} ms + compile_kernel {float(out[2]) * 1e3:.0f} ms")
    if with_torch_compile:
        env = dict(os.environ, TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")
        seconds = float(subprocess.run([sys.executable, "-c", TORCH_COMPILE_SCRIPT], env=env, capture_output=True,
                                       text=True, check=True).stdout.split()[-1])
        print(f"torch.compile first call on the same 10-op function (caches disabled): {seconds * 1e3:.0f} ms")


def measure_crossover(threads):
    compiled = codegen.compile_kernel(pointwise_kernel(
        "bench_axpb", lambda x: f32("add", f32("mul", x, L.Constant(2.0, dt.float32)), L.Constant(1.0, dt.float32)),
        1 << 22))
    x = np.ones(1 << 22, np.float32)
    out = np.empty_like(x)
    saved = parallel.PARALLEL_MIN_WORK
    print(f"{'elements':>10}{'1 thread us':>14}{f'{threads} threads us':>16}")
    for log2n in range(10, 23, 2):
        n = 1 << log2n
        # the same code over a prefix (the range is a runtime argument): a run for a kernel of range n
        prefix = dataclasses.replace(compiled.kernel, loop=dataclasses.replace(compiled.kernel.loop, ranges=(n,)))
        run = parallel.threaded_run(prefix, compiled._function, compiled._loaded, compiled.error_flags, kernel_error)
        timings = []
        for count, threshold in ((1, saved), (threads, 0)):
            config.threads, parallel.PARALLEL_MIN_WORK = count, threshold
            timings.append(best_ns_per_element(lambda: run(x.ctypes.data, out.ctypes.data), n, 20) * n / 1e3)
        print(f"{n:>10}{timings[0]:>14.1f}{timings[1]:>16.1f}")
    parallel.PARALLEL_MIN_WORK = saved


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--log2n", type=int, default=24)
    parser.add_argument("--threads", default=f"1,{config.threads}")
    parser.add_argument("--skip-compile", action="store_true")
    parser.add_argument("--torch-compile", action="store_true")
    parser.add_argument("--crossover", action="store_true")
    options = parser.parse_args()
    thread_counts = sorted({int(t) for t in options.threads.split(",")})
    if options.crossover:
        measure_crossover(max(thread_counts))
        return
    run_kernels(1 << options.log2n, thread_counts)
    if not options.skip_compile:
        measure_compile_times(options.torch_compile)


if __name__ == "__main__":
    main()
