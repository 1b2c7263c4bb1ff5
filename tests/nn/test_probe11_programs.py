"""Programs in the style of third-party projects run in session 31 (MorvanZhou/PyTorch-Tutorial's scripts,
bentrevett/pytorch-seq2seq's packed-sequence, convolutional and transformer translators), tests/nn/programs11/,
each run by `python -m minitorch2 run --compare-torch`: what it prints must be torch's, its graphs op by op torch's,
both runs exit 0.
spectral_norm_gan_scoring.py: a spectral-norm discriminator compiled for scoring recorded Tensor.mv / Tensor.dot
where torch's records torch.mv / torch.vdot (torch's spectral norm calls the functions), and a compiled cosine
classifier's F.normalize reached AOT as abs, pow, sum, pow where torch's takes the norm as linalg.vector_norm, so
its joint and backward graphs differed op by op (vector_norm's own backward)."""
import pytest

from .program_reports import all_same, compare_report

FOLDER = "programs11"


@pytest.mark.parametrize("name", ["spectral_norm_gan_scoring"])
def test_program_prints_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report
