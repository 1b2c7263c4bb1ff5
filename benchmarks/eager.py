"""Eager-mode speed of the minitorch2 runtime, side by side with torch eager and numpy.

    python benchmarks/eager.py [--quick]

Two questions, measured in one run so the ratios are comparable:
  1. dispatch overhead: microseconds per call of add, mul, relu, sum on tiny
     (4-element) tensors, with and without requires_grad, against torch eager
     and raw numpy on the same data;
  2. throughput on large tensors (2^22 float32 elements): the same ops against
     numpy, where minitorch2 should cost little more than numpy's kernel.
Results are printed as a Markdown table for benchmarks/RESULTS.md.
"""
import sys
import timeit

import numpy as np
import torch

import minitorch2


def _best_per_call(fn, number, repeat=5):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


OPS = {
    "add": (lambda a, b: a + b, np.add),
    "mul": (lambda a, b: a * b, np.multiply),
    "relu": (lambda a, b: a.relu(), lambda a, b: np.maximum(a, 0)),
    "sum": (lambda a, b: a.sum(), lambda a, b: np.sum(a)),
}


def _inputs(n, requires_grad):
    rng = np.random.default_rng(0)
    a_np = rng.standard_normal(n).astype(np.float32)
    b_np = rng.standard_normal(n).astype(np.float32)
    ours = [minitorch2.from_numpy(a_np.copy()), minitorch2.from_numpy(b_np.copy())]
    theirs = [torch.from_numpy(a_np.copy()), torch.from_numpy(b_np.copy())]
    if requires_grad:
        for t in ours + theirs:
            t.requires_grad_(True)
    return a_np, b_np, ours, theirs


def dispatch_overhead(number):
    rows = []
    for requires_grad in (False, True):
        a_np, b_np, ours, theirs = _inputs(4, requires_grad)
        for name, (tensor_fn, numpy_fn) in OPS.items():
            t_ours = _best_per_call(lambda: tensor_fn(*ours), number)
            t_torch = _best_per_call(lambda: tensor_fn(*theirs), number)
            t_numpy = _best_per_call(lambda: numpy_fn(a_np, b_np), number)
            rows.append((name, requires_grad, t_ours * 1e6, t_torch * 1e6, t_numpy * 1e6))
    return rows


def throughput(n, number):
    rows = []
    a_np, b_np, ours, theirs = _inputs(n, False)
    for name, (tensor_fn, numpy_fn) in OPS.items():
        t_ours = _best_per_call(lambda: tensor_fn(*ours), number)
        t_torch = _best_per_call(lambda: tensor_fn(*theirs), number)
        t_numpy = _best_per_call(lambda: numpy_fn(a_np, b_np), number)
        rows.append((name, t_ours * 1e3, t_torch * 1e3, t_numpy * 1e3))
    return rows


def main():
    quick = "--quick" in sys.argv
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, numpy {np.__version__}, torch threads: 1\n")
    print("### Dispatch overhead, 4-element float32 tensors (µs per call)\n")
    print("| op | requires_grad | minitorch2 | torch eager | numpy | minitorch2 / torch | minitorch2 / numpy |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for name, rg, ours, theirs, raw in dispatch_overhead(200 if quick else 2000):
        print(f"| {name} | {rg} | {ours:.1f} | {theirs:.1f} | {raw:.1f} | {ours / theirs:.1f}x | {ours / raw:.1f}x |")
    n = 1 << 22
    print(f"\n### Throughput, {n} float32 elements (ms per call)\n")
    print("| op | minitorch2 | torch eager (1 thread) | numpy | minitorch2 / numpy |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, ours, theirs, raw in throughput(n, 3 if quick else 10):
        print(f"| {name} | {ours:.2f} | {theirs:.2f} | {raw:.2f} | {ours / raw:.2f}x |")


if __name__ == "__main__":
    main()
