"""The generated wrapper's runtime (backend/wrapper.py): buffer reuse (the speed wing's pool) and threaded matmuls."""
import sys

import numpy as np
import pytest

import minitorch2
from backend import config, wrapper
from backend.speed import blas, buffers
from minitorch2 import _dtype as dt


def test_pool_reuses_an_output_buffer_only_once_nothing_refers_to_it():
    pool = buffers.BufferPool()
    first = pool.alloc(1000, dt.float32)
    pool.lend(first)
    view = first[10:20]
    assert pool.alloc(1000, dt.float32) is not first and pool.reused == 0  # a view keeps it alive
    del view
    tensor = wrapper.as_tensor(first, (10, 100), (100, 1), 0, dt.float32)
    assert pool.alloc(1000, dt.float32).base is not first.base and pool.reused == 0  # a tensor over it too
    del tensor, first
    again = pool.alloc(1000, dt.float32)
    assert pool.reused == 1 and again.size == 1000 and sys.getrefcount(again) == 2


@pytest.mark.speed_wing
def test_compiled_outputs_stay_intact_while_alive_and_are_recycled_once_dropped():
    fn = minitorch2.compile(lambda x: x * 2.0 + 1.0, backend="inductor")
    x = minitorch2.from_numpy(np.arange(4096, dtype=np.float32))
    kept = fn(x)
    reused_before = buffers.POOL.reused
    other = fn(x + 1)  # must not write into `kept`
    np.testing.assert_array_equal(kept.numpy(), np.arange(4096, dtype=np.float32) * 2 + 1)
    np.testing.assert_array_equal(other.numpy(), np.arange(4096, dtype=np.float32) * 2 + 3)
    del kept, other
    fn(x)
    assert buffers.POOL.reused > reused_before


@pytest.mark.parametrize("shape_a,shape_b", [((300, 70), (70, 50)), ((50, 70), (70, 300)), ((4, 129, 33), (4, 33, 65)),
                                             ((1, 5), (5, 3))])
def test_threaded_matmul_matches_numpy(shape_a, shape_b, monkeypatch):
    monkeypatch.setattr(config, "threads", 3)
    monkeypatch.setattr(blas, "MM_JOB_MIN_FLOPS", 1)
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(shape_a).astype(np.float32), rng.standard_normal(shape_b).astype(np.float32)
    out = np.empty(np.matmul(a, b).shape, np.float32)
    wrapper.extern_mm(a, b.swapaxes(-1, -2).copy().swapaxes(-1, -2), out)  # a transposed (strided) operand
    np.testing.assert_allclose(out, a @ b, rtol=1e-5, atol=1e-5)


def test_an_array_derived_from_a_dropped_output_keeps_its_buffer_from_reuse():
    fn = minitorch2.compile(lambda x: x * 2.0, backend="inductor")
    x = minitorch2.from_numpy(np.ones(4096, dtype=np.float32))
    y = fn(x)
    derived = y.numpy()[8:]  # numpy's base of this view is the buffer's owner, not the tensor's array
    del y
    fn(x * 3.0)
    np.testing.assert_array_equal(derived, np.full(4088, 2.0, np.float32))


def test_ptr_is_the_address_of_the_first_element_for_any_array():
    data = np.arange(12, dtype=np.float32)
    read_only = data.copy()
    read_only.flags.writeable = False
    for array in (data, data[5:], data[::3], data[:0], read_only, np.broadcast_to(data, (2, 12)), data.reshape(3, 4).T):
        assert wrapper.ptr(array) == array.ctypes.data


@pytest.mark.speed_wing
def test_a_convolutions_output_is_not_lent_to_the_pool():
    """A convolution's output is its eager kernel's memory, shaped (1, 1, 2, 3) with 12-byte rows: lent as if the pool
    had made it, it came back for a later 24-byte int64 buffer, which cannot view it (torch never fails here)."""
    conv = minitorch2.compile(lambda x, w: minitorch2.nn.functional.conv2d(x, w), backend="inductor")
    out = conv(minitorch2.ones(1, 1, 4, 5), minitorch2.ones(1, 1, 3, 3))
    assert out.shape == (1, 1, 2, 3)
    del out
    double = minitorch2.compile(lambda x: x + x, backend="inductor")
    assert double(minitorch2.tensor([1, 2, 3])).tolist() == [2, 4, 6]
