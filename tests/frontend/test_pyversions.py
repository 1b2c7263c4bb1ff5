"""The frontend on every Python it supports (3.11, 3.12, 3.13), without torch.

Each program below is compiled with minitorch2.compile(backend=CompileCounter) and
compared with the uncompiled call on minitorch2: values (allclose), printed output and
in-place mutations of the inputs must match, and frame_count must equal the number
written next to the program. The programs cover the bytecode that changed between
3.11 and 3.13 (calls and their NULL, method loads, keyword calls, inlined
comprehensions, slices, `*args` unpacking, closures, loops, `with no_grad()`, branches
on None and on shapes) and graph breaks with resume functions (print, a data-dependent
`if`, dynamo.graph_break() in straight code, in a loop with config.resume_inside_loops,
and in a try body, which runs eagerly as in Dynamo). Every program of the oracle
corpus (corpus.py) also runs compiled and uncompiled on minitorch2 alone, so the
interpreters without torch check those values too. CI runs tests/frontend on each
interpreter it finds (.ci/run).
"""
import contextlib
import io
import sys

import numpy as np
import pytest

import frontend
import minitorch2
from frontend import config
from frontend.testing import CompileCounter
from minitorch2 import nn

W = minitorch2.ones(4, 4) * 0.5
SCALE = 3


def helper_defaults(a, b=2.0, *rest, scale=1.0, **extra):
    total = a * b * scale
    for r in rest:
        total = total + r
    return total + extra.get("shift", 0)


def helper_plain(t):
    return t.sin() + 1


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)
        self.blocks = nn.ModuleList([nn.Linear(3, 3), nn.Linear(3, 3)])

    def forward(self, x):
        h = self.fc1(x).relu()
        h = self.fc2(h)
        for block in self.blocks:
            h = h + block(h)
        return h


# ---- captured in one graph -------------------------------------------------------------------

def p_arith(x):
    return (x * 2 + 1) / 3 - x ** 2 + (-x) + (+x)


def p_methods_kwargs(x):
    return x.sum(dim=0, keepdim=True).exp() + x.mean(dim=1).unsqueeze(1)


def p_torch_functions(x, y):
    return minitorch2.relu(x) + minitorch2.maximum(x, y) + minitorch2.where(x > y, x, y)


def p_globals(x):
    return x @ W + SCALE


def p_inline_defaults(x):
    return helper_defaults(x) + helper_defaults(x, 3.0, x, x, scale=0.5, shift=2)


def p_star_args(x, y):
    args = (x, y)
    kwargs = {"alpha": 2}
    return minitorch2.add(*args, **kwargs) + helper_defaults(*args)


def p_closure(x):
    k = 3

    def inner(t, m=2):
        return t * k + m
    return inner(x) + inner(x, m=5)


def p_lambda(x):
    scale = lambda t: t * 0.5  # noqa: E731
    return scale(x) + scale(scale(x))


def p_list_comprehension(x):
    parts = [x * i for i in range(3)]
    return parts[0] + parts[1] * parts[2] + len(parts)


def p_dict_comprehension(x):
    d = {i: x + i for i in range(2)}
    return d[0] * d[1]


def p_comprehension_shadows_local(x):
    i = 10
    ys = [x + i for i in range(2)]
    return ys[0] + ys[1] + i


def p_loop_range(x):
    acc = x
    for i in range(4):
        acc = acc * 0.5 + i
    return acc


def p_loop_list(x):
    acc = x
    for scale in [1.0, 2.0, 3.0]:
        acc = acc + x * scale
    return acc


def p_dicts(x):
    d = {"a": x, "b": x * 2}
    d["c"] = d["a"] + d["b"]
    total = 0
    for key, value in d.items():
        total = total + value
    return total, list(d.keys())


def p_unpacking(x):
    a, b = x.chunk(2, dim=0)
    first, *rest = [a, b, a + b]
    (p, q), r = (a, b), rest[0]
    return first + rest[1] + p * q + r


def p_slices(x):
    y = x[1:3]
    z = x[:, :2]
    w = x.clone()
    w[1:3] = 0.0
    return y.sum() + z.mean() + x[::2].sum() + w


def p_no_grad(x):
    with minitorch2.no_grad():
        y = x * 2
    return y + 1


def p_inplace(x):
    y = x.clone()
    y.add_(1)
    y.mul_(2)
    y += x
    return y


