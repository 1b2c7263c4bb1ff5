"""Probes of what users pass in (session 27), each against torch.compile.

- `n % k` and `n // k` of a size and an int argument under dynamic=True, k negative: Python's rounding (the
  remainder has the divisor's sign). The frontend decided `n % k >= 0` true without a guard (its Mod was taken as
  non-negative), a silently wrong branch; the LLVM kernels computed C's remainder and quotient (srem, sdiv).
- A Linear layer on one sample (batch 1, weight at most 16 x 16) under the inductor: torch's decomposes addmm into
  multiply and sum; ours kept the addmm.
- torch.nan_to_num under the inductor: each test recorded beside its where, -inf before +inf, as torch's.
- torch.roll under the inductor (a Swin block's shifted windows): torch's decomposes it into indexing at
  (start + i) mod size, and its partitioner recomputes the positions (prims.iota) in the backward; ours kept roll.
- Bilinear upsampling under the inductor: torch's gathers with _unsafe_index, converts its positions once, and
  copies the result only where the layout asks; ours gathered with index, converted twice and always cloned.
- A size read whose node nothing uses (`y.shape` sliced away) is dropped, as Dynamo's dead-code pass drops it.
"""
import pytest
import torch
from hypothesis import given, settings, strategies as st
import torch._dynamo
from torch._dynamo.testing import CompileCounter as TorchCounter

import frontend
import minitorch2
from frontend.testing import CompileCounter

from .test_graphs_s26 import _ours_and_torchs, recording_inductor


def _branch_on_remainder(lib, counter):
    @lib.compile(backend=counter, dynamic=True)
    def f(x, k: int):
        r = x.shape[0] % k
        if r >= 0:
            return x + r
        return x - 100
    return [f(lib.ones(5), k).tolist() for k in (3, 4, -3, -4, 7)]


def test_a_remainder_by_a_negative_int_argument_is_guarded_not_assumed_non_negative():
    frontend.reset()
    torch._dynamo.reset()
    ours, theirs = CompileCounter(), TorchCounter()
    assert _branch_on_remainder(minitorch2, ours) == _branch_on_remainder(torch, theirs)
    assert (ours.frame_count, ours.op_count) == (theirs.frame_count, theirs.op_count)
    assert ours.frame_count == 2  # (one graph for k > 0, one for k < 0: the sign is guarded)


