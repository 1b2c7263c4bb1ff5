"""A partition_fn of the user's passed to aot_function / aot_module sees the joint graph as torch's shows it,
copy_ nodes included (keep_inference_input_mutations' writes into BatchNorm's buffers and into an input changed in
place, after the backward's nodes), and the forward and backward graphs it makes from that joint with our
partitioners (called by name or from the user's own function) are torch's. Joint, forward and backward code, buffer
values, inputs' new contents and gradients against torch's own aot_function / aot_module."""
import numpy as np
import pytest
import torch
from functorch.compile import aot_function as torch_aot_function
from functorch.compile import aot_module as torch_aot_module
from functorch.compile import default_partition as torch_default
from functorch.compile import make_boxed_func as torch_boxed
from functorch.compile import min_cut_rematerialization_partition as torch_min_cut

import minitorch2
from autograd import aot_function, aot_module, make_boxed_func
from partition import default_partition, min_cut_rematerialization_partition

pytestmark = pytest.mark.aot

PARTITIONERS = {"min_cut": (min_cut_rematerialization_partition, torch_min_cut),
                "default": (default_partition, torch_default)}


def _recording(lib, partitioner, seen):
    """A user's partition_fn: notes the joint's code and the keyword arguments it is given, then calls ours/torch's."""
    def partition_fn(joint, joint_inputs, **kwargs):
        seen.append(("joint", joint.code.strip(), sorted(kwargs)))
        return partitioner(joint, joint_inputs, **kwargs)
    return partition_fn


def _compilers(lib, seen):
    def compiler(kind):
        def compile_(gm, example_inputs):
            seen.append((kind, gm.code.strip()))
            return (torch_boxed if lib is torch else make_boxed_func)(gm.forward)
        return compile_
    return compiler("forward"), compiler("backward")


def _np(t):
    return None if t is None else t.detach().numpy().copy()


def _batch_norm_module(lib, partition_name):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.ReLU())
    with lib.no_grad():  # the same weights on both sides
        model[0].weight.copy_(lib.arange(12.).reshape(4, 3).sub(5).div(7))
        model[0].bias.copy_(lib.arange(4.).div(3))
    seen = []
    fw, bw = _compilers(lib, seen)
    aot = torch_aot_module if lib is torch else aot_module
    partitioner = PARTITIONERS[partition_name][lib is torch]
    compiled = aot(model, fw_compiler=fw, bw_compiler=bw, partition_fn=_recording(lib, partitioner, seen),
                   keep_inference_input_mutations=True)
    x = lib.arange(15.).reshape(5, 3).sin()
    compiled(x).sum().backward()
    state = [_np(model[1].running_mean), _np(model[1].running_var), int(model[1].num_batches_tracked)]
    return seen, state, [_np(p.grad) for p in model.parameters()]


def _input_mutation(lib, partition_name):
    def f(x, y):
        x.add_(1)
        return (x * y).sin()

    seen = []
    fw, bw = _compilers(lib, seen)
    aot = torch_aot_function if lib is torch else aot_function
    partitioner = PARTITIONERS[partition_name][lib is torch]
    x, y = lib.arange(3.), lib.arange(3.).add(0.5).requires_grad_()
    aot(f, fw_compiler=fw, bw_compiler=bw, partition_fn=_recording(lib, partitioner, seen),
        keep_inference_input_mutations=True)(x, y).sum().backward()
    return seen, [_np(x)], [_np(y.grad)]


def _by_name(lib, partition_name):
    """The partitioner itself as partition_fn (no wrapper of the user's)."""
    seen = []
    fw, bw = _compilers(lib, seen)
    aot = torch_aot_function if lib is torch else aot_function
    x, y = lib.arange(3.), lib.arange(3.).add(0.5).requires_grad_()
    aot(lambda x, y: (x.mul_(2), (x + y).cos())[1], fw_compiler=fw, bw_compiler=bw,
        partition_fn=PARTITIONERS[partition_name][lib is torch],
        keep_inference_input_mutations=True)(x, y).sum().backward()
    return seen, [_np(x)], [_np(y.grad)]


def _same_values(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):  # (a linear layer's bias before BatchNorm gets a gradient of rounding noise)
        if isinstance(b, np.ndarray):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
        else:
            assert a == b


@pytest.mark.parametrize("partition_name", sorted(PARTITIONERS))
@pytest.mark.parametrize("program", [_batch_norm_module, _input_mutation, _by_name])
def test_joint_and_graphs_match_torch(program, partition_name):
    ours = program(minitorch2, partition_name)
    theirs = program(torch, partition_name)
    _same_values(ours[1], theirs[1])
    _same_values(ours[2], theirs[2])
    assert [kind for kind, *_ in ours[0]] == [kind for kind, *_ in theirs[0]]
    for mine, torch_one in zip(ours[0], theirs[0]):
        assert mine == torch_one


def test_the_joint_ends_with_the_copies_and_is_left_as_traced():
    """The joint a partition_fn gets still holds its copy_ nodes after our partitioner ran on it."""
    joints = []

    def keep(joint, joint_inputs, **kwargs):
        result = min_cut_rematerialization_partition(joint, joint_inputs, **kwargs)
        joints.append(joint.code)
        return result

    def f(x, y):
        x.add_(1)
        return x * y

    aot_function(f, fw_compiler=lambda gm, _: make_boxed_func(gm.forward), partition_fn=keep,
                 keep_inference_input_mutations=True)(minitorch2.zeros(3), minitorch2.ones(3, requires_grad=True))
    assert "torch.ops.aten.copy_.default(primals_1, add)" in joints[0]
