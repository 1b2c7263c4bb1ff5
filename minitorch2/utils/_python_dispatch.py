"""TorchDispatchMode: Python code that sees every aten op call (as torch.utils._python_dispatch).

Runtime layer. Entering a mode pushes it on the dispatcher's mode stack; while active, every op call below autograd
reaches `__torch_dispatch__(func, types, args, kwargs)`. Calling `func(*args, **kwargs)` inside it continues to the
next mode down (or the kernel). make_fx, functionalization and FakeTensorMode are all modes.
"""
from .._dispatch import pop_mode, push_mode

__all__ = ["TorchDispatchMode"]


class TorchDispatchMode:
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __enter__(self):
        push_mode(self)
        return self

    def __exit__(self, exc_type, exc, tb):
        mode = pop_mode()
        assert mode is self, "dispatch modes exited out of order"
        return False

    @classmethod
    def push(cls, *args, **kwargs):
        return cls(*args, **kwargs)

