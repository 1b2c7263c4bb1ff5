"""Graph breaks with resume functions, and translator coverage, against torch.compile as the oracle.

Each program is one text run on PyTorch (torch.compile with CompileCounter,
torch._dynamo.explain) and on minitorch2 (minitorch2.compile, frontend.explain):
values must equal eager, and frame/op/graph/break counts must equal Dynamo's.
"""
import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

SRC = r'''
LOG = []
class Box:
    pass
BOX = Box()

def f_print_mid(x):
    a = x + 1
    print("middle")
    return a * 2
def f_break_first(x):
    dynamo.graph_break()
    return x + 1
def f_data_if(x):
    a = x.sin()
    if a.sum() > 0:
        return a + 1
    return a - 1
def f_data_while(x):
    while x.sum() < 10:
        x = x * 2
    return x
def f_item(x):
    return x * x.sum().item()
def f_two_breaks(x):
    a = x + 1
    dynamo.graph_break()
    b = a * 2
    print("second")
    return b - 1
def f_loop_range(x):
    a = x.sin()
    for i in range(3):
        a = a + i
        dynamo.graph_break()
    return a * 2
def f_loop_list(x, ks):
    for k in ks:
        x = x * k
        dynamo.graph_break()
    return x
def f_break_in_try(x):
    a = x.sin()
    try:
        a = x + 1
        dynamo.graph_break()
        b = a * 2
    except ValueError:
        b = a
    return b.sin()
def helper_break(t):
    t = t + 1
    dynamo.graph_break()
    return t * 2
def f_inline_break(x):
    y = x.cos()
    z = helper_break(y)
    return z - 1
def f_side_list(x):
    LOG.append("before")
    a = x + 1
    dynamo.graph_break()
    LOG.append("after")
    return a * 2
COUNT = 0
def f_global_write(x):
    global COUNT
    COUNT += 1
    a = x + COUNT
    dynamo.graph_break()
    COUNT += 10
    return a * COUNT
def f_global_write_no_break(x):
    global COUNT
    COUNT += 1
    y = x + COUNT
    COUNT += 1
    return y * 2
def f_side_attr(x, box):
    box.val = 3
    y = x + box.val
    dynamo.graph_break()
    box.val = 4
    return y * box.val
def f_no_grad_break(x):
    with torch.no_grad():
        a = x + 1
        dynamo.graph_break()
        b = a * 2
    return b + x
class Ctx:
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False
def f_user_ctx_break(x):
    a = x.sin()
    with Ctx():
        a = x + 1
        dynamo.graph_break()
        b = a * 2
    return b
def f_break_keeps_stack(x):
    return x.cos() + (print("arg") or x.sin())
def f_break_kwargs_call(x):
    a = x * 3
    print("kw", end="\n")
    return a.sum(dim=0, keepdim=True)
def f_rebound_param(x, y):
    keep = x
    x = x * 2
    return keep, x, print("rebound"), y * x  # keep (the entry x) is on the stack when x is rebuilt
def f_list_across(x):
    acc = [x + 1]
    dynamo.graph_break()
    acc.append(x * 2)
    return acc[0] + acc[1]
def f_tuple_return_after(x):
    n = x.shape[0]
    s = x.sum()
    print("t")
    return s * n, (x - 1, n)

def helper_kwargs(t, **kw):
    return t * kw["scale"] + kw.get("shift", 0)
def f_kwargs(x):
    return helper_kwargs(x, scale=2.0, shift=1.0)
def f_star_kwargs(x):
    kw = {"scale": 3.0}
    return helper_kwargs(x, **kw)
def f_no_grad(x):
    with torch.no_grad():
        a = x + 1
    return a * 2
def f_enable_grad(x):
    with torch.no_grad():
        with torch.enable_grad():
            a = x * 2
        b = a + 1
    return b
def f_inplace(x):
    y = x.clone()
    y.mul_(2)
    y += 1
    return y
def f_listcomp(x):
    ys = [x * i for i in range(3)]
    return ys[0] + ys[1] + ys[2]
def f_dictcomp(x):
    d = {k: x + k for k in range(2)}
    return d[0] * d[1]
def f_dict(x):
    d = {"a": x, "b": x * 2}
    e = dict(d, c=3)
    e["d"] = x.sin()
    return d["a"] + d["b"] * e["c"] + e["d"], len(d), "a" in d
def f_builtins(x):
    n = len(x) if isinstance(x, torch.Tensor) else 0
    s = getattr(x, "shape")
    return x * n + s[0] if hasattr(x, "shape") else x
def f_unpack_ex(x):
    a, *rest, b = (x, x * 2, x * 3, x * 4)
    return a + rest[0] * rest[1] - b
def f_type_is(x):
    if type(x) is torch.Tensor:
        return x + 1
    return x
def f_setitem_tensor(x):
    y = x.clone()
    y[0] = 0.0
    return y * 2

def make_closure(scale):
    def f_closure_break(x):
        a = x * scale
        print("closure")
        return a + scale
    return f_closure_break
f_closure_break = make_closure(3.0)
class BreakModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = torch.nn.ModuleDict({"a": torch.nn.Linear(3, 3), "b": torch.nn.Linear(3, 3)})
    def forward(self, x):
        h = self.heads["a"](x)
        print("module")
        return self.heads["b"](h).relu()
'''

