"""Every lowered aten op, compiled by the backend, gives the eager kernel's values.

Each case is a small function calling aten ops directly; it is traced with
make_fx (fake tensors, the backend's decomposition table), compiled with
`compile_fx_inner` (lowering, scheduling, codegen, wrapper) and run on real
inputs; outputs must match the eager run in shape, dtype and value (float32
tolerance). Lowered ops must not fall back to their eager kernel; the few
ops that are extern calls by design say so. Both code generators run every
case: the numpy reference evaluator and the LLVM one (when present).
"""
import math

import numpy as np
import pytest

import minitorch2
from autograd import make_fx
from backend.compile_fx import compile_fx_inner, select_decomp_table
from minitorch2 import ops
from tests.backend.codegens import WITH_TRITON, codegen_fixture

aten = ops.aten
codegen = codegen_fixture(WITH_TRITON)


def randn(*shape):
    return minitorch2.randn(*shape)


def positive(*shape):
    return minitorch2.rand(*shape) + 0.5


def ints(high, *shape):
    return minitorch2.randint(0, high, shape)


def mask(*shape):
    return minitorch2.rand(*shape) > 0.5


# name -> (function of the inputs, input builder)
CASES = {
    # arithmetic and promotion
    "add.Tensor": (lambda a, b: aten.add.Tensor(a, b, alpha=2), lambda: (randn(4, 5), randn(4, 5))),
    "add.broadcast": (lambda a, b: aten.add.Tensor(a, b), lambda: (randn(4, 1), randn(1, 5))),
    "add.int_float": (lambda a, b: aten.add.Tensor(a, b), lambda: (ints(9, 3, 4), randn(3, 4))),
    "add.Scalar": (lambda a: aten.add.Scalar(a, 3.5), lambda: (randn(6),)),
    "sub.Tensor": (lambda a, b: aten.sub.Tensor(a, b), lambda: (randn(4, 5), randn(5))),
    "rsub.Scalar": (lambda a: aten.rsub.Scalar(a, 1), lambda: (randn(4, 5),)),
    "mul.Tensor": (lambda a, b: aten.mul.Tensor(a, b), lambda: (randn(2, 3, 4), randn(3, 1))),
    "mul.Scalar": (lambda a: aten.mul.Scalar(a, -0.25), lambda: (randn(7),)),
    "div.Tensor": (lambda a, b: aten.div.Tensor(a, b), lambda: (randn(4, 5), positive(4, 5))),
    "div.int": (lambda a, b: aten.div.Tensor(a, b), lambda: (ints(20, 6), ints(5, 6) + 1)),
    "div.floor": (lambda a, b: aten.div.Tensor_mode(a, b, rounding_mode="floor"), lambda: (randn(8) * 5, positive(8))),
    "div.trunc_int": (lambda a, b: aten.div.Tensor_mode(a, b, rounding_mode="trunc"),
                      lambda: (ints(20, 6) - 10, ints(5, 6) + 1)),
    "remainder.Tensor": (lambda a, b: aten.remainder.Tensor(a, b), lambda: (randn(8) * 5, positive(8))),
    "fmod.Tensor": (lambda a, b: aten.fmod.Tensor(a, b), lambda: (randn(8) * 5, positive(8))),
    "pow.Tensor_Scalar2": (lambda a: aten.pow.Tensor_Scalar(a, 2), lambda: (randn(5, 3),)),
    "pow.Tensor_Scalar3": (lambda a: aten.pow.Tensor_Scalar(a, 3), lambda: (randn(5, 3),)),
    "pow.Tensor_Tensor": (lambda a, b: aten.pow.Tensor_Tensor(a, b), lambda: (positive(5), randn(5))),
    "maximum": (lambda a, b: aten.maximum.default(a, b), lambda: (randn(4, 4), randn(4, 4))),
    "minimum": (lambda a, b: aten.minimum.default(a, b), lambda: (randn(4, 4), randn(4))),
    "atan2": (lambda a, b: aten.atan2.default(a, b), lambda: (randn(6), randn(6))),
    "lerp.Scalar": (lambda a, b: aten.lerp.Scalar(a, b, 0.3), lambda: (randn(6), randn(6))),
    "addcmul": (lambda a, b, c: aten.addcmul.default(a, b, c, value=0.5), lambda: (randn(6), randn(6), randn(6))),
    "addcdiv": (lambda a, b, c: aten.addcdiv.default(a, b, c, value=0.5), lambda: (randn(6), randn(6), positive(6))),
    # comparisons and logic
    **{f"{name}.Tensor": (lambda a, b, name=name: getattr(aten, name).Tensor(a, b), lambda: (ints(3, 10), ints(3, 10)))
       for name in ("eq", "ne", "lt", "le", "gt", "ge")},
    **{f"{name}.Scalar": (lambda a, name=name: getattr(aten, name).Scalar(a, 0.1), lambda: (randn(10),))
       for name in ("eq", "ne", "lt", "le", "gt", "ge")},
    "logical_and": (lambda a, b: aten.logical_and.default(a, b), lambda: (mask(8), mask(8))),
    "logical_or": (lambda a, b: aten.logical_or.default(a, b), lambda: (mask(8), randn(8))),
    "logical_not": (lambda a: aten.logical_not.default(a), lambda: (mask(8),)),
    "isnan": (lambda a: aten.isnan.default(aten.log.default(a)), lambda: (randn(8),)),
    "isinf": (lambda a: aten.isinf.default(aten.div.Tensor(a, aten.round.default(a))), lambda: (randn(8),)),
    "where.self": (lambda c, a, b: aten.where.self(c, a, b), lambda: (mask(3, 4), randn(3, 4), randn(4))),
    "clamp": (lambda a: aten.clamp.default(a, -0.5, 0.5), lambda: (randn(10),)),
    "clamp_min": (lambda a: aten.clamp_min.default(a, 0.1), lambda: (randn(10),)),
    "clamp.Tensor": (lambda a, lo, hi: aten.clamp.Tensor(a, lo, hi), lambda: (randn(10), randn(10) - 1, randn(10) + 1)),
    "masked_fill.Scalar": (lambda a, m: aten.masked_fill.Scalar(a, m, -1e9), lambda: (randn(3, 4), mask(3, 4))),
    # unary
    **{name: (lambda a, name=name: getattr(aten, name).default(a), lambda: (randn(3, 5),))
       for name in ("neg", "abs", "sign", "sgn", "floor", "ceil", "trunc", "round", "relu", "exp", "exp2", "expm1",
                    "sin", "cos", "tan", "tanh", "sigmoid", "erf", "reciprocal")},
    **{name: (lambda a, name=name: getattr(aten, name).default(a), lambda: (positive(3, 5),))
       for name in ("log", "log2", "log10", "log1p", "sqrt", "rsqrt")},
    "exp.int": (lambda a: aten.exp.default(a), lambda: (ints(4, 6),)),
    "bitwise_not": (lambda a: aten.bitwise_not.default(a), lambda: (ints(100, 6),)),
    # activations and backwards
    "gelu": (lambda a: aten.gelu.default(a), lambda: (randn(4, 6),)),
    "gelu.tanh": (lambda a: aten.gelu.default(a, approximate="tanh"), lambda: (randn(4, 6),)),
    "gelu_backward": (lambda g, a: aten.gelu_backward.default(g, a), lambda: (randn(4, 6), randn(4, 6))),
    "gelu_backward.tanh": (lambda g, a: aten.gelu_backward.default(g, a, approximate="tanh"),
                           lambda: (randn(4, 6), randn(4, 6))),
    "silu": (lambda a: aten.silu.default(a), lambda: (randn(4, 6),)),
    "threshold_backward": (lambda g, a: aten.threshold_backward.default(g, a, 0), lambda: (randn(5, 5), randn(5, 5))),
    "sigmoid_backward": (lambda g, y: aten.sigmoid_backward.default(g, y), lambda: (randn(5), positive(5))),
    "tanh_backward": (lambda g, y: aten.tanh_backward.default(g, y), lambda: (randn(5), randn(5))),
    "leaky_relu_backward": (lambda g, a: aten.leaky_relu_backward.default(g, a, 0.1, False),
                            lambda: (randn(8), randn(8))),
    "hardtanh_backward": (lambda g, a: aten.hardtanh_backward.default(g, a, -0.5, 0.5), lambda: (randn(8), randn(8))),
    "softplus": (lambda a: aten.softplus.default(a, 2, 3), lambda: (randn(8) * 3,)),
    "softplus_backward": (lambda g, a: aten.softplus_backward.default(g, a, 2, 3), lambda: (randn(8), randn(8) * 3)),
    "native_dropout_backward": (lambda g, m: aten.native_dropout_backward.default(g, m, 2.0),
                                lambda: (randn(8), mask(8))),
    "tril": (lambda a: aten.tril.default(aten.exp.default(a), -1), lambda: (randn(2, 5, 6),)),
    "triu": (lambda a: aten.triu.default(a, 2), lambda: (randn(6, 4),)),
    # copies and factories
    "_to_copy": (lambda a: aten._to_copy.default(a, dtype=minitorch2.int64), lambda: (randn(8) * 4,)),
    "clone": (lambda a: aten.clone.default(a), lambda: (randn(3, 4),)),
    "copy": (lambda a, b: aten.copy.default(a, b), lambda: (randn(3, 4), randn(4))),
    "full": (lambda a: aten.add.Tensor(a, aten.full.default([3, 4], 2.5)), lambda: (randn(3, 4),)),
    "zeros_ones": (lambda a: aten.add.Tensor(aten.ones.default([3, 4]), aten.zeros.default([4])), lambda: (randn(1),)),
    "scalar_tensor": (lambda a: aten.mul.Tensor(a, aten.scalar_tensor.default(3.0)), lambda: (randn(3),)),
    "arange": (lambda a: aten.add.Tensor(a, aten.arange.start_step(2, 14, 3)), lambda: (randn(4),)),
    "full_like": (lambda a: aten.full_like.default(a, 7), lambda: (randn(2, 3),)),
    "arange.default_and_start": (lambda a: aten.add.Tensor(aten.mul.Tensor(a, aten.arange.default(4)),
                                                           aten.arange.start(3, 7, device=minitorch2.device("cpu"))),
                                 lambda: (randn(4),)),
    "new_ones_and_new_full": (lambda a: aten.add.Tensor(aten.new_ones.default(a, [2, 3], pin_memory=False),
                                                        aten.new_full.default(a, [3], 2.5, dtype=minitorch2.float64)),
                              lambda: (randn(2, 3),)),
    # views
    "view": (lambda a: aten.view.default(a, [6, 4]), lambda: (randn(2, 3, 4),)),
    "view.of_permute": (lambda a: aten.view.default(aten.clone.default(aten.permute.default(a, [2, 0, 1])), [4, 6]),
                        lambda: (randn(2, 3, 4),)),
    "view.split_dim": (lambda a: aten.mul.Scalar(aten.view.default(aten.t.default(a), [2, 3, 4]), 2),
                       lambda: (randn(4, 6),)),
    "_unsafe_view": (lambda a: aten._unsafe_view.default(aten.mul.Scalar(a, 3), [12]), lambda: (randn(3, 4),)),
    "permute": (lambda a: aten.permute.default(aten.neg.default(a), [1, 2, 0]), lambda: (randn(2, 3, 4),)),
    "transpose": (lambda a: aten.mul.Scalar(aten.transpose.int(a, 0, 2), 2), lambda: (randn(2, 3, 4),)),
    "t": (lambda a: aten.t.default(a), lambda: (randn(3, 5),)),
    "expand": (lambda a: aten.add.Tensor(aten.expand.default(a, [3, 4, 5]), 1), lambda: (randn(4, 1),)),
    "unsqueeze": (lambda a: aten.unsqueeze.default(aten.exp.default(a), 1), lambda: (randn(3, 4),)),
    "squeeze.dim": (lambda a: aten.squeeze.dim(aten.exp.default(a), 1), lambda: (randn(3, 1, 4),)),
    "select": (lambda a: aten.select.int(aten.exp.default(a), 1, -1), lambda: (randn(3, 4),)),
    "slice": (lambda a: aten.slice.Tensor(aten.exp.default(a), 1, 1, 6, 2), lambda: (randn(3, 7),)),
    "slice.input": (lambda a: aten.mul.Scalar(aten.slice.Tensor(a, 0, 1, None), 2), lambda: (randn(5, 3),)),
    "as_strided": (lambda a: aten.as_strided.default(a, [3, 2], [1, 3], 1), lambda: (randn(4, 3),)),
    # as_strided reads memory: a computed value under it is laid out as eager lays it out (here transposed)
    "as_strided.of_computed_transpose": (
        lambda a: aten.as_strided.default(aten.permute.default(aten.mul.Tensor(aten.permute.default(a, [1, 0]), 2),
                                                               [1, 0]), [2, 3], [1, 2], 0), lambda: (randn(2, 3),)),
    "split": (lambda a: tuple(aten.mul.Scalar(p, 2) for p in aten.split.Tensor(a, 2, 1)), lambda: (randn(3, 5),)),
    "unbind": (lambda a: tuple(aten.neg.default(p) for p in aten.unbind.int(a, 0)), lambda: (randn(3, 2),)),
    "cat": (lambda a, b, c: aten.cat.default([aten.exp.default(a), b, c], 1),
            lambda: (randn(3, 2), randn(3, 4), ints(5, 3, 1))),
    "cat.read_back": (lambda a, b: aten.sum.dim_IntList(aten.cat.default([a, aten.neg.default(b)]), [0]),
                      lambda: (randn(2, 5), randn(3, 5))),
    "stack": (lambda a, b: aten.stack.default([a, aten.sin.default(b)], 1), lambda: (randn(3, 4), randn(3, 4))),
    "flip": (lambda a: aten.flip.default(aten.exp.default(a), [0, 2]), lambda: (randn(3, 4, 5),)),
    "flip.into_mm": (lambda a, b: aten.mm.default(aten.flip.default(a, [1]), b), lambda: (randn(3, 4), randn(4, 2))),
    "repeat": (lambda a: aten.repeat.default(a, [2, 1, 3]), lambda: (randn(3, 4),)),
    "select_backward": (lambda g: aten.select_backward.default(g, [3, 4, 5], 1, -2), lambda: (randn(3, 5),)),
    "slice_backward": (lambda g: aten.slice_backward.default(g, [4, 7], 1, 2, 5, 1), lambda: (randn(4, 3),)),
    "slice_backward.to_end": (lambda g: aten.slice_backward.default(g, [6, 3], 0, 1, 9223372036854775807, 1),
                              lambda: (randn(5, 3),)),
    "slice_scatter": (lambda a, b: aten.slice_scatter.default(a, b, 0, 0, 2), lambda: (randn(5, 3), randn(2, 3))),
    "select_scatter": (lambda a, b: aten.select_scatter.default(a, b, 1, -1), lambda: (randn(5, 3), randn(5))),
    "mse_loss_backward": (lambda g, a, b: aten.mse_loss_backward.default(g, a, b, 1),
                          lambda: (randn(()), randn(3, 4), randn(3, 4))),
    "mse_loss_backward.none": (lambda g, a, b: aten.mse_loss_backward.default(g, a, b, 0),
                               lambda: (randn(3, 4), randn(3, 4), randn(3, 4))),
    # reductions
    "sum": (lambda a: aten.sum.default(a), lambda: (randn(5, 7),)),
    "sum.dim_IntList": (lambda a: aten.sum.dim_IntList(a, [1], True), lambda: (randn(5, 7, 3),)),
    "sum.dims_0_2": (lambda a: aten.sum.dim_IntList(a, [0, 2]), lambda: (randn(5, 7, 3),)),
    "sum.bool": (lambda a: aten.sum.default(a), lambda: (mask(5, 7),)),
    "mean": (lambda a: aten.mean.default(a), lambda: (randn(5, 7),)),
    "mean.dim": (lambda a: aten.mean.dim(a, [-1], True), lambda: (randn(5, 7),)),
    "amax": (lambda a: aten.amax.default(a, [0]), lambda: (randn(5, 7),)),
    "amin": (lambda a: aten.amin.default(a, [1], True), lambda: (randn(5, 7),)),
    "max": (lambda a: aten.max.default(a), lambda: (randn(5, 7),)),
    "min": (lambda a: aten.min.default(a), lambda: (randn(5, 7),)),
    "max.dim": (lambda a: aten.max.dim(a, 1), lambda: (randn(5, 7),)),
    "min.dim": (lambda a: aten.min.dim(a, 0, True), lambda: (randn(5, 7),)),
    "argmax": (lambda a: aten.argmax.default(a, 1), lambda: (randn(5, 7),)),
    "argmax.all": (lambda a: aten.argmax.default(a), lambda: (randn(5, 7),)),
    "prod": (lambda a: aten.prod.default(a), lambda: (positive(2, 5),)),
    "var.correction": (lambda a: aten.var.correction(a, [1], correction=1, keepdim=True), lambda: (randn(4, 9) + 3,)),
    "var.all": (lambda a: aten.var.correction(a, None, correction=0), lambda: (randn(4, 9),)),
    "std.correction": (lambda a: aten.std.correction(a, [0]), lambda: (randn(4, 9),)),
    "var_mean": (lambda a: aten.var_mean.correction(a, [1], correction=0), lambda: (randn(4, 9),)),
    "any": (lambda a: aten.any.default(a), lambda: (mask(4, 3),)),
    "any.dims": (lambda a: aten.any.dims(a, [1]), lambda: (mask(4, 3),)),
    "logsumexp": (lambda a: aten.logsumexp.default(a, [1]), lambda: (randn(4, 9) * 10,)),
    # nn
    "_softmax": (lambda a: aten._softmax.default(a, -1, False), lambda: (randn(6, 10),)),
    "_softmax.dim0": (lambda a: aten._softmax.default(a, 0, False), lambda: (randn(6, 10),)),
    "_log_softmax": (lambda a: aten._log_softmax.default(a, 1, False), lambda: (randn(6, 10),)),
    "_softmax_backward_data": (lambda g, y: aten._softmax_backward_data.default(g, y, 1, minitorch2.float32),
                               lambda: (randn(6, 10), positive(6, 10))),
    "_log_softmax_backward_data": (lambda g, y: aten._log_softmax_backward_data.default(g, y, 1, minitorch2.float32),
                                   lambda: (randn(6, 10), randn(6, 10))),
    "native_layer_norm": (lambda a, w, b: aten.native_layer_norm.default(a, [8], w, b, 1e-5),
                          lambda: (randn(3, 5, 8), randn(8), randn(8))),
    "native_layer_norm_backward": (
        lambda g, a, w, b: aten.native_layer_norm_backward.default(
            g, a, [8], *aten.native_layer_norm.default(a, [8], w, b, 1e-5)[1:], w, b, [True, True, True]),
        lambda: (randn(6, 8), randn(6, 8), randn(8), randn(8))),
    "batch_norm.train": (
        lambda a, w, b, rm, rv: aten._native_batch_norm_legit_functional.default(a, w, b, rm, rv, True, 0.1, 1e-5),
        lambda: (randn(4, 3, 5, 5), randn(3), randn(3), randn(3), positive(3))),
    "batch_norm.functional_eval": (
        lambda a, w, b, rm, rv: aten._native_batch_norm_legit_functional.default(a, w, b, rm, rv, False, 0.1, 1e-5)[0],
        lambda: (randn(4, 3, 5, 5), randn(3), randn(3), randn(3), positive(3))),
    "native_batch_norm_backward.eval": (
        lambda g, a, w, m, r: aten.native_batch_norm_backward.default(g, a, w, m, r, None, None, False, 1e-5,
                                                                      [True, True, True]),
        lambda: (randn(4, 3, 5), randn(4, 3, 5), randn(3), randn(3), positive(3))),
    "batch_norm.eval": (
        lambda a, w, b, rm, rv: aten._native_batch_norm_legit_no_training.default(a, w, b, rm, rv, 0.1, 1e-5)[0],
        lambda: (randn(4, 3, 5), randn(3), randn(3), randn(3), positive(3))),
    "native_batch_norm_backward": (
        lambda g, a, w, m, r: aten.native_batch_norm_backward.default(g, a, w, None, None, m, r, True, 1e-5,
                                                                      [True, True, True]),
        lambda: (randn(4, 3, 5), randn(4, 3, 5), randn(3), randn(3), positive(3))),
    "binary_cross_entropy_with_logits": (
        lambda x, t, w, p: aten.binary_cross_entropy_with_logits.default(x, t, w, p, 1),
        lambda: (randn(4, 3) * 4, minitorch2.rand(4, 3), positive(3), positive(3))),
    "binary_cross_entropy_with_logits.none": (
        lambda x, t: aten.binary_cross_entropy_with_logits.default(x, t, None, None, 0),
        lambda: (randn(4, 3) * 4, minitorch2.rand(4, 3))),
    "dot": (lambda a, b: aten.dot.default(a, b), lambda: (randn(9), randn(9))),
    # pooling
    "max_pool2d_with_indices": (lambda a: aten.max_pool2d_with_indices.default(a, [2, 3], [2, 1]),
                                lambda: (randn(2, 3, 6, 7),)),
    "max_pool2d_with_indices_backward": (
        lambda g, a: aten.max_pool2d_with_indices_backward.default(
            g, a, [2, 2], [2, 2], [0, 0], [1, 1], False, aten.max_pool2d_with_indices.default(a, [2, 2], [2, 2])[1]),
        lambda: (randn(2, 3, 3, 4), randn(2, 3, 6, 8))),
    "avg_pool2d": (lambda a: aten.avg_pool2d.default(a, [3, 2], [1, 2]), lambda: (randn(2, 3, 6, 7),)),
    "avg_pool2d_backward": (lambda g, a: aten.avg_pool2d_backward.default(g, a, [2, 2], [2, 2], [0, 0], False, True,
                                                                          None),
                            lambda: (randn(1, 2, 3, 2), randn(1, 2, 6, 4))),
    "_adaptive_avg_pool2d": (lambda a: aten._adaptive_avg_pool2d.default(a, [2, 3]), lambda: (randn(2, 4, 6, 9),)),
    # indexing (more in test_indexing.py)
    "embedding": (lambda w, i: aten.embedding.default(w, i), lambda: (randn(10, 4), ints(10, 6))),
    "gather": (lambda a, i: aten.gather.default(a, 1, i), lambda: (randn(3, 4), ints(4, 3, 2))),
    # extern kernels
    "mm": (lambda a, b: aten.mm.default(a, b), lambda: (randn(5, 7), randn(7, 3))),
    "mm.transposed": (lambda a, b: aten.mm.default(aten.t.default(a), b), lambda: (randn(7, 5), randn(7, 3))),
    "addmm": (lambda c, a, b: aten.addmm.default(c, a, b), lambda: (randn(3), randn(5, 7), randn(7, 3))),
    "baddbmm": (lambda c, a, b: aten.baddbmm.default(c, a, b, beta=0.5, alpha=2),
                lambda: (randn(2, 5, 3), randn(2, 5, 7), randn(2, 7, 3))),
    "mv": (lambda a, b: aten.mv.default(a, b), lambda: (randn(5, 7), randn(7))),
    "bmm": (lambda a, b: aten.relu.default(aten.bmm.default(a, b)), lambda: (randn(2, 5, 7), randn(2, 7, 3))),
    # an extern kernel by design, as in torch's Inductor (im2col + BLAS), not a fallback
    "convolution": (lambda x, w, b: aten.relu.default(
        aten.convolution.default(x, w, b, [2, 1], [1, 0], [1, 1], False, [0, 0], 1)),
        lambda: (randn(2, 2, 5, 5), randn(3, 2, 3, 3), randn(3))),
}

