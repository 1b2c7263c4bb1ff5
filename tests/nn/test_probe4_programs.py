"""Programs in the style of real projects (session 24's fourth probe, tests/nn/programs4/), each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's, both runs exit 0, and the graphs of its
compiled parts op by op torch's. t5_relative_greedy.py: a T5-style encoder-decoder with relative position buckets
(`buckets = 0; buckets += tensor`: an in-place operator on an immutable left operand is recorded as the plain one,
`0 + mul`, as Dynamo records it, where our FX code printed `0 += mul`), greedy decoding with an EOS stop;
unet_segmentation.py: a U-Net (ConvTranspose2d, cat skips, BCEWithLogits + Dice); vqvae_straight_through.py: a
VQ-VAE quantizer (cdist + argmin, x + (q - x).detach()); realnvp_flow.py: affine couplings with a MultivariateNormal
base; linear_attention_compiled.py: elu + 1 linear attention with einsum and cumsum under inductor."""
import pytest
import torch

import frontend
import minitorch2

from .program_reports import SAME_EXIT, SAME_STDOUT, all_same, compare_report, differing_graphs

FOLDER = "programs4"


def test_inplace_operator_on_a_number_is_recorded_as_the_plain_operator():
    frontend.reset()
    counter = frontend.testing.CompileCounter()

    def fn(x):
        buckets = 0
        buckets += (x > 0).to(minitorch2.long) * 4
        scale = 2.0
        scale *= x
        return buckets + 1, scale

    x = minitorch2.tensor([1.0, -1.0, 2.0])
    buckets, scale = minitorch2.compile(fn, backend=counter)(x)
    assert (buckets.tolist(), scale.tolist()) == ([5, 1, 5], [2.0, -2.0, 4.0])
    assert (counter.frame_count, counter.op_count) == (1, 6)


@pytest.mark.slow  # (20-60 s each: aot_eager compiles of training graphs, in both runs)
@pytest.mark.parametrize("name", ["t5_relative_greedy", "unet_segmentation"])
def test_program_values_and_graphs_are_torchs(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report
