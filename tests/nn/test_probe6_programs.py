"""Programs in the style of real projects (session 26's probe, tests/nn/programs6/), each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's and both runs exit 0.
activation_diagnostics.py: a lecture-notebook MLP of hand-written layer classes, trained a few steps, then diagnosed
with torch.histogram(density=True) over each layer's activations and gradients (found missing running
nn-zero-to-hero's makemore part 3), with grad:data and update:data ratios."""
import pytest

import minitorch2

from .program_reports import all_same, compare_report

FOLDER = "programs6"


@pytest.mark.parametrize("name", ["activation_diagnostics"])
def test_program_prints_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report


def test_histogram_counts_each_value_once_in_torchs_bins():
    import torch  # reason: the oracle; the library itself never imports torch

    values = [0.25, 1.0, 2.0, 2.0, 3.999, 4.0, 4.5, -0.5]
    for bins, kwargs in ((4, {"range": (0.0, 4.0)}), (3, {}), (2, {"density": True})):
        ours = minitorch2.histogram(minitorch2.tensor(values), bins, **kwargs)
        theirs = torch.histogram(torch.tensor(values), bins, **kwargs)
        assert ours.hist.tolist() == pytest.approx(theirs.hist.tolist())
        assert ours.bin_edges.tolist() == pytest.approx(theirs.bin_edges.tolist())
