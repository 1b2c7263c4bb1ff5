"""Programs in the style of real projects (session 24's third probe, tests/nn/programs3/), each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's, both runs exit 0, and the graphs of its
compiled parts op by op torch's. bert_finetune.py: an HF-style BERT (finfo.min attention mask, SDPA, tanh GELU,
pooler) fine-tuned with AdamW and a warmup LambdaLR, evaluated under no_grad and inference_mode; vit_timm_compiled.py:
a timm-style ViT (conv patch embedding, cls token, DropPath, LayerScale) trained under inductor: x.new_empty is
decomposed into empty.memory_format as inductor's table has it, and a bernoulli output counts as materialized in the
min-cut (only PyTorch's named random ops are fusible), so the backward recomputes the division after it as torch's;
moe_topk.py: top-k routed experts (topk, where, index_add_, bincount) and a dense form compiled, whose F.one_hot is
traced in torch's form (its class checks as aten._assert_async.msg, kept by the scheduler) where it broke the graph;
gnn_message_passing.py: GCN/SAGE message passing with scatter_add_/index_add_; actor_critic.py: REINFORCE and a
compiled TD actor-critic loss building a Categorical inside the frame (a distributions class is inlined, as Dynamo's,
where it broke the graph; broadcast_tensors leaves a tensor of the broadcast shape as it is, as ATen's
expand_outplace); word_lm_transformer.py: pytorch/examples' word_language_model; packed_bilstm_classifier.py:
pack_padded_sequence into a bidirectional LSTM; makemore_manual_backprop.py: hand-derived gradients checked against
autograd, with NumPy's keyword names (`keepdims=True`), which torch's argument parser accepts for keepdim / dim.
ddpm_unet.py: a UNet block with GroupNorm, SiLU and nearest upsampling, DDPM noising; its upsampling is traced as torch
traces upsample_nearest2d.vec (the Python form: indices from arange, _unsafe_index, _unsafe_index_put in the backward).
resnet_multistep.py's inductor graphs are torch's too (max_pool2d as _low_memory_max_pool_with_offsets, and the
as_strided with which ATen restrides a channels-last 1x1 adaptive average pool's mean)."""
import pytest
import torch
import torch.nn.functional as torch_F

import frontend
import minitorch2
from minitorch2.nn import functional as F

from .program_reports import SAME_EXIT, SAME_STDOUT, all_same, compare_report, differing_graphs

FOLDER = "programs3"


def test_gnn_message_passing_values_and_graphs_are_torchs():
    report = compare_report(FOLDER, "gnn_message_passing")
    assert all_same(report), report


@pytest.mark.slow  # (10-25 s each: two interpreters, torch's and minitorch2's, and aot_eager compiles)
@pytest.mark.parametrize("name", ["actor_critic", "packed_bilstm_classifier", "makemore_manual_backprop",
                                  "word_lm_transformer"])
def test_program_values_and_graphs_are_torchs(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report


@pytest.mark.slow  # (20-80 s each: inductor or aot_eager compiles of training graphs, in both runs)
@pytest.mark.parametrize("name", ["bert_finetune", "vit_timm_compiled", "moe_topk", "ddpm_unet"])
def test_compiled_program_values_and_graphs_are_torchs(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report


@pytest.mark.slow
def test_resnet_prints_what_torch_prints():
    report = compare_report(FOLDER, "resnet_multistep")
    assert SAME_STDOUT in report and SAME_EXIT in report, report


@pytest.mark.slow
def test_resnet_eval_inductor_graph_is_torchs():
    assert not differing_graphs(compare_report(FOLDER, "resnet_multistep"))


def test_numpy_keyword_names_as_torchs():
    x = torch.randn(3, 4)
    ours = minitorch2.from_numpy(x.numpy().copy())
    for call in (lambda m, t: t.sum(axis=1, keepdims=True), lambda m, t: m.mean(t, axis=0, keepdims=True),
                 lambda m, t: m.cat([t, t], axis=1), lambda m, t: t.amax(axis=-1), lambda m, t: m.max(t, axis=1)[1],
                 lambda m, t: m.std(t, axis=0, keepdims=True), lambda m, t: t.softmax(axis=0)):
        torch.testing.assert_close(torch.from_numpy(call(minitorch2, ours).numpy()), call(torch, x))
    for lib, t in ((torch, x), (minitorch2, ours)):  # (torch writes norm and split in Python: no NumPy names)
        with pytest.raises(TypeError):
            t.norm(axis=0)
        with pytest.raises(TypeError):
            lib.split(t, 2, axis=0)


def test_numpy_keyword_names_compiled_one_graph():
    frontend.reset()
    counter = frontend.testing.CompileCounter()
    fn = minitorch2.compile(lambda t: t.sum(axis=1, keepdims=True) * minitorch2.mean(t, axis=0), backend=counter)
    t = minitorch2.randn(3, 3)
    assert torch.allclose(torch.from_numpy(fn(t).numpy()), torch.from_numpy(
        (t.sum(1, keepdim=True) * t.mean(0)).numpy()))
    assert (counter.frame_count, counter.op_count) == (1, 3)  # (sum, mean, mul: as torch counts them)


def test_one_hot_compiled_asserts_its_classes_as_torch():
    frontend.reset()
    fn = minitorch2.compile(lambda t: F.one_hot(t, 3), backend="inductor")
    assert fn(minitorch2.tensor([0, 2])).tolist() == torch_F.one_hot(torch.tensor([0, 2]), 3).tolist()
    with pytest.raises(RuntimeError, match="one_hot: Class values must be smaller than num_classes."):
        fn(minitorch2.tensor([0, 3]))
    with pytest.raises(RuntimeError, match="one_hot: Class values must be non-negative."):
        fn(minitorch2.tensor([-1, 0]))


def test_distribution_built_in_compiled_frame_is_one_graph():
    frontend.reset()
    # (argument validation off, as the first compile of a process leaves it, Dynamo's TorchPatcher too: a test run
    # earlier may have switched it back on, and validating the logits is a data-dependent break in both libraries)
    minitorch2.distributions.Distribution.set_default_validate_args(False)
    counter = frontend.testing.CompileCounter()
    net = minitorch2.nn.Linear(4, 2)

    def log_prob(x, action):
        return minitorch2.distributions.Categorical(logits=net(x)).log_prob(action).mean()

    x, action = minitorch2.randn(3, 4), minitorch2.tensor([0, 1, 1])
    out = minitorch2.compile(log_prob, backend=counter)(x, action)
    expected = log_prob(x, action).detach().numpy()
    assert torch.allclose(torch.from_numpy(out.detach().numpy()), torch.from_numpy(expected))
    assert counter.frame_count == 1


def test_broadcast_tensors_keeps_a_tensor_of_the_broadcast_shape():
    a, b = minitorch2.randn(4, 2), minitorch2.randn(4, 1)
    same, expanded = minitorch2.broadcast_tensors(a, b)
    ta, tb = torch.randn(4, 2), torch.randn(4, 1)
    assert (same is a, expanded.shape) == (torch.broadcast_tensors(ta, tb)[0] is ta, (4, 2))
