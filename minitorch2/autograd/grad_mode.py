"""Grad mode: whether the autograd layer of the dispatcher records grad_fns.

Runtime layer. `no_grad`, `enable_grad`, `set_grad_enabled` and `inference_mode` (grad_mode_inference.py) are context
managers and decorators, as in PyTorch; the flags themselves live in the dispatcher's thread-local state.
"""
import functools

from .._dispatch import state


def is_grad_enabled():
    return state.grad_enabled


class _GradModeContext:
    """Base for the grad-mode context managers; also usable as decorators."""

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(*self._ctor_args):
                return fn(*args, **kwargs)

        wrapper._grad_mode_context = (self.__class__, self._ctor_args)  # what the frontend re-creates
        return wrapper

    _ctor_args = ()

    def _set(self, enabled):
        self._previous = state.grad_enabled
        state.grad_enabled = enabled

    def __exit__(self, *exc):
        state.grad_enabled = self._previous


class no_grad(_GradModeContext):
    def __enter__(self):
        self._set(False)


class enable_grad(_GradModeContext):
    def __enter__(self):
        self._set(True)


class set_grad_enabled(_GradModeContext):
    def __init__(self, mode):
        self._ctor_args = (mode,)
        self._previous = state.grad_enabled
        state.grad_enabled = bool(mode)  # takes effect on construction, as torch.set_grad_enabled(False) does

    def __enter__(self):
        pass

    def __call__(self, fn):
        state.grad_enabled = self._previous
        return super().__call__(fn)


from .grad_mode_inference import (  # noqa: E402,F401  (uses _GradModeContext; torch has these names here)
    _enter_inference_mode, _exit_inference_mode, inference_mode, is_inference_mode_enabled)
