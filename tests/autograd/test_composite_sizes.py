"""The SymInt arithmetic of ATen's composites (reshape, flatten, indexing) in AOT graphs, against torch live.

torch's make_fx records every size operation that runs outside an op's kernel, dead ones included, and each takes a
node name; so the forward graph prints torch's names (`mul_9`, `eq_27`) only where ours run the same operations in
the same order. Each program is compiled by torch and by minitorch2 with aot_autograd over a sequence of sizes; the
test compares, per forward graph, the node names and targets before dead code elimination (the whole record of
size questions) and the code handed to the compiler.
"""
from unittest import mock

import numpy as np
import pytest
import torch
from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd
from torch._dynamo.backends.debugging import boxed_nop as torch_boxed_nop

import autograd
import frontend
import minitorch2

# name: (program, sizes of its calls, the `dynamic` settings compared). Under dynamic=None the second call's sizes
# make the changed dim a symbol; dynamic=True is compared where torch's Dynamo keeps the same dims symbolic as ours
# (torch specializes a dim that reshape(..., 4) pins, ours keeps a guard).
PROGRAMS = {
    # flatten views the product of its dims ([4, 18] on static sizes, never -1); reshape of a contiguous tensor asks
    # c10's contiguity check once per tensor and views the shape as given
    "flatten": ("lambda x: torch.flatten(x, 1).relu()", [(4, 2, 3, 3), (5, 2, 3, 3)], (None, True)),
    "merge_and_split": ("lambda x: (x.reshape(x.shape[0] * x.shape[1], 4) * 2 + 1).reshape(x.shape).sum(1)",
                        [(2, 5, 4), (2, 6, 4)], (None,)),
    "reshape_minus_one": ("lambda x: x.reshape(-1, 4).cos()", [(3, 4), (5, 4)], (None,)),
    # non-contiguous and viewable: the contiguity SymBool, infer_size and computeStride in ATen's order
    "transposed_view": ("lambda x: x.transpose(1, 2).reshape(x.shape[0], 4, x.shape[1]) * 2", [(2, 5, 4), (2, 6, 4)],
                        (None,)),
    # indexing: a single slice is always recorded, a tuple's whole-dim slice only where not known to cover the dim,
    # a select's bounds check records its comparisons; a view's symbolic storage offset is checked after its size
    "first_rows": ("lambda x: x[:4].sum(0)", [(4, 3), (5, 3)], (None, True)),
    "column": ("lambda x: x[:, 0] > 0", [(4, 3), (5, 3)], (None, True)),
    "sliced_both": ("lambda x: x[1:, :2].sum() + x[0:, 0:x.shape[1]].sum()", [(4, 3), (5, 3)], (None,)),
    "last_row": ("lambda x: x[-1] * x[..., 1].sum()", [(4, 3), (5, 3)], (None,)),
}
CASES = [(name, dynamic) for name, (_, _, settings) in sorted(PROGRAMS.items()) for dynamic in settings]


def _compile_records(lib, source, shapes, dynamic):
    """Per forward graph: (node lines before dead code elimination, the code handed to the compiler)."""
    graph_cls = torch.fx.Graph if lib is torch else minitorch2.fx.Graph
    nop = torch_boxed_nop if lib is torch else autograd.boxed_nop
    dynamo = torch._dynamo if lib is torch else frontend
    traced, records = [], []
    eliminate = graph_cls.eliminate_dead_code

    def first_elimination(graph, *args, **kwargs):
        if len(traced) == len(records):  # the first elimination of each trace sees every node it recorded
            traced.append([f"{n.name} = {getattr(n.target, '__name__', n.target)}" for n in graph.nodes
                           if n.op == "call_function" and not n.name.startswith("sym_size_int")])
        return eliminate(graph, *args, **kwargs)

    def forward_compiler(gm, example_inputs):
        records.append((traced[-1], gm.code.strip()))
        return nop(gm, example_inputs)

    options = {} if lib is torch else {"dynamic": True}
    backend = (torch_aot_autograd if lib is torch else autograd.aot_autograd)(
        fw_compiler=forward_compiler, bw_compiler=nop, **options)
    program = eval(source, {"torch": lib})
    dynamo.reset()
    try:
        with mock.patch.object(graph_cls, "eliminate_dead_code", first_elimination):
            compiled = dynamo.optimize(backend, dynamic=dynamic)(program)
            for i, shape in enumerate(shapes):
                compiled(lib.tensor(np.random.RandomState(i).randn(*shape).astype(np.float32)))
    finally:
        dynamo.reset()
    return records


@pytest.mark.aot
@pytest.mark.parametrize("name, dynamic", CASES)
def test_forward_graph_names_and_size_questions_match_torch(name, dynamic):
    source, shapes, _ = PROGRAMS[name]
    theirs = _compile_records(torch, source, shapes, dynamic)
    ours = _compile_records(minitorch2, source, shapes, dynamic)
    assert len(ours) == len(theirs)
    for (their_nodes, their_code), (our_nodes, our_code) in zip(theirs, ours):
        assert our_nodes == their_nodes
        assert our_code == their_code
