"""PyTorch scripts run unchanged under `python -m minitorch2 run` and print what torch prints.

Seed 002's fences 1 (the silu edit discipline) and 2 (a counting Interpreter),
kept verbatim in scripts/, graphs built by hand with Proxies (as the FX docs and
pytorch/examples do), and the worked example examples/fx_passes.py.
"""
import contextlib
import io
import os
import runpy
import subprocess
import sys

import pytest
import torch  # noqa: F401  (the reference run happens in this process)

pytestmark = pytest.mark.fx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = [
    os.path.join(HERE, "scripts", "seed002_fence1.py"),
    os.path.join(HERE, "scripts", "seed002_fence2.py"),
    os.path.join(HERE, "scripts", "graphs_built_with_proxies.py"),  # torch functions on hand-made Proxies
    os.path.join(ROOT, "examples", "fx_passes.py"),
]


def _run_on_torch(script):
    """Real PyTorch is already imported by this test process: run the script here, capturing stdout."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(script, run_name="__main__")
    return out.getvalue()


@pytest.mark.parametrize("script", SCRIPTS, ids=os.path.basename)
def test_script_prints_what_torch_prints(script):
    ours = subprocess.run([sys.executable, "-m", "minitorch2", "run", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == _run_on_torch(script)
    assert ours.stdout.strip()
