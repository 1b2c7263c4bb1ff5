"""Norm statistics as ATen's CPU kernels accumulate them where that is narrower than our float64: the weight and
bias gradients of layer norm with a half input and float32 weights, and the float32 moments' overflows.

Runtime layer, called by nn_norm's native_layer_norm_backward where autocast (or a script) hands layer norm a
bfloat16 or float16 input with float32 weights: ATen's "mixed type" kernel. It splits the rows among its threads,
each thread adding its rows' terms one by one into a buffer of the input's half dtype (rounded at every add), then
sums the threads' buffers in float32. Summing once in float64 leaves the gradients a few half steps from torch's.

And by the layer, group and batch norms' forward kernels (nn_norm.py, nn_group_norm.py) for float32 and half inputs,
whose moments ATen takes in float32: its layer and group norms by Welford's update, merging partial moments with
`m2 += m2' + delta**2 * c * m0`, where past |mean| = sqrt(float32's max) delta**2 is inf and, c or m0 being 0, the
product nan (so the whole row is nan); a sum of squared deviations past float32's max is inf, so 1 / sqrt(var + eps)
is 0 (the batch norm, which sums the squares alone, has only this one).
"""
import numpy as np

from .. import _dtype, _settings


def column_sums(terms, input_dtype, param_dtype):
    """Column sums of the (M, N) float64 `terms` as ATen's layer-norm backward computes them (for an `input_dtype`
    input and `param_dtype` weights): in float64 but for a half input with float32 weights."""
    if input_dtype not in _dtype.HALVES or param_dtype == input_dtype.np:
        return terms.sum(axis=0)
    half_dtype = input_dtype.np
    rows = terms.shape[0]
    threads = max(1, min(_settings.get_num_threads(), rows))
    chunk = -(-rows // threads) if rows else 1
    total = np.zeros(terms.shape[1], dtype=np.float32)
    for start in range(0, rows, chunk):
        buffer = np.zeros(terms.shape[1], dtype=half_dtype)
        for row in terms[start:start + chunk]:
            buffer = (buffer.astype(np.float32) + row.astype(np.float32)).astype(half_dtype)
        total += buffer.astype(np.float32)
    return total


_FLOAT32_MAX = float(np.finfo(np.float32).max)


def rstd_with_float32_overflows(var, count, mean, dtype, eps, merges_moments=True):
    """1 / sqrt(var + eps) of float64 moments (`count` values each) as ATen's float32 moments of a `dtype` input
    leave it: 0 where their sum of squares overflows, nan where merging them squares a mean past float32's range."""
    with np.errstate(all="ignore"):
        rstd = 1.0 / np.sqrt(var + eps)
        if _dtype.opmath(dtype) is not _dtype.float32:
            return rstd
        rstd = np.where(var * count > _FLOAT32_MAX, 0.0, rstd)
        return np.where(np.abs(mean) > np.sqrt(_FLOAT32_MAX), np.nan, rstd) if merges_moments else rstd
