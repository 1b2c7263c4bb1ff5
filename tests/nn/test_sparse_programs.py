"""A program in pytorch/examples' gcn style (tests/nn/programs/gcn_sparse_train.py: sparse COO adjacency and
features, torch.spmm, to_sparse), run by `python script.py` on PyTorch and by `python -m minitorch2 run
script.py`: the printed losses must be the same, line for line."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tests", "nn", "programs", "gcn_sparse_train.py")


def _stdout(args):
    result = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_sparse_graph_convolution_trains_as_torchs():
    ours = _stdout(["-m", "minitorch2", "run", SCRIPT])
    assert ours == _stdout([SCRIPT])
    assert "torch.sparse_coo True" in ours and "epoch 3 loss" in ours
