"""mm's backward picks its ops from its inputs' strides; the aot joint graph must pick PyTorch's.

ATen's mm_mat1_backward / mm_mat2_backward take `mat2.mm(grad.t()).t()` (or
`grad.t().mm(mat1).t()`) when the input was column-major (stride[0] == 1 and
stride[1] == size[0]) and `grad.mm(mat2.t())` (or `mat1.t().mm(grad)`)
otherwise. Under aot the strides are a fake tensor's, and PyTorch's fake
tensors lay out view/_unsafe_view (torch._refs' reshape algorithm) and the
elementwise ops (prims' output-stride rule) differently from its eager
kernels in the strides of size-1 dims: exactly what that test reads for a
(n, 1) or (1, n) operand. A partition fuzz find: matmul of a (1, 3, 1) tanh
with a transposed (3, 1, 1) input, whose folded operand is a view, took the
column-major branch where PyTorch did not (an extra `t`).

The sweep runs x @ w and 3-d matmuls over operand layouts (contiguous,
transposed, size-1 dims, expanded, made by a view or an elementwise op) with
both libraries' aot_function and compares the joint graphs' op lists; a
second part compares fake output strides of the ops involved directly.
"""
import numpy as np
import pytest
import torch
from functorch import compile as torch_compile
from torch._dispatch.python import enable_python_dispatcher
from torch._subclasses.fake_tensor import FakeTensorMode as TorchFakeTensorMode

import autograd
import minitorch2 as mt
from minitorch2._python_dispatcher import enable_python_dispatcher as mt_enable_python_dispatcher
from minitorch2._subclasses.fake_tensor import FakeTensorMode

pytestmark = pytest.mark.aot


class _Traced(Exception):
    pass


def joint_ops(lib, fn, arrays):
    """The call_function targets of lib's aot joint graph of fn on arrays (all inputs need grad)."""
    aot = torch_compile.aot_function if lib is torch else autograd.aot_function
    box = {}

    def hook(joint, joint_inputs, **kwargs):
        box["ops"] = [str(n.target) for n in joint.graph.nodes if n.op == "call_function"]
        raise _Traced

    inputs = [lib.from_numpy(a.copy()).requires_grad_() for a in arrays]
    with pytest.raises(_Traced):
        aot(lambda *xs: fn(lib, *xs), fw_compiler=lambda gm, _: gm.forward, partition_fn=hook)(*inputs)
    return box["ops"]


def assert_same_joint_graph(fn, arrays):
    theirs, ours = joint_ops(torch, fn, arrays), joint_ops(mt, fn, arrays)
    assert ours == theirs


# A layout: (the input's shape for an operand of shape (r, c), how fn makes the (r, c) operand from it).
LAYOUTS = {
    "contiguous": (lambda r, c: (r, c), lambda L, x, r, c: x),
    "transposed": (lambda r, c: (c, r), lambda L, x, r, c: x.t()),
    "expanded": (lambda r, c: (1, c), lambda L, x, r, c: x.expand(r, c)),
    "view_of_3d": (lambda r, c: (r, 1, c), lambda L, x, r, c: x.view(r, c)),
    "reshape_of_transposed_3d": (lambda r, c: (c, 1, r), lambda L, x, r, c: x.transpose(0, 2).reshape(r, c)),
    "tanh_of_transposed": (lambda r, c: (c, r), lambda L, x, r, c: x.t().tanh()),
    "mul_of_unsqueezed": (lambda r, c: (c, r), lambda L, x, r, c: (x.t().unsqueeze(0) * 2.0)[0]),
}


def _operand(L, name, x, r, c):
    return LAYOUTS[name][1](L, x, r, c)


SHAPES = [(3, 2, 4), (1, 3, 2), (3, 1, 2), (3, 2, 1), (1, 1, 1), (1, 2, 1), (2, 1, 1)]
_rng = np.random.default_rng(0)


@pytest.mark.parametrize("b_layout", list(LAYOUTS))
@pytest.mark.parametrize("a_layout", list(LAYOUTS))
@pytest.mark.parametrize("m,k,n", SHAPES, ids=[f"{m}x{k}x{n}" for m, k, n in SHAPES])
def test_mm_joint_graph_matches_torch(m, k, n, a_layout, b_layout):
    arrays = [_rng.standard_normal(LAYOUTS[a_layout][0](m, k)).astype(np.float32),
              _rng.standard_normal(LAYOUTS[b_layout][0](k, n)).astype(np.float32)]

    def fn(L, x, w):
        return (_operand(L, a_layout, x, m, k) @ _operand(L, b_layout, w, k, n),)

    assert_same_joint_graph(fn, arrays)


