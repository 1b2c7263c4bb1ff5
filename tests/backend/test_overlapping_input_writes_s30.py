"""Compiled writes into inputs whose elements overlap (as_strided windows) or repeat (expand): torch's values.

A write through part of such an input (x[0].fill_, x[1:, 0] = v, x.t()[1].add_) leaves every element it was not
written through as it was, in eager and through torch's aot_eager; the inductor runs such a graph's aten ops eagerly
(backend/compile_fx.py): its kernels would compute the input's new value in a fresh layout and copying it back loses
rows. torch's own inductor writes such an input in place in its loop order: its values are eager's where the
scattered part is written last (the row cases here), and differ from eager's elsewhere (f_column_then_row,
f_through_transpose: ours keep eager's). An expanded input written in place is refused while compiling, as torch's
fake copy_ refuses it (BackendCompilerFailed, a RuntimeError).
"""
import pytest
import torch
import torch._dynamo

import frontend
import minitorch2


def f_fill_row(x): x[0].fill_(-2)
def f_set_column_tail(x): x[1:, 0] = 7
def f_scale_block(x): x[::2, 1:3].mul_(3)
def f_set_last_row_then_sum(x, v): x[-1] = v; return x.sum()  # (a read after the write: the written input)
def f_column_then_row(x): x[:, -1].zero_(); x[0, :2] = 5
def f_through_transpose(x): x.t()[1].add_(1)
def f_row_from_its_own_row(x): y = x[1]; y[2:] = y[:2] * 10
def f_fill_part_then_clone(x): x[0][1:3].fill_(4); return x[0].clone()
def f_set_row_and_return(x): x[0] = 1; return x


PROGRAMS = [f_fill_row, f_set_column_tail, f_scale_block, f_set_last_row_then_sum, f_column_then_row,
            f_through_transpose, f_row_from_its_own_row, f_fill_part_then_clone, f_set_row_and_return]
LAYOUTS = {
    "windows": lambda lib: (lib.arange(40.0) - 3).as_strided((4, 4), (1, 1), 2),  # x[i, j] is storage[2 + i + j]
    "contiguous": lambda lib: (lib.arange(40.0) - 3)[:16].view(4, 4),
    "transposed": lambda lib: (lib.arange(40.0) - 3)[:20].view(4, 5).t(),
    "every_other": lambda lib: (lib.arange(40.0) - 3)[::2][:16].view(4, 4),
}


def _run(lib, program, layout, backend):
    """The whole storage after the call, and what the program returned; an exception as its class name."""
    x = LAYOUTS[layout](lib)
    args = (x, lib.tensor([9.0, 8.0, 7.0, 6.0])[:x.shape[1]]) if program.__code__.co_argcount == 2 else (x,)
    if backend is not None:
        (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()
        program = lib.compile(program, backend=backend)
    try:
        out = program(*args)
    except RuntimeError as e:
        return type(e).__name__
    storage = x._base if x._base is not None else x
    return storage.tolist(), out.tolist() if isinstance(out, (torch.Tensor, minitorch2.Tensor)) else out


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
@pytest.mark.parametrize("backend", ["inductor", "aot_eager"])
def test_compiled_write_into_an_input_leaves_what_eager_leaves(backend, program, layout):
    expected = _run(torch, program, layout, None)
    if expected == "RuntimeError":  # eager refuses (x[0] += x[1] reads what it writes): torch's aot_eager computes
        expected = _run(torch, program, layout, "aot_eager")
    assert _run(minitorch2, program, layout, backend) == expected


@pytest.mark.parametrize("backend", ["inductor", "aot_eager"])
def test_compiled_write_into_an_expanded_input_is_refused_while_compiling(backend):
    for lib, error in ((torch, torch._dynamo.exc.BackendCompilerFailed), (minitorch2, frontend.exc.BackendCompilerFailed)):
        (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()
        x = lib.arange(4.0).expand(4, 4)
        with pytest.raises(error, match="more than one element of the written-to tensor refers to a single memory"):
            lib.compile(f_fill_row, backend=backend)(x)
        assert x.tolist()[0] == [0.0, 1.0, 2.0, 3.0]
