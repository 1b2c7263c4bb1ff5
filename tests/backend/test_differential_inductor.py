"""Hypothesis differential programs through the inductor backend, checked against minitorch2 eager.

The random op programs of tests/minitorch2/test_differential.py (1 to 15 ops over
1 to 3 broadcastable inputs, float or int/bool) are compiled two ways:

  through_compile_fx          wrapped in a parameterless nn.Module and given to
                              `backend.compile_fx` (aot tracing, min-cut partitioning,
                              lowering, fusion, code generation, the wrapper): the
                              backend alone, so no frontend graph break can hide a bug;
  through_minitorch2_compile  written out as straight-line Python and run under
                              `minitorch2.compile(backend=inductor)` (an eighth of
                              the examples: the whole stack).

Every value of the program is an output of the compiled graph (views of the
inputs included: aliasing outputs), and must match eager in dtype, shape,
strides (of dims longer than 1) and values; the gradients of a random
weighting of the outputs must match eager's.

Tolerance: rtol 1e-4, atol 1e-5. The backend fuses and reorders float
arithmetic (a mean is a sum times 1/n, a softmax is recomputed in the
backward, long sums are blocked), so float32 results differ from eager's in
the last few ulps; 1e-4 relative is ~800 float32 ulps, far below what a real
bug gives (a wrong index or op is off by O(1) on these well-conditioned
programs, whose values stay in about [-2, 2], see the generator).

Compilation must really have happened: the backend compiled one forward (or
inference) graph per graph it was handed, and a backward graph when an output
needs grad; every fallback is an op listed in KNOWN_FALLBACKS; and no graph
has only eager fallbacks as its steps (unless the program has no other op).

A third property draws integer edge cases instead and compares with real torch
(eager): int64 values near +-2**62 and at the extremes (+-(2**63 - 1), -2**63),
zero divisors, and dims of size 0 and 1, through one integer op and a reduction;
values must be equal exactly, and where torch raises (division by zero, an
extremum over an empty dim) the compiled call must raise the same class.

Example counts come from the hypothesis profiles in tests/conftest.py: 200 per
property by default (25 for the minitorch2.compile one, 50 for the integer edge
cases), HYPOTHESIS_PROFILE=deep for the long run. The code generator is
backend.config's (MINITORCH2_CPU_CODEGEN).
"""
import re

import numpy as np
import pytest
from hypothesis import given, note, reject, settings
from hypothesis import strategies as st

import backend
import frontend
import minitorch2 as mt
import minitorch2.nn as nn
from tests.minitorch2.test_differential import OPS_BY_NAME, default_dtype, describe, programs

TOLERANCE = dict(rtol=1e-4, atol=1e-5)

# aten ops the backend runs as eager fallbacks by design (see backend/lowering.py); any other fallback
# in a differential graph is a lowering gap and fails the test.
KNOWN_FALLBACKS = {"aten.cumsum.default"}
# program ops that may compute nothing (a view, or a copy of what is already contiguous)
SHAPE_OPS = {"reshape", "view_flat", "flatten", "permute", "transpose", "t", "unsqueeze", "squeeze", "expand", "slice",
             "select", "contiguous"}

# Errors eager raises that tracing does not: the fake tensors aot traces with accept `-bool_tensor` (eager's
# kernel raises), so the compiled program runs where eager fails. Known bug outside the backend (fake tensor
# meta checks); those examples are rejected rather than compared.
KNOWN_EAGER_ONLY_ERRORS = ("Negation, the `-` operator, on a bool tensor",)


class ProgramModule(nn.Module):
    """A differential program as a module with no parameters: forward(*inputs) -> every computed value."""

    def __init__(self, program, n_inputs):
        super().__init__()
        self.program, self.n_inputs = program, n_inputs

    def forward(self, *inputs):
        values = list(inputs)
        for name, operands, params in self.program:
            values.append(OPS_BY_NAME[name].fn(mt, *(values[i] for i in operands), **params))
        return tuple(values[self.n_inputs:])


def make_inputs(arrays, requires_grad):
    inputs = [mt.from_numpy(np.array(a, copy=True)) for a in arrays]
    for x in inputs:
        if requires_grad and x.dtype.is_floating_point:
            x.requires_grad_()
    return inputs


