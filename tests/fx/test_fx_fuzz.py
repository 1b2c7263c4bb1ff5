"""Hypothesis differential fuzzing of minitorch2.fx.symbolic_trace against torch.fx.symbolic_trace.

The random op programs of tests/minitorch2/test_differential.py (1 to 15 ops over
1 to 3 broadcastable inputs, float or int/bool) are written as a plain function
`f(x0, x1, ...)` returning every computed value, or as an nn.Module whose
forward(x0) reads the other inputs as its parameters (float) and buffers
(integer), and traced by both libraries (with `torch` and `minitorch2` as the
library the ops call). The two traces must agree:

  text    `str(graph)` and `gm.code` equal character for character, after naming
          minitorch2's functions as torch's (`minitorch2.` -> `torch.`; our fx
          already prints `torch.`, the mapping only keeps the comparison honest);
  values  both GraphModules, run on the same inputs, give the same outputs
          (dtype, shape and values).

The generator's ops decide some things from their operands' concrete values
(`a * b * 0.5` for floats, `a * b` for integers; a slice index as long as the
operand's rank). A proxy has no such values, so the program is first run on torch
(eager) and each such op is written with the decision already taken (FORMS below):
the traced function is what a user would have written for those inputs.
"""
import numpy as np
import pytest
import torch
import torch.fx
from hypothesis import given, note
from hypothesis import strategies as st

import minitorch2 as mt
import minitorch2.fx  # noqa: F401  (minitorch2 does not import its fx package by itself)
from tests.minitorch2.test_differential import OPS_BY_NAME, _kind, _slice, describe, programs, run

pytestmark = pytest.mark.fx


# ---------------------------------------------------------------- traceable forms of value-dependent ops
def _halved_if_float(op):
    def form(a, b):
        if _kind(a) == "float":
            return lambda L, x, y: op(x, y) * 0.5
        return lambda L, x, y: op(x, y)

    return form


def _sum_all(a):
    if _kind(a) == "float":
        n = max(a.numel(), 1)
        return lambda L, x: x.sum() / n
    return lambda L, x: x.sum()


def _cumsum(a):
    def form(L, x, dim):
        if _kind(a) == "float":
            return x.cumsum(dim) * (1.0 / max(a.shape[dim] if a.dim() else 1, 1))
        return x.cumsum(dim)

    return form


def _matmul(a, b):
    if _kind(a) == "float":
        return lambda L, x, y, scale: L.matmul(x, y) * scale
    return lambda L, x, y, scale: L.matmul(x, y)


def _matmul_self(a):
    scale = 1.0 / max(a.shape[-1], 1)
    return lambda L, x: L.matmul(x, x.transpose(-1, -2)) * scale


def _int_to_float(a):
    if a.numel():
        return lambda L, x: x.float() * 0.5 - x.double().mean() * 0.25
    return lambda L, x: x.float()


def _slice_form(a):
    rank = a.dim()

    def form(L, x, dim, start, step):
        index = [slice(None)] * rank
        index[dim] = slice(start, None, step)
        return x[tuple(index)]

    return form


# op name -> (concrete torch operands) -> fn(L, *operands, **params) that never asks a proxy for a value
FORMS = {
    "add": _halved_if_float(lambda x, y: x + y),
    "sub": _halved_if_float(lambda x, y: x - y),
    "mul": _halved_if_float(lambda x, y: x * y),
    "sum_all": _sum_all,
    "cumsum": _cumsum,
    "matmul": _matmul,
    "matmul_self": _matmul_self,
    "int_to_float": _int_to_float,
    "slice": _slice_form,
}
assert OPS_BY_NAME["slice"].fn is _slice  # the generator's slice is the one _slice_form rewrites


def traceable_program(arrays, program):
    """(program, forms): each op's fn, specialised to the operand kinds torch's eager run saw."""
    _, values = run(torch, arrays, program, requires_grad=False)
    forms = []
    for name, operands, _ in program:
        if name in FORMS:
            forms.append(FORMS[name](*(values[i] for i in operands)))
        else:
            forms.append(OPS_BY_NAME[name].fn)
    return forms


