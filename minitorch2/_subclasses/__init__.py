"""minitorch2._subclasses (as torch._subclasses): FakeTensor."""
from .fake_tensor import FakeTensor, FakeTensorMode

__all__ = ["FakeTensor", "FakeTensorMode"]
