"""torch.func's everyday names over the eager autograd engine: functional_call, grad, grad_and_value, vmap;
functionalize over this package's traced graphs.

autograd layer (under `python -m minitorch2 run`, `torch.func` is this package), library surface. These are not
functorch's transforms: grad differentiates with the eager engine (keeping the graph only inside another grad, so
grad(grad(f)) works), and vmap calls the function once per slice and stacks the results, as torch's vmap does for an
op with no batching rule. Values equal torch's; a traced graph shows the loop, not batched ops.
"""
import contextlib
import functools

import minitorch2
from minitorch2 import _dispatch
from minitorch2._tensor import Tensor
from minitorch2.utils import _pytree as pytree

from .functionalize import functionalize_graph
from .proxy_tensor import make_fx

_grad_depth = [0]  # how many grad transforms are running: inside one, results keep their graph


@contextlib.contextmanager
def _swapped(module, tensors):
    """module with each dotted-name parameter or buffer replaced by the given tensor, restored after."""
    saved = []
    for name, value in tensors.items():
        owner_path, _, leaf = name.rpartition(".")
        owner = module.get_submodule(owner_path) if owner_path else module
        slots = owner._parameters if leaf in owner._parameters else owner._buffers
        if leaf not in slots:
            raise AttributeError(f"{type(owner).__name__} has no parameter or buffer named {leaf!r} (from {name!r})")
        saved.append((slots, leaf, slots[leaf]))
        slots[leaf] = value
    try:
        yield module
    finally:
        for slots, leaf, old in reversed(saved):
            slots[leaf] = old


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    dicts = parameter_and_buffer_dicts
    tensors = dict(pair for d in (dicts if isinstance(dicts, (list, tuple)) else [dicts]) for pair in d.items())
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    with _swapped(module, tensors):
        return module(*args, **(kwargs or {}))


def grad_and_value(func, argnums=0, has_aux=False):
    def wrapper(*args, **kwargs):
        positions = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        args = list(args)
        nested = _grad_depth[0] > 0  # an input the outer grad differentiates stays connected to it
        for i in positions:
            args[i] = pytree.tree_map(lambda t: t if not isinstance(t, Tensor) or (nested and t.requires_grad)
                                      else t.detach().requires_grad_(True), args[i])
        _grad_depth[0] += 1
        try:
            with minitorch2.enable_grad():
                output = func(*args, **kwargs)
                value, aux = output if has_aux else (output, None)
                if not isinstance(value, Tensor) or value.numel() != 1:
                    raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                       f"tensor with {value.dim() if isinstance(value, Tensor) else '?'} dims. Maybe "
                                       "you wanted to use the vjp or jacrev APIs instead?")
                wrt = [pytree.tree_leaves(args[i]) for i in positions]
                flat = minitorch2.autograd.grad(value, [t for leaves in wrt for t in leaves], allow_unused=True,
                                                create_graph=_grad_depth[0] > 1)
        finally:
            _grad_depth[0] -= 1
        flat = iter(g if g is not None else minitorch2.zeros_like(t) for g, t in
                    zip(flat, [t for leaves in wrt for t in leaves]))
        grads = tuple(pytree.tree_map(lambda t: next(flat), args[i]) for i in positions)
        grads = grads[0] if isinstance(argnums, int) else grads
        if _grad_depth[0] == 0:
            grads, value, aux = pytree.tree_map(lambda t: t.detach() if isinstance(t, Tensor) else t,
                                                (grads, value, aux))
        return (grads, (value, aux)) if has_aux else (grads, value)

    return wrapper


def grad(func, argnums=0, has_aux=False):
    def wrapper(*args, **kwargs):
        grads, value = grad_and_value(func, argnums, has_aux)(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    return wrapper


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    def wrapper(*args, **kwargs):
        dims = in_dims if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
        sizes = {a.shape[d] for a, d in zip(args, dims) if isinstance(a, Tensor) and d is not None}
        if len(sizes) != 1:
            raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                             f"{sorted(sizes)} for the mapped dimension")
        results = [func(*[a.select(d, i) if isinstance(a, Tensor) and d is not None else a
                          for a, d in zip(args, dims)], **kwargs) for i in range(sizes.pop())]
        flat, spec = pytree.tree_flatten(results[0])
        columns = zip(*[pytree.tree_flatten(r)[0] for r in results])
        outs = out_dims if isinstance(out_dims, (tuple, list)) else (out_dims,) * len(flat)
        stacked = [minitorch2.stack(list(column), dim=d) for column, d in zip(columns, outs)]
        return pytree.tree_unflatten(stacked, spec)

    return wrapper


__all__ = ["functional_call", "grad", "grad_and_value", "vmap"]


def functionalize(func, *, remove="mutations"):
    """torch.func.functionalize: run `func` through a traced, functionalized graph. Under make_fx the
    recorded graph has no in-place ops; inputs `func` mutates are still updated (copy_) afterwards."""

    @functools.wraps(func)
    def wrapper(*args):
        # an enclosing tracer must see only the pure graph run (not the ops this pass runs on fake values)
        outer_modes, _dispatch.state.modes = _dispatch.state.modes, []
        try:
            pure, mutated = functionalize_graph(make_fx(func, tracing_mode="fake")(*args))
        finally:
            _dispatch.state.modes = outer_modes
        out = pure(*args)
        if not mutated:
            return out
        flat = list(out) if isinstance(out, (list, tuple)) else [out]
        for i, value in zip(mutated, flat):
            args[i].copy_(value)
        rest = flat[len(mutated):]
        return rest[0] if len(rest) == 1 and not isinstance(out, (list, tuple)) else type(out)(rest)

    return wrapper