# name -> input shapes; a list after the shapes is passed as an extra Python argument
BREAK_PROGRAMS = {
    "f_print_mid": [(4,)], "f_break_first": [(4,)], "f_data_if": [(4,)], "f_item": [(4,)],
    "f_two_breaks": [(4,)], "f_loop_range": [(4,)], "f_break_in_try": [(4,)], "f_inline_break": [(4,)],
    "f_side_list": [(4,)], "f_no_grad_break": [(4,)], "f_user_ctx_break": [(4,)],
    "f_break_keeps_stack": [(4,)], "f_break_kwargs_call": [(2, 3)], "f_list_across": [(4,)],
    "f_tuple_return_after": [(3, 2)], "f_closure_break": [(4,)], "BreakModule": [(2, 3)],
    "f_data_while": [(4,)], "f_rebound_param": [(4,), (4,)],
}
FULLGRAPH_PROGRAMS = ["f_kwargs", "f_star_kwargs", "f_no_grad", "f_enable_grad", "f_inplace", "f_listcomp",
                      "f_dictcomp", "f_dict", "f_builtins", "f_unpack_ex", "f_type_is", "f_setitem_tensor"]


def build(lib, dynamo):
    namespace = {"torch": lib, "dynamo": dynamo}
    exec(compile(SRC, "<resume programs>", "exec"), namespace)
    return namespace


TORCH_NS = build(torch, torch._dynamo)
MT_NS = build(minitorch2, frontend)


def _inputs(shapes, lib, requires_grad=True, sign=1.0):
    rng = np.random.default_rng(0)
    return [lib.tensor(sign * np.abs(rng.standard_normal(s)).astype(np.float32), requires_grad=requires_grad)
            for s in shapes]


def _np(v):
    if isinstance(v, (tuple, list)):
        return type(v)(_np(i) for i in v)
    if hasattr(v, "detach"):
        return np.asarray(v.detach().numpy())
    return v


def _assert_close(a, b):
    a, b = _np(a), _np(b)
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
    frontend.config.resume_inside_loops = False


def _program(ns, lib, name):
    """The function, or for a module class an instance whose weights are the same in both libraries."""
    obj = ns[name]
    if isinstance(obj, type):
        lib.manual_seed(0)
        obj = obj()
        rng = np.random.default_rng(1)
        with lib.no_grad():
            for p in obj.parameters():
                p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
    return obj


def _dynamo_counts(name, args):
    cnt = torch._dynamo.testing.CompileCounter()
    fn = _program(TORCH_NS, torch, name)
    torch.compile(fn, backend=cnt)(*args)
    torch._dynamo.reset()
    e = torch._dynamo.explain(fn)(*args)
    return (cnt.frame_count, cnt.op_count), (e.graph_count, e.graph_break_count, len(e.break_reasons))


