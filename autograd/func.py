"""torch.func over the eager autograd engine: functional_call, stack_module_state, grad, grad_and_value, vjp, jvp,
jacrev, jacfwd, hessian, vmap; functionalize over this package's traced graphs.

autograd layer (under `python -m minitorch2 run`, `torch.func` is this module), library surface. These are not
functorch's transforms: grad differentiates with the eager engine (keeping the graph only inside another grad, so
grad(grad(f)) works; jacrev takes one backward pass per output element, jacfwd and jvp are computed from it),
and vmap calls the function once per slice and stacks the results, as torch's vmap does for an
op with no batching rule. Values equal torch's; a traced graph shows the loop, not batched ops.
"""
import functools

import minitorch2
from minitorch2 import _dispatch
from minitorch2._tensor import Tensor
from minitorch2.nn.utils.stateless import _functional_call as functional_call  # noqa: F401  (torch.func's)
from minitorch2.utils import _pytree as pytree

from .functionalize import functionalize_graph
from .proxy_tensor import make_fx

_grad_depth = [0]  # how many grad transforms are running: inside one, results keep their graph


def grad_and_value(func, argnums=0, has_aux=False):
    def wrapper(*args, **kwargs):
        positions = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        args = _inputs_for(args, positions)
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
        grads, value, aux = _outermost_detached((grads[0] if isinstance(argnums, int) else grads, value, aux))
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
        # per argument: its leaves, its tree, each leaf's mapped dim (one dim for a whole pytree argument, or a tree
        # of dims matching it: stack_module_state's dicts mapped over their dim 0)
        flat_args = []
        for a, d in zip(args, dims):
            leaves, spec = pytree.tree_flatten(a)
            leaf_dims = [d] * len(leaves) if d is None or isinstance(d, int) else pytree.tree_flatten(d)[0]
            flat_args.append((leaves, spec, leaf_dims))
        sizes = {t.shape[d] for leaves, _, leaf_dims in flat_args for t, d in zip(leaves, leaf_dims)
                 if isinstance(t, Tensor) and d is not None}
        if len(sizes) != 1:
            raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                             f"{sorted(sizes)} for the mapped dimension")

        def args_at(i):
            return [pytree.tree_unflatten([t.select(d, i) if isinstance(t, Tensor) and d is not None else t
                                           for t, d in zip(leaves, leaf_dims)], spec)
                    for leaves, spec, leaf_dims in flat_args]

        results = [func(*args_at(i), **kwargs) for i in range(sizes.pop())]
        flat, spec = pytree.tree_flatten(results[0])
        columns = zip(*[pytree.tree_flatten(r)[0] for r in results])
        outs = out_dims if isinstance(out_dims, (tuple, list)) else (out_dims,) * len(flat)
        stacked = [minitorch2.stack(list(column), dim=d) for column, d in zip(columns, outs)]
        return pytree.tree_unflatten(stacked, spec)

    return wrapper


def _inputs_for(args, positions):
    """args with the differentiated ones made leaves that require grad (inside an outer transform, an input it
    differentiates stays connected to it)."""
    nested, args = _grad_depth[0] > 0, list(args)
    for i in positions:
        args[i] = pytree.tree_map(lambda t: t if not isinstance(t, Tensor) or (nested and t.requires_grad)
                                  else (t.clone() if t.is_inference() else t.detach()).requires_grad_(True), args[i])
    return args


def _outermost_detached(tree):
    return pytree.tree_map(lambda t: t.detach() if isinstance(t, Tensor) else t, tree) if _grad_depth[0] == 0 else tree


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None):
    """The Jacobian of func's outputs (a pytree of tensors) with respect to the argnums inputs: per output, a tensor
    of shape output.shape + input.shape (a tuple of them for a tuple argnums), one backward pass per output element."""
    def wrapper(*args):
        positions = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        args = _inputs_for(args, positions)
        _grad_depth[0] += 1
        try:
            with minitorch2.enable_grad():
                output = func(*args)
                value, aux = output if has_aux else (output, None)
                wrt = [t for i in positions for t in pytree.tree_leaves(args[i])]
                out_leaves, out_spec = pytree.tree_flatten(value)
                jacobians = [_jacobian_of(o, wrt, args, positions, isinstance(argnums, int)) for o in out_leaves]
        finally:
            _grad_depth[0] -= 1
        result = _outermost_detached(pytree.tree_unflatten(jacobians, out_spec))
        return (result, _outermost_detached(aux)) if has_aux else result

    return wrapper


