"""Programs in the style of projects the earlier probes did not cover (session 23's probe, tests/nn/programs/),
each run by `python -m minitorch2 run --compare-torch`: what it prints must be torch's and both runs exit 0; where
the program compiles, its graphs op by op too. transformer_dropout_train.py trains nn.TransformerEncoder with
dropout (the masks drawn in memory order on a transposed attention output, as ATen's bernoulli_ walks it) and
fills permuted tensors at random; rl_and_message_passing.py is REINFORCE, a DQN step and GCN/GAT message passing,
the GNN compiled with aot_eager."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAMS = os.path.join(ROOT, "tests", "nn", "programs")
HEADER = "==== minitorch2 run --compare-torch: minitorch2 vs torch ====\n"


def _report(name):
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", "--compare-torch",
                             os.path.join(PROGRAMS, f"{name}.py")], cwd=ROOT, capture_output=True, text=True,
                            timeout=600, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert HEADER in result.stdout, result.stderr
    return result.stdout.split(HEADER)[1]


def test_transformer_trained_with_dropout_draws_torchs_masks():
    report = _report("transformer_dropout_train")
    assert "--- exit status: same (minitorch2 0, torch 0)" in report, report
    assert report.rstrip("\n").split("\n")[-1].startswith("==== summary: same: stdout same"), report


def test_rl_and_message_passing_values_and_graphs_are_torchs():
    report = _report("rl_and_message_passing")
    assert "--- exit status: same (minitorch2 0, torch 0)" in report, report
    summary = report.rstrip("\n").split("\n")[-1]
    assert summary.startswith("==== summary: same: stdout same") and "graphs same (4)" in summary, report