# 3-d matmuls fold into mm through view/_unsafe_view: the operand mm sees is a view's output.
MATMULS_3D = {
    "tanh_at_transposed": ((1, 3, 1), (1, 3, 1), lambda L, x, y: x.tanh() @ y.transpose(-2, 0)),  # the fuzz find
    "batched_at_2d": ((2, 3, 1), (1, 4), lambda L, x, y: x @ y),
    "transposed_batch_at_2d": ((1, 3, 2), (3, 4), lambda L, x, y: x.transpose(1, 2) @ y),
    "2d_at_transposed_batch": ((1, 3), (2, 1, 3), lambda L, x, y: x @ y.transpose(1, 2)),
    "unit_batch_at_2d": ((1, 1, 3), (3, 1), lambda L, x, y: x @ y),
    "permuted_at_2d": ((3, 1, 2), (3, 2), lambda L, x, y: x.permute(1, 2, 0) @ y),
}


@pytest.mark.parametrize("name", list(MATMULS_3D))
def test_matmul_3d_joint_graph_matches_torch(name):
    x_shape, y_shape, body = MATMULS_3D[name]
    arrays = [_rng.standard_normal(x_shape).astype(np.float32), _rng.standard_normal(y_shape).astype(np.float32)]
    assert_same_joint_graph(lambda L, x, y: (body(L, x, y),), arrays)


def test_the_sweep_sees_a_wrong_branch(monkeypatch):
    """Not vacuous: mm's backward deciding column-major on sizes alone changes a joint graph."""
    from minitorch2._aten import derivatives_linalg

    monkeypatch.setattr(derivatives_linalg, "_is_column_major", lambda shape, stride: shape[1] == 1)
    arrays = [_rng.standard_normal((3, 1)).astype(np.float32), _rng.standard_normal((1, 2)).astype(np.float32)]
    with pytest.raises(AssertionError):
        assert_same_joint_graph(lambda L, x, w: (x @ w,), arrays)


# ---------------------------------------------------------------- fake strides, op by op
def _fake_input(lib, shape, perm):
    """A fake tensor of `shape` whose memory order is `perm` (outermost dim first)."""
    base = lib.zeros([shape[p] for p in perm])
    t = base.permute(*[perm.index(i) for i in range(len(perm))])
    if lib is torch:
        mode = TorchFakeTensorMode()
        return mode, mode.from_tensor(t)
    mode = FakeTensorMode()
    return mode, mode.from_tensor(t)


FAKE_OPS = {
    "view_unsqueeze_last": lambda L, x: L.ops.aten.view.default(x, list(x.shape) + [1]),
    "view_rows": lambda L, x: L.ops.aten.view.default(x, [x.shape[0], -1]) if x.is_contiguous() else
    L.ops.aten.view.default(x, list(x.shape)),
    "unsafe_view_drop_ones": lambda L, x: L.ops.aten._unsafe_view.default(x, [s for s in x.shape if s != 1] or [1]),
    "tanh": lambda L, x: L.ops.aten.tanh.default(x),
    "mul_scalar": lambda L, x: L.ops.aten.mul.Tensor(x, 2.0),
    "add_broadcast": lambda L, x: L.ops.aten.add.Tensor(x, L.ops.aten.sum.dim_IntList(x, [0], True)),
    "gt": lambda L, x: L.ops.aten.gt.Scalar(x, 0),
}
FAKE_LAYOUTS = [((1, 2), [1, 0]), ((2, 1), [1, 0]), ((1, 3, 1), [2, 1, 0]), ((3, 1, 2), [0, 2, 1]),
                ((1, 3, 3, 1), [2, 0, 3, 1]), ((3, 1, 2, 3), [0, 2, 1, 3]), ((2, 1, 1, 3), [0, 3, 1, 2])]


@pytest.mark.parametrize("shape,perm", FAKE_LAYOUTS, ids=[f"{s}-{p}" for s, p in FAKE_LAYOUTS])
@pytest.mark.parametrize("name", list(FAKE_OPS))
def test_fake_strides_match_torch(name, shape, perm):
    fn = FAKE_OPS[name]
    with enable_python_dispatcher():
        mode, x = _fake_input(torch, list(shape), perm)
        with mode:
            theirs = fn(torch, x)
    with mt_enable_python_dispatcher():
        mode, x = _fake_input(mt, list(shape), perm)
        with mode:
            ours = fn(mt, x)
    assert (tuple(ours.shape), ours.stride()) == (tuple(theirs.shape), theirs.stride())