def _our_counts(name, args):
    cnt = CompileCounter()
    fn = _program(MT_NS, minitorch2, name)
    out = minitorch2.compile(fn, backend=cnt)(*args)
    frontend.reset()
    e = frontend.explain(fn)(*args)
    return out, (cnt.frame_count, cnt.op_count), (e.graph_count, e.graph_break_count, len(e.break_reasons)), e


@pytest.mark.parametrize("name", sorted(BREAK_PROGRAMS))
def test_break_counts_and_values_match_dynamo(name):
    shapes = BREAK_PROGRAMS[name]
    expected = _dynamo_counts(name, _inputs(shapes, torch))
    out, counts, explained, e = _our_counts(name, _inputs(shapes, minitorch2))
    _assert_close(out, _program(MT_NS, minitorch2, name)(*_inputs(shapes, minitorch2)))
    assert (counts, explained) == expected
    for reason in e.break_reasons:
        assert "<resume programs>:" in reason.ours  # the user's file:line (in our words)


def test_data_dependent_if_takes_both_branches():
    t_cnt, cnt = torch._dynamo.testing.CompileCounter(), CompileCounter()
    t_f, f = torch.compile(TORCH_NS["f_data_if"], backend=t_cnt), minitorch2.compile(MT_NS["f_data_if"], backend=cnt)
    for sign in (1.0, -1.0, 1.0):
        out = f(*_inputs([(4,)], minitorch2, sign=sign))
        t_f(*_inputs([(4,)], torch, sign=sign))
        _assert_close(out, MT_NS["f_data_if"](*_inputs([(4,)], minitorch2, sign=sign)))
    assert (cnt.frame_count, cnt.op_count) == (t_cnt.frame_count, t_cnt.op_count) == (3, 5)


@pytest.mark.parametrize("name", ["f_loop_range", "f_loop_list"])
def test_break_in_loop_runs_eagerly_like_dynamo_or_resumes_mid_loop(name):
    args = _inputs([(4,)], minitorch2) + ([[2.0, 3.0]] if name == "f_loop_list" else [])
    t_args = _inputs([(4,)], torch) + ([[2.0, 3.0]] if name == "f_loop_list" else [])
    (t_frames, _), _ = _dynamo_counts(name, t_args)
    cnt = CompileCounter()
    out = minitorch2.compile(MT_NS[name], backend=cnt)(*args)
    _assert_close(out, MT_NS[name](*args))
    assert cnt.frame_count == t_frames == 0
    frontend.reset()
    assert frontend.explain(MT_NS[name])(*args).eager_frames[0].code == "graph_break_in_loop"
    frontend.reset()
    frontend.config.resume_inside_loops = True  # our extension: one graph per iteration, plus the tail
    cnt = CompileCounter()
    f = minitorch2.compile(MT_NS[name], backend=cnt)
    for _ in range(2):
        _assert_close(f(*args), MT_NS[name](*args))
    # f_loop_range: one graph per iteration plus the tail (a * 2); f_loop_list's tail traces no ops, so, by
    # Dynamo's rule for a frame without ops (a recompile too), its resume code runs eagerly from then on
    assert cnt.frame_count == (4 if name == "f_loop_range" else 2)


def test_break_in_try_and_user_with_run_eagerly_with_reason():
    x = _inputs([(4,)], minitorch2)
    assert frontend.explain(MT_NS["f_break_in_try"])(*x).eager_frames[0].code == "graph_break_in_try"
    assert frontend.explain(MT_NS["f_user_ctx_break"])(*x).eager_frames[0].code == "graph_break_in_with"


