"""Floats read from anywhere under dynamic=True, Dynamo's tensorify restart, and torch._check as a graph node, against
torch 2.13 run live.

Each program is compiled on both libraries with the dynamic oracle's recording backend (tests/frontend/
dynamic_oracle.py): frame and op counts, every graph's code and placeholders, the shape guards, and under aot_eager
the AOT forward graphs must be torch's, and the values its eager ones. Before these features a module's float
attribute (LayerNorm's eps) was a constant, a float some op takes as a number stayed symbolic in the AOT graph,
and torch._check left no node.
"""
import math

import numpy as np
import pytest
import torch
import torch._dynamo

import frontend
import minitorch2

from . import dynamic_oracle as oracle


SCALE = 0.25


def _programs(lib):
    F = lib.nn.functional

    class Block(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.ln = lib.nn.LayerNorm(4)
            self.bn = lib.nn.BatchNorm1d(4).eval()
            self.scale = 0.5
            self.k = 3

        def forward(self, x):
            return self.ln(x) * self.scale * self.k

    block = Block()
    def module_floats(x, eps):  # eps and scale graph inputs, k a constant (an int of a module)
        return block(x)

    def batch_norm_floats(x, eps):  # momentum and eps, each read twice, one input each
        return block.bn(x)

    def global_and_math(x, eps):
        return x * SCALE + x * math.pi

    def pinned_by_an_op(x, eps):  # layer_norm reads eps as a number: pinned while the frontend traces
        return F.layer_norm(x * eps, (4,), eps=eps)

    def no_tensor_form(x, eps):  # full's fill stays symbolic in the frontend; AOT cannot make it a tensor
        return x + lib.full((4,), eps)

    def tensorified(x, eps):
        return (x * eps).sum() + eps

    def float_over_sizes(x, eps):  # torch's FloatTrueDiv: true_divide of float64 tensors
        return x * (1.0 / math.sqrt(x.size(0))) + x * (2.0 / (x.size(0) * x.size(1)))

    def sizes_over_sizes(x, eps):  # an int over an int (IntTrueDiv) stays a number; a float over one does not
        return x * (x.size(0) / x.size(1)) * (math.sqrt(x.size(0)) / x.size(1)) * ((x.size(0) + 1) / 2)

    def checked(x, eps):
        lib._check(x.size(0) > 2)
        lib._check(x.size(0) != x.size(1) + 1)
        return (x[1:] * 2).sum()

    return {f.__name__: f for f in (module_floats, batch_norm_floats, global_and_math, pinned_by_an_op, no_tensor_form, tensorified,
                                    float_over_sizes, sizes_over_sizes, checked)}


PROGRAMS = {"torch": _programs(torch), "ours": _programs(minitorch2)}
SIZES = (6, 7, 8)


def _record(side, name, backend, requires_grad=False):
    side.dynamo.reset()
    recorder = oracle.RecordingBackend(side, backend)
    compiled = side.dynamo.optimize(recorder, dynamic=True, guard_export_fn=recorder.export_guards)(
        PROGRAMS["torch" if side is oracle.TORCH else "ours"][name])
    outputs = []
    for n in SIZES:
        x = side.lib.tensor(np.random.default_rng(n).standard_normal((n, 4)).astype(np.float32),
                            requires_grad=requires_grad)
        outputs.append(compiled(x, 0.5).detach().numpy())
    side.dynamo.reset()
    return {"frames": recorder.counter.frame_count, "ops": recorder.counter.op_count,
            "graphs": recorder.graphs, "forwards": recorder.forward_codes,
            "guards": [sorted(g) for g in recorder.guards]}, outputs


@pytest.mark.parametrize("backend", oracle.BACKENDS)
@pytest.mark.parametrize("name", list(PROGRAMS["ours"]))
def test_graphs_guards_and_restarts_match_torch(name, backend):
    with oracle._fast_dynamo():
        theirs, expected = _record(oracle.TORCH, name, backend)
    ours, got = _record(oracle.OURS, name, backend)
    assert ours == theirs
    for a, b in zip(got, expected):
        assert np.allclose(a, b, rtol=1e-5, atol=1e-6)


def test_a_checked_joint_graph_keeps_the_assertion_in_its_forward():
    with oracle._fast_dynamo():
        theirs, _ = _record(oracle.TORCH, "checked", "aot_eager", requires_grad=True)
    ours, _ = _record(oracle.OURS, "checked", "aot_eager", requires_grad=True)
    assert ours["forwards"] == theirs["forwards"] and "_assert_scalar" in ours["forwards"][0]


def _captured_graph(lib, dynamo, fn, x):
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    dynamo.reset()
    dynamo.optimize(backend, dynamic=True)(fn)(x, 0.5)
    dynamo.reset()
    return graphs[0]


def test_the_graph_runs_its_assertion_with_torchs_message():
    """The guards keep a violating size from reaching the graph; called directly, the graph raises as torch's."""
    messages = []
    for lib, dynamo in ((torch, torch._dynamo), (minitorch2, frontend)):
        gm = _captured_graph(lib, dynamo, PROGRAMS["torch" if lib is torch else "ours"]["checked"], lib.ones(5, 3))
        assert gm(5, 3, lib.ones(5, 3))[0].item() == 24  # (s77, s27, x)
        with pytest.raises(RuntimeError) as error:
            gm(2, 3, lib.ones(2, 3))
        messages.append(str(error.value))
    assert messages[0] == messages[1] == "Runtime assertion failed for expression s77 > 2 on node 'gt'"


@pytest.mark.parametrize("name", ["checked", "module_floats", "pinned_by_an_op", "no_tensor_form", "tensorified"])
def test_inductor_computes_eager_values(name):
    frontend.reset()
    fn = PROGRAMS["ours"][name]
    compiled = minitorch2.compile(fn, backend="inductor", dynamic=True)
    for n in SIZES:
        x = minitorch2.tensor(np.random.default_rng(n).standard_normal((n, 4)).astype(np.float32))
        assert np.allclose(compiled(x, 0.5).detach().numpy(), fn(x, 0.5).detach().numpy(), rtol=1e-5, atol=1e-6)
    frontend.reset()