def weighted_loss(outputs, seed):
    """sum(output * w) over the outputs that require grad, w uniform in [-1, 1] (None if none do)."""
    rng = np.random.default_rng(seed)
    terms = []
    for out in outputs:
        if out.requires_grad:
            weight = rng.uniform(-1, 1, tuple(out.shape)).astype(repr(out.dtype).split(".")[-1])
            terms.append((out * mt.from_numpy(weight)).sum())
    return sum(terms) if terms else None


def run_eager(module, arrays, requires_grad):
    inputs = make_inputs(arrays, requires_grad)
    outputs = module(*inputs)
    loss = weighted_loss(outputs, len(module.program))
    if loss is not None:
        loss.backward()
    return inputs, outputs, loss


def run_compiled(compile_program, module, arrays, requires_grad):
    inputs = make_inputs(arrays, requires_grad)
    compiled = compile_program(module, inputs)
    outputs = compiled(*inputs)
    loss = weighted_loss(outputs, len(module.program))
    if loss is not None:
        loss.backward()
    return inputs, outputs, loss


def through_compile_fx(module, inputs):
    """The backend alone: aot + inductor on the module (what a frontend's backend call does)."""
    FRONTEND_GRAPHS[0] = 1
    return backend.compile_fx.compile_fx(module, inputs)


def through_minitorch2_compile(module, inputs):
    """The whole stack: the program as straight-line Python source (one statement per op, calling the op's
    function from the catalog), captured by the frontend, compiled by inductor."""
    FRONTEND_GRAPHS[0] = 0

    def inductor(gm, example_inputs):
        FRONTEND_GRAPHS[0] += 1
        return backend.compile_fx.compile_fx(gm, example_inputs)

    return mt.compile(straight_line(module.program, module.n_inputs), backend=inductor)


FRONTEND_GRAPHS = [0]  # graphs handed to the backend by the last compile


def straight_line(program, n_inputs, lib=mt):
    """The program as straight-line Python calling `lib` (minitorch2, or torch for the oracle)."""
    names = [f"v{i}" for i in range(n_inputs + len(program))]
    namespace, lines = {"lib": lib}, [f"def program({', '.join(names[:n_inputs])}):"]
    for k, (name, operands, params) in enumerate(program):
        namespace[f"op{k}"], namespace[f"params{k}"] = OPS_BY_NAME[name].fn, params
        lines.append(f"    {names[n_inputs + k]} = op{k}(lib, {', '.join(names[i] for i in operands)}, **params{k})")
    lines.append(f"    return ({''.join(n + ', ' for n in names[n_inputs:])})")
    exec(compile("\n".join(lines), "<differential program>", "exec"), namespace)
    return namespace["program"]


def significant_strides(t):
    """The strides that matter: those of dims longer than 1 (none for an empty tensor), as in torch's
    inductor tests; a size-1 dim's stride is never used to address an element."""
    if t.numel() == 0:
        return ()
    return tuple(s for s, n in zip(t.stride(), t.shape) if n != 1)


def assert_same(ours, expected, where):
    assert ours.dtype == expected.dtype, f"{where}: dtype {ours.dtype} != {expected.dtype}"
    assert tuple(ours.shape) == tuple(expected.shape), f"{where}: shape {tuple(ours.shape)} != {tuple(expected.shape)}"
    assert significant_strides(ours) == significant_strides(expected), \
        f"{where}: stride {ours.stride()} != {expected.stride()}"
    np.testing.assert_allclose(ours.detach().numpy(), expected.detach().numpy(), err_msg=where, **TOLERANCE)


def assert_compiled(expect_backward, program):
    graphs = backend.metrics.graphs
    first = [g for g in graphs if not g.name.startswith("backward")]
    assert FRONTEND_GRAPHS[0] >= 1, "inductor was handed no graph: the program ran eagerly"
    assert len(first) == FRONTEND_GRAPHS[0], f"{FRONTEND_GRAPHS[0]} graphs handed to inductor, {len(first)} compiled"
    if expect_backward:
        assert any(g.name.startswith("backward") for g in graphs), "no backward graph was compiled"
    for graph in graphs:
        unexpected = set(graph.fallbacks) - KNOWN_FALLBACKS
        assert not unexpected, f"{graph.name} fell back to eager for {sorted(unexpected)}"
        steps = graph.scheduler.steps
        all_fallbacks = steps and not graph.kernels and all(getattr(getattr(s, "kernel", None), "fallback", False)
                                                            for s in steps)
        only_fallback_ops = all(f"aten.{name}.default" in KNOWN_FALLBACKS or name in SHAPE_OPS for name, _, _ in program)
        assert not all_fallbacks or only_fallback_ops, f"{graph.name}: every step fell back to eager"


