"""The buffer pool: the memory compiled graphs run in, reused instead of allocated afresh (speed wing).

Backend layer, behind the speed seam (backend/speed/__init__.py, `buffer_functions`): the generated
`output_code.py` allocates each buffer with `alloc`, gives temporaries back with `free` after their last use and
`lend`s its outputs' buffers; the pool hands a buffer out again once nothing else refers to it. `ptr` reads an
array's address the fast way. The plain path allocates with numpy and lets numpy free.
"""
import ctypes
import os
import sys
import threading

import numpy as np


class BufferPool:
    """Buffers for compiled graphs, keyed by byte size: a fresh large numpy buffer costs its page faults on
    first touch (30-50 ms for 64 MiB), a reused one does not.

    Two sources of reuse: temporaries `free`d by the generated code, and graph outputs `lend`t to the caller,
    handed out again once nothing but the pool refers to them (the tensors over them and all their views are
    gone: `sys.getrefcount` tells exactly, as every numpy view and Tensor over a buffer holds a reference). So
    a steady-state call `y = f(x)` in a loop allocates nothing. `fresh` and `reused` count what alloc did."""

    LENT_PER_SIZE = 4  # outputs of one byte size tracked for reuse; beyond that the oldest are let go

    def __init__(self, max_bytes=1 << 31):
        self.free_lists, self.lent, self.held_bytes, self.max_bytes = {}, {}, 0, max_bytes
        self.fresh = self.reused = 0
        self._lock = threading.Lock()  # compiled graphs run on several threads at once

    def _after_fork(self):
        self._lock = threading.Lock()  # another thread may have held it at the fork

    def alloc(self, numel, dtype):
        nbytes = max(numel, 1) * dtype.itemsize
        with self._lock:
            reused = self._take(nbytes)
            if reused is None:
                self.fresh += 1
        if reused is not None:
            return reused.view(dtype.np)
        # (measured: advising transparent huge pages on an mmap'd buffer made its first touch 6x slower
        # on the development VM, the kernel compacting memory synchronously; plain np.empty it is)
        return np.empty(nbytes, np.uint8).view(dtype.np)

    def _take(self, nbytes):
        """A buffer of nbytes the pool may hand out again, or None (called with the lock held)."""
        free_list = self.free_lists.get(nbytes)
        if free_list:
            self.reused += 1
            self.held_bytes -= nbytes
            return free_list.pop()
        lent = self.lent.get(nbytes) or ()
        for i in range(len(lent)):
            # the list's reference and getrefcount's argument: no view, tensor or array derived from the
            # buffer is alive (and none can appear: only the pool, under its lock, still reaches it)
            if sys.getrefcount(lent[i]) <= 2:
                self.reused += 1
                return lent.pop(i)
        return None

    def free(self, array):
        with self._lock:
            if self.held_bytes + array.nbytes > self.max_bytes:
                return
            self.held_bytes += array.nbytes
            self.free_lists.setdefault(array.nbytes, []).append(array)

    def lend(self, array):
        """Track an output buffer, to reuse it once the caller has dropped every tensor over it.

        What is tracked is the array that owns the memory: numpy collapses the base of a view of a view
        to the owner, so a view derived from the output (tensor.numpy()[2:]) may hold the owner alone."""
        owner = array if array.base is None else array.base
        if not isinstance(owner, np.ndarray) or owner.base is not None:
            return  # not memory the pool allocated
        with self._lock:
            lent = self.lent.setdefault(owner.nbytes, [])
            if not any(a is owner for a in lent):
                lent.append(owner)
                del lent[:-self.LENT_PER_SIZE]

    def clear(self):
        with self._lock:
            self.free_lists.clear()
            self.lent.clear()
            self.held_bytes = 0


POOL = BufferPool()
os.register_at_fork(after_in_child=POOL._after_fork)


def ptr(array):
    """The address of an array's first element. A ctypes view of its buffer gives it 5x faster than
    `array.ctypes.data` (0.3 us against 1.7: a compiled step takes dozens); numpy exports no buffer for
    a read-only, non-contiguous or empty array, which take the slow way."""
    try:
        return _addressof(_char_from_buffer(array))
    except (TypeError, ValueError, BufferError):
        return array.ctypes.data


_addressof, _char_from_buffer = ctypes.addressof, ctypes.c_char.from_buffer
