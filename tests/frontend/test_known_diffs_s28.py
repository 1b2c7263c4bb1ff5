"""Known differences from Dynamo closed in session 28, beyond the ported programs that now pass in place.

torch.utils.checkpoint under compile: reachable as `torch.utils.checkpoint` after `import torch` alone (torch loads
it with the package); `checkpoint(fn, *args, use_reentrant=False)` captured as one tag_activation_checkpoint
higher-order op over a `wrap_body_0` graph, as Dynamo's (its inputs: the call's tensors, then the parameters and
closed-over tensors the body reads; fn's own keyword arguments traced into the body). Values and gradients (of the
inputs and of a module's parameters) on the eager, aot_eager and inductor backends against torch's.

A module with a full backward hook: a break at its call, its forward compiled as a frame of its own, as Dynamo's.
register_buffer in forward: the buffer read back in the frame (from the module's tracked buffer table), as Dynamo's.
f"{e}" of an exception made in the frame: a graph break, as Dynamo's (inside its handler: the frame runs eagerly);
f"{e!s}" and f"{e!r}" are folded, as Dynamo's. A tensor attribute that does not exist: AttributeError raised in the traced program, its handler traced on.
`assert t` on a tensor: Dynamo's rewrite into torch._assert_async (counts as Dynamo's; a failing one raises
RuntimeError with the message where the graph runs).
"""
import numpy as np
import pytest
import torch
import torch._dynamo

import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

from .test_dynamo_tests_ported import _build as _build_ported, _names, check_against_dynamo

SRC = """
class Lin(lib.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = lib.nn.Parameter(lib.linspace(-1, 1, 9).reshape(3, 3))
    def forward(self, x):
        return x @ self.w
lin = Lin()
lin.register_forward_hook(lambda m, args, out: out + 1)
shift = lib.linspace(0.5, 1.5, 3)
def block(x, y, scale=1.0):
    return (x * y).sin() * scale + shift, x.cos()
def two_outputs_and_fn_kwarg(a, b):
    u, v = lib.utils.checkpoint.checkpoint(block, a, b, use_reentrant=False, scale=3.0)
    return u * v
def module_with_hook(a, b):
    return lib.utils.checkpoint.checkpoint(lin, a, use_reentrant=False) + b
def twice_in_one_frame(a, b):
    h = lib.utils.checkpoint.checkpoint(block, a, b, use_reentrant=False)[0]
    return lib.utils.checkpoint.checkpoint(block, h, a, use_reentrant=False)[1] - h
"""
PROGRAMS = ("two_outputs_and_fn_kwarg", "module_with_hook", "twice_in_one_frame")


def _build(lib):
    namespace = {"lib": lib}
    exec(SRC, namespace)
    return namespace


def _recording_backend(lib, graphs):
    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward
    return backend


def _run(lib, name, backend):
    ns = _build(lib)
    (torch._dynamo if lib is torch else frontend).reset()
    a = lib.tensor(np.array([-1.0, 0.25, 2.0], "float32"), requires_grad=True)
    b = lib.tensor(np.array([0.5, -1.5, 1.0], "float32"))
    out = lib.compile(ns[name], backend=backend)(a, b)
    out.sum().backward()
    return [t.detach().numpy() for t in (out, a.grad, ns["lin"].w.grad if ns["lin"].w.grad is not None else a)]


def test_checkpoint_is_an_attribute_after_import_torch_alone():
    assert minitorch2.utils.checkpoint.checkpoint is not None and torch.utils.checkpoint.checkpoint is not None


@pytest.mark.parametrize("name", PROGRAMS)
def test_checkpoint_graph_as_dynamo(name):
    ours, theirs = [], []
    _run(minitorch2, name, _recording_backend(minitorch2, ours))
    _run(torch, name, _recording_backend(torch, theirs))
    assert len(ours) == len(theirs) == 1

    def names(gm):  # the nodes of the frame's graph, then of each body: their kinds and the functions called
        bodies = [getattr(gm, f"wrap_body_{i}") for i in range(3) if hasattr(gm, f"wrap_body_{i}")]
        return [[(n.op, getattr(n.target, "__name__", "") if n.op == "call_function" else "") for n in g.graph.nodes]
                for g in (gm, *bodies)]

    assert names(ours[0]) == names(theirs[0])


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_checkpoint_values_and_gradients_match_torch(name, backend):
    ours, theirs = _run(minitorch2, name, backend), _run(torch, name, backend)
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o, t, rtol=1e-5, atol=1e-6)


