"""The Tensor against torch.Tensor: views and memory, versions, dtype promotion, broadcasting,
indexing, in-place ops and repr (the torch-level functions: test_functions.py).

Each test builds the same values in both libraries from numpy and compares
what users see: values, dtype, shape, stride(), storage_offset(), printed text.
"""
import re

import numpy as np
import pytest
import torch

import minitorch2 as mt

from .tensor_helpers import arr, assert_same, both, shares_memory

pytestmark = pytest.mark.runtime

# ---------------------------------------------------------------- views
VIEWS = {
    "view": lambda x: x.view(6, 4),
    "view_infer": lambda x: x.view(-1, 2),
    "reshape_viewable": lambda x: x.reshape(4, 6),
    "permute": lambda x: x.permute(2, 0, 1),
    "transpose": lambda x: x.transpose(0, 2),
    "transpose_neg": lambda x: x.transpose(-1, -2),
    "t_of_slice": lambda x: x[0].t(),
    "T": lambda x: x.T if x.dim() == 2 else x.permute(2, 1, 0),
    "mT": lambda x: x.mT,
    "expand": lambda x: x[:, :1, :].expand(2, 5, 4),
    "expand_new_dim": lambda x: x[0, 0].expand(3, 4),
    "unsqueeze": lambda x: x.unsqueeze(1),
    "unsqueeze_last": lambda x: x.unsqueeze(-1),
    "squeeze": lambda x: x[:, :1].squeeze(),
    "squeeze_dim": lambda x: x[:, 1:2].squeeze(1),
    "slice_step": lambda x: x[:, ::2, 1::2],
    "slice_negative": lambda x: x[-1:, -2:],
    "slice_empty": lambda x: x[:, 3:1],
    "select": lambda x: x[1],
    "select_negative": lambda x: x[:, -1],
    "select_then_slice": lambda x: x[1, ::2],
    "none": lambda x: x[None],
    "none_middle": lambda x: x[:, None, 1],
    "ellipsis": lambda x: x[..., 1],
    "ellipsis_none": lambda x: x[..., None, ::3],
    "narrow": lambda x: x.narrow(2, 1, 2),
    "diagonal": lambda x: x.diagonal(0, 1, 2),
    "unflatten": lambda x: x.unflatten(2, (2, 2)),
    "flatten_contiguous": lambda x: x.flatten(1),
    "split_piece": lambda x: x.split(2, dim=2)[1],
    "chunk_piece": lambda x: x.chunk(3, dim=1)[2],
    "unbind_piece": lambda x: x.unbind(1)[1],
    "movedim": lambda x: x.movedim(0, -1),
    "view_of_transpose": lambda x: x.transpose(1, 2).view(2, 4, 3)[:, 1:],
    "detach": lambda x: x.detach(),
}


@pytest.mark.parametrize("name", VIEWS)
def test_view_layout_and_sharing(name):
    fn = VIEWS[name]
    values = arr(2, 3, 4)
    ours, theirs = both(values)
    v_ours, v_theirs = fn(ours), fn(theirs)
    assert_same(v_ours, v_theirs)
    if v_theirs.numel():
        assert shares_memory(v_ours, ours)
        v_ours.fill_(7.0)  # writes through the view reach the base
        v_theirs.fill_(7.0)
        assert_same(ours, theirs)


def test_reshape_of_non_contiguous_copies():
    ours, theirs = both(arr(3, 4))
    r_ours, r_theirs = ours.t().reshape(12), theirs.t().reshape(12)
    assert_same(r_ours, r_theirs)
    assert not shares_memory(r_ours, ours)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        ours.t().view(12)
    with pytest.raises(RuntimeError):
        theirs.t().view(12)


def test_contiguous_and_is_contiguous():
    ours, theirs = both(arr(3, 4))
    for fn in (lambda x: x, lambda x: x.t(), lambda x: x[:, ::2], lambda x: x[:1].t(), lambda x: x[:0]):
        assert fn(ours).is_contiguous() == fn(theirs).is_contiguous()
        assert_same(fn(ours).contiguous(), fn(theirs).contiguous())
    assert ours.contiguous() is ours


