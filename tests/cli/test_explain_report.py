"""`python -m minitorch2 explain`: the report of a script that raises, what cache entries share printed once,
the user's call stack down to a break, and the ops of each graph spelled as torch's explain names them."""
import os
import subprocess
import sys
import textwrap

import torch
import torch._dynamo
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCRIPT = """
import torch
import torch.nn.functional as F

def f(x):
    y = F.relu(torch.sin(x))
    print("side effect")
    return y + 1

def g(x):
    return f(x) * 2

compiled = torch.compile(g, backend="eager")
compiled(torch.randn(3))
compiled(torch.randn(4))
raise ValueError("the script's own error")
"""
PRINT_LINE, CALL_IN_G, FIRST_CALL, RAISE_LINE = 7, 11, 14, 16


def f(x):
    y = F.relu(torch.sin(x))
    print("side effect")
    return y + 1


def test_explain_of_a_script_that_raises(tmp_path):
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(SCRIPT))
    result = subprocess.run([sys.executable, "-m", "minitorch2", "explain", str(path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    # the script's error, as Python prints it (from the script's frame on), then the report anyway
    assert result.returncode == 1
    assert result.stderr.startswith(f'Traceback (most recent call last):\n  File "{path}", line {RAISE_LINE}')
    assert result.stderr.endswith("ValueError: the script's own error\n")
    script_output, report = result.stdout.split("==== minitorch2 explain:", 1)
    assert script_output == "side effect\n" * 2
    frame_f = report.split(f"--- frame f ({path}:5): 2 cache entries\n", 1)[1].split("--- frame", 1)[0]
    # the two entries of f broke at the same print: one reason, labelled with both entries
    assert "  Break Reason 1 (cache entries 1/0, 1/1):\n    Reason: print() is a side effect" in frame_f
    assert "Break Reason 2" not in frame_f
    # the user's stack: the script's call, g's call of f, the print that broke the graph (with their lines)
    assert (f"    User Stack:\n      <FrameSummary file {path}, line {FIRST_CALL} in <module>>\n"
            f"        compiled(torch.randn(3))\n"
            f"      <FrameSummary file {path}, line {CALL_IN_G} in g>\n        return f(x) * 2\n"
            f"      <FrameSummary file {path}, line {PRINT_LINE} in f>\n        print(\"side effect\")\n") in frame_f
    # one op list for both graphs, with torch's names; shared guards once, each entry's tensor guard apart
    ops = frame_f.split("Ops per Graph:\n", 1)[1].split("Out Guards:", 1)[0]
    assert ops == "  Ops 1 (cache entries 1/0, 1/1):\n    torch.sin\n    torch.nn.functional.relu\n"
    assert "minitorch2." not in report
    torch_ops = torch._dynamo.explain(f)(torch.randn(3)).ops_per_graph[0]
    assert [f"{op.__module__}.{op.__name__}" for op in torch_ops] == ["torch.sin", "torch.nn.functional.relu"]
    guards = frame_f.split("Out Guards:\n", 1)[1].split("Graphs:", 1)[0]
    assert guards.count("(cache entries 1/0, 1/1)") >= 1
    assert guards.count("Create Function: TENSOR_MATCH") == 2 and "(cache entry 1/1)" in guards
    assert "  Graph 2 (cache entry 1/1):" in frame_f