def p_inplace_input(x):
    x.add_(1)
    return x * 2


def p_none_branch(x, bias=None):
    if bias is None:
        return x * 2
    return x + bias


def p_shape_branch(x):
    if x.shape[0] > 2 and x.dim() == 2:
        return x.sum()
    return x.mean()


def p_tuple_return_and_is(x):
    flag = x.dim() == 2
    out = (x.relu(), x.tanh()) if flag is True else (x,)
    return out


def p_while_constant(x):
    n = 0
    while n < 3:
        x = x + n
        n += 1
    return x


# ---- graph breaks ----------------------------------------------------------------------------

def b_print(x):
    y = x + 1
    print("middle", 3)
    return y * 2


def b_data_if(x):
    y = x * 2
    if y.sum() > 0:
        return y + 1
    return y - 1


def b_print_kwargs(x):
    y = x + 1
    print("shape", tuple(y.shape), sep="=", end="!\n")
    return y * 2


def b_truthiness(x):
    y = (x * 0).sum()
    if y:
        return x + 1
    return x - 1


def b_break_in_kw_call(x):
    def scaled(a, scale=1.0):
        print("scaled")
        return a * scale
    return scaled(x, scale=3.0) + 1


def b_explicit_break(x):
    y = x.sin()
    frontend.graph_break()
    return y.cos() + helper_plain(y)


def b_break_in_helper(x):
    def inner(t):
        t = t + 1
        frontend.graph_break()
        return t * 2
    return inner(x.cos()) - 1


def b_two_breaks(x):
    a = x + 1
    frontend.graph_break()
    b = a * 2
    print("second", b.shape)
    return b - 1


def b_break_in_no_grad(x):
    with minitorch2.no_grad():
        y = x * 2
        frontend.graph_break()
        z = y + 1
    return z * 3


def b_break_in_loop(x):
    for i in range(3):
        x = x + i
        frontend.graph_break()
    return x * 2


def b_break_in_try(x):
    try:
        y = x + 1
        print("in try")
        y = y * 3
    except ValueError:
        y = x
    return y


def _module_call():
    minitorch2.manual_seed(0)
    return Net()


# name -> (function or module maker, input shapes, frame_count after one call, config overrides)
CASES = {
    "p_arith": (p_arith, [(3, 4)], 1),
    "p_methods_kwargs": (p_methods_kwargs, [(3, 4)], 1),
    "p_torch_functions": (p_torch_functions, [(3, 4), (3, 4)], 1),
    "p_globals": (p_globals, [(3, 4)], 1),
    "p_inline_defaults": (p_inline_defaults, [(3, 4)], 1),
    "p_star_args": (p_star_args, [(3, 4), (3, 4)], 1),
    "p_closure": (p_closure, [(3, 4)], 1),
    "p_lambda": (p_lambda, [(3, 4)], 1),
    "p_list_comprehension": (p_list_comprehension, [(3, 4)], 1),
    "p_dict_comprehension": (p_dict_comprehension, [(3, 4)], 1),
    "p_comprehension_shadows_local": (p_comprehension_shadows_local, [(3, 4)], 1),
    "p_loop_range": (p_loop_range, [(3, 4)], 1),
    "p_loop_list": (p_loop_list, [(3, 4)], 1),
    "p_dicts": (p_dicts, [(3, 4)], 1),
    "p_unpacking": (p_unpacking, [(4, 4)], 1),
    "p_slices": (p_slices, [(4, 4)], 1),
    "p_no_grad": (p_no_grad, [(3, 4)], 1),
    "p_inplace": (p_inplace, [(3, 4)], 1),
    "p_inplace_input": (p_inplace_input, [(3, 4)], 1),
    "p_none_branch": (p_none_branch, [(3, 4)], 1),
    "p_shape_branch": (p_shape_branch, [(3, 4)], 1),
    "p_tuple_return_and_is": (p_tuple_return_and_is, [(3, 4)], 1),
    "p_while_constant": (p_while_constant, [(3, 4)], 1),
    "m_module": (_module_call, [(2, 4)], 1),
    # a graph before the break and one in the resume function
    "b_print": (b_print, [(3, 4)], 2),
    # the graph before the branch, then the branch taken (a resume function per branch)
    "b_data_if": (b_data_if, [(3, 4)], 2),
    "b_explicit_break": (b_explicit_break, [(3, 4)], 2),
    # keyword arguments of the natively run call (3.12: KW_NAMES, 3.13: CALL_KW)
    "b_print_kwargs": (b_print_kwargs, [(3, 4)], 2),
    # `if tensor:` (3.13 breaks at TO_BOOL)
    "b_truthiness": (b_truthiness, [(3, 4)], 2),
    # the break is inside a function called with a keyword, which then runs as its own frame: no ops before
    # either break (no graph), `a * scale` after print, `+ 1` in f's resume function
    "b_break_in_kw_call": (b_break_in_kw_call, [(3, 4)], 2),
    # f's graph before the call, inner's two halves, f's rest after the call
    "b_break_in_helper": (b_break_in_helper, [(3, 4)], 4),
    "b_two_breaks": (b_two_breaks, [(3, 4)], 3),
    "b_break_in_no_grad": (b_break_in_no_grad, [(3, 4)], 2),
    # Dynamo's rule: a break inside a loop runs the frame eagerly ...
    "b_break_in_loop": (b_break_in_loop, [(3, 4)], 0),
    # ... unless resuming inside loops is on: x + 0, x + 1, x + 2 then the rest, one graph each
    "b_break_in_loop_resumed": (b_break_in_loop, [(3, 4)], 4, {"resume_inside_loops": True}),
    # a break inside a try block runs the frame eagerly
    "b_break_in_try": (b_break_in_try, [(3, 4)], 0),
}