def test_from_numpy_shares_memory_and_keeps_strides():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    ours, theirs = mt.from_numpy(a), torch.from_numpy(a)
    assert ours.stride() == theirs.stride()
    a[0, 0] = 42
    assert ours[0, 0].item() == 42 == theirs[0, 0].item()
    t_ours, t_theirs = mt.from_numpy(a.T), torch.from_numpy(a.T)
    assert_same(t_ours, t_theirs)


def test_from_numpy_keeps_numpy_strides_of_empty_arrays():
    a = np.zeros((0, 3), np.float32)
    assert mt.from_numpy(a).stride() == torch.from_numpy(a).stride()


# ---------------------------------------------------------------- version counter
def fresh(array):
    """Both tensors at version 0 (both() copies into torch's tensor, which bumps its version)."""
    return mt.tensor(array), torch.tensor(array)


def test_version_counter_shared_by_views_and_bumped_by_inplace_ops():
    ours, theirs = fresh(arr(3, 4))
    steps = [
        lambda x, v: x.add_(1),
        lambda x, v: v.mul_(2),
        lambda x, v: v.zero_(),
        lambda x, v: x.copy_(x * 2),
        lambda x, v: x.__setitem__((0, 1), 5.0),
        lambda x, v: v.__setitem__(slice(None), 1.0),
        lambda x, v: x.clamp_(-1, 1),
        lambda x, v: x.sum(),  # not in-place: no bump
        lambda x, v: x.t(),  # a view: no bump
    ]
    v_ours, v_theirs = ours[1], theirs[1]
    for step in steps:
        step(ours, v_ours)
        step(theirs, v_theirs)
        assert ours._version == theirs._version
        assert v_ours._version == v_theirs._version
    assert_same(ours, theirs)


def test_fresh_results_start_at_version_zero_and_detach_shares_the_counter():
    ours, theirs = fresh(arr(3))
    ours.add_(1)
    theirs.add_(1)
    assert (ours + 1)._version == (theirs + 1)._version == 0
    d_ours, d_theirs = ours.detach(), theirs.detach()
    d_ours.mul_(3)
    d_theirs.mul_(3)
    assert ours._version == theirs._version == d_ours._version == d_theirs._version
    assert_same(ours, theirs)


# ---------------------------------------------------------------- type promotion
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def _operand(kind, dtype, lib):
    if kind == "tensor":
        return lib.ones(2, dtype=getattr(lib, dtype))
    return lib.ones((), dtype=getattr(lib, dtype))


@pytest.mark.parametrize("kinds", [("tensor", "tensor"), ("tensor", "zero_dim"), ("zero_dim", "tensor"),
                                   ("zero_dim", "zero_dim")])
def test_result_type_over_all_dtype_pairs(kinds):
    for a in DTYPES:
        for b in DTYPES:
            expected = torch.result_type(_operand(kinds[0], a, torch), _operand(kinds[1], b, torch))
            actual = mt.result_type(_operand(kinds[0], a, mt), _operand(kinds[1], b, mt))
            assert repr(actual) == str(expected), (a, b, kinds)
            assert repr(mt.promote_types(getattr(mt, a), getattr(mt, b))) == str(
                torch.promote_types(getattr(torch, a), getattr(torch, b)))


@pytest.mark.parametrize("scalar", [True, 3, -2, 2.5, 1e10])
def test_result_type_tensor_and_python_scalar(scalar):
    for a in DTYPES:
        for kind in ("tensor", "zero_dim"):
            expected = torch.result_type(_operand(kind, a, torch), scalar)
            actual = mt.result_type(_operand(kind, a, mt), scalar)
            assert repr(actual) == str(expected), (a, kind, scalar)


@pytest.mark.parametrize("op", ["add", "mul", "maximum", "where", "eq", "div"])
def test_binary_ops_promote_like_torch(op):
    fns = {
        "add": lambda lib, x, y: x + y, "mul": lambda lib, x, y: x * y, "maximum": lambda lib, x, y: lib.maximum(x, y),
        "where": lambda lib, x, y: lib.where(x > 0, x, y), "eq": lambda lib, x, y: x == y,
        "div": lambda lib, x, y: x / y,
    }
    for a in ("bool", "int32", "int64", "float16", "float32", "float64"):
        for b in ("bool", "int32", "int64", "float16", "float32", "float64"):
            for shape_b in ((3,), ()):
                xa, ya = arr(3, dtype=a, low=1, high=3), arr(*shape_b, dtype=b, low=1, high=3)
                (x_o, x_t), (y_o, y_t) = both(xa), both(ya)
                if op == "where" and a == "bool":
                    continue
                assert_same(fns[op](mt, x_o, y_o), fns[op](torch, x_t, y_t))


