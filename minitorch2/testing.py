"""minitorch2.testing.assert_close (as torch.testing.assert_close).

Runtime layer utility, coverage surface. Default tolerances by dtype follow PyTorch's table
(float32: rtol 1.3e-6, atol 1e-5; float64: rtol 1e-7, atol 1e-7; float16:
rtol 1e-3, atol 1e-5; bfloat16: rtol 1.6e-2, atol 1e-5; exact for integers and bool). bfloat16 values
compare in float32 (numpy's isclose has no bfloat16).
"""
import numpy as np

from . import _dtype
from ._tensor import Tensor

_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
               "float64": (1e-7, 1e-7)}


def _values(array):
    return array.astype(np.float32) if array.dtype == _dtype.bfloat16.np else array


def assert_close(actual, expected, *, rtol=None, atol=None, equal_nan=False, check_dtype=True, msg=None):
    if isinstance(actual, (list, tuple)):
        assert len(actual) == len(expected), f"sequence lengths differ: {len(actual)} != {len(expected)}"
        for a, e in zip(actual, expected):
            assert_close(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=check_dtype, msg=msg)
        return
    a_dtype = actual.dtype if isinstance(actual, Tensor) else None
    e_dtype = expected.dtype if isinstance(expected, Tensor) else None
    if check_dtype and a_dtype is not None and e_dtype is not None and a_dtype is not e_dtype:
        raise AssertionError(msg or f"The values for attribute 'dtype' do not match: {a_dtype} != {e_dtype}.")
    a = _values(actual._np if isinstance(actual, Tensor) else np.asarray(actual))
    e = _values(expected._np if isinstance(expected, Tensor) else np.asarray(expected))
    if a.shape != e.shape:
        raise AssertionError(msg or f"The values for attribute 'shape' do not match: {a.shape} != {e.shape}.")
    default = _TOLERANCES.get(a_dtype.name if a_dtype is not None else str(a.dtype), (0.0, 0.0))
    rtol = default[0] if rtol is None else rtol
    atol = default[1] if atol is None else atol
    ok = np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if not ok.all():
        bad = int((~ok).sum())
        diff = np.abs(a.astype(np.float64) - e.astype(np.float64))
        raise AssertionError(
            msg or f"Tensor-likes are not close!\n\nMismatched elements: {bad} / {a.size} "
            f"({100.0 * bad / a.size:.1f}%)\nGreatest absolute difference: {np.nanmax(diff)}"
        )