# `assert` on a tensor: Dynamo records torch._assert_async (the assert's constant message, or "assertion error") and
# goes on; a message that is no constant, or `assert not t` (a jump on falsehood), is a graph break.
ASSERTS = '''
def assert_with_message(a, b):
    assert (a > -100).all(), "bounded"
    return a + b
def assert_without_message(a, b):
    c = a * b
    assert c.sum() < 100
    return c.sin()
def assert_not(a, b):
    assert not (a > 100).any()
    return a - b
def assert_formatted_message(a, b):
    assert (a > -100).all(), f"min {b.shape}"
    return a + b
def missing_tensor_attribute_caught(a, b):
    c = a + 1
    try:
        d = c.no_such_attribute
    except AttributeError as e:
        d = c * len(str(e))
    return d + b
def missing_input_attribute_message(a, b):
    try:
        d = a.no_such_attribute
    except AttributeError as e:
        d = a * len(str(e))
    return d + b
def missing_tensor_attribute_default(a, b):
    return getattr(a * 2, "no_such_attribute", 3) * b
def missing_tensor_attribute_in_helper_caught_outside(a, b):
    def read(t):
        return t.no_such_attribute
    try:
        return read(a)
    except AttributeError:
        return b - a
def exception_repr_in_fstring(a, b):
    try:
        raise ValueError("bad")
    except ValueError as e:
        msg = f"{e!r}"
    return a * len(msg) + b
def exception_formatted_after_its_handler(a, b):
    c = a * 2
    try:
        raise KeyError("k")
    except KeyError as e:
        err = e
    return c + len(f"{err}") + b
def exception_str_conversion_in_fstring(a, b):
    try:
        raise ValueError("bad")
    except ValueError as e:
        msg = f"{e!s}"
    return a * len(msg) + b
def assert_in_helper(a, b):
    def check(t):
        assert t.abs().max() < 1e6, "huge"
        return t * 2
    return check(a) + b
'''
ASSERT_NAMES = _names(ASSERTS)


@pytest.mark.parametrize("name", ASSERT_NAMES)
def test_counts_as_dynamo(name):
    check_against_dynamo(_build_ported(torch, ASSERTS)[name], _build_ported(minitorch2, ASSERTS)[name])


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_failing_assert_on_a_tensor_raises_where_the_graph_runs(backend):
    failing = """
def f(a):
    y = a * 2
    assert (y > 100).all(), "too small"
    return y + 1
"""  # (exec'd: pytest rewrites the asserts written in this file)
    raised = []
    for lib in (torch, minitorch2):
        (torch._dynamo if lib is torch else frontend).reset()
        with pytest.raises(RuntimeError) as info:
            lib.compile(_build_ported(lib, failing)["f"], backend=backend)(lib.ones(3))
        raised.append(str(info.value))
    assert raised[0] == raised[1] == "too small"


REGISTER_BUFFER = """
class Running(lib.nn.Module):
    def forward(self, x):
        previous = self.last if hasattr(self, "last") else x
        self.register_buffer("last", x * 2 + previous)
        return self.last.sin()
m = Running()
def f(a):
    return m(a) + 1
"""


def test_register_buffer_in_forward_as_torch():
    """The buffer registered in forward is read back in the same frame and left on the module, call after call."""
    seen = []
    for lib in (torch, minitorch2):
        (torch._dynamo if lib is torch else frontend).reset()
        ns = {"lib": lib}
        exec(REGISTER_BUFFER, ns)
        compiled = lib.compile(ns["f"], backend="eager")
        outs = [compiled(lib.tensor(np.array(v, "float32"))).numpy() for v in ([1.0, 2.0], [0.5, -1.0], [3.0, 0.0])]
        seen.append((outs, ns["m"].last.numpy(), list(dict(ns["m"].named_buffers()))))
    for o, t in zip(seen[1][0], seen[0][0]):
        np.testing.assert_allclose(o, t, rtol=1e-6)
    np.testing.assert_allclose(seen[1][1], seen[0][1], rtol=1e-6)
    assert seen[1][2] == seen[0][2] == ["last"]


BACKWARD_HOOKED = """
class Lin(lib.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = lib.nn.Parameter(lib.linspace(-1, 1, 9).reshape(3, 3))
    def forward(self, x):
        return (x @ self.w).tanh()
calls = []
m = Lin()
def hook(module, grad_input, grad_output):
    calls.append(len(grad_input))
    return (grad_input[0] * 3,)
m.register_full_backward_hook(hook)
m.register_forward_hook(lambda mod, args, out: out * 2)
def f(a, b):
    return m(a * 2) + b
"""


def test_module_with_full_backward_hook_runs_its_call_eagerly_and_compiles_forward_as_torch():
    """A break at the call of a module with a full backward hook, as Dynamo's; Module.__call__ runs as torch.nn's
    skipped frame, so forward and the forward hook compile as frames of their own and the backward hook fires."""
    seen = []
    for lib in (torch, minitorch2):
        (torch._dynamo if lib is torch else frontend).reset()
        ns = {"lib": lib}
        exec(BACKWARD_HOOKED, ns)
        counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
        a = lib.tensor(np.array([0.5, -1.0, 2.0], "float32"), requires_grad=True)
        out = lib.compile(ns["f"], backend=counter)(a, lib.ones(3))
        out.sum().backward()
        seen.append((counter.frame_count, counter.op_count, out.detach().numpy(), a.grad.numpy(),
                     ns["m"].w.grad.numpy(), ns["calls"]))
    assert seen[1][:2] == seen[0][:2] and seen[1][5] == seen[0][5]
    for o, t in zip(seen[1][2:5], seen[0][2:5]):
        np.testing.assert_allclose(o, t, rtol=1e-5)