@pytest.mark.parametrize("scalar", [2, 2.5, True])
@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float16", "float32", "float64"])
def test_python_scalars_are_weakly_typed(scalar, dtype):
    ours, theirs = both(arr(4, dtype=dtype, low=1, high=3))
    for fn in (lambda x, s: x * s, lambda x, s: s * x, lambda x, s: x + s, lambda x, s: x > s):
        try:
            expected = fn(theirs, scalar)
        except RuntimeError:
            with pytest.raises(RuntimeError):
                fn(ours, scalar)
            continue
        assert_same(fn(ours, scalar), expected)


# ---------------------------------------------------------------- broadcasting
@pytest.mark.parametrize("a,b", [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((5, 1, 3), (2, 1)), ((), (2, 2)), ((0, 3), (1,)),
                                 ((1,), (0,)), ((2, 1, 1), (1, 3, 1))])
def test_broadcasting(a, b):
    (x_o, x_t), (y_o, y_t) = both(arr(*a)), both(arr(*b))
    assert_same(x_o * y_o, x_t * y_t)
    assert_same(mt.broadcast_tensors(x_o, y_o), torch.broadcast_tensors(x_t, y_t))
    assert tuple(mt.broadcast_to(x_o, (x_o * y_o).shape).shape) == tuple((x_t * y_t).shape)


@pytest.mark.parametrize("a,b", [((3,), (4,)), ((2, 3), (3, 2)), ((2, 1, 3), (4, 2))])
def test_broadcasting_errors(a, b):
    (x_o, x_t), (y_o, y_t) = both(arr(*a)), both(arr(*b))
    with pytest.raises(RuntimeError) as theirs:
        x_t + y_t
    with pytest.raises(RuntimeError) as ours:
        x_o + y_o
    assert str(ours.value) == str(theirs.value)


# ---------------------------------------------------------------- indexing
def _idx(lib, values, dtype="int64"):
    return lib.tensor(np.array(values, dtype=dtype))


INDICES = {
    "int": lambda lib: 2,
    "negative": lambda lib: (-1, 1),
    "slices": lambda lib: (slice(1, None), slice(None, None, 2)),
    "ellipsis": lambda lib: (Ellipsis, 0),
    "none_and_slice": lambda lib: (None, slice(None), None, 1),
    "int_tensor": lambda lib: _idx(lib, [0, 3, 3]),
    "int_tensor_2d": lambda lib: _idx(lib, [[0, 1], [2, 3]]),
    "int32_tensor": lambda lib: _idx(lib, [1, 2], "int32"),
    "negative_tensor": lambda lib: _idx(lib, [-1, -4]),
    "list": lambda lib: [0, 2],
    "bool_mask": lambda lib: _idx(lib, [True, False, True, False], "bool"),
    "bool_mask_2d": lambda lib: lib.tensor(np.arange(20).reshape(4, 5) % 3 == 0),
    "two_tensors_broadcast": lambda lib: (_idx(lib, [[0], [2]]), _idx(lib, [1, 4])),
    "slice_then_tensor": lambda lib: (slice(None), _idx(lib, [4, 0])),
    "tensor_slice_tensor": lambda lib: (_idx(lib, [0, 1]), slice(None), _idx(lib, [1, 0])),
    "separated_tensors": lambda lib: (_idx(lib, [0, 3]), 1, _idx(lib, [2, 0])),
    "tensor_and_none": lambda lib: (None, _idx(lib, [1, 2])),
    "ellipsis_tensor": lambda lib: (Ellipsis, _idx(lib, [0, 2])),
    "zero_dim_tensor": lambda lib: lib.tensor(2),
    "bool_scalar": lambda lib: True,
    "empty_tensor": lambda lib: _idx(lib, []),
    "mask_and_slice": lambda lib: (_idx(lib, [True, False, True, True], "bool"), slice(1, 3)),
}


