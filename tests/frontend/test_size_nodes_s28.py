"""Sizes in Dynamo graphs under dynamic=True, against torch.compile's (frontend/size_nodes.py).

Each program reads or computes sizes the way real models do: nanoGPT's `B, T, C = x.size()` whose C a Linear then
pins to 8 (Dynamo keeps reading it: `getitem_2: "Sym(8)"`), the length of a flattened or concatenated intermediate
(rebuilt from the inputs' symbols: `s27 * s77`, `2 * s77`), the width of F.pad (`torch.sym_sum([3, s27])`), the
same size expression computed twice (one node). The printed graphs must be torch's, character for character
(but the comments saying where each node came from).
"""
import numpy as np
import pytest
import torch

import frontend
import minitorch2

PROGRAMS = r'''
def attention_heads(x):
    B, T, C = x.size()
    q, k = lin(x).split(C, dim=2)
    q = q.view(B, T, 2, C // 2).transpose(1, 2)
    k = k.view(B, T, 2, C // 2).transpose(1, 2)
    return (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))

def width_read_alone_then_pinned(x):
    C = x.size(2)
    y = lin(x)
    return y.view(-1, C // 2, 4)

def width_read_after_pinned(x):
    y = lin(x)
    B, T, C = x.size()
    return y[..., :C].reshape(B * T, C)

def flattened_length(x):
    y = x.view(-1)
    return y * y.size(0) + y.shape[0]

def concatenated_rows(x):
    y = torch.cat([x, x])
    B, C, D = y.shape
    return y.view(C, B, D)

def padded_width(x):
    y = F.pad(x, (0, 3))
    return y.view(-1) * y.shape[-1]

def same_expression_twice(x):
    a = x.shape[0] * x.shape[1]
    b = x.shape[0] * x.shape[1]
    return x.view(a, -1) + b

def halves_of_a_slice(x):
    y = x[:, 1:]
    n = y.shape[1] // 2
    return y[:, :n] * y.shape[1]
'''


def build(lib):
    ns = {"torch": lib, "F": lib.nn.functional, "math": __import__("math")}
    lib.manual_seed(0)
    ns["lin"] = lib.nn.Linear(8, 16)
    exec(compile(PROGRAMS, "<size programs>", "exec"), ns)
    return ns


TORCH_NS, MT_NS = build(torch), build(minitorch2)
NAMES = [name for name in TORCH_NS if callable(TORCH_NS[name]) and name not in ("lin", "F")
         and getattr(TORCH_NS[name], "__module__", None) is None and not isinstance(TORCH_NS[name], type)]


def _run(lib, fn):
    (torch._dynamo if lib is torch else frontend).reset()
    graphs = []

    def record(gm, example_inputs):
        code = gm.print_readable(print_output=False).splitlines()  # (comments: where each node came from)
        graphs.append([line for line in code if line.strip() and not line.strip().startswith("#")])
        return gm.forward

    x = lib.arange(2 * 3 * 8, dtype=lib.float32).reshape(2, 3, 8).div(10)
    out = lib.compile(fn, backend=record, dynamic=True)(x)
    return graphs, out.detach().numpy()


def test_every_program_is_run():
    assert len(NAMES) == 8


@pytest.mark.parametrize("name", NAMES)
def test_graphs_and_values_match_torch(name):
    ours, theirs = _run(minitorch2, MT_NS[name]), _run(torch, TORCH_NS[name])
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5)
    assert ours[0] == theirs[0]


def test_sym_sum_adds_numbers_and_sizes():
    assert minitorch2.sym_sum([3, 4, 5]) == torch.sym_sum([3, 4, 5]) == 12


def test_cross_entropy_backward_under_dynamic_shapes_is_torchs():
    """nll_loss's backward scatters into a `full` of symbolic shape: the inductor's joint-graph pass makes it
    where(index == iota) with the sizes as nodes, as torch's (it was left a scatter under dynamic shapes)."""
    from tests.backend.test_graphs_s26 import recording_inductor  # (a backend test's helper)

    def graphs(lib):
        lib.manual_seed(0)
        lin, seen = lib.nn.Linear(4, 5), []
        fn = lib.compile(lambda x, y: lib.nn.functional.cross_entropy(lin(x), y), dynamic=True,
                         backend=recording_inductor(lib, seen))
        loss = fn(lib.arange(12.).reshape(3, 4).div(5), lib.tensor([0, 4, 2]))
        loss.backward()
        return seen, loss.item(), lin.weight.grad.numpy().copy()
    frontend.reset()
    torch._dynamo.reset()
    ours = graphs(minitorch2)
    with torch._inductor.config.patch(fx_graph_cache=False), torch._functorch.config.patch(enable_autograd_cache=False):
        theirs = graphs(torch)
    assert ours[0] == theirs[0] and "prims.iota.default" in ours[0][1]
    assert ours[1] == pytest.approx(theirs[1], rel=1e-6)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5, atol=1e-6)