def _inputs(shapes, seed):
    rng = np.random.default_rng(seed)
    return [minitorch2.tensor(rng.standard_normal(s).astype(np.float32)) for s in shapes]


def _run(fn, args):
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        out = fn(*args)
    return out, buffer.getvalue()


def _assert_close(a, b, where="out"):
    if isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b), f"{where}: {a!r} vs {b!r}"
        for k, (x, y) in enumerate(zip(a, b)):
            _assert_close(x, y, f"{where}[{k}]")
    elif isinstance(a, dict):
        assert type(a) is type(b) and list(a) == list(b), f"{where}: {a!r} vs {b!r}"
        for k in a:
            _assert_close(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, minitorch2.Tensor):
        assert isinstance(b, minitorch2.Tensor) and tuple(a.shape) == tuple(b.shape), f"{where}: {a!r} vs {b!r}"
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-6, err_msg=where)
    else:
        assert a == b, f"{where}: {a!r} vs {b!r}"


@pytest.fixture(autouse=True)
def _reset():
    frontend.reset()
    grad_enabled = minitorch2.is_grad_enabled()
    yield
    frontend.reset()
    minitorch2.set_grad_enabled(grad_enabled)  # a grad-mode bug in one program must not leak into the next


@pytest.mark.parametrize("name", list(CASES))
def test_compiled_equals_eager(name, monkeypatch):
    fn, shapes, expected_frames, *overrides = CASES[name]
    for key, value in (overrides[0] if overrides else {}).items():
        monkeypatch.setattr(config, key, value)
    if name.startswith("m_"):
        fn = fn()
    eager_args, compiled_args = _inputs(shapes, 0), _inputs(shapes, 0)
    eager_out, eager_printed = _run(fn, eager_args)
    counter = CompileCounter()
    out, printed = _run(minitorch2.compile(fn, backend=counter), compiled_args)
    _assert_close(out, eager_out)
    _assert_close(compiled_args, eager_args, "inputs after the call")
    assert printed == eager_printed
    assert counter.frame_count == expected_frames
    again_args = _inputs(shapes, 1)
    again_out, _ = _run(minitorch2.compile(fn, backend=counter), again_args)  # cache hit: no new frames
    _assert_close(again_out, _run(fn, _inputs(shapes, 1))[0], "second call")
    assert counter.frame_count == expected_frames


# ---- the oracle corpus, on minitorch2 alone ------------------------------------------------------
# test_corpus.py compares every corpus program with Dynamo (it needs torch); here each one runs compiled
# and uncompiled on minitorch2 only, so the interpreters without torch check the same programs' values.

