"""Scripts from ../shared/seeds/ (and small variants of them) print on minitorch2 exactly what they print
on PyTorch 2.13, run unchanged through `python -m minitorch2 run`."""
import glob
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = sorted(os.path.basename(p) for p in glob.glob(os.path.join(HERE, "seed*.py")))


def _stdout(args):
    result = subprocess.run([sys.executable, *args], cwd=HERE, capture_output=True, text=True, timeout=300)
    return result.returncode, result.stdout, result.stderr


@pytest.mark.parametrize("script", SCRIPTS)
def test_seed_script_prints_what_torch_prints(script):
    code_t, theirs, err_t = _stdout([script])
    code_o, ours, err_o = _stdout(["-m", "minitorch2", "run", script])
    assert code_t == 0, err_t
    assert code_o == 0, err_o
    assert ours == theirs
