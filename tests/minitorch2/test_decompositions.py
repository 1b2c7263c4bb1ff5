"""Each decomposition in the op table computes what the op it replaces computes (and what PyTorch's op gives)."""
import numpy as np
import pytest
import torch

import minitorch2
from minitorch2._aten.decompositions import arange_as_iota

aten = minitorch2.ops.aten
rng = np.random.default_rng(0)


def _t(*shape, positive=False):
    data = np.asarray(rng.standard_normal(shape))
    if positive:
        data = np.abs(data) + 0.5
    return minitorch2.from_numpy(data.astype(np.float64))


CASES = {
    "arange.default": lambda: ((7,), {}),
    "arange.start": lambda: ((1.5, 6.0), {}),
    "addmm.default": lambda: ((_t(4), _t(3, 5), _t(5, 4)), {"beta": 0.5, "alpha": 2.0}),
    "_weight_norm_interface.default": lambda: ((_t(3, 4), _t(3, 1), 0), {}),
    "zeros_like.default": lambda: ((_t(2, 3),), {}),
    "silu.default": lambda: ((_t(3, 4),), {}),
    "silu_backward.default": lambda: ((_t(3, 4), _t(3, 4)), {}),
    "sigmoid_backward.default": lambda: ((_t(3, 4), _t(3, 4)), {}),
    "tanh_backward.default": lambda: ((_t(3, 4), _t(3, 4)), {}),
    "threshold_backward.default": lambda: ((_t(3, 4), _t(3, 4), 0.1), {}),
    "gelu.default": lambda: ((_t(3, 4),), {"approximate": "tanh"}),
    "_softmax.default": lambda: ((_t(3, 4), 1, False), {}),
    "_safe_softmax.default": lambda: ((minitorch2.tensor([[-np.inf] * 4, [0.5, -np.inf, 1.0, 2.0]],
                                                         dtype=minitorch2.float64), 1), {}),
    "zeros.default": lambda: (([2, 3],), {"dtype": minitorch2.float64}),
    "ones.default": lambda: (([2, 3],), {}),
    "_log_softmax.default": lambda: ((_t(3, 4), 0, False), {}),
    "_softmax_backward_data.default": lambda: ((_t(3, 4), aten._softmax.default(_t(3, 4), 1, False), 1, minitorch2.float64), {}),
    "_log_softmax_backward_data.default": lambda: ((_t(3, 4), aten._log_softmax.default(_t(3, 4), 1, False), 1,
                                                   minitorch2.float64), {}),
    "mse_loss.default": lambda: ((_t(3, 4), _t(3, 4), 2), {}),
    "leaky_relu.default": lambda: ((_t(3, 4), 0.2), {}),
    "hardtanh.default": lambda: ((_t(3, 4), -0.5, 0.5), {}),
    "leaky_relu_backward.default": lambda: ((_t(3, 4), _t(3, 4), 0.2, False), {}),
    "hardtanh_backward.default": lambda: ((_t(3, 4), _t(3, 4), -0.5, 0.5), {}),
    "softplus.default": lambda: ((_t(3, 4) * 8, 2, 3), {}),  # some of beta*x above the threshold
    "binary_cross_entropy_with_logits.default": lambda: ((_t(3, 4) * 4, _t(3, 4, positive=True) - 0.5, _t(4),
                                                           _t(3, 1, positive=True), 2), {}),
    "logsumexp.default": lambda: ((_t(3, 4) * 50, [1]), {}),
    "mv.default": lambda: ((_t(3, 4), _t(4)), {}),
    "tril.default": lambda: ((_t(2, 3, 5), -1), {}),
    "triu.default": lambda: ((_t(5, 3), 1), {}),
    "softplus_backward.default": lambda: ((_t(3, 4), _t(3, 4) * 8, 1, 3), {}),
    "softshrink.default": lambda: ((_t(3, 4), 0.3), {}),
    "hardshrink.default": lambda: ((_t(3, 4), 0.3), {}),
    "softshrink_backward.default": lambda: ((_t(3, 4), _t(3, 4), 0.3), {}),
    "hardshrink_backward.default": lambda: ((_t(3, 4), _t(3, 4), 0.3), {}),
    "hardsigmoid.default": lambda: ((_t(3, 4) * 4,), {}),  # (some beyond -3 and 3)
    # (float32: ATen's kernel scales by a float 1/6 in every dtype, torch's decomposition by a double one)
    "hardsigmoid_backward.default": lambda: ((_t(3, 4).float(), _t(3, 4).float() * 4), {}),
    "mish.default": lambda: ((_t(3, 4) * 4,), {}),
    "hardsigmoid_.default": lambda: ((_t(3, 4) * 4,), {}),
    "mish_.default": lambda: ((_t(3, 4) * 4,), {}),
    "mish_backward.default": lambda: ((_t(3, 4), _t(3, 4) * 4), {}),
    "_prelu_kernel.default": lambda: ((_t(2, 3, 4), _t(1, 3, 1)), {}),
    "im2col.default": lambda: ((_t(2, 3, 9, 8), [3, 3], [2, 2], [1, 1], [2, 2]), {}),
    "rrelu_with_noise_backward.default": lambda: ((_t(3, 4), _t(3, 4), _t(3, 4), 0.1, 0.3, True, False), {}),
    "col2im.default": lambda: ((_t(27, 12), [9, 8], [3, 3], [2, 2], [1, 1], [2, 2]), {}),
    "_prelu_kernel_backward.default": lambda: ((_t(2, 3, 4), _t(2, 3, 4), _t(1, 3, 1)), {}),
    "var_mean.correction": lambda: ((_t(3, 4), [1]), {"correction": 0, "keepdim": True}),
    "native_layer_norm.default": lambda: ((_t(2, 3, 4), [4], _t(4), _t(4), 1e-5), {}),
    "t.default": lambda: ((_t(3, 4),), {}),
    "transpose.int": lambda: ((_t(2, 3, 4), -1, 0), {}),
    "detach.default": lambda: ((_t(3, 4),), {}),
    "rsub.Scalar": lambda: ((_t(3, 4), 2.0), {}),
    "rsub.Tensor": lambda: ((_t(3, 4), _t(3, 4)), {"alpha": 2}),
    "gelu_backward.default": lambda: ((_t(3, 4), _t(3, 4)), {"approximate": "tanh"}),
    "_unsafe_view.default": lambda: ((_t(3, 4), [4, 3]), {}),
    "zeros_like.default": lambda: ((_t(3, 4),), {}),
    "xlogy.Tensor": lambda: ((minitorch2.tensor([0.0, 1.5, 0.0, 2.0, -1.0]),  # (0 * log 0 is 0; a nan y stays nan)
                              minitorch2.tensor([0.0, 2.0, float("nan"), 0.5, 3.0])), {}),
    "ones_like.default": lambda: ((_t(3, 4),), {}),
    "full_like.default": lambda: ((_t(3, 4), 2.5), {}),
    "fill.Scalar": lambda: ((aten.t.default(_t(3, 4)), 2.5), {}),  # (transposed: a permuted `full`)
    "fill_.Scalar": lambda: ((_t(3, 4), -1.5), {}),
    "_to_copy.default": lambda: ((_t(3, 4),), {"dtype": minitorch2.float32}),
    "masked_fill.Scalar": lambda: ((_t(3, 4), _mask(3, 4), 0.5), {}),
    "masked_fill.Tensor": lambda: ((_t(3, 4), _mask(3, 4), _t()), {}),
    "true_divide.Tensor": lambda: ((_t(3, 4), _t(4)), {}),
    "std.correction": lambda: ((_t(3, 4), [1]), {"correction": 1}),
    "sgn.default": lambda: ((_t(3, 4),), {}),
    "new_zeros.default": lambda: ((_t(3, 4), [2, 3]), {}),
    "new_ones.default": lambda: ((_t(3, 4), [2, 3]), {}),
    "new_full.default": lambda: ((_t(3, 4), [2, 3], 1.5), {}),
    "new_empty.default": lambda: ((_t(3, 4), [2, 0]), {}),  # (no elements: an empty tensor's values are undefined)
    "_unsafe_index_put.default": lambda: ((_t(5), [minitorch2.tensor([0, 2, 2])], _t(3), True), {}),
    "select_backward.default": lambda: ((_t(4), [3, 4], 0, 1), {}),
    "slice_backward.default": lambda: ((_t(2, 4), [5, 4], 0, 1, 3, 1), {}),
    "stack.default": lambda: (([_t(2, 3), _t(2, 3)], 1), {}),
    "mse_loss_backward.default": lambda: ((_t(), _t(3, 4), _t(3, 4), 1), {}),
    "nll_loss_forward.default": lambda: ((_t(4, 5), _targets(), None, 1, -100), {}),
    "nll_loss_backward.default": lambda: ((_t(), _t(4, 5), _targets(), None, 1, -100,
                                           minitorch2.from_numpy(np.array(3.0))), {}),
    "nll_loss2d_forward.default": lambda: ((_t(2, 5, 1, 2), _targets().view(2, 1, 2), _t(5, positive=True), 1, -100),
                                           {}),
    "nll_loss2d_backward.default": lambda: ((_t(2, 1, 2), _t(2, 5, 1, 2), _targets().view(2, 1, 2), _t(5), 0, -100,
                                             minitorch2.from_numpy(np.array(3.0))), {}),
    "native_layer_norm_backward.default": lambda: _layer_norm_backward_args(),
    "native_group_norm.default": lambda: ((_t(2, 6, 3, 4), _t(6), _t(6), 2, 6, 12, 3, 1e-5), {}),
    "native_group_norm_backward.default": lambda: _group_norm_backward_args(),
    # the batch norms (decompositions_batch_norm.py): the running statistics in place, returned, or read
    "native_batch_norm.default": lambda: (_batch_norm_args() + (True, 0.1, 1e-5), {}),
    "_native_batch_norm_legit.default": lambda: (_batch_norm_args() + (True, 0.1, 1e-5), {}),
    "_native_batch_norm_legit_functional.default": lambda: (_batch_norm_args() + (True, 0.2, 1e-5), {}),
    "_native_batch_norm_legit_no_training.default": lambda: (_batch_norm_args() + (0.1, 1e-3), {}),
    "native_batch_norm_backward.default": lambda: _batch_norm_backward_args(),
    "embedding_dense_backward.default": lambda: ((_t(2, 3, 4), minitorch2.from_numpy(np.array([[1, 0, 9], [1, 2, 3]])),
                                                  10, 1, False), {}),
    "elu.default": lambda: ((_t(3, 4), 0.7, 1.5, 0.5), {}),
    "dot.default": lambda: ((_t(5), _t(5)), {}),
    "elu_.default": lambda: ((_t(3, 4), 0.7), {}),
    "elu_backward.default": lambda: ((_t(3, 4), 0.7, 1.5, 0.5, False, _t(3, 4)), {}),
    "hardtanh_.default": lambda: ((_t(3, 4), -0.5, 0.5), {}),
    "take.default": lambda: ((_t(3, 4), _index([0, -1, 5, 5])), {}),
    "index_copy.default": lambda: ((_t(3, 4), 1, _index([3, 0]), _t(3, 2)), {}),
    "index_copy_.default": lambda: ((_t(3, 4), 0, _index([2]), _t(1, 4)), {}),
    "index_fill.int_Scalar": lambda: ((_t(3, 4), 1, _index([3, -4, 3]), 2.5), {}),
    "index_fill.int_Tensor": lambda: ((_t(3, 4), 0, _index([1]), _t()), {}),
    "index_fill_.int_Scalar": lambda: ((_t(3, 4), 1, _index([0]), -1.0), {}),
    "index_fill_.int_Tensor": lambda: ((_t(), 0, _index(0), _t()), {}),
    "leaky_relu_.default": lambda: ((_t(3, 4), 0.2), {}),
    "masked_fill_.Scalar": lambda: ((_t(3, 4), _mask(3, 4), float("-inf")), {}),
    "round.decimals": lambda: ((_t(3, 4),), {"decimals": 2}),
    "log_sigmoid_forward.default": lambda: ((_t(3, 4),), {}),
    "log_sigmoid_backward.default": lambda: _log_sigmoid_backward_args(),
    "binary_cross_entropy.default": lambda: ((_probabilities(3, 4), _probabilities(3, 4), _t(4, positive=True), 1), {}),
    "binary_cross_entropy_backward.default": lambda: ((_t(), _probabilities(3, 4), _probabilities(3, 4), None, 1), {}),
    "upsample_nearest1d.default": lambda: ((_t(2, 3, 5), [8], 1.7), {}),
    "upsample_nearest2d.default": lambda: ((_t(2, 3, 4, 5), [7, 3]), {}),
    "upsample_linear1d.default": lambda: ((_t(2, 3, 5), [9], True), {}),
    "upsample_bilinear2d.default": lambda: ((_t(2, 3, 4, 5), [8, 7], False, 2.0, 1.5), {}),
    "upsample_nearest3d.default": lambda: ((_t(1, 2, 3, 4, 5), [5, 3, 7]), {}),
    "reflection_pad1d.default": lambda: ((_t(2, 3, 5), [2, 3]), {}),
    "reflection_pad2d.default": lambda: ((_t(2, 3, 4, 5), [1, -1, 3, 2]), {}),
    "reflection_pad3d.default": lambda: ((_t(1, 2, 3, 4, 5), [1, 2, 0, 3, 2, 1]), {}),
    "replication_pad1d.default": lambda: ((_t(3, 5), [4, 1]), {}),
    "replication_pad2d.default": lambda: ((_t(2, 3, 4, 5), [2, 0, -1, 5]), {}),
    "replication_pad3d.default": lambda: ((_t(2, 3, 4, 5), [1, 1, 2, 2, 3, 3]), {}),
    "_upsample_nearest_exact1d.default": lambda: ((_t(2, 3, 5), [8], 1.7), {}),
    "_upsample_nearest_exact2d.default": lambda: ((_t(2, 3, 4, 5), [7, 3]), {}),
    "_upsample_nearest_exact3d.default": lambda: ((_t(1, 2, 3, 4, 5), [2, 6, 4]), {}),
    "upsample_trilinear3d.default": lambda: ((_t(1, 2, 3, 4, 5), [5, 3, 7], False, 1.7, None, 1.5), {}),
    # special_more.py's and nn_pool3d.py's: torch's core-table decompositions
    "max_unpool2d.default": lambda: ((*aten.max_pool2d_with_indices.default(_t(2, 3, 4, 6), [2, 2], [2, 2]), [4, 6]),
                                     {}),
    "max_unpool3d.default": lambda: ((*aten.max_pool3d_with_indices.default(_t(1, 2, 4, 4, 4), [2, 2, 2], [2, 2, 2]),
                                      [4, 4, 4], [2, 2, 2], [0, 0, 0]), {}),
    "mvlgamma.default": lambda: ((_t(3, 4, positive=True) + 1.5, 3), {}),
    "special_log_ndtr.default": lambda: ((_t(3, 4) * 4,), {}),
    "special_xlog1py.default": lambda: ((_t(3, 4), _t(3, 4, positive=True)), {}),
    # the commonly used ops of table_more.py
    "frac.default": lambda: ((_t(3, 4) * 3,), {}),
    "floor_divide.default": lambda: ((_t(3, 4) * 5, _t(3, 4) + 3), {}),
    "nan_to_num.default": lambda: ((aten.div.Tensor(_t(3, 4), _t(3, 4) * 0),), {"posinf": 5.0}),
    "linalg_vector_norm.default": lambda: ((_t(3, 4), 3, [1], True), {}),
    "norm.Scalar": lambda: ((_t(3, 4), 3), {}),  # (weight_norm_ops.py: Tensor.norm(p), ATen's composites' op)
    "norm.ScalarOpt_dim": lambda: ((_t(2, 3, 4), 3, [0, 2], True), {}),  # (pairwise_distance's op)
    "clamp_min.Tensor": lambda: ((_t(3, 4), _t(4)), {}),
    "clamp_min_.Tensor": lambda: ((_t(3, 4), _t(4)), {}),
    "_euclidean_dist.default": lambda: ((_t(2, 5, 3), _t(2, 4, 3)), {}),
    "nansum.default": lambda: ((_t(3, 4), [0]), {}),
    "count_nonzero.default": lambda: ((aten.round.default(_t(3, 4)), 1), {}),
    "count_nonzero.dim_IntList": lambda: ((aten.round.default(_t(3, 4)), [0, 1]), {}),
    "trace.default": lambda: ((_t(3, 4),), {}),
    "pixel_shuffle.default": lambda: ((_t(2, 8, 3, 3), 2), {}),
    "pixel_unshuffle.default": lambda: ((_t(2, 2, 6, 6), 3), {}),
    "all.default": lambda: ((aten.round.default(_t(3, 4)),), {}),
    "all.dims": lambda: ((aten.round.default(_t(3, 4)), [0], True), {}),
    "all.dim": lambda: ((aten.gt.Scalar(_t(3, 4), -1.5), 1), {}),
    "std_mean.correction": lambda: ((_t(3, 4), [1]), {"correction": 0}),
    "rot90.default": lambda: ((_t(2, 3, 4), 3, [2, 0]), {}),
    "diagonal_copy.default": lambda: ((_t(3, 4), 1), {}),
}


