"""The `prims` ops torch's Inductor turns random ops into: inductor_seeds, inductor_lookup_seed, inductor_random/randint.

Runtime layer, rows of the op table (table.py splices ROWS in). Only the inductor backend's graphs record them: its
replace-random pass (backend/lowering_random.py) rewrites every aten.rand / aten.randn of a graph into

    seeds = prims.inductor_seeds(n, device)           n int64 seeds drawn from the default generator, one per op
    seed_i = prims.inductor_lookup_seed(seeds, i)     the i-th, as a 0-d tensor
    prims.inductor_random(size, seed_i, "rand")       Philox values of (seed, flat position) (minitorch2/_philox.py)
    prims.inductor_randint(low, high, size, seed_i)   (for aten.randint.low)

The kernels here are what a compiled graph runs for them, so their values are torch.compile's: inductor_seeds makes
the draw of torch's RandomSeeds kernel (randint over all of int64), inductor_random computes the Philox values of its
generated C++. (torch's own eager impl of inductor_random, used only while tracing, draws from the eager stream.)
"""
import numpy as np

from .. import _dtype, _philox
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


ROWS = [
    op("prims::inductor_seeds(int count, Device device) -> Tensor", RANDOM, (_seeds_kernel, _seeds_meta)),
    op("prims::inductor_lookup_seed(Tensor seeds, int index) -> Tensor", (), (_lookup_seed_kernel, _lookup_seed_meta)),
    op("prims::inductor_random(SymInt[] size, Tensor seed, str mode, *, ScalarType? align_dtype=None) -> Tensor", (),
       (_random_kernel, _random_meta)),
    op("prims::inductor_randint(SymInt low, SymInt high, SymInt[] size, Tensor seed) -> Tensor", (),
       (_randint_kernel, _randint_meta)),
]
