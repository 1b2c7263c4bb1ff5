"""Autocast and compiled frames: the autocast state is part of the global-state guard (a call under another
autocast recompiles), a graph runs its ops under the autocast it was traced in, and an autocast block inside
the frame is recorded in the graph as _enter_autocast/_exit_autocast calls, as in Dynamo.

Each program runs through minitorch2.compile and torch.compile (float16 CPU autocast; bfloat16's in
tests/minitorch2/test_bfloat16.py) and compares values, dtypes, gradients, frame counts and the guard-failure words.
"""
import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter, CompileCounterWithBackend

LIBS = {"mt": (minitorch2, CompileCounterWithBackend),
        "torch": (torch, torch._dynamo.testing.CompileCounterWithBackend)}
BACKENDS = ["eager", "aot_eager", "inductor"]


@pytest.fixture(autouse=True)
def _reset():
    torch._dynamo.reset()
    frontend.reset()
    yield
    torch._dynamo.reset()
    frontend.reset()


def _inputs(lib):
    data = np.random.default_rng(0).standard_normal(32).astype(np.float32)
    return lib.tensor(data[:12].reshape(3, 4)), lib.tensor(data[12:].reshape(4, 5))


def _counter(lib, Counter, backend):
    """A counting backend (inductor: torch's computes float16 in float32 inside its kernels, as ours)."""
    return Counter(backend)


def _same(ours, theirs, rtol=1e-6):
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("backend", BACKENDS)
def test_call_under_another_autocast_recompiles(backend):
    results = {}
    for name, (lib, Counter) in LIBS.items():
        cnt = _counter(lib, Counter, backend)
        f = lib.compile(lambda a, b: a @ b, backend=cnt)
        a, b = _inputs(lib)
        outs = [f(a, b)]
        with lib.autocast("cpu", dtype=lib.float16):
            outs += [f(a, b), f(a, b)]
        outs.append(f(a, b))  # the first entry again
        with lib.autocast("cpu", dtype=lib.float16, cache_enabled=False):
            outs.append(f(a, b))
        results[name] = outs, cnt.frame_count
    (ours, our_count), (theirs, their_count) = results["mt"], results["torch"]
    assert [str(o.dtype) for o in theirs] == ["torch.float32"] + ["torch.float16"] * 2 + ["torch.float32",
                                                                                        "torch.float16"]
    for o, t in zip(ours, theirs):
        _same(o, t, rtol=1e-3)
    assert our_count == their_count == 3


def test_global_state_guard_names_autocast_changes_as_dynamo():
    f = minitorch2.compile(lambda x: x + 1, backend="eager")
    f(minitorch2.ones(2))
    guard_fn = frontend.eval_frame.CACHE[f.__wrapped__.__code__][0].guard_fn
    torch_guard = torch._C._dynamo.guards.GlobalStateGuard()
    cases = [dict(dtype=torch.float16), dict(dtype=torch.float16, cache_enabled=False)]
    for kwargs in cases:
        ours_kwargs = {k: minitorch2.float16 if v is torch.float16 else v for k, v in kwargs.items()}
        with torch.autocast("cpu", **kwargs), minitorch2.autocast("cpu", **ours_kwargs), \
                torch.no_grad(), minitorch2.no_grad():
            theirs = torch_guard.reason()
            assert guard_fn({"x": minitorch2.ones(2)}, {}) == f"GLOBAL_STATE changed: {theirs.strip()}"
    assert theirs.split() == ["grad_mode", "autocast(cpu)_enabled", "autocast_cache_enabled"]
    assert guard_fn({"x": minitorch2.ones(2)}, {}) is None
    # under autocast, a change of its dtype alone
    with minitorch2.autocast("cpu", dtype=minitorch2.float16):
        g = minitorch2.compile(lambda x: x - 1, backend="eager")
        g(minitorch2.ones(2))
    guard_fn = frontend.eval_frame.CACHE[g.__wrapped__.__code__][0].guard_fn
    minitorch2.set_autocast_enabled("cpu", True)
    minitorch2.set_autocast_dtype("cpu", minitorch2.float32)
    try:
        assert guard_fn({"x": minitorch2.ones(2)}, {}) == "GLOBAL_STATE changed: autocast(cpu)_dtype"
    finally:
        minitorch2.set_autocast_enabled("cpu", False)
        minitorch2.set_autocast_dtype("cpu", minitorch2.bfloat16)


