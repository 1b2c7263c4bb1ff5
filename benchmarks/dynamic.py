"""Kernels over symbolic sizes against kernels compiled for one size (issue 21 item 6).

    python benchmarks/dynamic.py [--quick] [--threads N] [--only NAME[,NAME...]]
    python benchmarks/dynamic.py --cache [--only NAME[,NAME...]]

For each workload, two compiled versions of the same program run side by side: `static`, compiled by
minitorch2.compile(fn) for the sizes of its first call (a new size recompiles), and `dynamic`, compiled by
minitorch2.compile(fn, dynamic=True) once for every size (the kernels take the sizes as arguments). Reported:
the steady-state time per call at the first size (the best round of interleaved rounds, as benchmarks/inductor.py
measures), its ratio dynamic / static, and the first call at a new size (the batch dimension changed): the static
version compiles again there, the dynamic one only runs.

With --cache: the first call of the dynamic version (trace, compile, run) in a fresh process with empty caches, then
in a second fresh process that finds the first one's graphs (over symbols) in the graph cache on disk.

Workloads (benchmarks/inductor.py's, the leading dimension being the one that changes):
  chain5        a pointwise chain with gelu over (8192, 2048) float32, then (6144, 2048)
  softmax       (4096, 1024) float32, forward and backward, then 3072 rows
  layernorm     (4096, 1024) float32, forward and backward, then 3072 rows
  mlp           the training step of 784-512-512-10 at batch 256 (SGD; model + loss compiled), then batch 192
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
import types

# run as a script, sys.path[0] is benchmarks/, whose frontend.py would shadow the frontend package
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path = [_ROOT] + [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
if "--first-call" not in sys.argv:  # (--cache's processes are handed their caches)
    _COLD = tempfile.mkdtemp(prefix="minitorch2-bench-")  # cold compiles: empty kernel and graph caches
    os.environ["MINITORCH2_CACHE_DIR"] = os.path.join(_COLD, "kernels")
    os.environ["MINITORCH2_GRAPH_CACHE_DIR"] = os.path.join(_COLD, "graphs")

import numpy as np  # noqa: E402

import frontend  # noqa: E402
import minitorch2 as lib  # noqa: E402
from backend import config as backend_config  # noqa: E402
from benchmarks.inductor import chain5  # noqa: E402

ROWS, COLS, NEW_ROWS = 4096, 1024, 3072


def _pointwise(fn, rows):
    x = lib.from_numpy(np.random.default_rng(0).standard_normal((2 * rows, 2048)).astype(np.float32))
    return lambda: fn(x)


def _fwd_bwd(fn, rows):
    rng = np.random.default_rng(0)
    x = lib.from_numpy(rng.standard_normal((rows, COLS)).astype(np.float32)).requires_grad_()
    grad = lib.from_numpy(rng.standard_normal((rows, COLS)).astype(np.float32))

    def step():
        x.grad = None
        fn(x).backward(grad)
    return step


def _mlp_model():
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(784, 512), lib.nn.ReLU(), lib.nn.Linear(512, 512), lib.nn.ReLU(),
                              lib.nn.Linear(512, 10))
    return model, lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


def _mlp_step(loss_of, model, optimizer, batch):
    x, y = lib.randn(batch, 784), lib.randint(0, 10, (batch,))

    def step():
        optimizer.zero_grad()
        loss_of(x, y).backward()
        optimizer.step()
    return step


def _own_code(fn, version):
    """fn with a code object of its own: the frontend caches compiled frames per code object, so the static and the
    dynamic version of one lambda would otherwise share (and guard) one cache entry."""
    code = fn.__code__.replace(co_name=f"{fn.__code__.co_name}_{version}")
    return types.FunctionType(code, fn.__globals__, code.co_name, fn.__defaults__, fn.__closure__)


def _workload(name, compile_fn, version):
    """(steps: rows -> a step of the compiled program at that leading size, rounds)."""
    if name == "chain5":
        fn = compile_fn(_own_code(lambda x: chain5(lib, x), version))
        return (lambda rows: _pointwise(fn, rows)), 10
    if name in ("softmax", "layernorm"):
        lib.manual_seed(0)
        norm = lib.nn.LayerNorm(COLS)
        body = (lambda x: lib.softmax(x, dim=-1)) if name == "softmax" else (lambda x: norm(x))
        fn = compile_fn(_own_code(body, version))
        return (lambda rows: _fwd_bwd(fn, rows)), 20
    model, optimizer = _mlp_model()
    loss_of = compile_fn(_own_code(lambda x, y: lib.nn.functional.cross_entropy(model(x), y), version))
    return (lambda rows: _mlp_step(loss_of, model, optimizer, rows // 16)), 30


def measure(name, quick):
    """{version: (seconds per call at ROWS, seconds of the first call at NEW_ROWS)}."""
    frontend.reset()
    versions = {"static": lambda fn: lib.compile(fn), "dynamic": lambda fn: lib.compile(fn, dynamic=True)}
    steps, rounds = {}, 0
    for version, compile_fn in versions.items():
        make_step, rounds = _workload(name, compile_fn, version)
        steps[version] = (make_step, make_step(ROWS))
        steps[version][1]()  # the first call compiles
    best = {version: float("inf") for version in versions}
    for _ in range(2 if quick else rounds):  # interleaved rounds: a slow stretch falls on both alike
        for version, (_, step) in steps.items():
            start = time.perf_counter()
            step()
            best[version] = min(best[version], time.perf_counter() - start)
    first_at_new_size = {}
    for version, (make_step, _) in steps.items():
        step = make_step(NEW_ROWS)
        start = time.perf_counter()
        step()
        first_at_new_size[version] = time.perf_counter() - start
    return {version: (best[version], first_at_new_size[version]) for version in versions}


def first_call(name):
    """Print the dynamic version's first call in seconds, and how many of its graphs came from the graph cache."""
    make_step, _ = _workload(name, lambda fn: lib.compile(fn, dynamic=True), "dynamic")
    start = time.perf_counter()
    make_step(ROWS)()
    from backend import metrics  # noqa: PLC0415 (the backend's record of the graphs compiled)
    print(time.perf_counter() - start, sum(graph.from_cache for graph in metrics.graphs), len(metrics.graphs))