# Extern calls by design: the eager kernel of the op runs (listed in the graph's fallbacks).
FALLBACKS = {
    # the eager kernel reads the storage of a computed transposed value: it is realized with eager's strides
    "as_strided_scatter.of_computed_transpose": (
        lambda a, b: aten.as_strided_scatter.default(aten.exp.default(aten.permute.default(a, [1, 0])), b, [2], [3], 1),
        lambda: (randn(2, 3), randn(2))),
    "convolution_backward": (lambda g, x, w: aten.convolution_backward.default(
        g, x, w, [3], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, [True, True, True]),
        lambda: (randn(1, 3, 3, 3), randn(1, 2, 5, 5), randn(3, 2, 3, 3))),
    "max_pool2d.padded": (lambda a: aten.max_pool2d_with_indices.default(a, [3, 3], [2, 2], [1, 1]),
                          lambda: (randn(1, 2, 5, 5),)),
    "diagonal.view_of_a_temporary": (
        lambda a: aten.add.Tensor(aten.diagonal.default(aten.exp.default(a)), a), lambda: (randn(4, 4),)),
    "cumsum": (lambda a: aten.cumsum.default(a, 1), lambda: (randn(3, 4),)),
}


def compile_and_run(fn, inputs):
    gm = make_fx(lambda *args: _as_tuple(fn(*args)), select_decomp_table(), tracing_mode="fake")(*inputs)
    compiled = compile_fx_inner(gm, list(inputs), "test")
    return compiled, compiled(list(inputs))


