"""ATen's checks of an advanced index (x[idx], index_put_), in the order and words of its index kernel.

Runtime layer, coverage surface: indexing.py's `index` and `index_put` call check_indices before numpy indexes.
ATen checks each mask's shape against the dims it covers, then that the index tensors broadcast, then that no
non-empty index reads a dim of size 0, then the bounds element by element in its loop's (memory) order, naming the
dim by its place among the index tensors; a loop over an empty result reads no index, so nothing is checked.
"""
import numpy as np

from .. import _dtype


def check_indices(self, indices):
    """Raise ATen's error for `indices` (one optional tensor per leading dim of self, a k-dim mask covering k
    dims), else return whether the result is empty (its indices are then never read)."""
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
            longs += [(column, 1 + column.max(initial=0)) for column in np.nonzero(idx._np.astype(bool))]
            dim += idx.dim()
        else:
            check_index_dtype(idx)
            longs.append((idx._np, self.shape[dim]))
            dim += 1
    if dim > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()} (got {dim})")
    try:
        arrays = np.broadcast_arrays(*(arr for arr, _ in longs))
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(f"[{', '.join(map(str, arr.shape))}]" for arr, _ in longs)) from None
    if any(size == 0 and arr.size for arr, (_, size) in zip(arrays, longs)):
        raise IndexError("index is out of bounds for dimension with size 0")
    if not (arrays and arrays[0].size) or 0 in kept + list(self.shape[dim:]):
        return True
    order = np.argsort([-stride for stride in arrays[0].strides], kind="stable")  # (its loop's: memory order)
    arrays = [arr.transpose(order).ravel() for arr in arrays]
    bad = np.stack([(arr < -size) | (arr >= size) for arr, (_, size) in zip(arrays, longs)], -1)
    if bad.any():
        element, position = divmod(int(np.argmax(bad.ravel())), len(longs))
        raise IndexError(f"index {arrays[position][element]} is out of bounds for dimension {position} with size "
                         f"{longs[position][1]}")
    return False


def check_index_dtype(idx):
    if idx.dtype.is_floating_point:
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