def _probabilities(*shape):
    return aten.sigmoid.default(_t(*shape))


def _log_sigmoid_backward_args():
    x = _t(3, 4)
    return (_t(3, 4), x, aten.log_sigmoid_forward.default(x)[1]), {}


def _index(positions):
    return minitorch2.from_numpy(np.array(positions, dtype=np.int64))


def _fresh(value):
    """A copy of the case's arguments, so an in-place op and its decomposition each start from the same values."""
    if isinstance(value, minitorch2.Tensor):
        return value.clone()
    return type(value)(_fresh(v) for v in value) if isinstance(value, (list, tuple)) else value


def _mask(*shape):
    return minitorch2.from_numpy(rng.standard_normal(shape) > 0)


def _targets():
    return minitorch2.from_numpy(np.array([0, -100, 4, 2], np.int64))


def _batch_norm_args():
    """(input, weight, bias, running_mean, running_var)."""
    return _t(2, 3, 4, 5), _t(3), _t(3), _t(3), _t(3, positive=True)


def _batch_norm_backward_args():
    x, weight, bias, running_mean, running_var = _batch_norm_args()
    _, save_mean, save_invstd = aten._native_batch_norm_legit.default(x, weight, bias, running_mean.clone(),
                                                                       running_var.clone(), True, 0.1, 1e-5)
    return (_t(2, 3, 4, 5), x, weight, running_mean, running_var, save_mean, save_invstd, True, 1e-5,
            [True, True, True]), {}


