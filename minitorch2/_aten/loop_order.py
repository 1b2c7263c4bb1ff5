"""In-place writes over inputs that overlap them in ways ATen leaves unchecked, done in ATen's loop order.

Runtime layer, called by the overlap check (overlap.py) for an in-place pointwise op or copy_ whose written-to tensor
shares memory with an input (or with itself) without being dense, the case ATen's overlap check calls too hard and
lets through. Eagerly, torch then reads each element when its loop reaches it, so an element written earlier in the
loop is read with its new value: `b[1:, 1:].add_(b[:-1, :-1])` of a 3 x 3 tensor of ones leaves b[2, 2] at 3.
numpy's ufuncs copy an overlapping operand first and would leave it at 2.

The one idea to hold: follow TensorIterator's order and do everything it may do at once at once. The loop visits
elements with the fastest-moving dim innermost (dims ordered by the operands' strides, the output's first), with
adjacent dims merged where every operand lets them. Where every operand is contiguous along the inner dim, ATen's
vectorized loop loads two SIMD vectors of inputs before it stores the two results, so those elements are read
together; elsewhere one element at a time. Consecutive steps that read nothing an earlier one wrote are then run
as one vectorized call on gathered copies ("waves"), so the common case is one call. The vector width is AVX2's
(32 bytes), the default CPU capability of torch's x86 builds; on AVX-512 machines torch's result can differ where
an overlap is closer than a vector.
"""
import numpy as np

from .._tensor import Tensor
from .meta_util import broadcast_strides, tensor_iterator_order

VECTOR_BYTES = 32  # AVX2; ATen's vectorized loop takes two vectors per step


def may_overlap_itself(t):
    """Whether two of t's elements may share an address (no, when each dim's stride, smallest first, steps
    past everything the smaller dims span)."""
    extent = 0
    for size, stride in sorted(zip(t._shape, t._stride), key=lambda dim: dim[1]):
        if size > 1 and stride <= extent:
            return True
        extent += (size - 1) * stride
    return False


def _inner_run(shape, dims, operand_strides):
    """How many elements the innermost loop covers after merging dims, and whether ATen's vectorized loop runs
    along it: the output contiguous, and the inputs too, except at most one read as a scalar (stride 0), which
    that loop reads once per row. Returns (run, vectorized, position of that scalar operand or None)."""
    run, inner = 1, []
    for d in dims:
        if shape[d] == 1:
            continue
        if inner and not all(s[d] == s[inner[-1]] * shape[inner[-1]] for s in operand_strides):
            break
        inner.append(d)
        run *= shape[d]
    if not inner:
        return 1, False, None
    input_strides = [s[inner[0]] for s in operand_strides[1:]]
    vectorized = operand_strides[0][inner[0]] == 1 and set(input_strides) <= {0, 1} and input_strides.count(0) <= 1
    scalar = 1 + input_strides.index(0) if vectorized and 0 in input_strides else None
    return run, vectorized, scalar


def _schedule(numel, run, vector):
    """When each position of the loop reads and writes: its step (positions that share one are read before any
    is written: one element, or a vectorized block of two vectors within a row, the row's remainder one by one),
    and the step at which a row's scalar operand is read (its first, for the blocks)."""
    position = np.arange(numel)
    if vector is None:
        return position, position
    within = position % run
    in_block = within < (run // vector) * vector
    return np.where(in_block, position - within % vector, position), np.where(in_block, position - within, position)


def _dependent(reads, writes, steps):
    """Whether a read sees an address an earlier step wrote, or two positions write one address. `reads` are
    (addresses, steps at which they are read) pairs."""
    order = np.argsort(writes, kind="stable")
    sorted_writes = writes[order]
    if np.any(sorted_writes[1:] == sorted_writes[:-1]):
        return True
    for addresses, read_steps in reads:
        at = np.minimum(np.searchsorted(sorted_writes, addresses), len(writes) - 1)
        written = sorted_writes[at] == addresses
        if np.any(written & (steps[order[at]] < read_steps)):
            return True
    return False


def _waves(reads, writes, steps, row_starts):
    """Split the loop into ranges of positions that can run as one gather, compute and scatter: a range ends
    where a step reads or writes an address the range has already written, and at each row start in `row_starts`
    (where a scalar operand is read for the whole row)."""
    starts = np.flatnonzero(np.diff(steps, prepend=-1)).tolist() + [len(writes)]
    bounds, written = [0], set()
    for begin, end in zip(starts, starts[1:]):
        step_writes = set(writes[begin:end].tolist())
        step_reads = {a for addresses, read_steps in reads
                      for a, at in zip(addresses[begin:end].tolist(), read_steps[begin:end].tolist()) if at == begin}
        if begin in row_starts or (step_reads | step_writes) & written:
            bounds.append(begin)
            written = set()
        written |= step_writes
    return [(lo, hi) for lo, hi in zip(bounds, bounds[1:] + [len(writes)]) if lo < hi]


def run_in_loop_order(kernel, self, args, kwargs):
    """Run the in-place `kernel(self, *args, **kwargs)` in torch's loop order, when that order reads an element
    the loop has already written; otherwise return False (numpy's order gives the same, and the caller runs it).
    Inputs of another dtype are converted by ATen before its loop, and 0-dim ones read once: neither counts."""
    inputs = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor) and a.dim() > 0]
    if self._np is None or self.numel() < 2 or any(t.dtype is not self.dtype for t in inputs):
        return False
    tensors = [self] + inputs
    shape = tuple(self.shape)
    strides = [broadcast_strides(t, shape) for t in tensors]
    dims = tensor_iterator_order(shape, strides)
    grid = np.indices(shape).reshape(len(shape), -1)
    index = tuple(grid[:, np.lexsort(grid[dims])])
    run, vectorized, scalar = _inner_run(shape, dims, strides)
    steps, row_steps = _schedule(self.numel(), run, VECTOR_BYTES * 2 // self.dtype.itemsize if vectorized else None)
    addresses = [t.storage_offset() + sum(i * s for i, s in zip(index, st)) for t, st in zip(tensors, strides)]
    reads = [(a, row_steps if j == scalar else steps) for j, (t, a) in enumerate(zip(tensors, addresses))
             if t._storage is self._storage]
    if not _dependent(reads, addresses[0], steps):
        return False
    sources = {id(t): np.broadcast_to(t._np, shape) for t in tensors}

    def gathered(value, lo, hi):
        if not (isinstance(value, Tensor) and id(value) in sources):
            return value
        return Tensor._from_numpy(np.ascontiguousarray(sources[id(value)][tuple(i[lo:hi] for i in index)]))

    row_starts = set(range(0, self.numel(), run)) if scalar is not None else set()
    for lo, hi in _waves(reads, addresses[0], steps, row_starts):
        out = gathered(self, lo, hi)
        kernel(out, *(gathered(a, lo, hi) for a in args), **{k: gathered(v, lo, hi) for k, v in kwargs.items()})
        self._np[tuple(i[lo:hi] for i in index)] = out._np
    self._bump_version()
    return True
