"""Frontend speed: our pure-Python Dynamo against torch._dynamo, side by side in one run.

    python benchmarks/frontend.py [--quick]

Two questions (issue 7's targets in brackets):
  1. steady-state per-call overhead: a compiled 3-input function on 4-element tensors
     with backend "eager", against calling the same function uncompiled, for
     minitorch2.compile and torch.compile; overhead = compiled - uncompiled
     [ours no more than Dynamo's];
  2. first-call capture time: the first call of minitorch2.compile(model,
     backend="eager") on the MLP 784-512-512-10 and on the transformer block of
     examples/transformer_block.py, against torch.compile(backend="eager")'s first
     call after torch._dynamo.reset(); capture = first call - an uncompiled call
     [ours at most a tenth of Dynamo's].
Both compilers are warmed up on an unrelated function first, so one-time imports
are not counted. Results are printed as Markdown tables for benchmarks/RESULTS.md.
"""
import os
import statistics
import sys
import time
import timeit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# This file is named frontend.py, like the package it measures: drop its own folder from the import path.
sys.path = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.join(ROOT, "benchmarks")]
sys.path.insert(0, ROOT)

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch._dynamo  # noqa: E402
import torch._dynamo.testing  # noqa: E402

import frontend  # noqa: E402
import frontend.testing  # noqa: E402
import minitorch2  # noqa: E402
from benchmarks.models import transformer_classes  # noqa: E402


def three_input(x, y, z):
    return (x + y) * z - x


def _best_per_call(fn, number, repeat=5):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def per_call_overhead(number, rounds=7):
    """Rows (compiler, uncompiled µs, compiled µs, overhead µs). The four callables are timed in
    interleaved rounds, best round each, so a load spike on the shared machine hits all of them alike."""
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(4).astype(np.float32) for _ in range(3)]
    minitorch2_args = [minitorch2.from_numpy(a.copy()) for a in arrays]
    torch_args = [torch.from_numpy(a.copy()) for a in arrays]
    frontend.reset()
    torch._dynamo.reset()
    ours = minitorch2.compile(three_input, backend="eager")
    theirs = torch.compile(three_input, backend="eager")
    candidates = {
        "ours compiled": lambda: ours(*minitorch2_args),
        "ours plain": lambda: three_input(*minitorch2_args),
        "torch compiled": lambda: theirs(*torch_args),
        "torch plain": lambda: three_input(*torch_args),
    }
    for fn in candidates.values():
        fn()
        fn()
    best = {name: float("inf") for name in candidates}
    for _ in range(rounds):
        for name, fn in candidates.items():
            best[name] = min(best[name], timeit.timeit(fn, number=number) / number)
    frontend.reset()
    torch._dynamo.reset()
    return [(label, best[f"{key} plain"] * 1e6, best[f"{key} compiled"] * 1e6,
             (best[f"{key} compiled"] - best[f"{key} plain"]) * 1e6)
            for label, key in (("minitorch2.compile", "ours"), ("torch.compile", "torch"))]


def _mlp(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(784, 512), lib.nn.ReLU(), lib.nn.Linear(512, 512), lib.nn.ReLU(),
                              lib.nn.Linear(512, 10))
    return model, (lib.randn(64, 784),)


def _transformer_block(lib):
    lib.manual_seed(0)
    return transformer_classes(lib)["Block"](128, 4), (lib.randn(4, 64, 128),)


def _warm_up():
    for lib, reset in ((minitorch2, frontend.reset), (torch, torch._dynamo.reset)):
        reset()
        lib.compile(lambda a: a.relu() + 1, backend="eager")(lib.ones(3))
        reset()


def first_call(make, lib, counter_cls, reset, repeat):
    """(median first-call seconds, uncompiled-call seconds, graphs captured) for compile(model, backend="eager").

    The baseline is the uncompiled call (what backend "eager" runs once the graph is captured), not a
    second compiled call, so the number does not depend on the cache-hit path.
    """
    firsts, graphs = [], None
    for _ in range(repeat):
        model, inputs = make(lib)
        reset()
        counter = counter_cls("eager")
        compiled = lib.compile(model, backend=counter)
        with lib.no_grad():
            start = time.perf_counter()
            compiled(*inputs)
            firsts.append(time.perf_counter() - start)
            plain = _best_per_call(lambda: model(*inputs), 1, 3)
        graphs = counter.frame_count
        reset()
    return statistics.median(firsts), plain, graphs


def capture_times(repeat):
    _warm_up()
    rows = []
    for name, make in (("MLP 784-512-512-10, batch 64", _mlp),
                       ("transformer block (dim 128, 4 heads, 4x64 tokens)", _transformer_block)):
        ours = first_call(make, minitorch2, frontend.testing.CompileCounterWithBackend, frontend.reset, repeat)
        theirs = first_call(make, torch, torch._dynamo.testing.CompileCounterWithBackend, torch._dynamo.reset,
                            repeat)
        rows.append((name, ours, theirs))
    return rows


def main():
    quick = "--quick" in sys.argv
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, one thread for torch and numpy's BLAS, load average "
          f"{os.getloadavg()[0]:.1f}\n")
    print("### Per-call overhead, 3-input function on 4-element tensors, backend \"eager\" (µs per call)\n")
    print("| compiler | uncompiled call | compiled call | overhead (compiled - uncompiled) |")
    print("| --- | ---: | ---: | ---: |")
    rows = per_call_overhead(300 if quick else 2000)
    for name, plain, compiled, overhead in rows:
        print(f"| {name} | {plain:.1f} | {compiled:.1f} | {overhead:.1f} |")
    ours, theirs = rows[0][3], rows[1][3]
    print(f"\nOverhead ours / Dynamo's: {ours / theirs:.2f}x (target: at most 1x): "
          f"{'met' if ours <= theirs else 'not met'}\n")
    print("### First-call capture time, backend \"eager\", inference (ms; median of "
          f"{2 if quick else 5} fresh compiles)\n")
    print("| model | ours first call | uncompiled call | ours capture | graphs (ours) | Dynamo first call | "
          "torch uncompiled call | Dynamo capture | graphs (Dynamo) | capture ours / Dynamo |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, (o_first, o_steady, o_graphs), (t_first, t_steady, t_graphs) in capture_times(2 if quick else 5):
        o_capture, t_capture = o_first - o_steady, t_first - t_steady
        print(f"| {name} | {o_first * 1e3:.1f} | {o_steady * 1e3:.1f} | {o_capture * 1e3:.1f} | {o_graphs} | "
              f"{t_first * 1e3:.1f} | {t_steady * 1e3:.1f} | {t_capture * 1e3:.1f} | {t_graphs} | "
              f"{o_capture / t_capture:.3f}x |")
    print("\nTarget for capture: at most 0.1x Dynamo's.")


if __name__ == "__main__":
    main()
