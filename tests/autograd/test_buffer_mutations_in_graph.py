"""Buffers a compiled training step updates in place (BatchNorm's running statistics, a counter) stay in the graphs
as torch's keep_inference_input_mutations keeps them: the joint graph (as MINITORCH2_LOGS=aot_joint_graph prints it)
ends in `copy_` into each buffer, after the backward's nodes, and those copies end the forward graph, which no longer
returns the new values. Graphs, buffer values and gradients against torch's, with aot_eager's settings."""
import pytest
import torch
from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd
from torch._functorch.partitioners import default_partition as torch_default
from torch._functorch.partitioners import min_cut_rematerialization_partition as torch_min_cut

import frontend
import minitorch2
from autograd import aot_autograd
from partition import default_partition, min_cut_rematerialization_partition



def _batch_norm(lib):
    return lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.ReLU(), lib.nn.Linear(4, 2))


def _counter(lib):
    class Counter(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = lib.nn.Linear(3, 2)
            self.register_buffer("calls", lib.zeros(()))
            self.register_buffer("total", lib.zeros(3))

        def forward(self, x):
            self.calls.add_(1)
            self.total.add_(x.detach().sum(0))
            return self.linear(x).tanh()

    return Counter()


MODELS = {"batch_norm": _batch_norm, "counter": _counter}


def _train(lib, model_name, make_backend, partition, steps=3, joint_ops=False):
    """Graphs (joint, forward, backward code) of the first compile, then each step's loss, and the buffers and
    gradients after `steps` steps."""
    lib.manual_seed(0)
    model = MODELS[model_name](lib)
    graphs = []

    def recording(name):
        def compiler(gm, example_inputs):
            graphs.append((name, gm.code.strip()))
            return gm.forward
        return compiler

    def partition_fn(joint, joint_inputs, **kwargs):
        if joint_ops:
            graphs.append(("joint", [str(n.target) for n in joint.graph.nodes if n.op == "call_function"]))
        return partition(joint, joint_inputs, **kwargs)

    backend = make_backend(fw_compiler=recording("forward"), bw_compiler=recording("backward"),
                           partition_fn=partition_fn, keep_inference_input_mutations=True)
    compiled = lib.compile(model, backend=backend)
    losses = []
    for step in range(steps):
        x = (lib.arange(15.0).reshape(5, 3) * 0.37 + 0.1).sin() * (step + 1)  # (no BatchNorm output exactly 0)
        loss = compiled(x).sum()
        loss.backward()
        losses.append(round(loss.item(), 4))
    state = [[round(v, 4) for v in b.reshape(-1).tolist()] for b in model.buffers()]
    grads = [[round(v, 4) for v in p.grad.reshape(-1).tolist()] for p in model.parameters()]
    return graphs, losses, state, grads


@pytest.mark.parametrize("partitioner", ["min_cut", "default"])
@pytest.mark.parametrize("model_name", sorted(MODELS))
def test_training_graphs_copy_into_buffers_as_torch(model_name, partitioner):
    ours_partition, torch_partition = {"min_cut": (min_cut_rematerialization_partition, torch_min_cut),
                                       "default": (default_partition, torch_default)}[partitioner]
    frontend.reset()
    torch._dynamo.reset()
    ours = _train(minitorch2, model_name, aot_autograd, ours_partition)
    theirs = _train(torch, model_name, torch_aot_autograd, torch_partition)
    assert "torch.ops.aten.copy_.default(" in dict(ours[0])["forward"]
    assert ours[0] == theirs[0]
    assert ours[1:] == theirs[1:]


def test_inference_graph_copies_into_buffers_as_torch():
    def run(lib, make_backend):
        lib.manual_seed(0)
        model = _batch_norm(lib)
        graphs = []

        def compiler(gm, example_inputs):
            graphs.append(gm.code.strip())
            return gm.forward

        backend = make_backend(fw_compiler=compiler, keep_inference_input_mutations=True)
        with lib.no_grad():  # (training mode: the statistics still update, in an inference graph)
            out = lib.compile(model, backend=backend)(lib.linspace(-1.0, 1.0, 15).reshape(5, 3))
        return graphs, [round(v, 4) for t in (out, *model.buffers()) for v in t.reshape(-1).tolist()]

    frontend.reset()
    torch._dynamo.reset()
    ours, theirs = run(minitorch2, aot_autograd), run(torch, torch_aot_autograd)
    assert "torch.ops.aten.copy_.default(" in ours[0][0]
    assert ours[0] == theirs[0]
    assert ours[1] == theirs[1]


def test_partition_fn_receives_the_joint_graph_with_its_copies():
    frontend.reset()
    torch._dynamo.reset()
    ours = _train(minitorch2, "batch_norm", aot_autograd, min_cut_rematerialization_partition, 1, joint_ops=True)
    theirs = _train(torch, "batch_norm", torch_aot_autograd, torch_min_cut, 1, joint_ops=True)
    assert dict(ours[0])["joint"] == dict(theirs[0])["joint"]
