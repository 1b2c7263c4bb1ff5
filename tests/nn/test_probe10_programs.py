"""Programs in the style of third-party projects run in session 30 (rasbt/LLMs-from-scratch's chapter 4-7 scripts
and its KV-cache / MoE / sliding-window variants, eriklindernoren/PyTorch-GAN), tests/nn/programs10/, each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's, both runs exit 0.
half_precision_noise_sampling.py: the book's models run in bfloat16 (`model.to(dtype=torch.bfloat16)`) and
drawing in a 16-bit dtype (torch.randn(..., dtype=torch.bfloat16), normal_ / uniform_ on half weights) raised a
TypeError; ATen samples those in float32 and rounds, with its own word counts (checked directly below).
bf16_compiled_layer_norm_training.py: the book's training-speed script compiles a bfloat16 GPT with the default
backend; inductor's layer norm decompositions converted weight, bias and the saved mean / rstd to float32 as well
(torch's convert the input alone forward, and gradient, input, weight by `.to(memory_format=...)`, a convert and a
clone, backward), and its embedding's backward accumulated a bfloat16 gradient in bfloat16 (torch's in float32),
so the joint graph differed op by op. (About 90 s: inductor compiles in the torch run.)
bf16_attention_dropout_gpt.py: scaled_dot_product_attention with dropout takes ATen's math path, which keeps half
q, k, v in float32 and rounds the result once; ours computed in bfloat16 (losses and graphs differed)."""
import numpy as np
import pytest
import torch  # reason: the oracle; the library itself never imports torch

import minitorch2

from .program_reports import all_same, compare_report

FOLDER = "programs10"


@pytest.mark.parametrize("name", ["half_precision_noise_sampling", "bf16_compiled_layer_norm_training",
                                  "bf16_attention_dropout_gpt"])
def test_program_prints_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report


def _draws(lib, dtype, seed):
    """Each sampler at lengths below 16, of whole blocks of 16 and with a ragged tail, then a float32 draw that
    shows how many words the half-precision one used."""
    dtype = getattr(lib, dtype)
    g = lib.Generator().manual_seed(seed)
    out = []
    for n in (5, 16, 37, 1000):
        out += [lib.rand(n, dtype=dtype, generator=g), lib.randn(n, dtype=dtype, generator=g),
                lib.empty(n, dtype=dtype).uniform_(-2, 3, generator=g),
                lib.empty(n, dtype=dtype).normal_(1.3, 0.7, generator=g), lib.rand(2, generator=g)]
    return [t.float().numpy() for t in out]


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("seed", [0, 3])
def test_half_precision_samples_are_torchs(dtype, seed):
    for ours, theirs in zip(_draws(minitorch2, dtype, seed), _draws(torch, dtype, seed)):
        assert np.array_equal(ours, theirs)
