"""The Inductor-like backend's speed, side by side with minitorch2 eager, numpy, torch eager and torch.compile.

    python benchmarks/inductor.py [--quick] [--threads 1,2] [--only NAME[,NAME...]]
    python benchmarks/inductor.py --compile-times [--only NAME[,NAME...]]

Every workload runs in one process against every competitor, at each thread
count (torch.set_num_threads and backend.config.threads; numpy's BLAS stays
at one thread), so the ratios are like for like even when another process
takes a core; the competitors' calls are interleaved in rounds (see measure),
so a slow stretch of the machine does not fall on one of them alone. For each
workload it reports the steady-state time per call (the best round),
the speed-up of minitorch2's compiled code over each competitor and, for
memory-bound work, the fraction of the machine's memory bandwidth, measured
in the same run, at the same thread count, as the best of numpy copies of a
64 MiB array (read + write; at 2 threads each thread copies half).
First-call compile time is the first compiled call minus a steady-state call,
cold: both compilers start from empty on-disk caches (temporary folders).
`--compile-times` measures cold and warm (a second process reusing the first's
caches: our kernel objects and compiled graphs, torch's FX graph cache) in
fresh processes at one thread.

Workloads (the issue's list):
  chain5, chain10      pointwise chains over 2^24 float32 elements (with gelu)
  softmax, layernorm   (4096, 1024) float32, forward and backward
  mlp                  the training step of 784-512-512-10 at batch 256 (SGD; model + loss compiled)
  transformer          the training step of examples/transformer_block.py's TinyLM (AdamW)
"""
import argparse
import os
import sys
import time

# run as a script, sys.path[0] is benchmarks/, whose frontend.py would shadow the frontend package
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path = [_ROOT] + [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # numpy's BLAS at one thread: torch's threads are set per run below
if "--warm" not in sys.argv and "--child" not in sys.argv:
    # cold compiles: both compilers get empty on-disk caches (torch: FX graph / AOT autograd caches; ours:
    # kernel objects and compiled graphs), set before either is imported
    import tempfile
    _COLD = tempfile.mkdtemp(prefix="minitorch2-bench-")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(_COLD, "torchinductor")
    os.environ["MINITORCH2_CACHE_DIR"] = os.path.join(_COLD, "kernels")
    os.environ["MINITORCH2_GRAPH_CACHE_DIR"] = os.path.join(_COLD, "graphs")

import numpy as np  # noqa: E402
import torch  # noqa: E402

import frontend  # noqa: E402
import minitorch2  # noqa: E402
from backend import config as backend_config  # noqa: E402
from benchmarks.models import transformer_classes  # noqa: E402

N_CHAIN = 1 << 24
ROWS, COLS = 4096, 1024


def _best(fn, repeat, number=1):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def memory_bandwidth(threads):
    """Bytes per second of the best numpy copy of 64 MiB (counting the read and the write), split over
    `threads` threads (numpy copies without the GIL): two cores draw more than one can."""
    from concurrent.futures import ThreadPoolExecutor
    src = np.ones(1 << 24, dtype=np.float32)
    dst = np.empty_like(src)
    parts = list(zip(np.array_split(dst, threads), np.array_split(src, threads)))
    with ThreadPoolExecutor(threads) as pool:
        def copy():
            for done in [pool.submit(np.copyto, *part) for part in parts]:
                done.result()
        seconds = _best(copy if threads > 1 else (lambda: np.copyto(dst, src)), repeat=10)
    return 2 * src.nbytes / seconds


# ---- workloads: each builds (step, bytes_moved) for one library ------------------------------


def chain5(lib, x):
    return lib.nn.functional.gelu(x * 2.0 - 1.0) * x + 3.0


def chain10(lib, x):
    y = lib.nn.functional.gelu(x * 2.0 - 1.0) * x + 3.0
    return lib.tanh(y * 0.5).exp() * 0.25 - x.sigmoid()


def chain5_numpy(x):
    from scipy.special import erf
    y = x * np.float32(2.0) - np.float32(1.0)
    return (y * np.float32(0.5) * (np.float32(1.0) + erf(y * np.float32(0.7071067811865476)))) * x + np.float32(3.0)


def chain10_numpy(x):
    y = chain5_numpy(x)
    sig = np.float32(1.0) / (np.float32(1.0) + np.exp(-x))
    return np.exp(np.tanh(y * np.float32(0.5))) * np.float32(0.25) - sig


def _pointwise(lib, fn, compiled):
    x = lib.from_numpy(np.random.default_rng(0).standard_normal(N_CHAIN).astype(np.float32))
    body = (lambda x: fn(lib, x))
    f = compiled(body) if compiled else body
    return lambda: f(x)


def _softmax_fwd_bwd(lib, compiled):
    x = lib.from_numpy(np.random.default_rng(0).standard_normal((ROWS, COLS)).astype(np.float32)).requires_grad_()
    grad = lib.from_numpy(np.random.default_rng(1).standard_normal((ROWS, COLS)).astype(np.float32))
    body = lambda x: lib.softmax(x, dim=-1)  # noqa: E731
    f = compiled(body) if compiled else body

    def step():
        x.grad = None
        f(x).backward(grad)
    return step


def _layernorm_fwd_bwd(lib, compiled):
    rng = np.random.default_rng(0)
    x = lib.from_numpy(rng.standard_normal((ROWS, COLS)).astype(np.float32)).requires_grad_()
    grad = lib.from_numpy(rng.standard_normal((ROWS, COLS)).astype(np.float32))
    lib.manual_seed(0)
    norm = lib.nn.LayerNorm(COLS)
    f = compiled(norm) if compiled else norm

    def step():
        x.grad = None
        norm.zero_grad()
        f(x).backward(grad)
    return step


def _mlp(lib, compiled):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(784, 512), lib.nn.ReLU(), lib.nn.Linear(512, 512), lib.nn.ReLU(),
                              lib.nn.Linear(512, 10))
    optimizer = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, y = lib.randn(256, 784), lib.randint(0, 10, (256,))

    def model_loss(x, y):  # the model and its loss compile together (the optimizer step stays eager)
        return lib.nn.functional.cross_entropy(model(x), y)
    loss_of = compiled(model_loss) if compiled else model_loss

    def step():
        optimizer.zero_grad()
        loss_of(x, y).backward()
        optimizer.step()
    return step


