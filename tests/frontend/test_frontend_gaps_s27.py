"""Frontend gaps closed in session 27, each program run compiled on minitorch2 and on torch (2.13) with a backend
that records every graph's call nodes: printed output, values, flags (requires_grad, is_inference, dtype), the
global modes left after the call, and the graphs' op counts must match.

- A graph break inside `with torch.inference_mode():`, `with torch.autocast(...)` or `with contextlib.nullcontext():`:
  the graph leaves the block at its end, the breaking instruction runs inside it, and the resume function re-enters
  it, as Dynamo's (inside suppress(), both run the frame eagerly).
- A break in a helper called from a comprehension (Python 3.11): the <listcomp> frame compiles over its `.0`
  iterator argument (COMPREHENSIONS, with the (frames, ops, breaks) checks of test_dynamo_tests_ported.py).
- A dict keyed by tensors alive across a break: the resume function models it (keys guarded by identity, so the
  next call's new tensors recompile it, as Dynamo's), and a change to it is written back.
"""
import pytest
import torch

import frontend
import minitorch2

from .test_dynamo_tests_ported import _build, _names, check_against_dynamo

PROGRAMS = {
    "print_in_inference_mode": """
def f(x):
    y = x * 2
    with lib.inference_mode():
        z = y + 1
        print("z")
        w = z * 3
    return y, w
""",
    "print_in_inference_mode_true_arg": """
def f(x):
    y = x.cos()
    with lib.inference_mode(True):
        print("in")
        w = y.sin()
    return w
""",
    "no_grad_inside_inference_mode": """
def f(x):
    with lib.inference_mode():
        a = x + 1
        with lib.no_grad():
            b = a * 2
            print("b")
            c = b - 1
        d = c * a
    return d
""",
    "inference_mode_inside_no_grad": """
def f(x):
    with lib.no_grad():
        a = x + 1
        with lib.inference_mode():
            print("a")
            b = a * 2
        c = b + a
    return c, lib.is_grad_enabled()
""",
    "tensor_made_by_the_breaking_call": """
def make(x):
    print("make")
    return x + 10
def f(x):
    y = x * 2
    with lib.inference_mode():
        t = make(y)
        u = t * 2
    return u
""",
    "print_in_nullcontext": """
import contextlib
def f(x):
    y = x * 2
    with contextlib.nullcontext():
        z = y + 1
        print("z")
        w = z * 3
    return w
""",
    "print_in_suppress_runs_eagerly": """
import contextlib
def f(x):
    y = x * 2
    with contextlib.suppress(KeyError):
        print("y")
        w = y * 3
    return w
""",
    "print_in_autocast": """
def f(x):
    m = x.reshape(3, 1) @ x.reshape(1, 3)
    with lib.autocast("cpu", dtype=lib.bfloat16):
        z = m @ m
        print("z")
        w = z @ m
    return z, w
""",
    "print_in_autocast_under_no_grad": """
def f(x):
    with lib.no_grad():
        with lib.autocast("cpu", dtype=lib.bfloat16):
            m = x.reshape(3, 1) @ x.reshape(1, 3)
            print("m")
            w = m @ m
    return w
""",
}


def _run(lib, source):
    (torch._dynamo if lib is torch else frontend).reset()
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(sum(node.op == "call_function" for node in gm.graph.nodes))
        return gm.forward
    namespace = {"lib": lib}
    exec(compile(source, "<program>", "exec"), namespace)
    compiled = lib.compile(namespace["f"], backend=backend)
    results = []
    for _ in range(2):
        out = compiled(lib.ones(3, requires_grad=True))
        outs = out if isinstance(out, tuple) else (out,)
        results.append([o if isinstance(o, bool) else ([round(v, 5) for v in o.detach().float().flatten().tolist()],
                                                         o.requires_grad, o.is_inference(), str(o.dtype).split(".")[-1])
                        for o in outs])  # (rounded: sin and cos may differ from torch's in the last bit)
        results.append((lib.is_grad_enabled(), lib.is_inference_mode_enabled(), lib.is_autocast_enabled("cpu")))
    return results, graphs


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_break_inside_a_region_block_resumes_as_torch(name, capsys):
    ours = _run(minitorch2, PROGRAMS[name])
    printed = capsys.readouterr().out
    theirs = _run(torch, PROGRAMS[name])
    assert printed == capsys.readouterr().out
    assert ours == theirs