def check_program(arrays, program, requires_grad, compile_program=through_compile_fx):
    note(f"inputs: {[(a.shape, str(a.dtype)) for a in arrays]}\nprogram:\n{describe(program)}")
    module = ProgramModule(program, len(arrays))
    backend.metrics.reset()
    try:
        e_inputs, e_outputs, e_loss = run_eager(module, arrays, requires_grad)
    except RuntimeError as error:  # eager rejects it (e.g. the gradient of atan2 by a bool tensor)
        if any(known in str(error) for known in KNOWN_EAGER_ONLY_ERRORS):
            reject()
        with pytest.raises(RuntimeError):  # ... so must the compiled program
            run_compiled(compile_program, module, arrays, requires_grad)
        return
    c_inputs, c_outputs, c_loss = run_compiled(compile_program, module, arrays, requires_grad)
    for i, (ours, expected) in enumerate(zip(c_outputs, e_outputs)):
        assert_same(ours, expected, f"value {i + len(arrays)}")
        assert ours.requires_grad == expected.requires_grad, f"value {i + len(arrays)}: requires_grad"
    # outputs that view an input are made again outside the compiled graphs, so they need no backward graph
    needs_backward = [o for o in e_outputs if o.requires_grad and not any(o is x or o._base is x for x in e_inputs)]
    assert_compiled(expect_backward=e_loss is not None and bool(needs_backward), program=program)
    if e_loss is None:
        return
    for i, (ours, expected) in enumerate(zip(c_inputs, e_inputs)):
        if expected.grad is None:
            assert ours.grad is None, f"gradient of input {i}: eager has none"
            continue
        assert_same(ours.grad, expected.grad, f"gradient of input {i}")


@pytest.fixture(autouse=True)
def _clean_metrics():
    backend.metrics.reset()
    yield
    backend.metrics.reset()
    frontend.reset()


@given(programs("float"))
def test_float_programs_compiled_match_eager(case):
    arrays, program = case
    with default_dtype(next(str(a.dtype) for a in arrays if a.dtype.kind == "f")):
        check_program(arrays, program, requires_grad=True)


@given(programs("int"))
def test_integer_and_bool_programs_compiled_match_eager(case):
    arrays, program = case
    check_program(arrays, program, requires_grad=False)


