"""`python -m minitorch2 explain SCRIPT.py` and `str(frontend.explain(fn)(*args))`."""
import os
import re
import subprocess
import sys
import textwrap

import torch
import torch._dynamo

import frontend
import minitorch2
from minitorch2.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCRIPT = """
import sys
import torch
import torch.nn as nn

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(3, 4))

    def forward(self, x, flag):
        h = (x @ self.weight.t()).relu()
        print("hidden", tuple(h.shape))
        if flag:
            h = h * 2
        return h.sum()

torch.manual_seed(0)
model = torch.compile(MLP(), backend="eager")
print(bool(model(torch.randn(2, 4), True) > -1))
print(bool(model(torch.randn(2, 4), False) > -1))
sys.exit(4)
"""
PRINT_LINE = 13


def _explain(tmp_path, script, *args):
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(script))
    result = subprocess.run([sys.executable, "-m", "minitorch2", "explain", str(path), *args], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    return result, str(path)


def test_explain_reports_breaks_reasons_hints_guards_and_graphs(tmp_path):
    result, path = _explain(tmp_path, SCRIPT)
    assert result.returncode == 4, result.stderr
    out = result.stdout
    script_output, report = out.split("==== minitorch2 explain:", 1)
    assert script_output == "hidden (2, 3)\nTrue\nhidden (2, 3)\nTrue\n"  # the script's own output comes first
    assert report.startswith(" 2 frame(s) compiled, 3 graph(s), 1 graph break(s) ====")
    forward = report.split(f"--- frame forward ({path}:11)", 1)[1].split("--- frame", 1)[0]
    assert "Graph Break Count: 1" in forward
    assert "    Reason: print() is a side effect" in forward
    assert "      Hint: remove the print from the compiled region" in forward
    assert f"<FrameSummary file {path}, line {PRINT_LINE}" in forward
    assert "Create Function: TENSOR_MATCH" in forward and "___check_tensor(L['x'], torch.float32, (2, 4)" in forward
    assert '        def forward(self, L_self_parameters_weight_: "f32[3, 4][4, 1]cpu"' in forward
    # the resume function holding the rest of forward is its own frame, compiled once per value of flag
    resume = report.split(f"--- frame torch_dynamo_resume_in_forward_at_{PRINT_LINE} ", 1)[1]
    assert resume.startswith(f"({path}:11): 2 cache entries")
    assert "L['flag'] is True" in resume and "L['flag'] is False" in resume
    assert resume.count("  Graph ") == 2


def test_explain_of_a_missing_script(tmp_path, capsys):
    assert main(["explain", str(tmp_path / "nope.py")]) == 2
    assert "can't open file" in capsys.readouterr().err


def _f(lib):
    def f(x):
        y = x.sin() * 2
        print("side effect")
        return y.relu()

    return f


def test_str_of_explain_reads_like_torch():
    ours = str(frontend.explain(_f(minitorch2))(minitorch2.randn(4, 3)))
    theirs = str(torch._dynamo.explain(_f(torch))(torch.randn(4, 3)))
    headings = re.compile(r"^(Graph Count|Graph Break Count|Break Reasons|  Break Reason \d+|    User Stack"
                          r"|Ops per Graph|  Ops \d+|Out Guards)\b.*$", re.M)

    def summary(text):
        return [m.group(0) for m in headings.finditer(text) if not m.group(0).startswith("Out Guards")]

    assert summary(ours) == summary(theirs)
    line = re.compile(r"<FrameSummary file (.+?), line (\d+)")
    assert line.search(ours).groups() == line.search(theirs).groups()
    assert "    Reason: print() is a side effect\n      Explanation: " in ours
    assert re.search(r"  Guard 1:\n    Create Function: \w+\n    Code List: \[", ours)