def cache_table(names):
    print("first call of the dynamic version: a fresh process (empty caches), then a second one (graph cache filled)")
    print(f"{'workload':<11}{'cold s':>9}{'second process s':>18}{'graphs from cache':>19}")
    for name in names:
        caches = tempfile.mkdtemp(prefix="minitorch2-bench-")
        env = dict(os.environ, MINITORCH2_CACHE_DIR=os.path.join(caches, "kernels"),
                   MINITORCH2_GRAPH_CACHE_DIR=os.path.join(caches, "graphs"))
        runs = [subprocess.run([sys.executable, __file__, "--first-call", name], env=env, check=True,
                               capture_output=True, text=True).stdout.split() for _ in range(2)]
        (cold, _, _), (warm, hits, graphs) = runs
        print(f"{name:<11}{float(cold):>9.2f}{float(warm):>18.2f}{hits + '/' + graphs:>19}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two rounds per workload")
    parser.add_argument("--threads", type=int, default=backend_config.threads)
    parser.add_argument("--only", default="chain5,softmax,layernorm,mlp")
    parser.add_argument("--cache", action="store_true", help="the first call, cold and from the graph cache")
    parser.add_argument("--first-call", help=argparse.SUPPRESS)  # (one process of --cache)
    args = parser.parse_args()
    backend_config.threads = args.threads
    if args.first_call:
        return first_call(args.first_call)
    if args.cache:
        return cache_table(args.only.split(","))
    print(f"threads={args.threads}; ms per call at {ROWS} rows (best round), first call at {NEW_ROWS} rows")
    print(f"{'workload':<11}{'static ms':>11}{'dynamic ms':>12}{'dyn/static':>12}{'new size: static':>18}"
          f"{'dynamic':>10}")
    for name in args.only.split(","):
        result = measure(name, args.quick)
        (static, static_new), (dynamic, dynamic_new) = result["static"], result["dynamic"]
        print(f"{name:<11}{static * 1e3:>11.2f}{dynamic * 1e3:>12.2f}{dynamic / static:>12.2f}"
              f"{static_new * 1e3:>16.1f}ms{dynamic_new * 1e3:>8.1f}ms", flush=True)


if __name__ == "__main__":
    main()
