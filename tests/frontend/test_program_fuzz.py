"""Differential fuzzing of the frontend: generated programs, compiled against uncompiled.

program_gen.programs() writes the source of a small function f over 1-3 tensors
(loops, shape and data branches, helper calls, containers, prints, graph breaks).
Each example execs that source on minitorch2 and calls f through minitorch2.compile
with backend "eager" (wrapped in a counter) three times: twice with one shape (a
capture, then a cache hit) and once with another (a recompile, where shape branches
may flip). Each call's values and printed output must equal the uncompiled call's
on the same inputs, and the values must equal the same source run on torch (eager).
`pytest --hypothesis-show-statistics` shows how many graphs the examples compiled
(a program that only ran eagerly would test nothing).

test_trust_program_equals_eager runs program_gen.trust_programs() four times with
backend aot_eager (which specialises on grad mode, so a missing guard shows), each
call drawing new nan / inf / -0.0 / 1.5 values for the argument `a`, the global G0
and the attribute "my-scale" of the module `m`, the default dtype and grad mode;
values (nan equal to nan, -0.0 apart from 0.0), dtypes and requires_grad must equal
the uncompiled call's and torch's. It draws 25 programs (500 with the deep profile).

Examples: 200 programs of up to 6 statements by default; with HYPOTHESIS_PROFILE=deep
(tests/conftest.py loads the profile), 5,000 programs of up to 10 statements, as the
frontend issue asks, shrunk to a minimal program on failure.
"""
import contextlib
import io
import os

import numpy as np
import pytest
from hypothesis import Phase, event, given, note, settings
from hypothesis import strategies as st

import frontend
import minitorch2
from frontend.testing import CompileCounterWithBackend

from .program_gen import programs, shapes, trust_programs

try:  # the torch comparison is skipped where torch is not installed (CI's Python 3.12/3.13 runs)
    import torch
    import torch._dynamo
except ImportError:
    torch = None

DEEP = os.environ.get("HYPOTHESIS_PROFILE", "default") == "deep"
EXAMPLES = 5_000 if DEEP else settings().max_examples


def _load(source, lib, dynamo):
    namespace = {"torch": lib, "dynamo": dynamo}
    exec(compile(source, "<generated program>", "exec"), namespace)
    return namespace["f"]


def _inputs(lib, shape, n_args, seed):
    rng = np.random.default_rng(seed)
    return [lib.tensor(rng.standard_normal(shape).astype(np.float32)) for _ in range(n_args)]


def _run(fn, args):
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        out = fn(*args)
    return _to_np(out), buffer.getvalue()


def _to_np(v):
    if isinstance(v, (tuple, list)):
        return type(v)(_to_np(i) for i in v)
    if isinstance(v, dict):
        return {k: _to_np(i) for k, i in v.items()}
    if hasattr(v, "detach"):
        return np.asarray(v.detach().numpy())
    return v


def _assert_same(a, b, rtol, atol, where="out"):
    if isinstance(a, (tuple, list, dict)):
        assert type(a) is type(b) and len(a) == len(b), f"{where}: {a!r} vs {b!r}"
        keys = list(a) if isinstance(a, dict) else range(len(a))
        if isinstance(a, dict):
            assert list(a) == list(b), f"{where}: keys differ"
        for k in keys:
            _assert_same(a[k], b[k], rtol, atol, f"{where}[{k!r}]")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype, f"{where}: {a!r} vs {b!r}"
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)
    else:
        assert a == b, f"{where}: {a!r} vs {b!r}"


def check_program(source, n_args, first_shape, second_shape, seed):
    """Run one generated program compiled and uncompiled; raise AssertionError on any difference."""
    frontend.reset()
    fn = _load(source, minitorch2, frontend)
    counter = CompileCounterWithBackend("eager")  # backend "eager", counting the graphs it is given
    compiled = minitorch2.compile(fn, backend=counter)
    theirs = _load(source, torch, torch._dynamo) if torch is not None else None
    for call, shape in enumerate((first_shape, first_shape, second_shape)):
        eager_out, eager_printed = _run(fn, _inputs(minitorch2, shape, n_args, seed + call))
        out, printed = _run(compiled, _inputs(minitorch2, shape, n_args, seed + call))
        _assert_same(out, eager_out, rtol=1e-6, atol=1e-7, where=f"call {call}: compiled vs eager")
        assert printed == eager_printed, f"call {call}: printed {printed!r}, eager printed {eager_printed!r}"
        assert minitorch2.is_grad_enabled(), f"call {call}: grad mode left off after the compiled call"
        if theirs is not None:
            torch_out, torch_printed = _run(theirs, _inputs(torch, shape, n_args, seed + call))
            _assert_same(out, torch_out, rtol=1e-4, atol=1e-5, where=f"call {call}: minitorch2 vs torch")
            assert printed == torch_printed
    frontend.reset()
    return counter.frame_count


SPECIAL_FLOATS = [float("nan"), float("inf"), -0.0, 0.0, 1.5]
TRUST_EXAMPLES = 500 if DEEP else 25


def _trust_module(lib, scale):
    m = lib.nn.Module()
    setattr(m, "my-scale", scale)
    return m


