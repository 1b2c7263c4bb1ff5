"""`with frontend.optimize(backend):` (frontend/profile_capture.py): routing, restoration, threads, lifetimes."""
import gc
import sys
import threading
import weakref

import numpy as np
import pytest

import frontend
import minitorch2
from frontend.testing import CompileCounter
from minitorch2 import nn


@pytest.fixture(autouse=True)
def _reset():
    frontend.reset()
    yield
    frontend.reset()


def helper(x):
    return x.cos() + 1


def f(x):
    return helper(x.sin()) * 2


def g(x):
    return f(x) - 1


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 5)
        self.fc2 = nn.Linear(5, 2)

    def forward(self, x):
        return self.fc2(self.fc1(x).relu())


def _close(a, b):
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6, atol=1e-6)


def test_function_called_in_the_block_compiles_on_its_first_call():
    cnt = CompileCounter()
    x = minitorch2.randn(4, 3)
    with frontend.optimize(cnt):
        first = f(x)
        assert cnt.frame_count == 1  # named by the `with` frame: routed ahead of time
        second = f(x)
    assert cnt.frame_count == 1 and cnt.op_count == 4  # sin, cos, +, * in one graph (helper inlined)
    _close(first, f(x))
    _close(second, f(x))


_TABLE = {"g": g}  # calls through the table are invisible to the `with` frame: only the profiler sees g


def test_function_first_seen_by_the_profiler_runs_eagerly_then_compiles():
    cnt = CompileCounter()
    x = minitorch2.randn(2, 2)
    compiled_before = []

    def body():
        for _ in range(3):
            _TABLE["g"](x)
            compiled_before.append(cnt.frame_count)

    with frontend.optimize(cnt):
        body()  # body takes no tensor: runs as written; g is noticed at its first (eager) call
    assert compiled_before == [0, 1, 1]


def test_module_forward_compiles_and_matches_eager():
    minitorch2.manual_seed(0)
    model = MLP()
    x = minitorch2.randn(4, 3)
    cnt = CompileCounter()
    with frontend.optimize(cnt):
        out = model(x)
    assert cnt.frame_count == 1
    _close(out, model(x))
    assert MLP.forward.__code__.co_name == "forward" and MLP.forward.__code__.co_filename == __file__


def test_code_and_profile_restored_after_normal_exit():
    events = []

    def prior_profile(frame, event, arg):
        if event == "call" and frame.f_code is helper.__code__:
            events.append(event)

    original_codes = (f.__code__, helper.__code__)
    sys.setprofile(prior_profile)
    try:
        with frontend.optimize(CompileCounter()):
            assert f.__code__ is not original_codes[0]
            helper(minitorch2.ones(2))
        assert sys.getprofile() is prior_profile
    finally:
        sys.setprofile(None)
    assert (f.__code__, helper.__code__) == original_codes
    assert events == ["call"]  # the prior profile function kept receiving events inside the block


def test_code_and_profile_restored_after_an_exception():
    original = f.__code__
    thread_hook_before = threading.getprofile()
    with pytest.raises(ZeroDivisionError):
        with frontend.optimize(CompileCounter()):
            f(minitorch2.ones(2))
            1 / 0
    assert sys.getprofile() is None
    assert threading.getprofile() is thread_hook_before
    assert f.__code__ is original


def test_thread_started_inside_the_context():
    cnt = CompileCounter()
    x = minitorch2.randn(3, 3)
    results = []

    def worker():
        for _ in range(3):
            results.append(_TABLE["g"](x))

    with frontend.optimize(cnt):
        assert threading.getprofile() is not None
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert threading.getprofile() is None
    assert cnt.frame_count == 1  # g noticed in the thread at its first call, compiled at the second
    for r in results:
        _close(r, g(x))


def test_threads_outside_the_context_run_routed_functions_eagerly():
    cnt = CompileCounter()
    x = minitorch2.randn(3, 3)
    go, done = threading.Event(), []

    def outside():
        go.wait()
        done.append(f(x))

    t = threading.Thread(target=outside)
    t.start()  # started before the context: no capture hook on that thread
    with frontend.optimize(cnt):
        assert f.__code__.co_filename != __file__  # routed
        go.set()
        t.join()
    assert cnt.frame_count == 0
    _close(done[0], f(x))