def _as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def check_case(fn, build):
    minitorch2.manual_seed(0)
    inputs = build()
    with minitorch2.no_grad():
        expected = _as_tuple(fn(*inputs))
    compiled, actual = compile_and_run(fn, inputs)
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected):
        assert tuple(got.shape) == tuple(want.shape)
        assert got.dtype is want.dtype, (got.dtype, want.dtype)
        np.testing.assert_allclose(got.numpy().astype(np.float64), want.numpy().astype(np.float64), rtol=1e-4,
                                   atol=1e-5, equal_nan=True)
    return compiled


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowered_op_matches_eager(name, codegen):
    fn, build = CASES[name]
    compiled = check_case(fn, build)
    assert compiled.fallbacks == [], f"{name} fell back to eager: {compiled.fallbacks}"
    no_kernel = ("mm", "mm.transposed", "mv", "t", "as_strided", "view")  # an extern call, or a view
    assert compiled.kernels or name in no_kernel, "nothing was compiled"


def test_convolution_is_called_as_an_extern_kernel(codegen):
    compiled = check_case(*CASES["convolution"])
    assert "extern_call(ops.aten.convolution.default" in compiled.source
    assert "fallback_call(" not in compiled.source


@pytest.mark.parametrize("name", sorted(FALLBACKS))
def test_fallback_runs_eager_kernel(name, codegen):
    fn, build = FALLBACKS[name]
    compiled = check_case(fn, build)
    assert compiled.fallbacks, f"{name} was expected to be an extern fallback"


