"""In-place ops that read memory they write, compiled: torch.compile functionalizes them and computes.

torch's eager refuses `a.div_(a[1])` (partial overlap) and `a[:1].expand(3, 3).add_(1)` (one element written
many times); its fake tensors do not check, so Dynamo records the op and AOTAutograd's functionalization turns it
into out-of-place ops. A write through an expanded view goes back to its base as torch's inverse of expand: the
base plus the view's changes summed over each element's copies.
"""
import math

import pytest
import torch
import torch._dynamo

import frontend
import minitorch2

CASES = {
    "divide_by_own_row": lambda a: a.div_(a[1]),
    "add_own_transpose": lambda a: a.add_(a.t()),
    "fresh_tensor_adds_own_transpose": lambda a: (lambda b: b.add_(b.t()))(a * 2),
    "add_through_expanded_row": lambda a: a[:1].expand(3, 3).add_(1),
    "add_through_expanded_fresh_row": lambda a: (a[:1] * 1).expand(3, 3).add_(1),
    "mul_through_expanded_row": lambda a: a[1:2].expand(2, 3, 3).mul_(a[2]),
    "shift_rows_down": lambda a: a[1:].copy_(a[:-1]),
    "scale_by_first_row": lambda a: a.mul_(a[0]),
}


def _outcome(lib, fn, backend):
    (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()
    a = lib.arange(9.0).reshape(3, 3) + 1
    try:
        return lib.compile(fn, backend=backend)(a).tolist(), a.tolist()
    except RuntimeError as e:
        return type(e).__name__, str(e)[:70]


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
@pytest.mark.parametrize("case", list(CASES))
def test_overlapping_write_compiled_as_by_torch_compile(case, backend):
    assert _outcome(minitorch2, CASES[case], backend) == _outcome(torch, CASES[case], backend)


def _forward_ops(lib, fn, x):
    graphs = []

    def keep(gm, example_inputs):
        graphs.append([str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
        return gm

    if lib is torch:
        from torch._functorch.aot_autograd import aot_module_simplified
    else:
        from autograd.aot import aot_module_simplified
    (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()
    lib.compile(fn, backend=lambda gm, ex: aot_module_simplified(gm, ex, fw_compiler=keep))(x)
    return graphs


@pytest.mark.parametrize("shape, expanded", [((3,), (2, 3)), ((1, 3), (3, 3)), ((3, 3), (3, 3))])
def test_write_back_through_expand_is_torchs_inverse(shape, expanded):
    def fn(a):
        return a.expand(*expanded).add_(1)

    ours = _forward_ops(minitorch2, fn, minitorch2.arange(float(math.prod(shape))).reshape(shape))
    theirs = _forward_ops(torch, fn, torch.arange(float(math.prod(shape))).reshape(shape))
    assert ours == theirs
    assert ("aten.sum.dim_IntList" in ours[0]) == (shape != expanded)  # copies of an element summed
