"""AOT over symbolic sizes (issue 21): a frontend graph with SymInt inputs is traced once, as torch's aot_eager traces
it, and its graphs serve every size the guards admit.

Each program runs under torch.compile and minitorch2.compile with aot_autograd (no-op compilers, the min-cut
partitioner, ours with dynamic=True) over a sequence of sizes; the forward graphs handed to the compiler (SymInt
primals, sizes saved across the cut), the values and the gradients must equal torch's.
"""
import numpy as np
import pytest
import torch
from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd
from torch._dynamo.backends.debugging import boxed_nop as torch_boxed_nop
from torch._functorch.partitioners import min_cut_rematerialization_partition as torch_min_cut

import autograd
import frontend
import minitorch2
import partition


def _linear_head(lib):
    fc = lib.nn.Linear(4, 3)
    with lib.no_grad():
        fc.weight.copy_(lib.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)))
        fc.bias.copy_(lib.tensor(np.array([0.5, -0.25, 1.0], dtype=np.float32)))
    return fc


def _scaled_sine(lib):
    return lambda x: (x * x.shape[0]).sin()  # the backward multiplies by the size: it is saved


def _half_width(lib):
    return lambda x: x * (x.shape[1] / 2)  # a SymFloat: the graph divides (`truediv = primals_2 / 2`)


def _scaled_pairs(lib):
    return lambda x: (x * x.shape[0]).view(-1, 2).sum(1)  # the backward computes the size s77 // 2 again


def _row_view(lib):
    return lambda x: x.view(x.shape[0], -1)  # an output viewing an input: its view ops hold a size


def _run(lib, make_program, shapes, dynamic, decompositions=None):
    """(forward codes, outputs, input grads, parameter grads) of one program compiled over the given shapes."""
    forwards = []

    def forward_compiler(gm, example_inputs):
        forwards.append(gm.code.strip())
        return (torch_boxed_nop if lib is torch else autograd.boxed_nop)(gm, example_inputs)

    program = make_program(lib)
    if lib is torch:
        torch._dynamo.reset()
        backend = torch_aot_autograd(fw_compiler=forward_compiler, bw_compiler=torch_boxed_nop,
                                     partition_fn=torch_min_cut)
    else:
        frontend.reset()
        backend = autograd.aot_autograd(fw_compiler=forward_compiler, bw_compiler=autograd.boxed_nop,
                                        partition_fn=partition.min_cut_rematerialization_partition,
                                        decompositions=decompositions)
    compiled = lib.compile(program, backend=backend, dynamic=dynamic)
    outputs, grads = [], []
    for i, shape in enumerate(shapes):
        x = lib.tensor(np.random.default_rng(i).standard_normal(shape).astype(np.float32), requires_grad=True)
        out = compiled(x)
        out.sum().backward()
        outputs.append(out.detach().numpy())
        grads.append(x.grad.numpy())
    params = [p.grad.numpy() for p in program.parameters()] if hasattr(program, "parameters") else []
    (torch._dynamo if lib is torch else frontend).reset()
    return forwards, outputs, grads, params