def _run_trust_call(fn, namespace, lib, setting, n_args, shape, seed):
    """One call of f(m, a, *tensors) under the setting's global G0, default dtype and grad mode."""
    a, g0, scale, dtype_name, grad = setting
    namespace["G0"] = g0
    lib.set_default_dtype(getattr(lib, dtype_name))
    try:
        args = [t.requires_grad_() for t in _inputs(lib, shape, n_args, seed)]
        with lib.set_grad_enabled(grad):
            out = fn(_trust_module(lib, scale), a, *args)
    finally:
        lib.set_default_dtype(lib.float32)
    return _to_np(out), _requires_grad(out)


def _requires_grad(v):
    if isinstance(v, (tuple, list)):
        return [_requires_grad(i) for i in v]
    if isinstance(v, dict):
        return {k: _requires_grad(i) for k, i in v.items()}
    return getattr(v, "requires_grad", None)


def _assert_signs(a, b, where):
    """-0.0 and 0.0 apart (assert_allclose takes one for the other); nan positions are checked there."""
    if isinstance(a, (tuple, list, dict)):
        for k in (a if isinstance(a, dict) else range(len(a))):
            _assert_signs(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, np.ndarray):
        both = ~np.isnan(a) & ~np.isnan(b)
        assert (np.signbit(a)[both] == np.signbit(b)[both]).all(), f"{where}: signs differ: {a!r} vs {b!r}"


def check_trust_program(source, n_args, shape, settings_, seed):
    frontend.reset()
    namespace = {"torch": minitorch2, "dynamo": frontend}
    exec(compile(source, "<generated program>", "exec"), namespace)
    fn = namespace["f"]
    counter = CompileCounterWithBackend("aot_eager")
    compiled = minitorch2.compile(fn, backend=counter)
    theirs = {"torch": torch, "dynamo": torch._dynamo} if torch is not None else None
    if theirs is not None:
        exec(compile(source, "<generated program>", "exec"), theirs)
    for call, setting in enumerate(settings_):
        where = f"call {call} {setting}"
        eager_out, eager_grad = _run_trust_call(fn, namespace, minitorch2, setting, n_args, shape, seed + call)
        with contextlib.redirect_stdout(io.StringIO()):
            out, grad = _run_trust_call(compiled, namespace, minitorch2, setting, n_args, shape, seed + call)
            if theirs is not None:
                torch_out, torch_grad = _run_trust_call(theirs["f"], theirs, torch, setting, n_args, shape,
                                                        seed + call)
        _assert_same(out, eager_out, rtol=1e-6, atol=1e-7, where=f"{where}: compiled vs eager")
        _assert_signs(out, eager_out, f"{where}: compiled vs eager")
        assert grad == eager_grad, f"{where}: requires_grad {grad} vs eager {eager_grad}"
        if theirs is not None:
            _assert_same(out, torch_out, rtol=1e-4, atol=1e-5, where=f"{where}: minitorch2 vs torch")
            _assert_signs(out, torch_out, f"{where}: minitorch2 vs torch")
            assert grad == torch_grad, f"{where}: requires_grad {grad} vs torch {torch_grad}"
    frontend.reset()
    return counter.frame_count


trust_settings = st.tuples(st.sampled_from(SPECIAL_FLOATS), st.sampled_from(SPECIAL_FLOATS),
                           st.sampled_from(SPECIAL_FLOATS), st.sampled_from(["float32", "float64"]), st.booleans())


@settings(max_examples=TRUST_EXAMPLES, phases=tuple(Phase) if DEEP else (Phase.explicit, Phase.reuse, Phase.generate),
          deadline=None)
@given(trust_programs(), shapes, st.lists(trust_settings, min_size=4, max_size=4), st.integers(0, 2**16))
def test_trust_program_equals_eager(program, shape, settings_, seed):
    source, n_args = program
    note("program:\n" + source)
    graphs = check_trust_program(source, n_args, shape, settings_, seed)
    event(f"graphs compiled over the four calls: {min(graphs, 4)}{'+' if graphs >= 4 else ''}")


# Shrinking a failing program can take minutes (each try compiles it three times), so the default
# profile reports the first failing program as drawn; the deep profile shrinks it.
PHASES = tuple(Phase) if DEEP else (Phase.explicit, Phase.reuse, Phase.generate)


@settings(max_examples=EXAMPLES, phases=PHASES)
@given(programs(max_statements=10 if DEEP else 6), shapes, shapes, st.integers(0, 2**16))
def test_compiled_program_equals_eager(program, first_shape, second_shape, seed):
    source, n_args = program
    note("program:\n" + source)
    graphs = check_program(source, n_args, first_shape, second_shape, seed)
    event(f"graphs compiled over the three calls: {min(graphs, 4)}{'+' if graphs >= 4 else ''}")


def _zeroing_backend(gm, example_inputs):
    def wrong(*inputs):
        return tuple(out * 0 for out in gm.forward(*inputs))
    return wrong


def test_checker_catches_a_wrong_compiled_result(monkeypatch):
    """The check is not vacuous: a backend that returns wrong values makes check_program fail."""
    source = "def f(x):\n    y = x.sin() + 1\n    return y * 2\n"
    check_program(source, 1, (2, 2), (3, 2), 0)
    monkeypatch.setattr(frontend.testing.CompileCounterWithBackend, "__call__",
                        lambda self, gm, example_inputs: _zeroing_backend(gm, example_inputs))
    with pytest.raises(AssertionError, match="compiled vs eager"):
        check_program(source, 1, (2, 2), (3, 2), 0)
