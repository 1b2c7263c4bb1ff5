"""The probe suites' runner (test_probe_programs.py, test_probe2_programs.py, test_probe3_programs.py): a program run
by `python -m minitorch2 run --compare-torch`, and the parts of its report the tests read."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = "==== minitorch2 run --compare-torch: minitorch2 vs torch ====\n"
SAME_EXIT = "--- exit status: same (minitorch2 0, torch 0)"
SAME_STDOUT = "--- printed output (stdout): same\n"


def compare_report(folder, name):
    """The comparison report of tests/nn/<folder>/<name>.py (both runs single-threaded)."""
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", "--compare-torch",
                             os.path.join(ROOT, "tests", "nn", folder, f"{name}.py")], cwd=ROOT, capture_output=True,
                            text=True, timeout=600, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert HEADER in result.stdout, result.stderr
    return result.stdout.split(HEADER)[1]


def summary(report):
    return report.rstrip("\n").split("\n")[-1]


def all_same(report):
    """Both runs exit 0 and print the same; graphs, where the program compiles, op by op the same."""
    return SAME_EXIT in report and summary(report).startswith("==== summary: same: stdout same")


def differing_graphs(report):
    """The report's lines for graphs that differ ("  aot Backward graph 0: differs at op 22 ...")."""
    return [line for line in report.split("\n") if line.startswith(("  dynamo ", "  joint ", "  aot "))
            and ": same (" not in line]
