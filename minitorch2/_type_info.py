"""torch.finfo and torch.iinfo: the numeric limits of a dtype, read from numpy's, printed as torch prints them.

Runtime library surface (coverage)."""
import numpy as np

from . import _dtype


def _g(value):
    return f"{value:g}"


class finfo:
    """finfo(dtype=default dtype): bits, eps, max, min, tiny (= smallest_normal) and resolution of a float type."""

    def __init__(self, type=None):
        type = _dtype.get_default_dtype() if type is None else type
        if not type.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = np.finfo(type.np)
        self.bits, self.dtype = info.bits, type.name
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)

    def __repr__(self):
        return (f"finfo(resolution={_g(self.resolution)}, min={_g(self.min)}, max={_g(self.max)}, eps={_g(self.eps)}, "
                f"smallest_normal={_g(self.smallest_normal)}, tiny={_g(self.tiny)}, dtype={self.dtype})")


class iinfo:
    """iinfo(dtype): bits, max and min of an integer type."""

    def __init__(self, type):
        if type is _dtype.bool_:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        info = np.iinfo(type.np)
        self.bits, self.max, self.min, self.dtype = info.bits, int(info.max), int(info.min), type.name

    def __repr__(self):
        return f"iinfo(min={_g(self.min)}, max={_g(self.max)}, dtype={self.dtype})"
