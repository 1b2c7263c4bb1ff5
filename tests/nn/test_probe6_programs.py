"""Programs in the style of real projects (session 26's probe, tests/nn/programs6/), each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's, both runs exit 0, and the graphs of its
compiled parts op by op torch's.
activation_diagnostics.py: a lecture-notebook MLP of hand-written layer classes, trained a few steps, then diagnosed
with torch.histogram(density=True) over each layer's activations and gradients (found missing running
nn-zero-to-hero's makemore part 3), with grad:data and update:data ratios.
spectral_mixing_compiled.py: an FNet-style encoder trained compiled, whose graphs call torch.fft, torch.linalg and
torch.special functions, spelled by their C homes as torch's (`torch._C._fft.fft_fft2`; found running labml's
annotated FNet, where a compiled torch.special.expit also failed to run), and backpropagate through a real-to-complex
cast."""
import pytest

import minitorch2

from .program_reports import all_same, compare_report

FOLDER = "programs6"


@pytest.mark.parametrize("name", ["activation_diagnostics", "spectral_mixing_compiled"])
def test_program_prints_and_traces_what_torch_does(name):
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


def test_namespace_functions_shared_with_torch_are_spelled_as_torchs_builtins():
    import torch  # reason: the oracle; the library itself never imports torch

    from minitorch2.fx._spelling import qualified_name

    for path in ("special.log1p", "special.expit", "linalg.inv", "linalg.vector_norm", "fft.rfft", "log1p", "inverse"):
        ours, theirs = minitorch2, torch
        for atom in path.split("."):
            ours, theirs = getattr(ours, atom), getattr(theirs, atom)
        assert qualified_name(ours) == f"{theirs.__module__ or 'torch'}.{theirs.__name__}", path
    x = minitorch2.tensor([1.0, 3.0])
    assert minitorch2.special.log1p(x).tolist() == pytest.approx(torch.special.log1p(torch.tensor([1.0, 3.0])).tolist())