def overload(name):
    packet, _, overload_name = name.partition(".")
    return getattr(getattr(aten, packet), overload_name or "default")


def test_every_corpus_op_is_lowered_or_falls_back():
    """The LOWERINGS table covers the pointwise, reduction and view ops our AOT graphs use."""
    from backend.lowering import LOWERINGS

    for name in ["add.Tensor", "mul.Tensor", "where.self", "sum.dim_IntList", "amax", "var.correction", "view",
                 "expand", "permute", "native_layer_norm_backward", "mm", "bmm", "threshold_backward",
                 "_native_batch_norm_legit_functional", "native_batch_norm_backward", "scalar_tensor"]:
        assert overload(name) in LOWERINGS or overload(name) in DECOMPOSED_AWAY, name


# Ops with no lowering: select_decomp_table always rewrites them into lowered ops (their CASES above check the
# result), or rewrites every call eager accepts (tril of a 1-d tensor, a stack of unequal shapes: eager raises).
DECOMPOSED_AWAY = [overload(name) for name in (
    "rsub.Tensor", "rsub.Scalar", "sgn", "clamp", "masked_fill.Scalar", "masked_fill.Tensor", "threshold_backward",
    "gelu_backward", "leaky_relu_backward", "hardtanh_backward", "softplus", "softplus_backward", "mse_loss_backward",
    "tril", "triu", "detach", "new_zeros", "new_ones", "new_full", "arange.start", "arange.default", "_unsafe_view",
    "transpose.int", "t", "stack", "select_backward", "slice_backward", "std.correction", "logsumexp",
    "binary_cross_entropy_with_logits", "embedding_dense_backward", "nll_loss_forward", "nll_loss_backward", "mv",
    "native_layer_norm_backward", "native_batch_norm", "_native_batch_norm_legit_functional",
    "_native_batch_norm_legit_no_training", "native_batch_norm_backward")]