@settings(max_examples=max(settings.default.max_examples // 8, 1))
@given(programs("float"))
def test_float_programs_through_minitorch2_compile_match_eager(case):
    """The same programs through the frontend too (an eighth of the examples: the backend is the target)."""
    arrays, program = case
    if not program:
        reject()  # a program with no ops gives the frontend no graph to compile
    frontend.reset()
    with default_dtype(next(str(a.dtype) for a in arrays if a.dtype.kind == "f")):
        check_program(arrays, program, requires_grad=True, compile_program=through_minitorch2_compile)


# ---- integer edge cases against torch ------------------------------------------------------------------

I64_MIN, I64_MAX = -2**63, 2**63 - 1
EDGE_VALUES = [0, 1, -1, 2, -3, 7, 2**31, -2**31, 2**62, -2**62, 2**62 + 7, -2**62 - 5, I64_MAX, I64_MAX - 1, I64_MIN,
               I64_MIN + 1]
INTEGER_EDGE_OPS = {  # (lib, a, b) -> tensor; b may hold zeros (torch raises for the divisions)
    "div_trunc": lambda lib, a, b: lib.div(a, b, rounding_mode="trunc"),
    "div_floor": lambda lib, a, b: lib.div(a, b, rounding_mode="floor"),
    "remainder": lambda lib, a, b: a % b, "fmod": lambda lib, a, b: lib.fmod(a, b),
    "add": lambda lib, a, b: a + b, "sub": lambda lib, a, b: a - b, "mul": lambda lib, a, b: a * b,
    "maximum": lambda lib, a, b: lib.maximum(a, b), "minimum": lambda lib, a, b: lib.minimum(a, b),
    "lt": lambda lib, a, b: (a < b).long(), "eq": lambda lib, a, b: (a == b).long(),
    "bitwise_xor": lambda lib, a, b: a ^ b, "where": lambda lib, a, b: lib.where(a > b, a, b),
    "clamp": lambda lib, a, b: a.clamp(min=-2**62, max=2**62 + 3) - b,
    "abs_neg": lambda lib, a, b: (-a).abs() + b.sign(),
    "to_int32": lambda lib, a, b: a.to(lib.int32).to(lib.int64) * b,
}
INTEGER_EDGE_REDUCTIONS = {
    "none": lambda lib, x: x, "sum": lambda lib, x: x.sum(-1), "prod": lambda lib, x: x.prod(0),
    "amax": lambda lib, x: x.amax(-1), "argmin": lambda lib, x: x.argmin(0), "cumsum": lambda lib, x: x.cumsum(-1),
}


@st.composite
def integer_edge_cases(draw):
    shape = tuple(draw(st.lists(st.sampled_from([0, 1, 1, 2, 3]), min_size=1, max_size=2)))
    size = int(np.prod(shape))
    values = st.one_of(st.sampled_from(EDGE_VALUES), st.integers(I64_MIN, I64_MAX), st.integers(-4, 4))
    a = np.array(draw(st.lists(values, min_size=size, max_size=size)), np.int64).reshape(shape)
    b_shape = shape if draw(st.booleans()) else shape[-1:]  # sometimes broadcast along the first dim
    b_size = int(np.prod(b_shape))
    b = np.array(draw(st.lists(values, min_size=b_size, max_size=b_size)), np.int64).reshape(b_shape)
    op = draw(st.sampled_from(sorted(INTEGER_EDGE_OPS)))
    if op == "div_trunc":  # torch's own kernel traps (SIGFPE) on INT64_MIN / -1: no value to compare with
        b = np.array(np.broadcast_to(b, a.shape))
        b[(a == I64_MIN) & (b == -1)] = 1
    return a, b, op, draw(st.sampled_from(sorted(INTEGER_EDGE_REDUCTIONS)))


@settings(max_examples=max(settings.default.max_examples // 4, 1))
@given(integer_edge_cases())
def test_integer_edge_cases_compiled_match_torch(case):
    import torch

    a, b, op_name, reduction_name = case
    note(f"a={a.tolist()} b={b.tolist()} op={op_name} reduction={reduction_name}")
    op, reduce = INTEGER_EDGE_OPS[op_name], INTEGER_EDGE_REDUCTIONS[reduction_name]

    class Program(nn.Module):
        def forward(self, x, y):
            return reduce(mt, op(mt, x, y))

    try:
        expected = reduce(torch, op(torch, torch.from_numpy(a.copy()), torch.from_numpy(b.copy())))
    except (RuntimeError, IndexError) as error:
        if reduction_name == "argmin" and np.broadcast_shapes(a.shape, b.shape)[0] == 1:
            reject()  # an argmin over one element is 0 without reading it (as in torch's inductor): nothing raises
        if 0 in np.broadcast_shapes(a.shape, b.shape):  # an extremum of nothing: torch.compile refuses it as its
            reject()  # fake tensors and lowering do, not as eager's kernel (test_trust_adversarial_inputs.py)
        inputs = [mt.from_numpy(a.copy()), mt.from_numpy(b.copy())]
        with pytest.raises(type(error), match=re.escape(str(error).splitlines()[0][:60])):
            backend.compile_fx.compile_fx(Program(), inputs)(*inputs)
        return
    inputs = [mt.from_numpy(a.copy()), mt.from_numpy(b.copy())]
    ours = backend.compile_fx.compile_fx(Program(), inputs)(*inputs)
    assert ours.dtype.name == str(expected.dtype).split(".")[-1] and tuple(ours.shape) == tuple(expected.shape)
    np.testing.assert_array_equal(ours.numpy(), expected.numpy())
