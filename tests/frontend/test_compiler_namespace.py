"""torch.compiler and torch._logging.set_logs: a script using them prints what it prints on torch, and logs the
same graphs (the log lines' prefixes and graph names aside)."""
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch")  # the script's reference run is on torch (absent from CI's 3.12/3.13 runs)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(HERE, "scripts", "compiler_namespace.py")


def _graph_lines(stderr):
    """The logged graph code, without glog prefixes, file objects and compiled-function names that differ."""
    lines = [re.sub(r"^[VIWE]\d{4} [\d:.]+ +\d+ [^\]]+\] (\[[^\]]*\] )*", "", line) for line in stderr.splitlines()]
    return [line for line in lines if line.strip().startswith(("def forward", "sin", "add", "cos", "return", "l_x_"))]


def test_script_matches_torch():
    ours = subprocess.run([sys.executable, "-m", "minitorch2", "run", SCRIPT], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    theirs = subprocess.run([sys.executable, SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert ours.returncode == theirs.returncode == 0, ours.stderr[-2000:]
    assert ours.stdout == theirs.stdout
    assert _graph_lines(ours.stderr) == _graph_lines(theirs.stderr)
    assert any("sin" in line for line in _graph_lines(ours.stderr))
    assert not any("cos" in line for line in _graph_lines(ours.stderr))  # set_logs replaced the setting
