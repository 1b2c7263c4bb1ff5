"""The cost of one eager call on a small tensor (64x64 float32), where argument checks and operator wrappers show:
minitorch2 against torch eager, side by side. Run it in two checkouts to compare a change's overhead.

    python benchmarks/call_overhead.py
"""
import timeit

import minitorch2
import torch

CALLS = {
    "x + y": lambda lib, x, y: x + y, "x * 2.0": lambda lib, x, y: x * 2.0, "x.sum(0)": lambda lib, x, y: x.sum(0),
    "x.exp()": lambda lib, x, y: x.exp(), "x.clamp(0, 1)": lambda lib, x, y: x.clamp(0, 1),
    "zeros(3)": lambda lib, x, y: lib.zeros(3),
}


def best_microseconds(lib, call):
    x, y = lib.randn(64, 64), lib.randn(64, 64)
    return min(timeit.repeat(lambda: call(lib, x, y), number=2000, repeat=7)) / 2000 * 1e6


if __name__ == "__main__":
    print(f"{'call':14s} {'minitorch2':>11s} {'torch':>8s} {'ratio':>6s}")
    for label, call in CALLS.items():
        ours, theirs = best_microseconds(minitorch2, call), best_microseconds(torch, call)
        print(f"{label:14s} {ours:9.2f}us {theirs:6.2f}us {ours / theirs:6.1f}")
