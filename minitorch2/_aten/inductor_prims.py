"""The `prims` ops torch's Inductor turns random ops into (inductor_seeds, inductor_lookup_seed, inductor_random and
inductor_randint) and the two it turns max_pool2d_with_indices into (below).

Runtime layer, rows of the op table (table.py splices ROWS in). Only the inductor backend's graphs record them: its
replace-random pass (backend/lowering_random.py) rewrites every aten.rand / aten.randn of a graph into

    seeds = prims.inductor_seeds(n, device)           n int64 seeds drawn from the default generator, one per op
    seed_i = prims.inductor_lookup_seed(seeds, i)     the i-th, as a 0-d tensor
    prims.inductor_random(size, seed_i, "rand")       Philox values of (seed, flat position) (minitorch2/_philox.py)
    prims.inductor_randint(low, high, size, seed_i)   (for aten.randint.low)

The kernels here are what a compiled graph runs for them, so their values are torch.compile's: inductor_seeds makes
the draw of torch's RandomSeeds kernel (randint over all of int64), inductor_random computes the Philox values of its
generated C++. (torch's own eager impl of inductor_random, used only while tracing, draws from the eager stream.)

The inductor's table (backend/decompositions_inductor.py) writes a max_pool2d_with_indices with a window of at most 25
elements as `_low_memory_max_pool_with_offsets` (the maxima and, per output, the position of its maximum inside its
window, as int8) then `_low_memory_max_pool_offsets_to_indices` (those positions as flat input indices), so that the
forward saves int8 offsets for the backward, which recomputes the indices: torch's graphs hold both prims.
"""
import numpy as np

from .. import _dtype, _philox
from . import nn_pool
from .meta_util import fake_empty
from .random_ops import randint_low
from .table_row import RANDOM, op

_INT64 = np.iinfo(np.int64)


def _seeds_kernel(count, device):
    return randint_low[0](int(_INT64.min), int(_INT64.max), [count])


def _seeds_meta(count, device):
    return fake_empty((count,), _dtype.int64)


def _lookup_seed_kernel(seeds, index):
    return np.array(seeds._np[index])


def _lookup_seed_meta(seeds, index):
    return fake_empty((), seeds.dtype)


def _random_kernel(size, seed, mode, *, align_dtype=None):
    draw = {"rand": _philox.uniform, "randn": _philox.normal}[mode]
    return draw(int(seed.item()), np.arange(int(np.prod(size, dtype=np.int64)))).reshape(tuple(size))


def _random_meta(size, seed, mode, *, align_dtype=None):
    return fake_empty(tuple(size), _dtype.float32)


def _randint_kernel(low, high, size, seed):
    return _philox.randint(int(seed.item()), np.arange(int(np.prod(size, dtype=np.int64))), low, high).reshape(size)


def _randint_meta(low, high, size, seed):
    return fake_empty(tuple(size), _dtype.int64)


def _max_pool_offsets_kernel(self, kernel_size, stride, padding, dilation, ceil_mode):
    values, indices = nn_pool.max_pool2d_with_indices[0](self, kernel_size, stride, padding, dilation, ceil_mode)
    rows, cols = np.divmod(indices, self.shape[-1])
    row_starts, col_starts = _window_starts(indices.shape, stride, padding)
    offsets = (rows - row_starts) // dilation[0] * kernel_size[1] + (cols - col_starts) // dilation[1]
    return values, offsets.astype(np.int8)


def _max_pool_offsets_meta(self, kernel_size, stride, padding, dilation, ceil_mode):
    values, indices = nn_pool.max_pool2d_with_indices[1](self, kernel_size, stride, padding, dilation, ceil_mode)
    return values, fake_empty(tuple(indices.shape), _dtype.int8, indices.stride())


def _offsets_to_indices_kernel(self, kernel_size, input_size, stride, padding, dilation):
    row_steps, col_steps = np.divmod(self._np.astype(np.int64), kernel_size[1])
    row_starts, col_starts = _window_starts(self.shape, stride, padding)
    return (row_starts + row_steps * dilation[0]) * input_size[1] + col_starts + col_steps * dilation[1]


def _offsets_to_indices_meta(self, kernel_size, input_size, stride, padding, dilation):
    return fake_empty(tuple(self.shape), _dtype.int64, self.stride())


def _window_starts(shape, stride, padding):
    """Each output row's and column's first input row and column (before the padding), broadcastable."""
    return ((np.arange(shape[-2]) * stride[0] - padding[0])[:, None], np.arange(shape[-1]) * stride[1] - padding[1])


ROWS = [
    op("prims::inductor_seeds(int count, Device device) -> Tensor", RANDOM, (_seeds_kernel, _seeds_meta)),
    op("prims::inductor_lookup_seed(Tensor seeds, int index) -> Tensor", (), (_lookup_seed_kernel, _lookup_seed_meta)),
    op("prims::inductor_random(SymInt[] size, Tensor seed, str mode, *, ScalarType? align_dtype=None) -> Tensor", (),
       (_random_kernel, _random_meta)),
    op("prims::inductor_randint(SymInt low, SymInt high, SymInt[] size, Tensor seed) -> Tensor", (),
       (_randint_kernel, _randint_meta)),
    op("prims::_low_memory_max_pool_with_offsets(Tensor self, SymInt[] kernel_size, SymInt[] stride, "
       "SymInt[] padding, SymInt[] dilation, bool ceil_mode) -> (Tensor, Tensor)", (),
       (_max_pool_offsets_kernel, _max_pool_offsets_meta), differentiable=False),
    op("prims::_low_memory_max_pool_offsets_to_indices(Tensor self, SymInt[] kernel_size, SymInt[] input_size, "
       "SymInt[] stride, SymInt[] padding, SymInt[] dilation) -> Tensor", (),
       (_offsets_to_indices_kernel, _offsets_to_indices_meta), differentiable=False),
]