def _layer_norm_backward_args():
    x, weight, bias = _t(2, 3, 4), _t(4), _t(4)
    _, mean, rstd = aten.native_layer_norm.default(x, [4], weight, bias, 1e-5)
    return (_t(2, 3, 4), x, [4], mean, rstd, weight, bias, [True, True, True]), {}


def _group_norm_backward_args():
    x, weight = _t(2, 6, 3, 4), _t(6)
    _, mean, rstd = aten.native_group_norm.default(x, weight, _t(6), 2, 6, 12, 3, 1e-5)
    return (_t(2, 6, 3, 4), x, mean, rstd, weight, 2, 6, 12, 3, [True, True, True]), {}


def test_every_decomposition_has_a_case():
    rows_with_one = [op.__name__ for op in aten.overloads() if op.decomposition is not None]
    assert sorted(CASES) == sorted(rows_with_one)


def _op(name):
    packet, overload = name.split(".")
    return getattr(getattr(aten, packet), overload)


@pytest.mark.parametrize("name", sorted(CASES))
def test_decomposition_matches_op(name):
    case_args, kwargs = CASES[name]()
    op = _op(name)
    expected = op(*_fresh(case_args), **kwargs)
    got = op.decompose(*_fresh(case_args), **kwargs)
    args = _fresh(case_args)
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        assert tuple(g.shape) == tuple(e.shape)
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-10, atol=1e-12)
    theirs = getattr(getattr(torch.ops.aten, name.split(".")[0]), name.split(".")[1])(
        *[_to_torch(a) for a in args], **{k: _to_torch(v) for k, v in kwargs.items()})
    theirs = theirs if isinstance(theirs, tuple) else (theirs,)
    np.testing.assert_allclose(got[0].numpy(), theirs[0].numpy(), rtol=1e-10, atol=1e-12)