def test_ops_the_decomposition_table_rewrites_have_no_lowering():
    """If one of these loses its decomposition, it reaches lowering again, and needs a lowering back (or it falls
    back to its eager kernel, unfused)."""
    from backend.lowering import LOWERINGS

    table = select_decomp_table()
    assert [str(op) for op in DECOMPOSED_AWAY if op not in table] == []
    assert [str(op) for op in DECOMPOSED_AWAY if op in LOWERINGS] == []


def test_float_ops_on_int_inputs_compute_in_float():
    compiled = check_case(lambda a: aten.sqrt.default(a), lambda: (ints(9, 5),))
    assert compiled.fallbacks == []
    assert math.isclose(compiled([minitorch2.tensor([4, 9, 0, 1, 16])])[0][1].item(), 3.0)
    with pytest.raises(ValueError, match="compiled for"):
        compiled([minitorch2.tensor([4])])


@pytest.mark.parametrize("value", [3, True, 2.5])
def test_scans_over_zero_dim_tensors_are_casts_and_others_fall_back(value, codegen):
    compiled = check_case(lambda a: aten.cumsum.default(a, 0), lambda: (minitorch2.tensor(value),))
    assert compiled.fallbacks == [] and compiled.kernels
    compiled = check_case(lambda a: aten.cumprod.default(a, -1), lambda: (randn(4),))
    assert compiled.fallbacks == ["aten.cumprod.default"]


