"""A graph break inside a grad-mode `with` block: the resume function re-enters the block, and Dynamo traces it.

Dynamo counts the re-entered block's switch (and the exit undoing it) as ops traced, so that resume function is not
skipped; its cleanup then erases the pair, and the graph still compiles when a lone tensor is returned with no side
effects (compile_subgraph's fast path makes it the graph's output). Each program runs compiled on minitorch2 and on
torch with a counting backend; values, grad flags, frame and op counts must match.
"""
import pytest
import torch
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

PROGRAMS = {
    "print_in_no_grad_returns_input_tensor": """
def f(x):
    y = x * 2
    with lib.no_grad():
        z = y + 1
        print("z", float(z.sum()))
    return y
""",
    "print_in_no_grad_returns_block_result": """
def f(x):
    y = x * 2
    with lib.no_grad():
        z = y + 1
        print("z")
        w = z * 3
    return y, w
""",
    "append_float_in_no_grad": """
L = []
def f(x):
    y = x * 2
    with lib.no_grad():
        L.append(float((y + 1).sum()))
    return y
""",
    "append_then_print_in_no_grad": """
L = []
def f(x):
    y = x * 2
    with lib.no_grad():
        L.append(float((y + 1).sum()))
        print("last", L[-1])
    return y
""",
    "print_in_enable_grad_under_no_grad": """
def f(x):
    with lib.no_grad():
        y = x * 2
        with lib.enable_grad():
            z = x * 3
            print("z")
        w = y + z
    return w
""",
    "print_in_set_grad_enabled_false": """
def f(x):
    y = x.sin()
    with lib.set_grad_enabled(False):
        print("in")
    return y
""",
    "nested_no_grad_in_enable_grad": """
def f(x):
    with lib.enable_grad():
        with lib.no_grad():
            y = x + 1
            print("y")
        z = y * x
    return z
""",
    "loop_inside_no_grad": """
def f(x):
    out = x * 1
    with lib.no_grad():
        for i in range(3):
            out = out + i
            print("i", i)
    return out
""",
    "return_inside_no_grad": """
def f(x):
    y = x * 2
    with lib.no_grad():
        z = y - 1
        print("z")
        return z * y
""",
    "return_input_inside_no_grad": """
def f(x):
    with lib.no_grad():
        print("x")
        return x
""",
}


def _run(lib, source):
    (torch._dynamo if lib is torch else frontend).reset()
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    namespace = {"lib": lib}
    exec(compile(source, "<program>", "exec"), namespace)
    compiled = lib.compile(namespace["f"], backend=counter)
    results = []
    for _ in range(2):
        out = compiled(lib.ones(3, requires_grad=True))
        outs = out if isinstance(out, tuple) else (out,)
        results.append([(o.detach().tolist(), o.requires_grad) for o in outs])
    return results, namespace.get("L"), counter.frame_count, counter.op_count


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_break_inside_grad_mode_block_as_torch(name, capsys):
    ours = _run(minitorch2, PROGRAMS[name])
    printed = capsys.readouterr().out
    theirs = _run(torch, PROGRAMS[name])
    assert printed == capsys.readouterr().out
    assert ours[:2] == theirs[:2]
    assert (ours[2], ours[3]) == (theirs[2], theirs[3])


def test_the_re_entered_block_alone_compiles_an_empty_graph_as_torch():
    """The last resume function of `with no_grad(): print()` then `return y`: torch compiles a graph with no op."""
    graphs = {}
    for lib in (minitorch2, torch):
        (torch._dynamo if lib is torch else frontend).reset()
        seen = graphs[lib.__name__] = []

        def backend(gm, example_inputs, seen=seen):
            seen.append(sum(n.op == "call_function" for n in gm.graph.nodes))
            return gm.forward
        namespace = {"lib": lib}
        exec(compile(PROGRAMS["print_in_no_grad_returns_input_tensor"], "<program>", "exec"), namespace)
        lib.compile(namespace["f"], backend=backend)(lib.ones(3))
    assert graphs["minitorch2"] == graphs["torch"] == [4, 0]


def test_break_inside_inference_mode_block_as_torch(capsys):
    source = PROGRAMS["print_in_no_grad_returns_block_result"].replace("no_grad", "inference_mode")
    ours, theirs = _run(minitorch2, source), _run(torch, source)
    assert (ours[2], ours[3]) == (theirs[2], theirs[3])