def _transformer(lib, compiled):
    lib.manual_seed(0)
    model = transformer_classes(lib)["TinyLM"](vocab=256, dim=128, heads=4, length=64)
    optimizer = lib.optim.AdamW(model.parameters(), lr=1e-3)
    tokens = lib.randint(0, 256, (16, 65))
    inputs, targets = tokens[:, :-1], tokens[:, 1:]
    forward = compiled(model) if compiled else model

    def step():
        optimizer.zero_grad()
        logits = forward(inputs)
        loss = lib.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
        loss.backward()
        optimizer.step()
    return step


# name -> (make(lib, compiled) -> step, numpy step or None, ideal bytes moved or None, rounds)
WORKLOADS = {
    "chain5": (lambda lib, c: _pointwise(lib, chain5, c), chain5_numpy, 2 * 4 * N_CHAIN, 5),
    "chain10": (lambda lib, c: _pointwise(lib, chain10, c), chain10_numpy, 2 * 4 * N_CHAIN, 5),
    "softmax": (_softmax_fwd_bwd, None, 5 * 4 * ROWS * COLS, 10),  # fwd: read x, write y; bwd: read y, g, write dx
    "layernorm": (_layernorm_fwd_bwd, None, 5 * 4 * ROWS * COLS, 10),
    "mlp": (_mlp, None, None, 30),  # short steps on a noisy VM: many rounds, so each competitor's best is real
    "transformer": (_transformer, None, None, 20),
}


def _compilers():
    def ours(fn):
        return minitorch2.compile(fn, backend="inductor")

    def theirs(fn):
        return torch.compile(fn, backend="inductor")

    return ours, theirs


def measure(name, threads, quick):
    """Steady-state seconds per call of each competitor, measured in interleaved rounds: every round
    times one call of each competitor in turn, after one untimed call that brings its own data back
    into cache (as back-to-back steps of a training loop find it). A slow stretch of the machine (a
    neighbour taking the core) then costs every competitor a round, not one competitor its whole
    measurement. Reported: the best round of each."""
    make, numpy_step, nbytes, repeat = WORKLOADS[name]
    repeat = 2 if quick else repeat
    ours_compile, torch_compile = _compilers()
    torch.set_num_threads(threads)
    backend_config.threads = threads
    torch._dynamo.reset()
    frontend.reset()
    steps, first_calls = {}, {}
    for label, lib, compiler in (("ours eager", minitorch2, None), ("ours compiled", minitorch2, ours_compile),
                                 ("torch eager", torch, None), ("torch.compile", torch, torch_compile)):
        steps[label] = step = make(lib, compiler)
        start = time.perf_counter()
        step()
        if compiler is not None:
            first_calls[label] = time.perf_counter() - start
    if numpy_step is not None:
        x = np.random.default_rng(0).standard_normal(N_CHAIN).astype(np.float32)
        steps["numpy"] = lambda: numpy_step(x)
    rounds = {label: [] for label in steps}
    for _ in range(repeat):
        for label, step in steps.items():
            step()
            rounds[label].append(_best(step, 1))
    row = {label: min(times) for label, times in rounds.items()}
    row.update({label + " first call": max(first - row[label], 0.0) for label, first in first_calls.items()})
    row["bytes"] = nbytes
    return row


