"""Tensor.share_memory_ and Tensor.is_shared: CPU tensors whose memory other processes see (Linux).

Runtime layer, coverage surface. Hogwild training (pytorch/examples' mnist_hogwild) calls model.share_memory(),
hands the model to torch.multiprocessing workers and lets each one step its optimizer in place: the parent then
sees every update. Here a shared tensor's storage is a memfd (an anonymous file in memory) mapped MAP_SHARED.
Forked children inherit the mapping; a tensor handed to a spawned child (a Process argument, a Queue item) travels
through multiprocessing's pickler as the file descriptor, which the child maps again (`reduce_tensor`, registered
below for Tensor; nn.Module registers Parameter's). A tensor not shared still pickles by value.

The storage is replaced in place: this tensor and the views made from it afterwards use the shared memory; a view
made before keeps the old memory (torch's views follow, as they share one storage object).
"""
import mmap
import os
import pickle
import weakref
from multiprocessing import reduction

import numpy as np

from . import _dtype
from ._tensor import Tensor


class SharedStorage(np.ndarray):
    """A tensor's flat storage over a MAP_SHARED mapping; `fd` is the memfd it maps (kept open to pass on)."""

    fd = None


def _map(fd, nbytes, dtype):
    mapping = mmap.mmap(fd, max(nbytes, 1))
    return np.frombuffer(mapping, dtype=dtype.np, count=nbytes // dtype.itemsize).view(SharedStorage)


def _rebind(tensor, storage):
    itemsize = tensor.dtype.itemsize
    layout = dict(shape=tuple(tensor.shape), dtype=tensor.dtype.np, strides=tuple(s * itemsize for s in tensor._stride))
    if 0 in tensor.shape:  # no element to share; numpy refuses offsets past the end of the buffer
        tensor._np = np.ndarray(**layout)
    else:
        tensor._np = np.ndarray(**layout, buffer=storage, offset=tensor._offset * itemsize)
    tensor._storage = storage


def share_memory_(self):
    if is_shared(self) or self._storage is None:
        return self
    fd = os.memfd_create("minitorch2-shared-tensor", os.MFD_CLOEXEC)
    os.ftruncate(fd, max(self._storage.nbytes, 1))
    storage = _map(fd, self._storage.nbytes, self.dtype)
    storage[:] = self._storage
    storage.fd = fd
    weakref.finalize(storage, os.close, fd)
    _rebind(self, storage)
    return self


def is_shared(self):
    return isinstance(self._storage, SharedStorage)


def _rebuild_shared(dup_fd, nbytes, dtype_name, shape, stride, offset, requires_grad):
    fd = dup_fd.detach()
    storage = _map(fd, nbytes, _dtype.from_name(dtype_name))
    storage.fd = fd
    weakref.finalize(storage, os.close, fd)
    tensor = object.__new__(Tensor)
    tensor._init_from(None, None, shape, stride, offset, _dtype.from_name(dtype_name))
    _rebind(tensor, storage)
    tensor.requires_grad = requires_grad
    return tensor


def reduce_tensor(tensor):
    """How multiprocessing's pickler sends a tensor: a shared one as its file descriptor, any other by value."""
    if not is_shared(tensor):
        return tensor.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    storage = tensor._storage
    return _rebuild_shared, (reduction.DupFd(storage.fd), storage.nbytes, tensor.dtype.name,
                             tuple(tensor.shape), tuple(tensor._stride), tensor._offset, tensor.requires_grad)


reduction.ForkingPickler.register(Tensor, reduce_tensor)