@pytest.mark.parametrize("name", INDICES)
def test_getitem(name):
    values = arr(4, 5, 3)
    ours, theirs = both(values)
    expected = theirs[INDICES[name](torch)]
    assert_same(ours[INDICES[name](mt)], expected)


@pytest.mark.parametrize("name", INDICES)
def test_setitem(name):
    values = arr(4, 5, 3)
    ours, theirs = both(values)
    target = theirs[INDICES[name](torch)]
    fill = arr(*target.shape[1:]) if target.dim() else arr()
    ours[INDICES[name](mt)] = mt.tensor(fill)
    theirs[INDICES[name](torch)] = torch.tensor(fill)
    assert_same(ours, theirs)
    ours[INDICES[name](mt)] = 1.5
    theirs[INDICES[name](torch)] = 1.5
    assert_same(ours, theirs)


def test_setitem_casts_and_broadcasts_values():
    ours, theirs = both(arr(3, 4, dtype="int64"))
    ours[1] = mt.tensor([1.7, 2.2, 3.9, -4.5])
    theirs[1] = torch.tensor([1.7, 2.2, 3.9, -4.5])
    ours[:, 1:3] = mt.tensor([[7], [8], [9]])
    theirs[:, 1:3] = torch.tensor([[7], [8], [9]])
    ours[mt.tensor([0, 2]), 0] = 5
    theirs[torch.tensor([0, 2]), 0] = 5
    assert_same(ours, theirs)


def _dispatched(lib, fn):
    """The aten ops fn dispatches, as a TorchDispatchMode of lib sees them."""
    from minitorch2.utils._python_dispatch import TorchDispatchMode as OurMode
    from torch.utils._python_dispatch import TorchDispatchMode as TorchMode

    mode_class = TorchMode if lib is torch else OurMode
    seen = []

    class Recorder(mode_class):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    with Recorder():
        fn()
    return seen


@pytest.mark.parametrize("assign", [
    lambda lib, y: y.__setitem__((slice(None), 1), 0),  # a number: lift_fresh, then fill_.Tensor
    lambda lib, y: y.__setitem__((1, 2), 7),  # into a 0-d target: copy_
    lambda lib, y: y.__setitem__([0, 2], 1.5),  # advanced: index_put_
    lambda lib, y: y.__setitem__(Ellipsis, 1),
    lambda lib, y: y.__setitem__(slice(0, 1), lib.ones(1, 1, 4)),  # leading 1s dropped, then expand
    lambda lib, y: y.__setitem__(0, lib.ones(1, 4, dtype=lib.float64)),
], ids=["scalar", "scalar_into_0d", "advanced", "ellipsis", "expanded_value", "value_with_leading_1"])
def test_setitem_dispatches_torchs_ops(assign):
    """What a traced graph records for `y[...] = v` (Dynamo's setitem, aot_function) follows from these."""
    ours, theirs = both(arr(3, 4))
    assert _dispatched(mt, lambda: assign(mt, ours)) == _dispatched(torch, lambda: assign(torch, theirs))
    assert_same(ours, theirs)


@pytest.mark.parametrize("index", [(5,), (0, 0, 0), (slice(None), 9)])
def test_index_errors(index):
    ours, theirs = both(arr(4, 5))
    with pytest.raises(IndexError):
        theirs[index]
    with pytest.raises(IndexError):
        ours[index]


GATHER_SCATTER_ERRORS = [
    lambda lib, x: lib.gather(x, 1, lib.tensor([[0, -1], [1, 2]])),  # no negative indices
    lambda lib, x: lib.gather(x, 1, lib.tensor([[0, 7], [-3, 0]])),  # the first bad one is named
    lambda lib, x: x.scatter(1, lib.tensor([[0, -1]]), 5.0),
    lambda lib, x: x.scatter_add(1, lib.tensor([[0, 6]]), lib.ones(1, 2)),
    lambda lib, x: x.index_select(1, lib.tensor([1, -2, 5])),  # dim > 0: ATen's other loop, other error
    lambda lib, x: x.index_select(0, lib.tensor([4])),
    lambda lib, x: x[0].index_select(0, lib.tensor([-1])),
]


