"""The weight and bias gradients of layer norm with a half input and float32 weights, as ATen's CPU kernel sums them.

Runtime layer, called by nn_norm's native_layer_norm_backward where autocast (or a script) hands layer norm a
bfloat16 or float16 input with float32 weights: ATen's "mixed type" kernel. It splits the rows among its threads,
each thread adding its rows' terms one by one into a buffer of the input's half dtype (rounded at every add), then
sums the threads' buffers in float32. Summing once in float64 leaves the gradients a few half steps from torch's.
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