def _replay(lib, program, forms, n_inputs):
    def replay(*inputs):
        values = list(inputs)
        for (name, operands, params), form in zip(program, forms):
            values.append(form(lib, *(values[i] for i in operands), **params))
        return tuple(values[n_inputs:])

    return replay


def make_function(lib, program, forms, n_inputs):
    """`f(x0, x1, ...)` computing the program on `lib` and returning every computed value, as a tuple."""
    names = ", ".join(f"x{i}" for i in range(n_inputs))
    namespace = {"replay": _replay(lib, program, forms, n_inputs)}
    exec(f"def f({names}):\n    return replay({names})\n", namespace)  # named arguments: placeholders x0, x1...
    return namespace["f"]


def make_module(lib, program, forms, arrays):
    """An nn.Module whose forward(x0) computes the program: the other inputs are its state, float ones as
    parameters `p1`, `p2`, integer ones as buffers `b1`, `b2` (get_attr nodes in the trace)."""
    replay = _replay(lib, program, forms, len(arrays))

    class Program(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.state = []
            for i, a in enumerate(arrays[1:], start=1):
                value = lib.from_numpy(np.array(a, copy=True))
                if a.dtype.kind == "f":
                    setattr(self, f"p{i}", lib.nn.Parameter(value))
                    self.state.append(f"p{i}")
                else:
                    self.register_buffer(f"b{i}", value)
                    self.state.append(f"b{i}")

        def forward(self, x0):
            return replay(x0, *(getattr(self, name) for name in self.state))

    return Program()


def _as_torch_names(text):
    return text.replace("minitorch2.", "torch.")


def check_program(arrays, program, forms=None, as_module=False):
    forms = forms or traceable_program(arrays, program)
    if as_module:
        theirs = torch.fx.symbolic_trace(make_module(torch, program, forms, arrays))
        ours = mt.fx.symbolic_trace(make_module(mt, program, forms, arrays))
        inputs = arrays[:1]
    else:
        theirs = torch.fx.symbolic_trace(make_function(torch, program, forms, len(arrays)))
        ours = mt.fx.symbolic_trace(make_function(mt, program, forms, len(arrays)))
        inputs = arrays
    assert _as_torch_names(str(ours.graph)) == str(theirs.graph)
    assert _as_torch_names(ours.code) == theirs.code, f"torch.fx code:{theirs.code}"
    with torch.no_grad():
        expected = theirs(*(torch.from_numpy(np.array(a, copy=True)) for a in inputs))
    with mt.no_grad():
        got = ours(*(mt.from_numpy(np.array(a, copy=True)) for a in inputs))
    assert len(got) == len(expected)
    for i, (o, t) in enumerate(zip(got, expected)):
        assert repr(o.dtype) == str(t.dtype) and tuple(o.shape) == tuple(t.shape), f"output {i}: {o.dtype} {t.dtype}"
        torch.testing.assert_close(torch.from_numpy(np.array(o.numpy(force=True))), t, equal_nan=True,
                                   msg=lambda m: f"output {i}: {m}")


# ---------------------------------------------------------------- the properties
@given(programs("float"), st.booleans())
def test_traced_float_programs_match_torch_fx(case, as_module):
    arrays, program = case
    note(f"inputs: {[(a.shape, str(a.dtype)) for a in arrays]}\nprogram:\n{describe(program)}\nas module: {as_module}")
    check_program(arrays, program, as_module=as_module)


@given(programs("int"), st.booleans())
def test_traced_integer_and_bool_programs_match_torch_fx(case, as_module):
    arrays, program = case
    note(f"inputs: {[(a.shape, str(a.dtype)) for a in arrays]}\nprogram:\n{describe(program)}\nas module: {as_module}")
    check_program(arrays, program, as_module=as_module)


def test_checker_catches_a_different_graph():
    """Not vacuous: tracing minitorch2 with `neg` recorded as `abs` fails the text comparison."""
    arrays = [np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)]
    program = [("neg", (0,), {}), ("sin", (1,), {})]
    check_program(arrays, program)
    forms = traceable_program(arrays, program)
    forms[0] = lambda L, x: x.abs() if L is mt else -x
    with pytest.raises(AssertionError):
        check_program(arrays, program, forms)