def first_call_child(name, library):
    """In a fresh process: the first compiled call of one workload minus a steady-state call."""
    torch.set_num_threads(1)
    backend_config.threads = 1
    ours, theirs = _compilers()
    step = WORKLOADS[name][0](minitorch2 if library == "ours" else torch, ours if library == "ours" else theirs)
    start = time.perf_counter()
    step()
    first = time.perf_counter() - start
    print(max(first - _best(step, 3), 0.0))


def compile_times(names):
    """Cold and warm first-call compile times, each compiler in fresh processes: the first with empty
    caches (cold), the second reusing what the first left on disk (warm)."""
    import subprocess
    import tempfile

    print("### first-call compile time, 1 thread (s; cold: empty caches, warm: a second process)\n")
    print("| workload | ours cold | ours warm | torch.compile cold | torch.compile warm | cold ratio | warm ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in names:
        times = {}
        for library in ("ours", "torch"):
            folder = tempfile.mkdtemp(prefix="minitorch2-bench-")
            env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(folder, "torchinductor"),
                       MINITORCH2_CACHE_DIR=os.path.join(folder, "kernels"),
                       MINITORCH2_GRAPH_CACHE_DIR=os.path.join(folder, "graphs"))
            for run in ("cold", "warm"):
                out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", name, library, "--warm"],
                                     env=env, capture_output=True, text=True, check=True).stdout
                times[library, run] = float(out.split()[-1])
        print(f"| {name} | {times['ours', 'cold']:.2f} | {times['ours', 'warm']:.2f} | {times['torch', 'cold']:.2f} "
              f"| {times['torch', 'warm']:.2f} | {times['torch', 'cold'] / times['ours', 'cold']:.0f}x "
              f"| {times['torch', 'warm'] / times['ours', 'warm']:.0f}x |", flush=True)
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}")
    parser.add_argument("--only", default=",".join(WORKLOADS))
    parser.add_argument("--compile-times", action="store_true",
                        help="only measure cold and warm first-call compile times, in fresh processes")
    parser.add_argument("--warm", action="store_true", help=argparse.SUPPRESS)  # keep the caches the env names
    parser.add_argument("--child", nargs=2, metavar=("WORKLOAD", "LIBRARY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return first_call_child(*args.child)
    if args.compile_times:
        return compile_times(args.only.split(","))
    print(f"torch {torch.__version__}, numpy {np.__version__}, {os.cpu_count()} cores\n")
    for threads in sorted({int(t) for t in args.threads.split(",")}):
        bandwidth = memory_bandwidth(threads)
        print(f"### {threads} thread{'s' if threads > 1 else ''} (ms per call; speed-up = their time / ours; "
              f"copy bandwidth at {threads} thread{'s' if threads > 1 else ''}: {bandwidth / 1e9:.1f} GB/s)\n")
        print("| workload | ours compiled | ours eager | numpy | torch eager | torch.compile "
              "| vs ours eager | vs torch eager | vs torch.compile | bandwidth | compile ours | compile torch |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name in args.only.split(","):
            r = measure(name, threads, args.quick)
            ours = r["ours compiled"]
            numpy_ms = f"{r['numpy'] * 1e3:.1f}" if "numpy" in r else "-"
            fraction = f"{r['bytes'] / ours / bandwidth:.0%}" if r["bytes"] else "-"
            print(f"| {name} | {ours * 1e3:.1f} | {r['ours eager'] * 1e3:.1f} | {numpy_ms} | "
                  f"{r['torch eager'] * 1e3:.1f} | {r['torch.compile'] * 1e3:.1f} | "
                  f"{r['ours eager'] / ours:.2f}x | {r['torch eager'] / ours:.2f}x | {r['torch.compile'] / ours:.2f}x | "
                  f"{fraction} | {r['ours compiled first call']:.2f} s | {r['torch.compile first call']:.2f} s |",
                  flush=True)
        print()


if __name__ == "__main__":
    main()