def test_nested_contexts_use_the_innermost_backend():
    outer, inner = CompileCounter(), CompileCounter()
    x = minitorch2.randn(2, 3)
    with frontend.optimize(outer):
        f(x)
        assert (outer.frame_count, inner.frame_count) == (1, 0)
        frontend.reset()
        with frontend.optimize(inner):
            f(x)
            assert inner.frame_count == 1
        frontend.reset()
        f(x)
        assert outer.frame_count == 2
        assert f.__code__.co_filename != __file__  # still routed by the outer context
    assert f.__code__.co_filename == __file__


def test_closure_is_routed_with_its_cells():
    scale = minitorch2.tensor(3.0)

    def scaled(x):
        return x * scale + 1

    cnt = CompileCounter()
    x = minitorch2.randn(4)
    with frontend.optimize(cnt):
        out = scaled(x)
    assert cnt.frame_count == 1
    _close(out, scaled(x))


def test_disable_inside_the_block_runs_eagerly():
    cnt = CompileCounter()

    @frontend.disable
    def eager_only(x):
        return f(x)

    with frontend.optimize(cnt):
        eager_only(minitorch2.ones(2))
    assert cnt.frame_count == 0


def test_graph_break_inside_the_block_still_equals_eager():
    def breaks(x):
        y = x.sin()
        print("side effect")
        return y * 2

    x = minitorch2.randn(3)
    with frontend.optimize(CompileCounter()):
        out = breaks(x)
    _close(out, breaks(x))


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_compiled_state_does_not_keep_the_module_or_inputs_alive(backend):
    model = MLP()
    x = minitorch2.randn(4, 3, requires_grad=True)
    with frontend.optimize(backend):
        model(x).sum().backward()
    model_ref, x_ref = weakref.ref(model), weakref.ref(x)
    del model, x
    gc.collect()
    assert model_ref() is None
    assert x_ref() is None


def test_compile_does_not_keep_the_module_or_inputs_alive():
    model = MLP()
    x = minitorch2.randn(4, 3)
    minitorch2.compile(model, backend="aot_eager")(x)
    model_ref, x_ref = weakref.ref(model), weakref.ref(x)
    del model, x
    gc.collect()
    assert model_ref() is None and x_ref() is None


def test_an_entry_outlives_its_module_and_serves_the_next_instance():
    # as Dynamo's unspecialized modules: guarded by type, its tensors graph inputs; the entry holds no module
    cnt = CompileCounter()
    model = MLP()
    compiled = frontend.optimize(cnt)(MLP.forward)
    x = minitorch2.randn(2, 3)
    compiled(model, x)
    (entry,) = frontend.eval_frame.CACHE[MLP.forward.__code__]
    del model
    gc.collect()
    assert not entry.guard_fn.invalidated
    replacement = MLP()
    _close(compiled(replacement, x), replacement(x))
    assert cnt.frame_count == 1


def noisy(x):
    print("noisy")
    return x.cos() * 3


def calls_noisy(x):
    return noisy(x.sin()) + 1


def test_routed_functions_are_compiled_from_their_real_code():
    cnt = CompileCounter()
    x = minitorch2.randn(3)
    with frontend.optimize(cnt):
        outs = [calls_noisy(x) for _ in range(2)]
        routed = {noisy.__code__, calls_noisy.__code__}
    assert all(code.co_filename != __file__ for code in routed)  # both were routed...
    cached = {code.co_filename for code in frontend.eval_frame.CACHE}
    assert cached == {__file__}  # ...but only their real code objects (and resume functions) were translated
    for out in outs:
        _close(out, calls_noisy(x))


MODULE_LEVEL = """
import frontend, minitorch2
from frontend.testing import CompileCounter

def double(x):
    return x * 2

cnt = CompileCounter()
with frontend.optimize(cnt):
    out = double(minitorch2.ones(2))
"""


def test_module_level_block_keeps_the_module_namespace():
    namespace = {"__name__": "made_module"}
    exec(compile(MODULE_LEVEL, __file__, "exec"), namespace)  # f_locals of a module frame is its globals
    assert namespace["cnt"].frame_count == 1
    assert {"frontend", "minitorch2", "double", "out"} <= set(namespace)
