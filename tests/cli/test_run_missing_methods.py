"""`python -m minitorch2 run` on a script calling a method torch's nn.Module or optim.Optimizer has and minitorch2's
lacks (model.xpu(), as a script written for Intel GPUs does): one line naming it, as for a missing Tensor
method; a module attribute torch lacks too (a typo in the script's own model) keeps torch's AttributeError, and
the script's own errors print the traceback `python script.py` prints (from the script's frames, no runpy or CLI
frames above them)."""
import os
import subprocess
import sys

import pytest
import torch

import minitorch2
from minitorch2.cli import run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_a_torch_module_method_we_lack_stops_the_script_in_one_line(tmp_path):
    script = tmp_path / "xpu_init.py"
    script.write_text("import torch\nmodel = torch.nn.Linear(2, 1)\n"
                      "model.xpu()\nprint('trained')\n")
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", str(script)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == (f"{script}:3: unsupported by minitorch2: "
                             "torch.nn.Module.xpu is not supported "
                             "(a minitorch2 Module has no attribute 'xpu')\n")


@pytest.mark.parametrize("make, name, owner", [
    (lambda lib: lib.nn.Linear(2, 1), "xpu", "torch.nn.Module"),
    (lambda lib: lib.nn.Linear(2, 1), "fc3", None),  # the script's own typo: torch's traceback
    (lambda lib: lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=0.1), "register_step_pre_hook",
     "torch.optim.Optimizer"),
    (lambda lib: lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=0.1), "no_such_method", None),
])
def test_the_one_line_names_only_what_torch_has(make, name, owner):
    assert (owner is not None) == hasattr(make(torch), name)
    if owner is not None and hasattr(make(minitorch2), name):
        pytest.skip(f"minitorch2 has {name} now")
    assert run._torch_owner_of_missing(make(minitorch2), name) == owner


def test_the_method_lists_name_only_torchs_public_methods():
    assert run.TORCH_MODULE_METHODS <= {n for n in dir(torch.nn.Module) if not n.startswith("_")}
    assert run.TORCH_OPTIMIZER_METHODS <= {n for n in dir(torch.optim.Optimizer) if not n.startswith("_")}


def test_a_script_error_prints_the_traceback_python_prints(tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import torch\n\n\ndef step(model, config):\n    return model(torch.ones(2)) * config['lr']\n"
                      "\n\nstep(torch.nn.Linear(2, 1), {'learning_rate': 0.1})\n")
    ours = subprocess.run([sys.executable, "-m", "minitorch2", "run", str(script)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    theirs = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert ours.returncode == theirs.returncode == 1
    assert ours.stderr == theirs.stderr
    assert ours.stderr.startswith(f'Traceback (most recent call last):\n  File "{script}", line 8, in <module>')