def test_an_exception_from_the_breaking_call_leaves_the_inference_block_as_torch():
    source = """
def boom(x):
    print("boom")
    raise ValueError("boom")
def f(x):
    with lib.inference_mode():
        y = x + 1
        boom(y)
    return y
"""
    for lib in (minitorch2, torch):
        (torch._dynamo if lib is torch else frontend).reset()
        namespace = {"lib": lib}
        exec(compile(source, "<program>", "exec"), namespace)
        with pytest.raises(ValueError):
            lib.compile(namespace["f"], backend="eager")(lib.ones(3))
        assert not lib.is_inference_mode_enabled() and lib.is_grad_enabled()


COMPREHENSIONS = """
def _twice(t):
    dynamo.graph_break()
    return t * 2
def cg_list_comp_over_tuple(a, b):
    return a + sum([_twice(t) for t in (a, b)])
def cg_list_comp_over_list(a, b):
    xs = [a, b, a * b]
    return torch.stack([_twice(t).sin() for t in xs])
def cg_dict_comp_over_items(a, b):
    d = {k: _twice(v) for k, v in zip("ab", (a, b))}
    return d["a"] - d["b"]
def cg_set_comp_of_sizes(a, b):
    sizes = {_twice(t).shape[0] for t in [a, b]}
    return a * len(sizes)
"""
TORCH_CG, MT_CG = _build(torch, COMPREHENSIONS), _build(minitorch2, COMPREHENSIONS)


@pytest.mark.parametrize("name", _names(COMPREHENSIONS))
def test_break_in_a_helper_of_a_comprehension_as_dynamo(name, capsys):
    check_against_dynamo(TORCH_CG[name], MT_CG[name])


def test_a_comprehension_frame_over_another_length_recompiles_as_dynamo():
    source = """
def _twice(t):
    dynamo.graph_break()
    return t * 2
def f(xs):
    return [_twice(t) for t in xs]
"""
    counts = {}
    for lib in (minitorch2, torch):
        (torch._dynamo if lib is torch else frontend).reset()
        counter = torch._dynamo.testing.CompileCounter() if lib is torch else frontend.testing.CompileCounter()
        f = lib.compile(_build(lib, source)["f"], backend=counter)
        outs = [f([lib.ones(2) * k for k in range(n)]) for n in (2, 2, 3, 2)]
        counts[lib.__name__] = counter.frame_count, [[t.tolist() for t in out] for out in outs]
    assert counts["minitorch2"] == counts["torch"]


TENSOR_KEYED = """
def f(x, y):
    cache = {x: x.sin(), y: y.cos()}
    print("break")
    return cache[x] + 1, cache[y] * 2, len(cache)
def g(x, y):
    cache = {"n": 2}
    for t in (x, y):
        cache[t] = t * 3
    print("break")
    cache[x] = cache[x] + cache[y]
    cache["n"] += 1
    return cache[x], list(cache.values())[2], cache["n"], len(cache)
"""


@pytest.mark.parametrize("name", ["f", "g"])
def test_a_tensor_keyed_dict_across_a_break_as_dynamo(name, capsys):
    counts = {}
    for lib in (minitorch2, torch):
        (torch._dynamo if lib is torch else frontend).reset()
        counter = torch._dynamo.testing.CompileCounter() if lib is torch else frontend.testing.CompileCounter()
        f = lib.compile(_build(lib, TENSOR_KEYED)[name], backend=counter)
        outs = [f(lib.ones(2), lib.ones(2) * 2) for _ in range(2)]  # (new tensors: the resume function recompiles)
        counts[lib.__name__] = (counter.frame_count, counter.op_count,
                                [[o if isinstance(o, int) else o.tolist() for o in out] for out in outs])
    assert counts["minitorch2"] == counts["torch"]


def test_a_tensor_keyed_dict_argument_changed_in_the_frame_as_dynamo():
    source = """
def h(d, x):
    d[x] = d[x] + 1
    for k, v in d.items():
        d[k] = v * 2
    return d[x] * 2, len(d)
"""
    seen = {}
    for lib in (minitorch2, torch):
        (torch._dynamo if lib is torch else frontend).reset()
        counter = torch._dynamo.testing.CompileCounter() if lib is torch else frontend.testing.CompileCounter()
        h = lib.compile(_build(lib, source)["h"], backend=counter)
        x, y = lib.ones(2), lib.ones(2) * 3
        d = {x: x.sin(), y: y.cos(), "s": 1.0}
        outs = [h(d, x) for _ in range(3)]
        seen[lib.__name__] = (counter.frame_count, counter.op_count, [(o.tolist(), n) for o, n in outs],
                              [(k is x, k is y, v if isinstance(v, float) else [round(e, 4) for e in v.tolist()])
                               for k, v in d.items()])
    assert seen["minitorch2"] == seen["torch"]
