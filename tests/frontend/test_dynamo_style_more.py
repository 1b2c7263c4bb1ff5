"""corpus_dynamo_style_more.py's programs against Dynamo 2.13: values, frame_count and op_count.

Each program runs through torch.compile (torch._dynamo.testing.CompileCounter) and minitorch2.compile
(frontend.testing.CompileCounter), twice (the second call is a cache hit), on the same two (3,) float inputs; the
compiled values must equal torch's and minitorch2's own eager ones. KNOWN_DIFFS names each program whose counts
still differ, with the reason (strict xfail: a fix makes it fail loudly).
"""
import re

import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

from .corpus_dynamo_style_more import MORE_PROGRAMS, MORE_SRC, UNCAUGHT_SRC
from .test_dynamo_counts import ARRAYS, _assert_close, _to_np, assert_matches_dynamo


def _build(lib):
    namespace = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional,
                 "dynamo": torch._dynamo if lib is torch else frontend}
    exec(compile(MORE_SRC, "<dynamo style more>", "exec"), namespace)
    return namespace


TORCH_NS, MT_NS = _build(torch), _build(minitorch2)

KNOWN_DIFFS = {
    "gen_break_mid_consumption": "a generator alive at a graph break cannot be rebuilt here: the frame runs eagerly; "
                                 "Dynamo resumes with it",
    "gen_return_value_yield_from": "Dynamo 2.13 runs this frame eagerly; ours traces `yield from`'s return value",
}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN_DIFFS[n], strict=True))
                                  if n in KNOWN_DIFFS else n for n in MORE_PROGRAMS])
def test_counts_and_values_match_dynamo(name):
    assert_matches_dynamo(TORCH_NS, MT_NS, name)


def test_known_diffs_name_programs_of_the_corpus():
    assert set(KNOWN_DIFFS) <= set(MORE_PROGRAMS)


def test_the_corpus_defines_each_name_once():
    """A second `class _Cfg` further down would silently replace the first for the programs above it."""
    defined = re.findall(r"^(?:def|class) (\w+)|^(\w+) =", MORE_SRC, re.MULTILINE)
    names = [a or b for a, b in defined]
    assert sorted({n for n in names if names.count(n) > 1}) == []


@pytest.mark.parametrize("lib", [torch, minitorch2], ids=["torch", "minitorch2"])
def test_a_property_setter_runs_in_the_frame(lib):
    """`obj.t = v` on an object made in the frame runs the property's setter (it used to be bypassed: x.t read v)."""
    (torch._dynamo if lib is torch else frontend).reset()
    a, b = lib.tensor(ARRAYS[0]), lib.tensor(ARRAYS[1])
    fn = TORCH_NS["uc_property_get_set"] if lib is torch else MT_NS["uc_property_get_set"]
    np.testing.assert_allclose(_to_np(lib.compile(fn, backend="eager", fullgraph=True)(a, b)), ARRAYS[1] * 2 + 3,
                               rtol=1e-6)


def test_callable_of_a_constant_is_the_values_answer():
    """callable(3) is False (the class int is callable, not its instances): the branch taken is torch's."""
    def program(lib):
        def f(a):
            return a * 2 if callable(3) or not callable(len) else a - 1
        return f
    results = []
    for lib in (torch, minitorch2):
        (torch._dynamo if lib is torch else frontend).reset()
        results.append(_to_np(lib.compile(program(lib), backend="eager")(lib.tensor(ARRAYS[0]))))
    _assert_close(results[1], results[0])


def test_an_input_grad_is_guarded():
    """x.grad of an input is read through its source: None folds (guarded), and once the input has a gradient the
    frame recompiles and reads it as a graph input, as Dynamo's GradSource."""
    def f(x):
        return x * 2 if x.grad is None else x + x.grad
    results = []
    for lib in (torch, minitorch2):
        (torch._dynamo if lib is torch else frontend).reset()
        counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
        x = lib.tensor(ARRAYS[0], requires_grad=True)
        compiled, first = lib.compile(f, backend=counter), None
        with lib.no_grad():
            first = _to_np(compiled(x))
        x.grad = lib.tensor(ARRAYS[1])
        with lib.no_grad():
            results.append((first, _to_np(compiled(x)), counter.frame_count))
    _assert_close(results[1][:2], results[0][:2])
    assert results[1][2] == results[0][2] == 2


@pytest.mark.parametrize("name", ["missing_key_after_an_op", "raise_after_an_op", "raise_through_finally",
                                  "handler_of_another_class"])
def test_an_exception_no_handler_catches_runs_the_frame_eagerly(name):
    """As Dynamo's "Observed exception": no frame is compiled, the call raises the program's own exception, and under
    fullgraph=True the compile fails (Unsupported)."""
    seen = []
    for lib, reset, counter in ((torch, torch._dynamo.reset, torch._dynamo.testing.CompileCounter()),
                                (minitorch2, frontend.reset, CompileCounter())):
        namespace = {"torch": lib}
        exec(compile(UNCAUGHT_SRC, "<uncaught>", "exec"), namespace)
        reset()
        with pytest.raises(Exception) as raised:
            lib.compile(namespace[name], backend=counter)(lib.tensor(ARRAYS[0]))
        reset()
        with pytest.raises(torch._dynamo.exc.Unsupported if lib is torch else frontend.exc.Unsupported):
            lib.compile(namespace[name], backend="eager", fullgraph=True)(lib.tensor(ARRAYS[0]))
        seen.append((type(raised.value).__name__, str(raised.value), counter.frame_count, counter.op_count))
    assert seen[1] == seen[0]


def test_an_objects_dict_read_in_the_frame_is_guarded_on_its_keys():
    """vars(_SETTINGS) read through its source: a new attribute on the object recompiles, and the value is eager torch's
    (Dynamo 2.13 itself does not guard the keys here: its second call returns the first call's len(d), a stale value)."""
    frontend.reset()
    counter, args = CompileCounter(), [minitorch2.tensor(a) for a in ARRAYS]
    compiled = minitorch2.compile(MT_NS["uc_vars_of_a_global_object"], backend=counter)
    compiled(*args)
    MT_NS["_SETTINGS"].extra = TORCH_NS["_SETTINGS"].extra = 4
    try:
        ours = _to_np(compiled(*args))
        eager = _to_np(TORCH_NS["uc_vars_of_a_global_object"](*[torch.tensor(a) for a in ARRAYS]))
    finally:
        del MT_NS["_SETTINGS"].extra, TORCH_NS["_SETTINGS"].extra
    assert counter.frame_count == 2
    _assert_close(ours, eager)
