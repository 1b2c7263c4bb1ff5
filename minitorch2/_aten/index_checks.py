"""ATen's checks of an advanced index (x[idx], index_put_), in the order and words of its index kernel.

Runtime layer, coverage surface: indexing.py's `index` and `index_put` call check_indices before numpy indexes.
ATen checks each mask's shape against the dims it covers, then that the index tensors broadcast, then that no
non-empty index reads a dim of size 0, then the bounds element by element in its loop's (memory) order, naming the
dim by its place among the index tensors; a loop over an empty result reads no index, so nothing is checked.
"""
import numpy as np

from .. import _dtype
from .memory import _dtype_title
from .overlap import fills_by_mask


def check_indices(self, indices, values=None):
    """Raise ATen's error for `indices` (one optional tensor per leading dim of self, a k-dim mask covering k
    dims) and the `values` index_put writes, else return whether the result is empty (no index is then read)."""
    longs, kept, dim = [], [], 0  # longs: (array, size of the dim it reads), a mask as its nonzero() columns
    for idx in indices:
        if idx is None:
            kept.append(self.shape[dim])
            dim += 1
        elif idx.dtype in (_dtype.bool_, _dtype.uint8):
            for k in range(idx.dim()):
                if dim + k >= self.dim() or idx.shape[k] != self.shape[dim + k]:
                    raise IndexError(
                        f"The shape of the mask [{', '.join(map(str, idx.shape))}] at index {k} does not match the "
                        f"shape of the indexed tensor [{', '.join(map(str, self.shape))}] at index {dim + k}"
                    )
            columns = np.nonzero(np.atleast_1d(idx._np.astype(bool)))  # (a 0-d mask: one dim of size 1 or 0)
            longs += [(column, 1 + column.max(initial=0)) for column in columns]
            dim += idx.dim()
        else:
            check_index_dtype(idx)
            longs.append((idx._np, self.shape[dim]))
            dim += 1
    if dim > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()} (got {dim})")
    if not longs:
        return False
    try:
        arrays = np.broadcast_arrays(*(arr for arr, _ in longs))
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(f"[{', '.join(map(str, arr.shape))}]" for arr, _ in longs)) from None
    if any(size == 0 and arr.size for arr, (_, size) in zip(arrays, longs)):
        raise IndexError("index is out of bounds for dimension with size 0")
    result_shape = _result_shape(self, indices, kept + list(self.shape[dim:]), arrays[0].shape)
    if values is not None and not _broadcasts_to(list(values.shape), result_shape):
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(values.shape)} cannot be broadcast to "
                           f"indexing result of shape {result_shape}")
    if values is not None and values.dtype is not self.dtype and not fills_by_mask((indices, values), {}):
        raise RuntimeError(  # (a mask filled with a 0-d value takes its item, cast)
            f"Index put requires the source and destination dtypes match, got {_dtype_title(self.dtype)} for the "
            f"destination and {_dtype_title(values.dtype)} for the source."
        )
    if 0 in result_shape:
        return True
    order = np.argsort([-stride for stride in arrays[0].strides], kind="stable")  # (its loop's: memory order)
    arrays = [arr.transpose(order).ravel() for arr in arrays]
    bad = np.stack([(arr < -size) | (arr >= size) for arr, (_, size) in zip(arrays, longs)], -1)
    if bad.any():
        element, position = divmod(int(np.argmax(bad.ravel())), len(longs))
        raise IndexError(f"index {arrays[position][element]} is out of bounds for dimension {position} with size "
                         f"{longs[position][1]}")
    return False


def _result_shape(self, indices, kept, index_shape):
    """The indexed result's shape: the index shape where the indexed dims stood if they are adjacent, else first."""
    places = [k for k, idx in enumerate(indices) if idx is not None]
    lead = places[0] if places == list(range(places[0], places[-1] + 1)) else 0
    return kept[:lead] + list(index_shape) + kept[lead:]


def check_index_dtype(idx):
    if idx.dtype.is_floating_point:
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")


def _broadcasts_to(shape, target):
    """Whether values of `shape` expand to `target` (torch's x[i] = v drops v's leading 1s before it calls index_put_:
    Tensor.__setitem__)."""
    return len(shape) <= len(target) and all(s in (1, t) for s, t in zip(reversed(shape), reversed(target)))


def index_add_reads_indices(self, d, index):
    """index_add's bounds, worded as the path ATen's CPU kernel takes: a first or last dim of a tensor of two or
    more dims goes through scatter_add (its words), a middle dim or a vector through a loop (IndexError). False
    where that kernel returns before reading any index: a tensor of two or more dims with no elements."""
    if self.dim() > 1 and self.numel() == 0:
        return False
    size = self.shape[d] if self.dim() else 1
    indices = np.asarray(index._np).reshape(-1)
    bad = indices[(indices < 0) | (indices >= size)]
    if not len(bad):
        return True
    if self.dim() > 1 and d in (0, self.dim() - 1):
        raise RuntimeError(f"index {bad[0]} is out of bounds for dimension {d} with size {size}")
    raise IndexError("index out of range in self")