def _assert_close(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("make_program, shapes, dynamic", [
    (_linear_head, [(4, 4), (6, 4), (8, 4), (10, 4)], None),
    (_scaled_sine, [(4, 3), (6, 3), (10, 5)], True),
    (_half_width, [(4, 3), (6, 3), (10, 5)], True),
])
def test_one_trace_over_symints_prints_and_computes_as_torchs(make_program, shapes, dynamic):
    theirs = _run(torch, make_program, shapes, dynamic)
    ours = _run(minitorch2, make_program, shapes, dynamic)
    assert ours[0] == theirs[0]  # one forward per frontend graph: SymInt primals, sizes saved last
    for mine, torchs in zip(ours[1:], theirs[1:]):
        _assert_close(mine, torchs)


def test_sizes_the_backward_computes_again():
    """torch binds s77 // 2 by sym_size of the view (saved); ours recomputes it from s77: one forward, same values."""
    shapes = [(4,), (6,), (10,)]
    ours, theirs = _run(minitorch2, _scaled_pairs, shapes, True), _run(torch, _scaled_pairs, shapes, True)
    assert len(ours[0]) == len(theirs[0]) == 1
    for mine, torchs in zip(ours[1:], theirs[1:]):
        _assert_close(mine, torchs)


def test_an_output_viewing_an_input_through_a_size_is_traced_once():
    """The size in an output's view ops takes each call's value when the view is made again: one trace over
    symbolic sizes serves every call, as torch's (this graph was traced per size before)."""
    shapes = [(4, 3), (6, 3), (8, 3)]
    ours, theirs = _run(minitorch2, _row_view, shapes, True), _run(torch, _row_view, shapes, True)
    assert ours[0] == theirs[0] and len(ours[0]) == 1
    for mine, torchs in zip(ours[1:], theirs[1:]):
        _assert_close(mine, torchs)


def test_a_size_decided_while_tracing_is_checked_at_every_call():
    """A decision the AOT trace makes on a size (here a decomposition's, which the frontend never sees) is a fact the
    symbolic graphs need: a call that breaks it gets a graph of its own, with the right values."""
    aten = minitorch2.ops.aten

    def scale_unless_seven(a, b):
        return aten.mul.Scalar(a, 3.0) if a.shape[0] == 7 else NotImplemented

    shapes = [(4,), (6,), (7,), (9,)]
    ours = _run(minitorch2, _doubled, shapes, True, decompositions={aten.mul.Tensor: scale_unless_seven})
    assert len(ours[0]) == 2  # the symbolic graph (s77 != 7), then size 7's own
    theirs = _run(torch, _doubled, shapes, True)
    for mine, torchs in zip(ours[1:3], theirs[1:3]):  # outputs and gradients
        _assert_close(mine[:2] + mine[3:], torchs[:2] + torchs[3:])
    _assert_close([ours[1][2]], [theirs[1][2] * 1.5])  # the decomposition's own value at size 7


def _doubled(lib):
    return lambda x: x * 2.0


def _inference_forwards(lib, program, shapes):
    """The forward graph codes of an inference graph (no input requires grad) compiled with dynamic=True."""
    forwards = []

    def forward_compiler(gm, example_inputs):
        forwards.append(gm.code.strip())
        return (torch_boxed_nop if lib is torch else autograd.boxed_nop)(gm, example_inputs)

    (torch._dynamo if lib is torch else frontend).reset()
    backend = (torch_aot_autograd(fw_compiler=forward_compiler) if lib is torch else
               autograd.aot_autograd(fw_compiler=forward_compiler))
    compiled = lib.compile(program, backend=backend, dynamic=True)
    for i, shape in enumerate(shapes):
        compiled(lib.tensor(np.random.default_rng(i).standard_normal(shape).astype(np.float32)))
    (torch._dynamo if lib is torch else frontend).reset()
    return forwards


@pytest.mark.parametrize("program", [
    # the storage size torch's functionalization computes for each output over symbolic sizes takes names (eq, sub,
    # add, mul) before dead code elimination: sub_1 and add_6 here, not sub and add_1
    lambda x: x.sum(0) + x.mean(0) - x.sum(1, keepdim=True).mean() + x.amax(1).sum(),
    lambda x: x.view(x.shape[0] * 2, -1) * 2,  # size arithmetic traced as it runs: `mul = arg0_1 * 2`
    lambda x: x[1:].expand(3, -1, -1) * x.shape[0],  # a stride 0 (expand), a storage offset (the slice)
    lambda x: x[: min(x.shape[0], 3)] + x.shape[1] % 4,  # torch.sym_min, `mod = arg1_1 % 4`
], ids=["reductions", "view_of_size_times_two", "expand_of_a_slice", "sym_min_and_mod"])
def test_inference_forward_over_symbolic_sizes_prints_as_torchs(program):
    shapes = [(4, 6), (6, 6), (8, 10)]
    assert _inference_forwards(minitorch2, program, shapes) == _inference_forwards(torch, program, shapes)