@pytest.mark.parametrize("case", range(len(GATHER_SCATTER_ERRORS)))
def test_gather_scatter_and_index_select_errors_match_torch(case):
    (ours, theirs), fn = both(arr(4, 5)), GATHER_SCATTER_ERRORS[case]
    with pytest.raises(Exception) as expected:
        fn(torch, theirs)
    with pytest.raises(expected.type, match=re.escape(str(expected.value))):
        fn(mt, ours)


def test_index_with_float_tensor_is_an_error():
    ours, theirs = both(arr(4, 5))
    with pytest.raises(IndexError):
        theirs[torch.tensor([1.0])]
    with pytest.raises(IndexError):
        ours[mt.tensor([1.0])]


def test_basic_indexing_shares_memory_and_advanced_indexing_copies():
    ours, theirs = both(arr(4, 5))
    assert shares_memory(ours[1:, ::2], ours)
    assert not shares_memory(ours[mt.tensor([0, 1])], ours)
    ours[mt.tensor([0, 1])].fill_(0)  # writes to a copy
    theirs[torch.tensor([0, 1])].fill_(0)
    assert_same(ours, theirs)


# ---------------------------------------------------------------- in-place operations
INPLACE = {
    "add_": lambda x, y: x.add_(y),
    "add_alpha": lambda x, y: x.add_(y, alpha=2),
    "sub_": lambda x, y: x.sub_(y),
    "mul_": lambda x, y: x.mul_(y),
    "div_": lambda x, y: x.div_(y.abs() + 1),
    "iadd": lambda x, y: x.__iadd__(y),
    "isub_scalar": lambda x, y: x.__isub__(2),
    "imul": lambda x, y: x.__imul__(y),
    "itruediv_scalar": lambda x, y: x.__itruediv__(4),
    "ipow": lambda x, y: x.__ipow__(2),
    "clamp_": lambda x, y: x.clamp_(-1, 0.5),
    "clamp_min_": lambda x, y: x.clamp_min_(0.1),
    "zero_": lambda x, y: x.zero_(),
    "fill_": lambda x, y: x.fill_(3.25),
    "copy_broadcast": lambda x, y: x.copy_(y),
    "masked_fill_": lambda x, y: x.masked_fill_(y > 0, -1.0),
    "neg_": lambda x, y: x.neg_(),
    "relu_": lambda x, y: x.relu_(),
    "exp_": lambda x, y: x.exp_(),
    "addcmul_": lambda x, y: x.addcmul_(y, y, value=0.5),
    "lerp_": lambda x, y: x.lerp_(y, 0.25),
}


@pytest.mark.parametrize("name", INPLACE)
@pytest.mark.parametrize("target", ["whole", "view"])
def test_inplace_ops(name, target):
    fn = INPLACE[name]
    (x_o, x_t), (y_o, y_t) = both(arr(3, 4)), both(arr(4))
    if target == "view":
        a_o, a_t = x_o.t()[1:], x_t.t()[1:]  # (3, 3) view with strides (1, 4)
        y_o, y_t = y_o[:3], y_t[:3]
    else:
        a_o, a_t = x_o, x_t
    r_o, r_t = fn(a_o, y_o), fn(a_t, y_t)
    assert r_o is a_o and r_t is a_t
    assert_same(a_o, a_t)
    assert_same(x_o, x_t)  # the base sees writes through the view


@pytest.mark.parametrize("fn", [lambda x: x.add_(mt.ones(2, 4) if isinstance(x, mt.Tensor) else torch.ones(2, 4)),
                                lambda x: x.mul_(mt.ones(5) if isinstance(x, mt.Tensor) else torch.ones(5))])
def test_inplace_shape_mismatch_is_an_error(fn):
    ours, theirs = both(arr(1, 4))
    with pytest.raises(RuntimeError):
        fn(theirs)
    with pytest.raises(RuntimeError):
        fn(ours)


def test_inplace_cannot_downcast():
    ours, theirs = both(arr(3, dtype="int64"))
    with pytest.raises(RuntimeError) as t_err:
        theirs.add_(torch.tensor([0.5, 1.5, 2.5]))
    with pytest.raises(RuntimeError) as o_err:
        ours.add_(mt.tensor([0.5, 1.5, 2.5]))
    assert str(o_err.value) == str(t_err.value)


