"""The dispatcher: the one road every op call takes.

Runtime layer, between the Python API and the kernels. A call of an `OpOverload` (arguments already in
schema-canonical form) passes, in order:

    autograd layer   grad mode on, an input requires grad, not already below it:
                     run everything below, then attach a grad_fn to the outputs
         |
    Python modes     the innermost TorchDispatchMode's __torch_dispatch__ sees
                     (func, types, args, kwargs); while it runs it is popped, so
                     calling func inside goes on to the next mode down
         |
    kernel           FakeTensor arguments run the meta function; real tensors
                     run the numpy kernel, whose numpy results become Tensors
                     (numpy's MemoryError becomes torch's allocator RuntimeError, and a
                     broadcast mismatch numpy found becomes RuntimeError)

This is the small version of PyTorch's dispatch keys (Autograd above Python above CPU/Meta). Because backward
formulas call ops through this same road, a mode active during `.backward()` sees the backward's ops: that is what
lets `autograd.make_fx` record joint forward+backward graphs.
"""
import threading

import numpy as np

from . import _sparse_coo as _sparse
from ._tensor import Tensor, _VersionCounter


class _DispatchState(threading.local):
    def __init__(self):
        self.grad_enabled = True
        self.inference_mode = False
        self.below_autograd = False
        self.modes = []
        self.autocast = None  # torch.autocast's input casts, above autograd as torch's Autocast key (minitorch2/amp)


state = _DispatchState()
_VersionCounter.dispatch_state = state  # (a tensor made while state.inference_mode is on is an inference tensor)


def dispatch(op, args, kwargs):
    if state.autocast is not None:
        args, kwargs = state.autocast(op, args, kwargs)
    # (inference mode records nothing, even with grad mode turned back on inside it)
    recorded = (state.grad_enabled and not state.inference_mode and not state.below_autograd and op.differentiable
                and _any_requires_grad(args))
    out = (_autograd.record if recorded else redispatch_below_autograd)(op, args, kwargs)
    # a view of a fake tensor keeps the view ops that made it, needing grad or not, as torch's view tracking
    # (ADInplaceOrView, above autograd's choice): an in-place op that later makes it require grad replays them
    if op.is_view and not state.below_autograd and isinstance(out, Tensor) and out._replays_views:
        _autograd.remember_view_ops(out, args[0], op, args[1:], kwargs)
    return out


def redispatch_below_autograd(op, args, kwargs):
    s = state
    previous, s.below_autograd = s.below_autograd, True
    try:
        modes = s.modes
        if modes:
            mode = modes.pop()
            try:
                return mode.__torch_dispatch__(op, _tensor_types(args), args, kwargs)
            finally:
                modes.append(mode)
        return run_kernel(op, args, kwargs)
    finally:
        s.below_autograd = previous


def run_kernel(op, args, kwargs):
    """The bottom of the stack: meta function for fake tensors, numpy kernel for real ones."""
    if _any_fake(args):  # no strided memory: fake tensors run meta functions, sparse ones their layout's kernels
        return (_sparse.run_kernel if _sparse.any_sparse(args) else _fake.run_meta)(op, args, kwargs)
    if op.kernel is None:
        raise NotImplementedError(f"{op} has no eager kernel in minitorch2")
    try:
        return _wrap(op.kernel(*args, **kwargs), args)
    except MemoryError as e:  # numpy's; torch's allocator raises RuntimeError
        nbytes = getattr(e, "_total_size", None)
        raise RuntimeError("DefaultCPUAllocator: can't allocate memory" +
                           (f": you tried to allocate {nbytes} bytes." if nbytes is not None else ".")) from None
    except ValueError as e:  # a kernel that let numpy find a shape mismatch: torch's class is RuntimeError
        if "could not be broadcast" not in str(e):
            raise
        raise RuntimeError(f"{op}: {e}") from None


def _wrap(result, args=()):
    if isinstance(result, np.ndarray):  # numpy may answer with a view of an input (a flip over dims of 1): copied
        shared = result.base is not None and any(isinstance(a, Tensor) and np.may_share_memory(result, a._np)
                                                 for a in args)
        return Tensor._from_numpy(result.copy() if shared else result)
    if isinstance(result, (tuple, list)):
        return (tuple if isinstance(result, tuple) else list)(_wrap(r, args) for r in result)
    return Tensor._from_numpy(np.asarray(result)) if isinstance(result, np.generic) else result


def _tensors_in(args):
    """The tensors among args, and directly inside a list or tuple argument (cat's, index_put's indices)."""
    for a in args:
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (b for b in a if isinstance(b, Tensor))


def _any_requires_grad(args):
    return any(t.requires_grad for t in _tensors_in(args))


def _any_fake(args):
    return any(t._np is None for t in _tensors_in(args))


def _tensor_types(args):
    return tuple(dict.fromkeys(type(a) for a in args if isinstance(a, Tensor)))  # (each once, in order)


def push_mode(mode):
    state.modes.append(mode)


def pop_mode():
    return state.modes.pop()


def current_modes():
    return tuple(state.modes)


# The layers above the dispatcher that it calls into, imported once the names they take from here exist:
# the autograd layer (which redispatches below itself) and the fake-tensor kernel (whose mode is a dispatch mode).
from .autograd import _record as _autograd  # noqa: E402
from ._subclasses import fake_tensor as _fake  # noqa: E402
