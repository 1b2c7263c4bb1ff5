"""The torch.func tutorials as small programs of our own (tests/autograd/func_tutorials/: per-sample gradients,
model ensembling, Jacobians/Hessians/hvp/vhp, neural tangent kernels), each run by `python -m minitorch2 run
--compare-torch`, all four in one process (all_four.py: the library imported once, about 12 s of CPU): what they
print must be what torch prints, and both runs exit 0."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = "==== minitorch2 run --compare-torch: minitorch2 vs torch ====\n"


def _report(name):
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", "--compare-torch",
                             os.path.join(ROOT, "tests", "autograd", "func_tutorials", f"{name}.py")], cwd=ROOT,
                            capture_output=True, text=True, timeout=300, check=False, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert HEADER in result.stdout, result.stderr
    return result.stdout.split(HEADER)[1]


def test_the_tutorials_print_what_torch_prints():
    report = _report("all_four")
    assert "--- exit status: same (minitorch2 0, torch 0)" in report, report
    assert report.rstrip("\n").split("\n")[-1].startswith("==== summary: same: stdout same"), report
