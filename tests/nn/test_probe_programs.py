"""Programs in the style of projects the earlier probes did not cover (session 23's probe, tests/nn/programs/),
each run by `python -m minitorch2 run --compare-torch`: what it prints must be torch's and both runs exit 0; where
the program compiles, its graphs op by op too. transformer_dropout_train.py trains nn.TransformerEncoder with
dropout (the masks drawn in memory order on a transposed attention output, as ATen's bernoulli_ walks it) and
fills permuted tensors at random; training_utilities.py is schedulers, clipping, EMA (AveragedModel and
torch._foreach_lerp_) and sampling; channels_last_training.py is model.to(memory_format=torch.channels_last) and
interpolate's channels-last results; rl_and_message_passing.py is REINFORCE, a DQN step and GCN/GAT message passing,
the GNN compiled with aot_eager; llama_style_compiled.py is a Llama-style decoder (RMSNorm, rotary embeddings, a
finfo.min causal mask) trained compiled and generating with a growing key/value cache: one Dynamo graph per compile
as torch's (finfo folded, `1 + s - s` kept as nodes), the training forward's aten graph torch's (inductor's
outer-product bmm and repeated-input cat decompositions). Its other aten graphs still differ: the min-cut recomputes
one more expand in the backward, and under automatic dynamic shapes torch gives a sliced input's stride and a new
cache input their own symbols where minitorch2 specialises them."""
import pytest

from .program_reports import SAME_EXIT, compare_report, summary as _summary


def _report(name):
    return compare_report("programs", name)


def test_transformer_trained_with_dropout_draws_torchs_masks():
    report = _report("transformer_dropout_train")
    assert SAME_EXIT in report, report
    assert _summary(report).startswith("==== summary: same: stdout same"), report


def test_training_utilities_print_what_torch_prints():
    report = _report("training_utilities")
    assert SAME_EXIT in report, report
    assert _summary(report).startswith("==== summary: same: stdout same"), report


@pytest.mark.slow  # (about 13 s: an inductor compile of the training graphs, in both runs)
def test_channels_last_training_prints_what_torch_prints():
    report = _report("channels_last_training")
    assert "--- printed output (stdout): same\n" in report, report
    assert SAME_EXIT in report, report


def test_rl_and_message_passing_values_and_graphs_are_torchs():
    report = _report("rl_and_message_passing")
    assert SAME_EXIT in report, report
    summary = _summary(report)
    assert summary.startswith("==== summary: same: stdout same") and "graphs same (4)" in summary, report


@pytest.mark.slow  # (about 40 s: inductor compiles of the training graphs, in both runs)
def test_llama_style_decoder_compiles_to_torchs_dynamo_graphs():
    report = _report("llama_style_compiled")
    assert "--- printed output (stdout): same\n" in report, report
    assert SAME_EXIT in report, report
    dynamo = [line for line in report.split("\n") if line.startswith("  dynamo __compiled_fn_")]
    assert len(dynamo) == 4 and all(": same (" in line for line in dynamo), report
    assert "  aot Forward graph 0: same (" in report, report