@pytest.mark.parametrize("dtype", ["int32", "float16", "float32"])
def test_mv_decomposes_in_its_math_type_with_torchs_result(dtype):
    """mv is a multiply and a row sum; the integer sum (int64) and the float16 math (float32) are cast back."""
    import torch

    rng = np.random.default_rng(0)
    a, v = rng.integers(-3, 4, (5, 7)).astype(dtype), rng.integers(-3, 4, 7).astype(dtype)
    got = minitorch2.compile(minitorch2.mv, backend="inductor")(minitorch2.from_numpy(a), minitorch2.from_numpy(v))
    want = torch.mv(torch.from_numpy(a), torch.from_numpy(v))
    assert str(got.dtype) == str(want.dtype)
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_native_batch_norm_met_unfunctionalized_updates_the_running_stats_as_torch():
    """native_batch_norm writes its running stats in place; aot functionalizes it first, but a graph compiled as it
    is runs the eager kernel, which writes them (a lowering returned the outputs and left the stats unchanged)."""
    import torch

    x, w, b = randn(4, 3, 5), randn(3), randn(3)
    def batch_norm(*args):
        return aten.native_batch_norm.default(*args, True, 0.1, 1e-5)

    gm = make_fx(batch_norm, select_decomp_table(), tracing_mode="fake")(x, w, b, randn(3), positive(3))
    running_mean, running_var = minitorch2.zeros(3), minitorch2.ones(3)
    compile_fx_inner(gm, [x, w, b, running_mean, running_var], "test")([x, w, b, running_mean, running_var])
    want_mean, want_var = torch.zeros(3), torch.ones(3)
    torch.native_batch_norm(torch.from_numpy(x.numpy()), torch.from_numpy(w.numpy()), torch.from_numpy(b.numpy()),
                            want_mean, want_var, True, 0.1, 1e-5)
    np.testing.assert_allclose(running_mean.numpy(), want_mean.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(running_var.numpy(), want_var.numpy(), rtol=1e-5, atol=1e-6)