def _to_torch(value):
    if isinstance(value, minitorch2.Tensor):
        return torch.from_numpy(value.numpy().copy())
    if isinstance(value, list):
        return [_to_torch(v) for v in value]
    if isinstance(value, minitorch2.dtype):
        return getattr(torch, str(value).split(".")[-1])
    return value


@pytest.mark.parametrize("name", ["clamp_as_min_max", "silu_inductor", "_softmax_backward_data_fma"])
def test_inductor_only_decompositions_match_op(name):
    """The forms backend/compile_fx.py puts in the inductor table in place of the core ones."""
    from minitorch2._aten import decompositions, decompositions_nn

    op, args = {
        "clamp_as_min_max": (aten.clamp.default, (_t(3, 4), -0.3, 0.4)),
        "silu_inductor": (aten.silu.default, (_t(3, 4),)),
        "_softmax_backward_data_fma": (aten._softmax_backward_data.default,
                                       (_t(3, 4), aten._softmax.default(_t(3, 4), 1, False), 1, minitorch2.float64)),
    }[name]
    decomposition = getattr(decompositions, name, None) or getattr(decompositions_nn, name)
    np.testing.assert_allclose(decomposition(*args).numpy(), op(*args).numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.ops.aten.t.default(x), lambda lib, x: lib.ops.aten.t.default(x[0]),
    lambda lib, x: lib.ops.aten.transpose.int(x, -1, 0), lambda lib, x: lib.ops.aten.transpose.int(x, 1, 1),
    lambda lib, x: lib.ops.aten.detach.default(x),
])
def test_view_decompositions_record_what_torchs_do(call):
    """Traced with the core decompositions, t/transpose become permute (or alias) and detach an alias."""
    from torch._decomp import core_aten_decompositions as torch_table
    from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

    from autograd import core_aten_decompositions, make_fx

    theirs = torch_make_fx(lambda x: call(torch, x) + 1, torch_table())(torch.randn(2, 3))
    ours = make_fx(lambda x: call(minitorch2, x) + 1, core_aten_decompositions())(minitorch2.randn(2, 3))
    assert ours.code == theirs.code


