"""Partitioner scripts (seed 000's sin/cos chain; seed 002's gelu and Linear-GELU-Linear) print on minitorch2,
run unchanged through `python -m minitorch2 run`, exactly what they print on PyTorch 2.13."""
import glob
import os
import subprocess
import sys

import pytest

SCRIPTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scripts")
SCRIPTS = sorted(os.path.basename(p) for p in glob.glob(os.path.join(SCRIPTS_DIR, "*.py")))


def _start(args):
    return subprocess.Popen([sys.executable, *args], cwd=SCRIPTS_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _finish(process):
    out, err = process.communicate(timeout=300)
    return process.returncode, out, err


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_prints_what_torch_prints(script):
    torch_run, our_run = _start([script]), _start(["-m", "minitorch2", "run", script])  # side by side
    code_t, theirs, err_t = _finish(torch_run)
    code_o, ours, err_o = _finish(our_run)
    assert code_t == 0, err_t
    assert code_o == 0, err_o
    assert ours == theirs
