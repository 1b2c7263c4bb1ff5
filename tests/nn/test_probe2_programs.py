"""Training-loop programs as users write them (session 23's second probe, tests/nn/programs/), each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's and both runs exit 0; where stated, its
graphs op by op too. vae_kl_sampling.py: a VAE (reparameterization, KL term, BCE reconstruction, sampling), also
compiled; seq2seq_gru_attention.py: a GRU encoder-decoder with Bahdanau attention, teacher forcing drawn with
random.random(), packed sequences; char_lstm_tbptt.py: a char-level LSTM with truncated BPTT, clip_grad_norm_ and
perplexity; cnn_dataloader_checkpoint.py: a custom Dataset with a collate_fn and a seeded shuffle, early stopping,
state dicts through io.BytesIO and a temp file; autocast_bf16_training.py: torch.autocast("cpu", bfloat16) with a
disabled GradScaler, whose LayerNorm takes ATen's mixed-type path (float32 statistics, weight gradients summed in
bfloat16 buffers: layer_norm_autocast_grads.py); accumulation_checkpoint_hooks.py: gradient accumulation,
checkpoint(use_reentrant=False), forward hooks, model.apply, weight-decay groups, frozen weight_norm and orthogonal
parametrizations (orthogonal_parametrization.py: its three maps); contrastive_distillation.py: InfoNCE and CLIP
losses, knowledge distillation with KLDivLoss(batchmean) at a temperature, compiled (kl_div's ops in torch's order,
xlogy decomposed as torch's tables). BatchNorm's running statistics are copied in inside the graphs (copy_ at the
end of the joint and forward graphs; the inductor writes them in its compiled graph), max_pool2d under the inductor
is torch's _low_memory_max_pool_with_offsets, and weight_norm compiled holds torch._weight_norm and
_weight_norm_interface, and the inductor's scaled log_softmax partitions as torch's (its joint-graph scaled-softmax
pattern, backend/joint_graph_softmax.py): tests/backend/test_graph_fidelity_3.py. Under autocast, linear's inputs are cast before it is decomposed, as torch's (the weight
before its transpose), and a half addmm compiled runs ATen's kernel whole (one rounding, as torch's extern addmm), so
autocast_bf16_training.py's values and graphs are torch's."""
import pytest

from .program_reports import SAME_EXIT, compare_report, summary as _summary


def _report(name):
    return compare_report("programs", name)


@pytest.mark.parametrize("name", ["seq2seq_gru_attention", "char_lstm_tbptt", "layer_norm_autocast_grads"])
def test_program_prints_what_torch_prints(name):
    report = _report(name)
    assert SAME_EXIT in report and _summary(report).startswith("==== summary: same: stdout same"), report


@pytest.mark.slow  # (about 15 s each: inductor compiles or torch.linalg work, in both runs)
@pytest.mark.parametrize("name", ["vae_kl_sampling", "orthogonal_parametrization"])
def test_slow_program_prints_what_torch_prints(name):
    report = _report(name)
    assert SAME_EXIT in report and _summary(report).startswith("==== summary: same: stdout same"), report


@pytest.mark.slow  # (15-30 s each: inductor compiles of the training graphs, in both runs)
@pytest.mark.parametrize("name", ["cnn_dataloader_checkpoint", "accumulation_checkpoint_hooks",
                                  "contrastive_distillation"])
def test_compiled_training_prints_what_torch_prints(name):
    report = _report(name)
    assert "--- printed output (stdout): same\n" in report and SAME_EXIT in report, report


@pytest.mark.slow
def test_distillation_graphs_are_torchs():
    report = _report("contrastive_distillation")
    differing = [line for line in report.split("\n") if line.startswith(("  dynamo ", "  joint ", "  aot "))
                 and ": same (" not in line]
    assert not differing, report


@pytest.mark.slow  # (about 20 s: inductor compiles in bfloat16, in both runs)
def test_autocast_bfloat16_training_values_and_graphs_are_torchs():
    report = _report("autocast_bf16_training")
    assert SAME_EXIT in report, report
    assert _summary(report).startswith("==== summary: same: stdout same; graphs same (8)"), report


@pytest.mark.slow  # (orthogonal's matrix_exp map: ATen's linalg_matrix_exp op since session 38)
def test_orthogonal_parametrization_compiled():
    report = _report("orthogonal_compiled")
    assert SAME_EXIT in report, report