@pytest.mark.parametrize("values", [[[True, False, True]], [[3, -1, 2]]], ids=["bool", "int64"])
def test_logsumexp_of_integers_computes_in_the_default_float_dtype(values):
    x = minitorch2.tensor(values)
    got = aten.logsumexp.default.decompose(x, [1])
    assert got.dtype is minitorch2.float32
    np.testing.assert_allclose(got.numpy(), torch.logsumexp(torch.tensor(values), 1).numpy(), rtol=1e-6)


@pytest.mark.parametrize("args, dtype", [((0, 12, 1), None), ((1, 13, 2), None), ((10, -3, -4), None),
                                         ((0.5, 6.5, 1.0), None), ((0, 4, 1), minitorch2.float32),
                                         ((-1.25, 3.0, 0.75), minitorch2.float64), ((0, 5, 1.5), minitorch2.float16),
                                         ((2, 9, 3), minitorch2.int32)])
def test_arange_as_iota_is_arange(args, dtype):
    """The inductor's arange (iota scaled and shifted in double, then cast) gives eager arange's values and dtype."""
    expected = aten.arange.start_step(*args, dtype=dtype)
    got = arange_as_iota(*args, dtype=dtype)
    assert got.dtype is expected.dtype
    np.testing.assert_array_equal(got.numpy(), expected.numpy())
