"""Frames Dynamo runs eagerly still let the functions they call compile: counts and values against Dynamo 2.13.

When Dynamo skips a frame (a graph break inside a loop or a try block, a compile that failed under suppress_errors,
a function marked disable(recursive=False)), CPython runs it as written while Dynamo's frame callback stays
installed, so each user function, user method or user module's forward it calls is a new frame that compiles on its
own (torch.nn's own modules are skipped files: they run as written, the user modules they call compile).
frontend/eager_frame.py plays that callback by routing the skipped frame's calls. disable(recursive=True) stops
the callees too, and compiling a disabled function directly compiles it. Each program is run through torch.compile
and minitorch2.compile with CompileCounter backends.
"""
import warnings

import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

SRC = r'''
import contextlib

def _h0(a):
    return torch.relu(a) * 2
def _h1(a, k=1.0, *, shift=0.0):
    return a.sin() * k + shift
class _Helper:
    def scaled(self, t):
        return t.cos() + 1

def loop_break_calls_helper(a, b):
    v = torch.relu(a)
    for i in range(2):
        dynamo.graph_break()
        v = v * 0.5 + _h0(a)
    return v
def loop_break_keyword_star_and_method_calls(a, b):
    out = a
    for i in range(2):
        dynamo.graph_break()
        out = out + _h1(a, 2.0, shift=1.0) + _h1(*(b, 2.0), shift=1.0) + _h1(*(a,), **{"k": 2.0, "shift": 1.0})
        out = out + _Helper().scaled(b)
    return out
def loop_break_calls_closure_and_lambda(a, b):
    def inner(t):
        return t.exp() - b
    total = a
    for i in range(2):
        dynamo.graph_break()
        total = total + inner(a) + (lambda t: t.tanh())(b)
    return total
def try_break_calls_helper(a, b):
    try:
        y = a + 1
        dynamo.graph_break()
        y = _h0(y)
    except ValueError:
        y = a
    return y
@contextlib.contextmanager
def _ctx():
    yield 2
def with_break_calls_helper(a, b):
    with _ctx() as k:
        y = a * k
        dynamo.graph_break()
        y = _h0(y) + b
    return y
@dynamo.disable
def _disabled(t):
    return _h0(t) + 1
@dynamo.disable(recursive=False)
def _disabled_frame_only(t):
    return _h0(t) + 1
def calls_disabled(a, b):
    return _disabled(a.sin()).cos() + b
def calls_disabled_frame_only(a, b):
    return _disabled_frame_only(a.sin()).cos() + b
@torch.no_grad()
def _no_grad_helper(t):
    return t * 3
def loop_break_calls_no_grad_helper(a, b):
    for i in range(2):
        dynamo.graph_break()
        a = _no_grad_helper(a) + b
    return a
class _Breaker(nn.Module):
    def forward(self, x):
        x = x + 1
        dynamo.graph_break()
        return x * 2
_SEQ = nn.Sequential(nn.ReLU(), _Breaker(), nn.Tanh())
def calls_library_module_holding_a_breaking_module(a, b):
    return _SEQ(a.sin()).cos() + b

class _Block(nn.Module):
    def forward(self, x):
        return torch.tanh(x) * 2
class LoopBreakModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.block = _Block()
    def helper(self, t):
        return t.cos() + 1
    def forward(self, x):
        for i in range(2):
            dynamo.graph_break()
            x = self.lin(x) + self.helper(x) + self.block(x)
        return x
'''
NAMES = [line[4:line.index("(")] for line in SRC.splitlines()
         if line.startswith("def ") and not line.startswith("def _")]


def _build(lib):
    dynamo = torch._dynamo if lib is torch else frontend
    namespace = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional, "dynamo": dynamo}
    exec(compile(SRC, "<skipped frames>", "exec"), namespace)
    return namespace


TORCH_NS, MT_NS = _build(torch), _build(minitorch2)
ARRAYS = [np.random.default_rng(seed).standard_normal(3).astype("float32") for seed in (1, 2)]


def _to_np(value):
    return value.detach().numpy() if hasattr(value, "detach") else np.asarray(value)


def _run(lib, fn, args):
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    (torch._dynamo if lib is torch else frontend).reset()
    compiled = lib.compile(fn, backend=counter)
    outputs = [_to_np(compiled(*args)) for _ in range(2)]  # the second: cache hits
    return (counter.frame_count, counter.op_count), outputs