def _block(lib):
    def f(a, b, w):
        x = a * 2
        with lib.autocast("cpu", dtype=lib.float16):
            c = x @ w
            loss = lib.nn.functional.mse_loss(c, b[:3])
        return c.float().sin(), c, loss
    return f


@pytest.mark.parametrize("backend", BACKENDS)
def test_autocast_block_inside_the_frame(backend):
    results = {}
    for name, (lib, Counter) in LIBS.items():
        cnt = _counter(lib, Counter, backend)
        a, b = _inputs(lib)
        w = lib.tensor(np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5), requires_grad=True)
        f = lib.compile(_block(lib), backend=cnt)
        outs = f(a, b, w)
        (outs[0].sum() + outs[2]).backward()
        outs += (w.grad, f(a, b, w)[1])
        results[name] = outs, cnt.frame_count, lib.is_autocast_enabled("cpu")
    (ours, our_count, our_state), (theirs, their_count, their_state) = results["mt"], results["torch"]
    assert [str(o.dtype) for o in theirs] == ["torch.float32", "torch.float16", "torch.float32", "torch.float32",
                                              "torch.float16"]
    for o, t in zip(ours, theirs):
        _same(o, t, rtol=1e-3)
    assert our_count == their_count == 1 and our_state is their_state is False


def test_autocast_block_is_recorded_in_the_graph():
    graphs = {}
    for name, (lib, _) in LIBS.items():
        cnt = CompileCounter() if lib is minitorch2 else torch._dynamo.testing.CompileCounter()
        captured = []

        def backend(gm, example_inputs, captured=captured):
            captured.append(gm)
            return gm.forward

        a, b = _inputs(lib)
        lib.compile(_block(lib), backend=backend)(a, b, lib.ones(4, 5))
        graphs[name] = [(n.op, getattr(n.target, "__name__", n.target), n.args[:4] if "enter" in str(n.target)
                         else None) for n in captured[0].graph.nodes]
        del cnt
    ours, theirs = graphs["mt"], graphs["torch"]
    assert [n[:2] for n in ours] == [n[:2] for n in theirs]
    enter = [n for n in ours if n[1] == "_enter_autocast"]
    assert [str(a) for a in enter[0][2]] == ["cpu", "torch.float16", "True", "None"]
    assert [str(a) for a in [n for n in theirs if n[1] == "_enter_autocast"][0][2]] == ["cpu", "torch.float16",
                                                                                         "True", "None"]


def test_disabled_block_inside_an_outer_autocast():
    results = {}
    for name, (lib, Counter) in LIBS.items():
        cnt = Counter("eager")

        def f(a, b):
            with lib.autocast("cpu", enabled=False):
                c = a @ b
            return c, a @ b

        a, b = _inputs(lib)
        with lib.autocast("cpu", dtype=lib.float16):
            outs = lib.compile(f, backend=cnt)(a, b)
        results[name] = outs, cnt.frame_count
    for o, t in zip(results["mt"][0], results["torch"][0]):
        _same(o, t, rtol=1e-3)
    assert results["mt"][1] == results["torch"][1] == 1


def test_break_inside_an_autocast_block_runs_eagerly_and_leaves_autocast():
    """Dynamo resumes after the break inside the block; we run the frame eagerly: the same values and dtypes."""
    outs = {}
    for name, (lib, _) in LIBS.items():
        brk = frontend.graph_break if lib is minitorch2 else torch._dynamo.graph_break

        def f(a, b):
            with lib.autocast("cpu", dtype=lib.float16):
                c = a @ b
                brk()
                d = a @ b
            return c, d, a @ b

        outs[name] = lib.compile(f, backend="eager")(*_inputs(lib))
        assert not lib.is_autocast_enabled("cpu")
    for o, t in zip(outs["mt"], outs["torch"]):
        _same(o, t, rtol=1e-3)
