"""AOT forward graphs of matmul, linear and convolution over symbolic sizes, as torch's aot_eager prints them.

torch's make_fx records every SymInt operation a composite runs, dead ones included (matmul's fold check and the
product of the batch sizes, linear's contiguity check of bias and input), so a graph's names (`mul_2`, not `mul_5`)
match only where ours asks the same questions in the same order; and it ends by replacing each size node whose
expression a SymInt input holds by that input (`sym_size.int(k, 2)` -> `arg2_1`), which also decides which sizes a
training graph saves. Each program runs under torch.compile and minitorch2.compile (dynamic=True) over a few sizes;
the forward graphs and the values must equal torch's.
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


def _compile(lib, program, forwards):
    def forward_compiler(gm, example_inputs):
        forwards.append(gm.code.strip())
        return (torch_boxed_nop if lib is torch else autograd.boxed_nop)(gm, example_inputs)

    if lib is torch:
        backend = torch_aot_autograd(fw_compiler=forward_compiler, bw_compiler=torch_boxed_nop,
                                     partition_fn=torch_min_cut)
    else:
        backend = autograd.aot_autograd(fw_compiler=forward_compiler, bw_compiler=autograd.boxed_nop,
                                        partition_fn=partition.min_cut_rematerialization_partition, dynamic=True)
    return lib.compile(program, backend=backend, dynamic=True)


def _run(lib, make_program, calls, requires_grad):
    """(forward codes, outputs and gradients) of one program compiled once and called with each call's shapes."""
    (torch._dynamo if lib is torch else frontend).reset()
    lib.manual_seed(0)
    program = make_program(lib)
    forwards, values = [], []
    compiled = _compile(lib, program, forwards)
    for i, shapes in enumerate(calls):
        args = [lib.tensor(np.random.default_rng(10 * i + j).standard_normal(shape).astype(np.float32),
                           requires_grad=requires_grad) for j, shape in enumerate(shapes)]
        out = compiled(*args)
        values.append(out.detach().numpy())
        if requires_grad:
            out.sum().backward()
            values += [a.grad.numpy() for a in args]
    if requires_grad:
        values += [p.grad.numpy() for p in getattr(program, "params", [])]
    (torch._dynamo if lib is torch else frontend).reset()
    return forwards, values


def _with_params(program, module):
    program.params = list(module.parameters())  # (their gradients are compared too)
    return program


def _matmul(lib):
    return lambda a, b: a @ b


def _scaled_scores(lib):
    return lambda q, k: (q @ k.transpose(-2, -1)) * k.shape[-1]  # k's sizes equal q's (duck sizing)


def _linear(in_features, bias=True):
    def make(lib):
        fc = lib.nn.Linear(in_features, 3, bias=bias)
        return _with_params(lambda x: fc(x), fc)  # (a function's `x`: its sizes are named alike on both sides)
    return make


def _linear_of_transposed(lib):
    fc = lib.nn.Linear(4, 3)
    return _with_params(lambda x: fc(x.transpose(0, 1)), fc)  # not contiguous: matmul, then the bias added


def _conv_then_mean(lib):
    conv = lib.nn.Conv2d(2, 3, 3, padding=1)
    return _with_params(lambda x: conv(x).relu().mean((2, 3)), conv)  # mean's backward needs H, W: saved inputs


CASES = {
    "fold_3d_by_2d": (_matmul, [[(4, 3, 5), (5, 2)], [(6, 3, 5), (5, 2)], [(8, 5, 5), (5, 2)]]),
    "fold_4d_by_2d": (_matmul, [[(2, 4, 3, 5), (5, 2)], [(2, 6, 3, 5), (5, 2)], [(3, 8, 3, 5), (5, 2)]]),
    "fold_3d_by_1d": (_matmul, [[(4, 3, 5), (5,)], [(6, 3, 5), (5,)], [(8, 3, 5), (5,)]]),
    "matmul_2d_by_3d": (_matmul, [[(4, 5), (3, 5, 2)], [(6, 5), (3, 5, 2)], [(7, 5), (4, 5, 2)]]),
    "matmul_1d_by_3d": (_matmul, [[(5,), (3, 5, 2)], [(5,), (4, 5, 2)], [(5,), (6, 5, 2)]]),
    "matmul_broadcast_batch": (_matmul, [[(2, 1, 4, 5), (3, 5, 2)], [(2, 1, 6, 5), (3, 5, 2)],
                                         [(3, 1, 7, 5), (4, 5, 2)]]),  # (bmm over the expanded batch)
    "matmul_3d_by_3d": (_matmul, [[(4, 3, 5), (4, 5, 2)], [(6, 3, 5), (6, 5, 2)], [(7, 4, 5), (7, 5, 2)]]),
    "bmm": (lambda lib: lib.bmm, [[(3, 4, 5), (3, 5, 2)], [(3, 6, 5), (3, 5, 2)], [(4, 7, 5), (4, 5, 2)]]),
    "scores_of_equal_sizes": (_scaled_scores, [[(2, 4, 8), (2, 4, 8)], [(2, 6, 8), (2, 6, 8)], [(3, 7, 5), (3, 7, 5)]]),
    "linear_3d": (_linear(4), [[(2, 5, 4)], [(2, 7, 4)], [(3, 9, 4)]]),
    "linear_4d": (_linear(4), [[(2, 3, 5, 4)], [(2, 3, 7, 4)], [(2, 4, 9, 4)]]),
    "linear_1d": (_linear(4), [[(4,)], [(4,)]]),
    "linear_3d_no_bias": (_linear(4, bias=False), [[(2, 5, 4)], [(2, 7, 4)], [(3, 9, 4)]]),
    "linear_of_transposed": (_linear_of_transposed, [[(5, 2, 4)], [(7, 2, 4)], [(9, 3, 4)]]),
    "conv_then_mean": (_conv_then_mean, [[(1, 2, 5, 5)], [(1, 2, 7, 7)], [(2, 2, 6, 9)]]),
}


@pytest.mark.parametrize("requires_grad", [False, True], ids=["inference", "training"])
@pytest.mark.parametrize("name", list(CASES))
def test_forward_graphs_over_symbolic_sizes_print_as_torchs(name, requires_grad):
    make_program, calls = CASES[name]
    theirs = _run(torch, make_program, calls, requires_grad)
    ours = _run(minitorch2, make_program, calls, requires_grad)
    assert ours[0] == theirs[0]
    assert len(ours[1]) == len(theirs[1])
    for mine, torchs in zip(ours[1], theirs[1]):
        np.testing.assert_allclose(mine, torchs, rtol=1e-5, atol=1e-5)
