"""Programs in the style of third-party projects run in session 32 (johnma2006/mamba-minimal, karpathy/build-nanogpt,
openai/whisper's model file),
tests/nn/programs12/, each run by `python -m minitorch2 run --compare-torch`: what it prints must be torch's, its
graphs op by op torch's, both runs exit 0.
selective_scan_ssm.py: `x.split(split_size=[...], dim=-1)` was refused (the method took torch.split's keyword,
split_size_or_sections), and `torch.__version__ >= "2.8"` compared as strings ("2.13.0" < "2.8"), so a library
gating on the release (einops does) took the other path.
token_stream_gpt_compiled.py: inputs and targets sliced from one token tensor overlap, and AOT keyed its traces on
their offsets: every micro-batch traced and compiled the joint graph again (torch's traces once).
audio_encoder_kv_hooks.py: `super().forward(...)` in a subclass of a library module (whisper's LayerNorm) was a graph
break in every block (the library's method taken for a torch function); Dynamo inlines torch.nn's.
The bfloat16 attention test below: the CPU fused attention computed in float64 and rounded once, where ATen's kernel
rounds a bfloat16 attention's probabilities before they meet the values, and keeps its logsumexp in float32."""
import numpy as np
import pytest

from .program_reports import all_same, compare_report

FOLDER = "programs12"


@pytest.mark.parametrize("name", ["selective_scan_ssm", "token_stream_gpt_compiled", "audio_encoder_kv_hooks"])
def test_program_prints_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report


def _flash(lib, arrays, is_causal):
    q, k, v = (lib.tensor(a).to(lib.bfloat16) for a in arrays)
    out, lse = lib.ops.aten._scaled_dot_product_flash_attention_for_cpu(q, k, v, is_causal=is_causal)[:2]
    return out.float().numpy(), lse.dtype


@pytest.mark.parametrize("is_causal", [False, True])
def test_bfloat16_fused_attention_rounds_as_atens_kernel(is_causal):
    import torch  # reason: the oracle, for this one test
    import minitorch2  # reason: the library, beside the oracle
    arrays = [np.random.RandomState(seed).randn(2, 2, 32, 16).astype(np.float32) for seed in range(3)]
    ours, our_lse = _flash(minitorch2, arrays, is_causal)
    theirs, their_lse = _flash(torch, arrays, is_causal)
    assert str(our_lse) == str(their_lse) == "torch.float32"
    # float32 sums in another order still flip a few roundings to bfloat16: at most one unit in the last place of
    # the row's largest value, and few of them (rounding once from float64 flipped a third of them)
    row_ulp = np.spacing(np.abs(theirs).max(-1, keepdims=True)) * 2 ** 16
    assert np.all(np.abs(ours - theirs) <= row_ulp)
    assert (ours != theirs).mean() < 0.1
