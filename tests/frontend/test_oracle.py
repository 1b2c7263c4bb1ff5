"""Oracle tests: each corpus program under torch.compile(CompileCounter) and minitorch2.compile(CompileCounter).

Values must equal eager; frame_count and op_count must equal Dynamo's for programs without graph breaks.
"""
import numpy as np
import pytest
import torch
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

from .cases import BREAKS, CASES, build

TORCH_NS = build(torch)
MT_NS = build(minitorch2)


def _inputs(shapes, lib):
    rng = np.random.default_rng(0)
    return [lib.tensor(rng.standard_normal(s).astype(np.float32)) for s in shapes]


def _obj(ns, name, lib):
    obj = ns[name]
    if isinstance(obj, type):
        lib.manual_seed(0)
        obj = obj()
    return obj


def _to_np(v):
    if isinstance(v, (tuple, list)):
        return type(v)(_to_np(i) for i in v)
    if hasattr(v, "detach"):
        return np.asarray(v.detach().numpy())
    return v


def _assert_close(a, b):
    if isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b)
        for x, y in zip(a, b):
            _assert_close(x, y)
    elif isinstance(a, np.ndarray):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
    else:
        assert a == b


@pytest.fixture(autouse=True)
def _reset():
    torch._dynamo.reset()
    frontend.reset()
    yield


@pytest.mark.parametrize("name", sorted(CASES))
def test_oracle(name):
    shapes = CASES[name]
    t_obj, m_obj = _obj(TORCH_NS, name, torch), _obj(MT_NS, name, minitorch2)
    if isinstance(t_obj, torch.nn.Module):
        with minitorch2.no_grad():
            for (_, p), (_, q) in zip(t_obj.named_parameters(), m_obj.named_parameters()):
                q.copy_(minitorch2.tensor(p.detach().numpy().copy()))
    t_cnt, m_cnt = torch._dynamo.testing.CompileCounter(), CompileCounter()
    t_out = torch.compile(t_obj, backend=t_cnt)(*_inputs(shapes, torch))
    m_out = minitorch2.compile(m_obj, backend=m_cnt, fullgraph=True)(*_inputs(shapes, minitorch2))
    eager = m_obj(*_inputs(shapes, minitorch2))
    _assert_close(_to_np(m_out), _to_np(eager))
    _assert_close(_to_np(m_out), _to_np(t_out))
    assert (m_cnt.frame_count, m_cnt.op_count) == (t_cnt.frame_count, t_cnt.op_count)


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_graph_break_splits_frame_as_dynamo(name):
    t_fn, fn = TORCH_NS[name], MT_NS[name]
    (x,) = _inputs(BREAKS[name], minitorch2)
    (t_x,) = _inputs(BREAKS[name], torch)
    cnt, t_cnt = CompileCounter(), torch._dynamo.testing.CompileCounter()
    out = minitorch2.compile(fn, backend=cnt)(x)
    torch.compile(t_fn, backend=t_cnt)(t_x)
    np.testing.assert_allclose(_to_np(out), _to_np(fn(x)), rtol=1e-6)
    assert (cnt.frame_count, cnt.op_count) == (t_cnt.frame_count, t_cnt.op_count)
    explanation = frontend.explain(fn)(x)
    t_explanation = torch._dynamo.explain(t_fn)(t_x)
    assert (explanation.graph_count, explanation.graph_break_count, len(explanation.break_reasons)) == \
        (t_explanation.graph_count, t_explanation.graph_break_count, len(t_explanation.break_reasons))
    for reason in explanation.break_reasons:
        assert "<frontend oracle cases>:" in reason.ours  # (ours: the user's file:line; .reason is Dynamo's words where it has them)
    frontend.reset()
    with pytest.raises(frontend.exc.Unsupported) as info:
        minitorch2.compile(fn, backend=cnt, fullgraph=True)(x)
    assert "<frontend oracle cases>" in str(info.value)  # (its file, in our words or in Dynamo's user code)
