"""Kernel of `_unsafe_masked_index_put_accumulate`: the scatter-add torch's embedding backward decomposes into.

Runtime layer, beside indexing.py. `self[indices] += where(mask, values, 0)`, where `mask` marks the positions whose
index is valid (and not the padding index); a masked-out position may hold any index, in range or not, and adds
nothing. As ATen's kernel, every index is clamped into [-size, size - 1] first, so none is ever out of range
("unsafe": no error is raised). Only the inductor path's decomposition of embedding_dense_backward
(decompositions_nn.py) records it; backend/lowering_indexing.py lowers it.
"""
import numpy as np

from .meta_util import fake_empty, preserve_format_strides, with_strides


def _kernel(self, mask, indices, values):
    out = np.array(self._np, copy=True)
    leading = len(indices)
    kept = np.broadcast_to(mask._np, values.shape)
    index_shape = tuple(values.shape[:indices[0].dim()])
    safe = []
    for dim, index in enumerate(indices):
        size = self.shape[dim]
        position = np.broadcast_to(index._np, index_shape).astype(np.int64)
        safe.append(np.clip(position, -size, size - 1))
    contribution = np.where(kept, values._np, 0).astype(out.dtype)
    np.add.at(out, tuple(safe), contribution.reshape(index_shape + tuple(self.shape[leading:])))
    return with_strides(out, preserve_format_strides(self))  # a clone of self, layout preserved


def _meta(self, mask, indices, values):
    return fake_empty(self.shape, self.dtype, preserve_format_strides(self))


unsafe_masked_index_put_accumulate = (_kernel, _meta)