def test_side_effects_happen_once_in_order():
    for ns, lib in ((MT_NS, minitorch2), (TORCH_NS, torch)):
        ns["LOG"].clear()
    t_cnt, cnt = torch._dynamo.testing.CompileCounter(), CompileCounter()
    f, t_f = minitorch2.compile(MT_NS["f_side_list"], backend=cnt), torch.compile(TORCH_NS["f_side_list"], backend=t_cnt)
    for _ in range(2):
        f(*_inputs([(4,)], minitorch2))
        t_f(*_inputs([(4,)], torch))
    assert MT_NS["LOG"] == TORCH_NS["LOG"] == ["before", "after"] * 2
    assert (cnt.frame_count, cnt.op_count) == (t_cnt.frame_count, t_cnt.op_count)

    t_cnt, cnt = torch._dynamo.testing.CompileCounter(), CompileCounter()
    box, t_box = MT_NS["Box"](), TORCH_NS["Box"]()
    out = minitorch2.compile(MT_NS["f_side_attr"], backend=cnt)(*_inputs([(4,)], minitorch2), box)
    torch.compile(TORCH_NS["f_side_attr"], backend=t_cnt)(*_inputs([(4,)], torch), t_box)
    _assert_close(out, MT_NS["f_side_attr"](*_inputs([(4,)], minitorch2), MT_NS["Box"]()))
    assert box.val == t_box.val == 4
    assert (cnt.frame_count, cnt.op_count) == (t_cnt.frame_count, t_cnt.op_count)


def test_global_writes_happen_once_in_order():
    MT_NS["COUNT"] = TORCH_NS["COUNT"] = 0
    t_cnt, cnt = torch._dynamo.testing.CompileCounter(), CompileCounter()
    f, t_f = minitorch2.compile(MT_NS["f_global_write"], backend=cnt), torch.compile(TORCH_NS["f_global_write"], backend=t_cnt)
    for _ in range(2):
        out, t_out = f(*_inputs([(4,)], minitorch2)), t_f(*_inputs([(4,)], torch))
        _assert_close(out, t_out.detach().numpy())
    assert MT_NS["COUNT"] == TORCH_NS["COUNT"] == 22
    assert (cnt.frame_count, cnt.op_count) == (t_cnt.frame_count, t_cnt.op_count)
    # without a break the writes are replayed after the graph (Dynamo's SideEffects): one graph per call,
    # recompiled because the guard on COUNT's value fails, exactly as under Dynamo
    t_cnt, cnt = torch._dynamo.testing.CompileCounter(), CompileCounter()
    f = minitorch2.compile(MT_NS["f_global_write_no_break"], backend=cnt)
    t_f = torch.compile(TORCH_NS["f_global_write_no_break"], backend=t_cnt)
    for _ in range(3):
        _assert_close(f(*_inputs([(4,)], minitorch2)), t_f(*_inputs([(4,)], torch)).detach().numpy())
    assert MT_NS["COUNT"] == TORCH_NS["COUNT"] == 28
    assert (cnt.frame_count, cnt.op_count) == (t_cnt.frame_count, t_cnt.op_count) == (3, 6)


def test_inlined_break_compiles_the_callee_frame():
    # Dynamo 2.13: the caller breaks at the call, the callee runs as its own frame (graph, break,
    # resume graph), then the caller resumes: four graphs.
    cnt = CompileCounter()
    minitorch2.compile(MT_NS["f_inline_break"], backend=cnt)(*_inputs([(4,)], minitorch2))
    lines = SRC.splitlines()
    call_line = lines.index("    z = helper_break(y)") + 1
    break_line = lines.index("def helper_break(t):") + 3
    names = sorted(code.co_name for code in frontend.eval_frame.CACHE)
    assert names == ["f_inline_break", "helper_break", f"torch_dynamo_resume_in_f_inline_break_at_{call_line}",
                     f"torch_dynamo_resume_in_helper_break_at_{break_line}"]
    assert cnt.frame_count == 4


def test_resume_function_recompiles_on_new_shape():
    t_cnt, cnt = torch._dynamo.testing.CompileCounter(), CompileCounter()
    f, t_f = minitorch2.compile(MT_NS["f_print_mid"], backend=cnt), torch.compile(TORCH_NS["f_print_mid"], backend=t_cnt)
    for shape in ((4,), (4,), (5,)):
        _assert_close(f(*_inputs([shape], minitorch2)), MT_NS["f_print_mid"](*_inputs([shape], minitorch2)))
        t_f(*_inputs([shape], torch))
    assert (cnt.frame_count, cnt.op_count) == (t_cnt.frame_count, t_cnt.op_count) == (4, 4)
    resume_entries = [entries for code, entries in frontend.eval_frame.CACHE.items() if code.co_name.startswith("torch_dynamo_resume_in")]
    assert len(resume_entries) == 1 and len(resume_entries[0]) == 2
    # the second entry's size is a symbol (automatic dynamic shapes), guarded by its range
    assert "(4,)" in resume_entries[0][0].guard_fn.source and "2 <= L['" in resume_entries[0][1].guard_fn.source