def _jacobian_of(out, wrt, args, positions, single):
    rows = [minitorch2.autograd.grad(out.reshape(-1)[k], wrt, retain_graph=True, allow_unused=True,
                                     create_graph=_grad_depth[0] > 1) for k in range(out.numel())]
    blocks = iter([minitorch2.stack([r[j] if r[j] is not None else minitorch2.zeros_like(w) for r in rows])
                   .reshape(*out.shape, *w.shape) if rows else out.new_zeros(*out.shape, *w.shape)
                   for j, w in enumerate(wrt)])
    per_argument = tuple(pytree.tree_map(lambda t: next(blocks), args[i]) for i in positions)
    return per_argument[0] if single else per_argument


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The same Jacobian as jacrev's (torch builds it column by column with forward-mode AD; here, row by row)."""
    return jacrev(func, argnums, has_aux=has_aux)


def hessian(func, argnums=0):
    return jacfwd(jacrev(func, argnums), argnums)


def vjp(func, *primals, has_aux=False):
    """(func(*primals), vjp_fn): vjp_fn(cotangents) is the tuple of each primal's vector-Jacobian product."""
    primals = _inputs_for(primals, range(len(primals)))
    nested = _grad_depth[0] > 0
    with minitorch2.enable_grad():
        output = func(*primals)
    value, aux = output if has_aux else (output, None)

    def vjp_fn(cotangents):
        outs, wrt = pytree.tree_leaves(value), pytree.tree_leaves(primals)
        grads = minitorch2.autograd.grad(outs, wrt, pytree.tree_leaves(cotangents), retain_graph=True,
                                         allow_unused=True, create_graph=nested)
        flat = iter(g if g is not None else minitorch2.zeros_like(t) for g, t in zip(grads, wrt))
        return _outermost_detached(tuple(pytree.tree_map(lambda t: next(flat), p) for p in primals))

    return (_outermost_detached(value), vjp_fn, aux) if has_aux else (_outermost_detached(value), vjp_fn)


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """(func(*primals), the Jacobian-vector product with tangents): the Jacobian contracted with the tangents (torch
    computes it with forward-mode AD; the values agree)."""
    output = func(*primals)
    value, aux = output if has_aux else (output, None)
    flat_func = lambda *p: tuple(pytree.tree_leaves(func(*p)[0] if has_aux else func(*p)))  # noqa: E731
    jacobians = jacrev(flat_func, tuple(range(len(primals))))(*primals)  # per output leaf, per primal

    def contract(out, per_primal):
        total = out.new_zeros(out.shape)
        for jacobian, tangent in zip(per_primal, tangents):  # (a primal may be a pytree: its tangent is one alike)
            for j, t in zip(pytree.tree_leaves(jacobian), pytree.tree_leaves(tangent)):
                total = total + (j.reshape(out.numel(), -1) @ t.reshape(-1).to(j.dtype)).reshape(out.shape)
        return total

    out_leaves, spec = pytree.tree_flatten(value)
    products = pytree.tree_unflatten([contract(o, j) for o, j in zip(out_leaves, jacobians)], spec)
    return (value, products, aux) if has_aux else (value, products)


def stack_module_state(models):
    """Each parameter and buffer of same-shaped models stacked along a new dim 0 (the parameters as new leaves that
    require grad): the state vmap maps over in a model ensemble."""
    def stacked(tensors):
        out = minitorch2.stack([t.detach() for t in tensors])
        return out.requires_grad_() if tensors[0].requires_grad else out

    params = {k: stacked([dict(m.named_parameters())[k] for m in models]) for k, _ in models[0].named_parameters()}
    buffers = {k: stacked([dict(m.named_buffers())[k] for m in models]) for k, _ in models[0].named_buffers()}
    return params, buffers


__all__ = ["functional_call", "grad", "grad_and_value", "vmap", "jacrev", "jacfwd", "hessian", "vjp", "jvp",
           "stack_module_state", "functionalize"]


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
