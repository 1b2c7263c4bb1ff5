"""Symbolic sizes in user code, as Dynamo 2.13 treats them (session 31's fixes of batch 8's and 9's known diffs).

Each program is written as a user writes it: a model whose forward branches on the batch's parity, a batch split
in halves with `x[: x.shape[0] // 2]`, the input's shape formatted into a log string, a sequence padded up to a
whole number of blocks with math.ceil(seq_len / block), round()/int() of a ratio of sizes, bool() of a size, a
str() of a size (a graph break in Dynamo), `head, *tail = x`, a half written in place, `[0] * n`. Each runs under
torch.compile and minitorch2.compile, once with dynamic=True and once with mark_dynamic on the batch dim, on the
same lengths (3 makes `n // 2` equal 1): the frame, op and graph-break counts and every call's value must be
Dynamo's.
"""
import numpy as np
import pytest
import torch
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

from .test_dynamo_tests_ported import _breaks, _clear_counters, build_batch

PROGRAMS_SRC = r'''
import math


class ParityGate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.linspace(-1, 1, 16).reshape(4, 4))

    def forward(self, x):
        if x.size(0) % 2 == 0:
            return (x @ self.weight).relu()
        return (x[:-1] @ self.weight).relu().sum(0, keepdim=True) + x[-1:]


PARITY_GATE = ParityGate()


def parity_gate(x):
    return PARITY_GATE(x)


def halves_difference(x):
    half = x.shape[0] // 2
    first, second = x[:half], x[half:]
    return first.sum(0) - second.mean(0)


def shape_in_log_message(x):
    message = f"forward got a batch of shape {x.shape}"
    return x.tanh() * 2, message


def rows_formatted(x):
    return x.cumsum(0), "{} rows, {} features".format(x.size(0), x.size(1))


def pad_to_whole_blocks(x):
    block = 2
    blocks = math.ceil(x.shape[0] / block)
    padded = torch.nn.functional.pad(x, (0, 0, 0, blocks * block - x.shape[0]))
    return padded.view(blocks, block, -1).sum(1)


def rounded_ratio_scale(x):
    keep = round(x.shape[0] / 4)
    floor_keep = math.floor(x.shape[0] * 0.75)
    return x * keep + int(x.shape[0] / 3) - floor_keep


def truthy_batch(x):
    scale = bool(x.size(0))
    return x * scale + 1


def str_of_batch_size(x):
    tag = "batch" + str(x.shape[0])
    return x * len(tag)


def head_and_tail(x):
    head, *tail = x
    return head * len(tail) - x.sum(0)


def first_half_overwritten(x):
    y = x.clone()
    y[: x.shape[0] // 2] = x[: x.shape[0] // 2] * 10
    return y


def zeros_list_per_row(x):
    flags = [0] * x.shape[0]
    return x + len(flags)
'''

NAMES, TORCH_NS, MT_NS = build_batch(PROGRAMS_SRC)
LENGTHS = (3, 4, 7, 4)


def _run(lib, fn, mark):
    """(frames, ops, breaks) and each call's outputs, or the class of the error it raised (ConstraintViolationError
    where a program pins a size mark_dynamic marked)."""
    _clear_counters(lib)
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    compiled = lib.compile(fn, backend=counter, dynamic=None if mark else True)
    outputs = []
    for n in LENGTHS:
        x = lib.tensor(np.random.default_rng(n).standard_normal((n, 4)).astype("float32"))
        if mark:
            (torch._dynamo if lib is torch else frontend).mark_dynamic(x, 0)
        try:
            out = compiled(x)
        except Exception as e:
            outputs.append([type(e).__name__])
            continue
        outputs.append([v.detach().numpy() if hasattr(v, "detach") else v for v in
                        (out if isinstance(out, tuple) else (out,))])
    return (counter.frame_count, counter.op_count, _breaks(lib)), outputs


@pytest.mark.parametrize("mark", [False, True], ids=["dynamic_true", "mark_dynamic"])
@pytest.mark.parametrize("name", NAMES)
def test_counts_and_values_match_dynamo(name, mark):
    theirs_counts, theirs = _run(torch, TORCH_NS[name], mark)
    ours_counts, ours = _run(minitorch2, MT_NS[name], mark)
    assert ours_counts == theirs_counts, f"(frames, ops, breaks): ours {ours_counts}, Dynamo {theirs_counts}"
    for ours_call, theirs_call in zip(ours, theirs):
        assert len(ours_call) == len(theirs_call)
        for o, t in zip(ours_call, theirs_call):
            if isinstance(t, np.ndarray):
                np.testing.assert_allclose(o, t, rtol=1e-5, atol=1e-5)
            else:
                assert o == t


def test_a_size_formatted_into_a_string_is_not_pinned():
    """f"{x.shape}" and "{}".format(n) are formatted when the frame runs: one graph serves every length, and each
    call's string names its own length (with mark_dynamic, no ConstraintViolationError)."""
    frontend.reset()
    counter = CompileCounter()
    compiled = minitorch2.compile(MT_NS["shape_in_log_message"], backend=counter)
    for n in (3, 5, 8):
        x = minitorch2.ones(n, 4)
        frontend.mark_dynamic(x, 0)
        assert compiled(x)[1] == f"forward got a batch of shape torch.Size([{n}, 4])"
    assert counter.frame_count == 1


def test_ceil_of_a_size_ratio_stays_symbolic_through_the_inductor():
    """math.ceil, round and int() of a ratio of sizes are SymInt nodes the AOT trace and the inductor run: one compile,
    the values of eager minitorch2 at every length."""
    frontend.reset()
    for name in ("pad_to_whole_blocks", "rounded_ratio_scale"):
        compiled = minitorch2.compile(MT_NS[name], backend="inductor", dynamic=True)
        for n in (3, 4, 7):
            x = minitorch2.tensor(np.random.default_rng(n).standard_normal((n, 4)).astype("float32"))
            np.testing.assert_allclose(compiled(x).numpy(), MT_NS[name](x).numpy(), rtol=1e-5, atol=1e-5)


def _scaled_window(x, window):
    return x[: window[0]] * window[1] + sum(window)


@pytest.mark.parametrize("windows", [[(2, 3), (2, 3), (4, 5), (6, 7)], [(2, 3), (2, 5), (2, 6), (3, 6)]])
def test_ints_in_a_tuple_argument_become_dynamic_once_they_change(windows):
    """Automatic dynamic for ints inside a tuple argument: static at first, SymInt inputs (`L['window'][0]`) from the
    recompile that sees them changed, their sum() one torch.sym_sum node: Dynamo's compiles, ops and values."""
    def run(lib):
        _clear_counters(lib)
        counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
        compiled = lib.compile(_scaled_window, backend=counter)
        x = lib.arange(32.0).reshape(8, 4)
        values = [compiled(x, w).numpy() for w in windows]
        return (counter.frame_count, counter.op_count), values

    (theirs_counts, theirs), (ours_counts, ours) = run(torch), run(minitorch2)
    assert ours_counts == theirs_counts
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o, t)