def _size_arithmetic_in_kernels(lib):
    @lib.compile(dynamic=True)
    def g(x, k: int):
        n = x.shape[0]
        return (x.new_ones(1) * (n % k), x.new_ones(1) * (n // k), x.new_ones(2) * ((n - 2 * k) % 3),
                x.new_ones(1) * ((n * k) // 4))
    return [[t.tolist() for t in g(lib.ones(n), k)] for n, k in ((5, 2), (5, -3), (7, -2), (9, -4), (4, 5))]


def test_size_remainders_and_quotients_in_compiled_kernels_round_as_python():
    frontend.reset()
    torch._dynamo.reset()
    ours = _size_arithmetic_in_kernels(minitorch2)
    assert ours == _size_arithmetic_in_kernels(torch)
    assert ours[1] == [[-1.0], [-2.0], [2.0, 2.0], [-4.0]]  # 5 % -3, 5 // -3, (5 + 6) % 3, -15 // 4


SIZE_AND_INT_EXPRESSIONS = ["n % k", "n // k", "(n - 2 * k) % 3", "(n * k) // 4", "k % n", "-k // n", "(n + k) % k",
                            "(k - n) // (k * k)"]


@settings(max_examples=15)
@given(st.sampled_from(SIZE_AND_INT_EXPRESSIONS),
       st.lists(st.tuples(st.integers(1, 9), st.integers(-9, 9).filter(bool)), min_size=2, max_size=5))
def test_size_and_int_argument_arithmetic_in_branches_and_kernels_rounds_as_python(expression, calls):
    """The class of the two fixes above: an expression over a size and an int argument of any sign, used in a
    kernel and in a branch, compiled once with dynamic=True and called with sizes and signs changing."""
    frontend.reset()
    namespace = {}
    exec(f"def f(x, k: int):\n    n = x.shape[0]\n    e = {expression}\n"
         f"    return x.new_ones(2) * e, (x + 1) if e >= 0 else (x - 1)", namespace)
    compiled = minitorch2.compile(namespace["f"], backend="inductor", dynamic=True)
    for n, k in calls:
        expected = eval(expression, {"n": n, "k": k})
        scaled, branch = compiled(minitorch2.zeros(n), k)
        assert scaled.tolist() == [float(expected)] * 2, (expression, n, k)
        assert branch.tolist() == [1.0 if expected >= 0 else -1.0] * n, (expression, n, k)


def test_the_printed_name_of_a_remainder_is_torchs():
    """Mod where both sides are known non-negative (sizes), PythonMod where a side may be negative."""
    frontend.reset()
    seen = []

    def keep(gm, example_inputs):
        seen.append(gm.print_readable(print_output=False))
        return gm.forward

    @minitorch2.compile(backend=keep, dynamic=True)
    def f(x, k: int):
        return x.new_ones(x.shape[0] % 2 + 1), x.shape[0] % k
    f(minitorch2.ones(5), 3)
    assert "Sym(Mod(s" in seen[0] and "Sym(PythonMod(s" in seen[0]


class _OneSample:
    def __init__(self, shape):
        self.shape = shape

    def __call__(self, lib):
        lib.manual_seed(0)
        return lib.nn.Linear(*self.shape), lib.randn(1, self.shape[0])


@pytest.mark.parametrize("shape", [(4, 4), (16, 3), (17, 2), (5, 1)])
def test_a_linear_layer_on_one_sample_decomposes_as_torchs_inductor(shape):
    ours, theirs = _ours_and_torchs(_OneSample(shape))
    assert ours == theirs
    small = shape[0] <= 16 and shape[1] <= 16 or shape[1] == 1
    assert ("aten.addmm.default" in ours[0]) is not small


def _nan_to_num_program(lib):
    class Clean(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = lib.nn.Parameter(lib.tensor([1.0, 2.0, 3.0, 4.0]))

        def forward(self, x):
            return lib.nan_to_num(self.w * x, nan=0.5, posinf=9.0)

    return Clean(), lib.tensor([1e38, 2e38, -2e38, 1.0])  # (w * x: inf, -inf where finite gradients go to 0)


def test_nan_to_num_and_its_backward_record_torchs_order():
    ours, theirs = _ours_and_torchs(_nan_to_num_program)
    assert ours == theirs


def test_a_size_read_nothing_uses_is_dropped_as_dynamos():
    def run(lib, counter):
        @lib.compile(backend=counter, dynamic=True)
        def pad_and_pool(x, k: int):
            n = x.shape[-1]
            y = lib.nn.functional.pad(x, (0, (k - n % k) % k))
            return y.view(*y.shape[:-1], -1, k).mean(-1), n // k, y.shape
        return [[*map(str, pad_and_pool(lib.arange(float(n)).reshape(1, n), 4))] for n in (5, 8, 11)]
    frontend.reset()
    torch._dynamo.reset()
    ours, theirs = CompileCounter(), TorchCounter()
    assert run(minitorch2, ours) == run(torch, theirs)
    assert (ours.frame_count, ours.op_count) == (theirs.frame_count, theirs.op_count)


def _shifted_windows(lib):
    class ShiftBlock(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = lib.nn.Linear(4, 4)

        def forward(self, x):
            x = lib.roll(x, shifts=(-1, -1), dims=(1, 2))
            return lib.roll(self.proj(x), shifts=(1, 1), dims=(1, 2))

    lib.manual_seed(0)
    return ShiftBlock(), lib.randn(2, 3, 5, 4)


def test_roll_decomposes_and_partitions_as_torchs_inductor():
    ours, theirs = _ours_and_torchs(_shifted_windows)
    assert ours == theirs
    assert "aten.roll.default" not in ours[0] and "prims.iota.default" in ours[1]


@pytest.mark.parametrize("case", ["flat", "negative_dim", "empty", "int_argument"])
def test_rolls_compiled_by_the_inductor_give_torchs_values(case):
    def run(lib):
        x = lib.arange(12.0).view(3, 4)
        if case == "int_argument":
            f = lib.compile(lambda t, k: lib.roll(t, k), dynamic=True)
            return [f(x, k).tolist() for k in (2, -5)]
        f = lib.compile({"flat": lambda t: lib.roll(t, 5), "negative_dim": lambda t: lib.roll(t, 7, -1),
                         "empty": lambda t: lib.roll(t[:0], 1)}[case])
        return f(x).tolist()
    frontend.reset()
    torch._dynamo.reset()
    assert run(minitorch2) == run(torch)


@pytest.mark.parametrize("case", ["scale_factor", "align_corners", "linear_1d", "channels_last"])
def test_linear_upsampling_forward_graphs_are_torchs_inductors(case):
    def program(lib):
        F = lib.nn.functional
        x = lib.arange(2 * 3 * 4 * 5, dtype=lib.float32).view(2, 3, 4, 5)
        if case == "channels_last":
            x = x.contiguous(memory_format=lib.channels_last)
        fn = {"scale_factor": lambda t: F.interpolate(t, scale_factor=1.5, mode="bilinear"),
              "align_corners": lambda t: F.interpolate(t, size=(6, 7), mode="bilinear", align_corners=True),
              "linear_1d": lambda t: F.interpolate(t[0], size=(9,), mode="linear"),
              "channels_last": lambda t: F.interpolate(t, size=(6, 7), mode="bilinear")}[case]
        return fn, x

    def graphs(lib):
        fn, x = program(lib)
        seen = []
        backend = recording_inductor(lib, seen)
        out = lib.compile(fn, backend=backend)(x)
        return seen, out.stride(), out.numpy().copy()
    frontend.reset()
    torch._dynamo.reset()
    ours = graphs(minitorch2)
    with torch._inductor.config.patch(fx_graph_cache=False), \
            torch._functorch.config.patch(enable_autograd_cache=False):  # (a graph served from a cache is not seen)
        theirs = graphs(torch)
    assert ours[:2] == theirs[:2] and len(ours[0]) == 1
    torch.testing.assert_close(torch.from_numpy(ours[2]), torch.from_numpy(theirs[2]), rtol=1e-5, atol=1e-5)


FORK_WHILE_THE_COMPILE_LOCK_IS_HELD = """
import os, threading
import minitorch2
from frontend import eval_frame
held, release = threading.Event(), threading.Event()

def hold():
    with eval_frame.COMPILE_LOCK:
        held.set()
        release.wait()

threading.Thread(target=hold, daemon=True).start()
held.wait()
pid = os.fork()
if pid == 0:
    import faulthandler
    faulthandler.dump_traceback_later(60, exit=True)  # (a hung child reports where, and exits with status 1)
    print(float(minitorch2.compile(lambda x: (x * 2).sum(), backend="eager")(minitorch2.ones(3))), flush=True)
    os._exit(0)
print("status", os.waitpid(pid, 0)[1], flush=True)
release.set()
"""


def test_a_child_forked_while_another_thread_holds_the_compile_lock_compiles():
    """The lock's holder does not exist in the child: the child translates with a lock of its own."""
    import os  # reason: only this test runs a script
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", FORK_WHILE_THE_COMPILE_LOCK_IS_HELD], env=env, cwd=root,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["6.0", "status", "0"], done.stderr[-2000:]
