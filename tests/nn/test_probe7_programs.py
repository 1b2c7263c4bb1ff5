"""Programs in the style of PyTorch's tutorials (session 27's probe, tests/nn/programs7/), each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's, both runs exit 0, and the graphs of its
compiled parts op by op torch's.
magnitude_pruning.py: torch.nn.utils.prune (found missing running the pruning tutorial): local, structured, random,
iterative and global pruning of a convnet fine-tuned between rounds, compiled with its pruning hooks (objects of an
ABCMeta class, which the frontend would not inline) inside the graph, then made permanent.
saved_tensor_offload.py: torch.autograd.graph.saved_tensors_hooks, save_on_cpu and disable_saved_tensors_hooks, and
grad_fn._saved_self / _saved_result (found missing running the saved-tensor-hooks tutorial): what a node keeps, in
torch's order, packed and unpacked by the hooks, spilled to files, and not version-checked through them.
trace_versus_compile.py: torch.jit.trace of a function freezing its branch and its numpy values (ours re-ran the
Python), and torch.nn's own modules compiled directly, captured from Dynamo's wrapper frame (`l_fn_...`,
`l_args_0_`); a CrossEntropyLoss made in the compiled function is Dynamo's stand-in, no init node and a
cross_entropy call with positional arguments (found running the torch.compile tutorial).
ntk_function_transforms.py: torch.func.jvp with a parameter dict as its primal (the NTK tutorial's NTK-vector
products failed), per-sample gradients and a Hessian-vector product."""
import importlib

import pytest

import minitorch2

from .program_reports import all_same, compare_report

FOLDER = "programs7"


@pytest.mark.parametrize("name", ["magnitude_pruning", "saved_tensor_offload", "trace_versus_compile",
                                  "ntk_function_transforms"])
def test_program_prints_and_traces_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report


def _masks(lib):
    lib.manual_seed(0)
    layer = lib.nn.Conv2d(2, 4, 3)
    prune = importlib.import_module(f"{lib.__name__}.nn.utils.prune")  # (not an attribute until imported, as torch's)
    prune.random_structured(layer, "weight", amount=2, dim=0)
    prune.random_unstructured(layer, "weight", amount=0.25)
    prune.custom_from_mask(layer, "bias", mask=lib.tensor([1.0, 0.0, 1.0, 0.0]))
    prune.identity(layer, "bias")
    kept = layer.weight_mask.sum().item(), layer.bias_mask.tolist(), [type(h).__name__ for h in
                                                                       layer._forward_pre_hooks.values()]
    with pytest.raises(ValueError, match="should either be a float"):
        prune.l1_unstructured(lib.nn.Linear(2, 2), "weight", amount=-1)
    return layer.weight_mask.flatten().tolist(), kept


def test_random_pruning_draws_and_containers_as_torchs():
    import torch  # reason: the oracle; the library itself never imports torch

    assert _masks(minitorch2) == _masks(torch)


def _traced(lib):
    def step(x):
        return x * 2 if x.sum() > 0 else x - 10

    traced = lib.jit.trace(step, (lib.ones(3),))
    return traced(-lib.ones(3)).tolist(), lib.jit.is_tracing()


def test_a_traced_function_keeps_the_branch_it_recorded():
    import torch  # reason: the oracle; the library itself never imports torch

    assert _traced(minitorch2) == _traced(torch) == ([-2.0, -2.0, -2.0], False)


def _fused_eval(lib):
    class Scale(lib.autograd.Function):  # (the conv-bn fusion tutorial's Function, evaluated under inference_mode)
        @staticmethod
        def forward(ctx, x, w):
            ctx.save_for_backward(x, w)
            return x * w

        @staticmethod
        def backward(ctx, g):
            x, w = ctx.saved_tensors
            return g * w, (g * x).sum()

    w = lib.tensor(3.0, requires_grad=True)
    with lib.inference_mode():
        x = lib.ones(2)
        out = Scale.apply(x, w)
    outside = Scale.apply(lib.ones(2), w)
    try:
        Scale.apply(x, w)
        refused = None
    except RuntimeError as e:
        refused = str(e).split(".")[0]
    return out.tolist(), out.requires_grad, lib.is_inference(out), outside.requires_grad, refused


def test_a_custom_function_saves_inference_tensors_inside_inference_mode_only():
    import torch  # reason: the oracle; the library itself never imports torch

    assert _fused_eval(minitorch2) == _fused_eval(torch)


def _kernel_choices(lib):
    from importlib import import_module

    attention = import_module(f"{lib.__name__}.nn.attention")
    backend = attention.SDPBackend
    lib.manual_seed(0)
    q, k, v = lib.rand(2, 2, 5, 4), lib.rand(2, 2, 5, 4), lib.rand(2, 2, 5, 4)
    F, seen = lib.nn.functional, []
    for allowed in (backend.MATH, backend.FLASH_ATTENTION, [backend.EFFICIENT_ATTENTION, backend.CUDNN_ATTENTION],
                    [backend.MATH, backend.FLASH_ATTENTION]):
        with attention.sdpa_kernel(allowed):
            switches = lib.backends.cuda.flash_sdp_enabled(), lib.backends.cuda.math_sdp_enabled()
            for dropout in (0.0, 0.5):  # (dropout rules the CPU's flash kernel out)
                try:
                    out = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout, is_causal=True)
                    seen.append((switches, round(out.sum().item(), 4) if dropout == 0.0 else tuple(out.shape)))
                except RuntimeError as e:
                    seen.append((switches, str(e)))
    return seen, lib.backends.cuda.math_sdp_enabled(), repr(backend.FLASH_ATTENTION), int(backend.MATH)


def test_sdpa_kernel_limits_the_kernels_attention_may_choose():
    import torch  # reason: the oracle; the library itself never imports torch

    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (torch warns why each kernel was ruled out)
        assert _kernel_choices(minitorch2) == _kernel_choices(torch)


def _conversions(lib):
    lib.manual_seed(0)
    seen = []
    for switch in ("swap", "overwrite"):
        getattr(lib.__future__, f"set_{switch}_module_params_on_conversion")(True)
        try:
            layer = lib.nn.Linear(2, 2)
            weight = layer.weight
            layer.double()
            seen.append((switch, layer.weight is weight, str(weight.dtype), str(layer.weight.dtype),
                         type(layer.weight).__name__))
        finally:
            getattr(lib.__future__, f"set_{switch}_module_params_on_conversion")(False)
    a, b = lib.nn.Parameter(lib.ones(2)), lib.zeros(3, dtype=lib.float64)
    a.note = "was a"
    lib.utils.swap_tensors(a, b)
    seen.append((type(a).__name__, a.tolist(), str(a.dtype), type(b).__name__, b.tolist(), b.requires_grad, b.note))
    return seen


def test_module_conversion_switches_and_swap_tensors_as_torchs():
    import torch  # reason: the oracle; the library itself never imports torch

    assert _conversions(minitorch2) == _conversions(torch)