@pytest.mark.parametrize("name", NAMES)
def test_callees_of_a_skipped_frame_compile_as_dynamo(name):
    theirs_counts, theirs = _run(torch, TORCH_NS[name], [torch.tensor(a) for a in ARRAYS])
    ours_counts, ours = _run(minitorch2, MT_NS[name], [minitorch2.tensor(a) for a in ARRAYS])
    assert ours_counts == theirs_counts, f"(frames, ops): ours {ours_counts}, Dynamo {theirs_counts}"
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_a_skipped_modules_user_methods_compile_and_library_modules_do_not():
    results = []
    for lib, ns in ((torch, TORCH_NS), (minitorch2, MT_NS)):
        lib.manual_seed(0)
        model = ns["LoopBreakModule"]()
        model.lin.weight.data = lib.tensor(np.eye(3, dtype="float32") * 0.5)
        results.append(_run(lib, model, [lib.tensor(np.stack(ARRAYS))]))
    assert results[1][0] == results[0][0]
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["_disabled", "_disabled_frame_only"])
def test_compiling_a_disabled_function_compiles_it(name):
    theirs = _run(torch, TORCH_NS[name], [torch.tensor(ARRAYS[0])])
    ours = _run(minitorch2, MT_NS[name], [minitorch2.tensor(ARRAYS[0])])
    assert ours[0] == theirs[0] == (1, 3)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)


def test_a_frame_whose_compile_failed_under_suppress_errors_lets_its_callees_compile():
    """The backend refuses graphs with sin: f's first graph fails, f runs eagerly, and _h0 called in it compiles."""
    counts = []
    for lib, dynamo, ns in ((torch, torch._dynamo, TORCH_NS), (minitorch2, frontend, MT_NS)):
        graphs = []

        def refusing_sin(gm, example_inputs):
            graphs.append([str(n.target) for n in gm.graph.nodes if n.op != "placeholder" and n.op != "output"])
            if any("sin" in target for target in graphs[-1]):
                raise RuntimeError("no sin here")
            return gm.forward

        def f(x):
            y = x.sin()
            dynamo.graph_break()
            return ns["_h0"](y)

        dynamo.reset()
        old, dynamo.config.suppress_errors = dynamo.config.suppress_errors, True
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                outputs = [_to_np(lib.compile(f, backend=refusing_sin)(lib.tensor(ARRAYS[0]))) for _ in range(2)]
        finally:
            dynamo.config.suppress_errors = old
        counts.append((len(graphs), outputs))
    assert counts[1][0] == counts[0][0] == 2
    np.testing.assert_allclose(counts[1][1], counts[0][1], rtol=1e-6)


def test_a_skipped_frame_calling_super_and_locals_runs_as_written():
    """Builtins that read their caller's frame are never called from the routing helper."""
    class Base:
        def g(self, t):
            return t + 1

    class Sub(Base):
        def g(self, t):
            for _ in range(1):
                frontend.graph_break()
                t = super().g(t) * 2 + len(locals())
            return t

    counter = CompileCounter()
    frontend.reset()
    out = minitorch2.compile(Sub().g, backend=counter)(minitorch2.ones(2))
    assert out.tolist() == Sub().g(minitorch2.ones(2)).tolist() == [8.0, 8.0]  # (locals: self, t, _, __class__)



def _size_test(x):
    if x.shape[0] > 2:
        return x.view(-1, 2).sum(1)
    return x


def _reads_sizes(x):
    rows, length = x.size(0), len(x)
    return x


@pytest.mark.parametrize("program, dynamic", [(_size_test, False), (_size_test, None), (_reads_sizes, True)])
def test_a_recompile_that_traces_no_ops_runs_its_code_eagerly_from_then_on(program, dynamic):
    """Dynamo skips a frame that traces no ops, a recompile too, and the skip holds for every later call of the
    code, even one an earlier graph would serve. Reading a dynamic size records nodes (`size = l_x_.size(0)`,
    dropped later): a frame that only reads and tests sizes compiles."""
    runs = []
    for lib, dynamo in ((minitorch2, frontend), (torch, torch._dynamo)):
        dynamo.reset()
        graph_runs = []

        def backend(gm, example_inputs):
            return lambda *args: graph_runs.append(1) or gm.forward(*args)

        compiled = lib.compile(program, backend=backend, dynamic=dynamic)
        per_call = []
        for n in (8, 2, 8, 2, 6):
            before = len(graph_runs)
            np.testing.assert_allclose(compiled(lib.ones(n)).numpy(), program(lib.ones(n)).numpy())
            per_call.append(len(graph_runs) - before)
        runs.append(per_call)
    assert runs[0] == runs[1]
