"""Recompiles on guard failures, the cache limit, graph code text against Dynamo's, backends, OptimizedModule."""
import warnings

import numpy as np
import pytest
import torch
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

from .cases import build

TORCH_NS = build(torch)
MT_NS = build(minitorch2)


@pytest.fixture(autouse=True)
def _reset():
    torch._dynamo.reset()
    frontend.reset()
    yield


def _code_seen(ns, lib, name, *shapes):
    codes = []

    def backend(gm, example_inputs):
        codes.append(gm.code.strip())
        return gm.forward

    obj = ns[name]
    if isinstance(obj, type):
        lib.manual_seed(0)
        obj = obj()
    lib.compile(obj, backend=backend)(*[lib.randn(*s) for s in shapes])
    return codes


@pytest.mark.parametrize("name,shapes", [("MLP", [(2, 4)]), ("f_straight", [(4, 4)]), ("Deep", [(2, 4)]),
                                         ("f_global", [(3, 4)]), ("f_size_arith", [(4, 4)])])
def test_graph_code_matches_dynamo(name, shapes):
    assert _code_seen(MT_NS, minitorch2, name, *shapes) == _code_seen(TORCH_NS, torch, name, *shapes)


def test_recompile_on_dtype_and_grad_mode():
    cnt = CompileCounter()
    f = minitorch2.compile(MT_NS["f_arith"], backend=cnt)
    x = minitorch2.randn(4, 4)
    f(x)
    f(x)
    assert cnt.frame_count == 1
    f(x.double())
    assert cnt.frame_count == 2
    with minitorch2.no_grad():
        f(x)
    assert cnt.frame_count == 3
    f(x)
    assert cnt.frame_count == 3


def test_recompile_on_shape_change_makes_the_dim_dynamic_as_dynamo():
    # automatic dynamic shapes: the first size change recompiles with that dim a symbol (3 shapes -> 2 frames)
    cnt, t_cnt = CompileCounter(), torch._dynamo.testing.CompileCounter()
    f = minitorch2.compile(MT_NS["f_shape_branch"], backend=cnt)
    t_f = torch.compile(TORCH_NS["f_shape_branch"], backend=t_cnt)
    for n in (2, 3, 4):
        x = minitorch2.randn(n, 2)
        np.testing.assert_allclose(f(x).numpy(), MT_NS["f_shape_branch"](x).numpy(), rtol=1e-6)
        t_f(torch.randn(n, 2))
    assert cnt.frame_count == t_cnt.frame_count == 2


def test_guard_failure_message_and_cache_limit(monkeypatch):
    monkeypatch.setattr(frontend.config, "cache_size_limit", 2)
    cnt = CompileCounter()
    f = minitorch2.compile(MT_NS["f_const_branch"], backend=cnt)
    x = minitorch2.randn(2, 2)
    f(x, True)
    f(x, False)
    with pytest.warns(UserWarning, match=r"(?s)cache_size_limit \(2\).*function: 'f_const_branch'.*last reason: 0/1: "):
        out = f(minitorch2.randn(3, 3), True)
    assert out.shape == (3, 3) and cnt.frame_count == 2
    entry = frontend.eval_frame.CACHE[MT_NS["f_const_branch"].__code__][0]
    assert "def guards(L, G):" in entry.guard_fn.source and "L['flag'] is True" in entry.guard_fn.source


def test_optimized_module_shares_parameters_and_trains():
    minitorch2.manual_seed(0)
    m = MT_NS["MLP"]()
    om = minitorch2.compile(m, backend="aot_eager")
    assert om._orig_mod is m
    assert [id(p) for p in om.parameters()] == [id(p) for p in m.parameters()]
    x = minitorch2.randn(2, 4)
    om(x).backward()
    g_compiled = m.fc.weight.grad.numpy().copy()
    m.fc.weight.grad = None
    m(x).backward()
    np.testing.assert_allclose(g_compiled, m.fc.weight.grad.numpy(), rtol=1e-5)


def test_backends_registry_and_default_inductor_fallback():
    # as torch's registry: the debug backends are listed only when no tag is excluded
    assert {"eager", "aot_eager"} <= set(frontend.list_backends(exclude_tags=()))
    assert not {"eager", "aot_eager"} & set(frontend.list_backends())
    assert {"eager", "aot_eager"} <= set(torch._dynamo.list_backends(exclude_tags=()))
    assert not {"eager", "aot_eager"} & set(torch._dynamo.list_backends())

    @frontend.register_backend(name="mine")
    def mine(gm, example_inputs):
        return gm.forward

    assert "mine" in frontend.list_backends()
    with pytest.raises(frontend.exc.InvalidBackend):
        frontend.optimize("nope")
    assert "inductor" in frontend.list_backends()  # the default backend is backend/, no fallback
    f = minitorch2.compile(MT_NS["f_straight"])
    x = minitorch2.randn(3, 3)
    np.testing.assert_allclose(f(x).numpy(), MT_NS["f_straight"](x).numpy(), rtol=1e-6)


def test_disable_and_graph_break():
    cnt = CompileCounter()

    def g(x):
        y = x * 2
        frontend.graph_break()
        return y + 1

    out = minitorch2.compile(g, backend=cnt)(minitorch2.ones(2))
    assert out.tolist() == [3.0, 3.0] and cnt.frame_count == 2  # both halves compiled, as under Dynamo
    explanation = frontend.explain(g)(minitorch2.ones(2))
    assert (explanation.graph_count, explanation.graph_break_count) == (2, 1)
    assert explanation.break_reasons[0].code == "graph_break"
    assert frontend.disable(g)(minitorch2.ones(2)).tolist() == [3.0, 3.0]