def test_fullgraph_raises_at_first_break():
    with pytest.raises(frontend.exc.Unsupported, match="print"):
        minitorch2.compile(MT_NS["f_print_mid"], backend="eager", fullgraph=True)(*_inputs([(4,)], minitorch2))
    with pytest.raises(frontend.exc.Unsupported, match="graph_break"):
        minitorch2.compile(MT_NS["f_two_breaks"], backend="eager", fullgraph=True)(*_inputs([(4,)], minitorch2))


def test_no_grad_block_across_break_restores_grad_mode():
    x = _inputs([(4,)], minitorch2)[0]
    out = minitorch2.compile(MT_NS["f_no_grad_break"], backend="eager")(x)
    assert minitorch2.is_grad_enabled() and out.requires_grad
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.ones(4))


def test_transformed_code_prints_as_bytecode():
    import dis

    minitorch2.compile(MT_NS["f_print_mid"], backend="eager")(*_inputs([(4,)], minitorch2))
    entry = frontend.eval_frame.CACHE[MT_NS["f_print_mid"].__code__][0]
    text = dis.Bytecode(entry.transformed_code).dis()
    line = SRC.splitlines().index('    print("middle")') + 1
    assert f"<call torch_dynamo_resume_in_f_print_mid_at_{line}>" in text and "___graph_out" in text


@pytest.mark.parametrize("name", FULLGRAPH_PROGRAMS)
def test_translator_coverage_matches_dynamo(name):
    t_cnt, cnt = torch._dynamo.testing.CompileCounter(), CompileCounter()
    t_out = torch.compile(TORCH_NS[name], backend=t_cnt, fullgraph=True)(*_inputs([(3,)], torch))
    out = minitorch2.compile(MT_NS[name], backend=cnt, fullgraph=True)(*_inputs([(3,)], minitorch2))
    _assert_close(out, MT_NS[name](*_inputs([(3,)], minitorch2)))
    _assert_close(out, t_out)
    assert (cnt.frame_count, cnt.op_count) == (t_cnt.frame_count, t_cnt.op_count)


def test_grad_mode_block_graph_code_matches_dynamo():
    codes = {}
    for lib, ns in ((torch, TORCH_NS), (minitorch2, MT_NS)):
        seen = []

        def backend(gm, example_inputs):
            seen.append(gm.code.strip())
            return gm.forward

        lib.compile(ns["f_no_grad"], backend=backend)(*_inputs([(3,)], lib))
        codes[lib.__name__] = seen
    assert codes["minitorch2"] == codes["torch"]


class _Op:
    def __init__(self, fn, k):
        self.fn, self.k = fn, k

    def apply(self, a):
        return a.sin() * self.k


_OPS = {"sin": _Op(lambda lib, a: a.sin(), 2.0)}


def _attribute_call(x):
    return (_OPS["sin"].fn(minitorch2, x),)


def _method_call(x):
    y = x + 1
    return (_OPS["sin"].apply(y) + y,)


@pytest.mark.parametrize("fn", [_attribute_call, _method_call])
def test_break_at_a_method_load_on_an_unmodelled_object_resumes(fn):
    # The break lands on LOAD_METHOD, whose (method, self) or (NULL, attribute) result is only known
    # at run time: the transformed code loads the bound attribute and the resume function adds the NULL.
    frontend.reset()
    x = minitorch2.ones(3)
    expected = fn(x)
    compiled = minitorch2.compile(fn, backend="eager")
    for _ in range(2):
        np.testing.assert_allclose(compiled(x)[0].numpy(), expected[0].numpy())
