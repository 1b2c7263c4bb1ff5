"""aot_eager keeps an input's in-place update inside the forward graph as torch's does (keep_inference_input_mutations:
a copy_ into the input before the output), for inference and training graphs; the values stay right."""
import pytest
import torch
from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd
from torch._functorch.partitioners import min_cut_rematerialization_partition as torch_min_cut

import frontend
import minitorch2
from autograd import aot_autograd
from partition import min_cut_rematerialization_partition


def _add_in_place(x):
    x.add_(1)
    return x * 2


def _add_in_place_then_train(x, w):
    x.add_(1)
    return (x * w).sum()


def _write_through_a_view(x):
    x[0].add_(1)
    return x.sum()


def _scale_in_place(x, w):
    x.mul_(2)
    return x * w


def _inputs(lib, name):
    return {
        "inference_add_": lambda: (lib.ones(3),),
        "training_add_": lambda: (lib.ones(3), lib.ones(3, requires_grad=True)),
        "view_mutation": lambda: (lib.ones(2, 3),),
        "training_mul_": lambda: (lib.ones(3), lib.ones(3, requires_grad=True)),
    }[name]()


PROGRAMS = {"inference_add_": _add_in_place, "training_add_": _add_in_place_then_train,
            "view_mutation": _write_through_a_view, "training_mul_": _scale_in_place}


def _run(lib, name, make_backend, partition, keep=True):
    """The forward graph aot_eager's settings print (keep: keep_inference_input_mutations), the output and the
    mutated input after the call."""
    graphs = []

    def fw_compiler(gm, example_inputs):
        graphs.append(gm.code.strip())
        return gm.forward

    backend = make_backend(fw_compiler=fw_compiler, bw_compiler=lambda gm, example_inputs: gm.forward,
                           partition_fn=partition, keep_inference_input_mutations=keep)
    args = _inputs(lib, name)
    out = lib.compile(PROGRAMS[name], backend=backend)(*args)
    return graphs, out.tolist(), args[0].tolist()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_forward_graph_copies_into_the_mutated_input_as_torch(name):
    frontend.reset()
    torch._dynamo.reset()
    ours = _run(minitorch2, name, aot_autograd, min_cut_rematerialization_partition)
    theirs = _run(torch, name, torch_aot_autograd, torch_min_cut)
    assert "torch.ops.aten.copy_.default(" in ours[0][0]
    assert ours == theirs


@pytest.mark.parametrize("name", ["inference_add_", "training_mul_"])
def test_without_the_option_new_values_are_outputs_as_torch(name):
    frontend.reset()
    torch._dynamo.reset()
    ours = _run(minitorch2, name, aot_autograd, min_cut_rematerialization_partition, keep=False)
    theirs = _run(torch, name, torch_aot_autograd, torch_min_cut, keep=False)
    assert "copy_" not in ours[0][0]
    assert ours == theirs


def test_aot_eager_updates_batch_norm_running_stats_in_graph():
    def run(lib, compile_fn):
        lib.manual_seed(0)
        bn = lib.nn.BatchNorm1d(3)
        x = lib.arange(12.0).reshape(4, 3).requires_grad_()
        out = compile_fn(bn, backend="aot_eager")(x)
        out.sum().backward()
        return [*bn.running_mean.tolist(), *bn.running_var.tolist(), bn.num_batches_tracked.item(),
                *x.grad.reshape(-1).tolist()]

    frontend.reset()
    torch._dynamo.reset()
    ours, theirs = run(minitorch2, minitorch2.compile), run(torch, torch.compile)
    assert ours == pytest.approx(theirs)