def _corpus_arg(spec, rng):
    from .corpus import Arg

    if not isinstance(spec, Arg):
        return spec
    if spec.kind in ("list", "dict"):
        return [] if spec.kind == "list" else {}
    if spec.kind == "tensor_list":
        return [_corpus_arg(Arg(spec.shape[1:]), rng) for _ in range(spec.shape[0])]
    if spec.kind == "tensor_dict":
        return {"a": _corpus_arg(Arg(spec.shape), rng), "b": _corpus_arg(Arg(spec.shape), rng)}
    if spec.dtype == "int64":
        return minitorch2.tensor(rng.integers(0, 3, spec.shape).astype(np.int64))
    t = minitorch2.tensor(rng.standard_normal(spec.shape).astype(spec.dtype))
    return t.requires_grad_(True) if spec.requires_grad else t


def _corpus_program(name):
    from .corpus import PROGRAM, build

    minitorch2.manual_seed(0)  # the same module-level parameters in every build
    obj = build(minitorch2)[PROGRAM.get(name, name)]
    if isinstance(obj, type):
        minitorch2.manual_seed(0)
        obj = obj()
    return obj


def _corpus_names():
    from .corpus import CASES

    return [case.name for case in CASES]


@pytest.mark.parametrize("name", _corpus_names())
def test_corpus_program_compiled_equals_eager(name):
    from .corpus import CASES

    case = next(c for c in CASES if c.name == name)
    eager, compiled = _corpus_program(name), minitorch2.compile(_corpus_program(name), backend="eager")
    for k, call in enumerate(case.calls):
        specs, grad = (call["args"], call.get("grad", True)) if isinstance(call, dict) else (call, True)
        results = []
        for fn in (eager, compiled):
            rng = np.random.default_rng(k)
            with minitorch2.set_grad_enabled(grad):
                results.append(_run(fn, [_corpus_arg(spec, rng) for spec in specs]))
        (eager_out, eager_printed), (out, printed) = results
        _assert_close(out, eager_out, f"call {k}")
        assert printed == eager_printed, f"call {k}"


def test_eager_backend_matches():
    """backend="eager" (no counter) gives the same values on each interpreter."""
    x = _inputs([(3, 4)], 2)[0]
    for fn in (p_inline_defaults, p_list_comprehension, b_print, b_data_if):
        out, _ = _run(minitorch2.compile(fn, backend="eager"), [x])
        _assert_close(out, _run(fn, [x])[0], fn.__name__)


def test_running_python_is_supported():
    from frontend import pyversion

    assert sys.version_info[:2] in pyversion.SUPPORTED
    pyversion.check_supported()


# ---- exceptions raised and caught in the frame, on minitorch2 alone ---------------------------------------
# The exception table and the opcodes that read it differ between 3.11 and 3.13; test_dynamo_style_more.py compares
# these programs with Dynamo, which compiles each in one frame (a graph break in an `except` body: none, eager).

def _exception_programs():
    from .corpus_dynamo_style_more import MORE_PROGRAMS, MORE_SRC

    namespace = {"torch": minitorch2, "nn": nn, "F": nn.functional, "dynamo": frontend}
    exec(compile(MORE_SRC, "<dynamo style more>", "exec"), namespace)
    return {name: namespace[name] for name in MORE_PROGRAMS if name.startswith("te_")}


EXCEPTION_PROGRAMS = _exception_programs()
FRAMES_OF_EXCEPTION_PROGRAMS = {"te_graph_break_in_except": 0, "te_break_after_a_handled_exception": 2}  # else 1


@pytest.mark.parametrize("name", list(EXCEPTION_PROGRAMS))
def test_caught_exception_compiled_equals_eager(name):
    fn, counter = EXCEPTION_PROGRAMS[name], CompileCounter()
    out, _ = _run(minitorch2.compile(fn, backend=counter), _inputs([(3,), (3,)], 0))
    _assert_close(out, _run(fn, _inputs([(3,), (3,)], 0))[0])
    assert counter.frame_count == FRAMES_OF_EXCEPTION_PROGRAMS.get(name, 1)


def test_uncaught_exception_runs_the_frame_eagerly():
    from .corpus_dynamo_style_more import UNCAUGHT_SRC

    namespace = {"torch": minitorch2}
    exec(compile(UNCAUGHT_SRC, "<uncaught>", "exec"), namespace)
    for name in ("missing_key_after_an_op", "raise_after_an_op", "raise_through_finally", "handler_of_another_class"):
        counter = CompileCounter()
        with pytest.raises((KeyError, ValueError, namespace["_Stop"])):
            minitorch2.compile(namespace[name], backend=counter)(*_inputs([(3,)], 0))
        assert counter.frame_count == 0, name