# ---------------------------------------------------------------- repr
def _repr_cases():
    return {
        "ints": lambda lib: lib.tensor([1, 2, 3]),
        "negative_ints": lambda lib: lib.tensor([[-100, 2], [3, 40000]]),
        "floats": lambda lib: lib.tensor([1.5, 2.25, -3.125]),
        "integral_floats": lambda lib: lib.tensor([1.0, 2.0, -3.0]),
        "sci_small": lambda lib: lib.tensor([1e-5, 1.0, 2.5]),
        "sci_range": lambda lib: lib.tensor([0.5, 1234.5678, 3.0]),
        "sci_big": lambda lib: lib.tensor([1e10, 1.0]),
        "sci_integral": lambda lib: lib.tensor([1.0, 1e5]),
        "tiny": lambda lib: lib.tensor([0.0001234]),
        "zeros": lambda lib: lib.zeros(3),
        "nonfinite": lambda lib: lib.tensor([float("nan"), float("inf"), -float("inf"), 1.5]),
        "only_nan": lambda lib: lib.tensor([float("nan")]),
        "zero_dim_float": lambda lib: lib.tensor(3.5),
        "zero_dim_int": lambda lib: lib.tensor(-7),
        "zero_dim_bool": lambda lib: lib.tensor(True),
        "bools": lambda lib: lib.tensor([True, False]),
        "empty": lambda lib: lib.zeros(0),
        "empty_2d": lambda lib: lib.zeros(0, 3),
        "empty_int": lambda lib: lib.zeros(0, dtype=lib.int64),
        "empty_float64": lambda lib: lib.zeros(2, 0, dtype=lib.float64),
        "float64": lambda lib: lib.tensor([1.5, 2.0], dtype=lib.float64),
        "float16": lambda lib: lib.tensor([1.5, 2.0], dtype=lib.float16),
        "int32": lambda lib: lib.tensor([1, 2], dtype=lib.int32),
        "matrix": lambda lib: lib.arange(12, dtype=lib.float32).reshape(3, 4) / 7,
        "three_d": lambda lib: lib.arange(24).reshape(2, 3, 4),
        "three_d_float": lambda lib: lib.arange(24, dtype=lib.float32).reshape(2, 3, 4) - 11.5,
        "long_row": lambda lib: lib.arange(30, dtype=lib.float32) / 7,
        "long_int_row": lambda lib: lib.arange(100) * 1001,
        "summarized": lambda lib: lib.arange(2000, dtype=lib.float32),
        "summarized_2d": lambda lib: lib.arange(2500).reshape(50, 50),
        "summarized_3d": lambda lib: lib.arange(1200, dtype=lib.float32).reshape(12, 10, 10) / 3,
        "transposed": lambda lib: lib.arange(6, dtype=lib.float32).reshape(2, 3).t(),
        "requires_grad": lambda lib: lib.tensor([1.0, 2.0], requires_grad=True),
        "grad_fn": lambda lib: lib.tensor([1.0, 2.0], requires_grad=True) + 1,
        "grad_fn_0d": lambda lib: (lib.tensor([1.0, 2.0], requires_grad=True) * 3).sum(),
        "grad_fn_float64": lambda lib: lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True).exp(),
        "grad_fn_copy": lambda lib: lib.zeros(2).copy_(lib.tensor([1.0, 2.0], requires_grad=True)),
        "negative_zero_mix": lambda lib: lib.tensor([-0.5, 0.25, 100.0]),
    }


@pytest.mark.parametrize("name", list(_repr_cases()))
def test_repr_matches_torch(name):
    make = _repr_cases()[name]
    assert repr(make(mt)) == repr(make(torch))


def test_repr_of_size_and_dtype_and_device():
    assert repr(mt.zeros(2, 3).shape) == repr(torch.zeros(2, 3).shape)
    assert repr(mt.float32) == repr(torch.float32)
    assert str(mt.zeros(1).device) == str(torch.zeros(1).device)
    assert repr(mt.max(mt.tensor([[1.0, 3.0]]), 1)) == repr(torch.max(torch.tensor([[1.0, 3.0]]), 1))
