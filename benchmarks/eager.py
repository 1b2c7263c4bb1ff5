"""Eager-mode speed of the minitorch2 runtime, side by side with torch eager and numpy.

    python benchmarks/eager.py [--quick]

Two questions, measured in one run so the ratios are comparable:
  1. dispatch overhead: microseconds per call of add, mul, relu, sum on tiny
     (4-element) tensors, with and without requires_grad, against torch eager
     and raw numpy on the same data;
  2. throughput on large tensors (2^22 float32 elements): the same ops against
     numpy, where minitorch2 should cost little more than numpy's kernel.
  3. training steps: the MLP 784-512-512-10 at batch 256 (SGD) and the
     transformer block of examples/transformer_block.py (AdamW), minitorch2
     eager against torch eager.
Results are printed as Markdown tables for benchmarks/RESULTS.md.
"""
import os
import sys
import timeit

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one thread for numpy's BLAS too, so the comparison is like for like

import numpy as np  # noqa: E402
import torch  # noqa: E402

import minitorch2  # noqa: E402
from models import transformer_classes  # noqa: E402


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


def _mlp_step(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(784, 512), lib.nn.ReLU(), lib.nn.Linear(512, 512), lib.nn.ReLU(),
                              lib.nn.Linear(512, 10))
    optimizer = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, y = lib.randn(256, 784), lib.randint(0, 10, (256,))

    def step():
        optimizer.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()

    return step


def _transformer_step(lib):
    lib.manual_seed(0)
    model = transformer_classes(lib)["TinyLM"](vocab=256, dim=128, heads=4, length=64)
    optimizer = lib.optim.AdamW(model.parameters(), lr=1e-3)
    tokens = lib.randint(0, 256, (16, 65))
    inputs, targets = tokens[:, :-1], tokens[:, 1:]

    def step():
        optimizer.zero_grad()
        logits = model(inputs)
        loss = lib.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
        loss.backward()
        optimizer.step()

    return step


def training_steps(number):
    rows = []
    for name, make in (("MLP 784-512-512-10, batch 256, SGD", _mlp_step),
                       ("transformer block (dim 128, 4 heads, 16x64 tokens), AdamW", _transformer_step)):
        ours, theirs = make(minitorch2), make(torch)
        ours()
        theirs()
        rows.append((name, _best_per_call(ours, number, 3) * 1e3, _best_per_call(theirs, number, 3) * 1e3))
    return rows


def main():
    quick = "--quick" in sys.argv
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, numpy {np.__version__}, one thread for torch and numpy's BLAS\n")
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
    print("\n### Training steps (ms per step)\n")
    print("| workload | minitorch2 eager | torch eager | minitorch2 / torch |")
    print("| --- | ---: | ---: | ---: |")
    for name, ours, theirs in training_steps(2 if quick else 5):
        print(f"| {name} | {ours:.1f} | {theirs:.1f} | {ours / theirs:.2f}x |")


if __name__ == "__main__":
    main()
