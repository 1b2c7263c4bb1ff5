"""torch.func over the eager autograd engine: functional_call, stack_module_state, grad, grad_and_value, vjp, jvp,
linearize, jacrev, jacfwd, hessian, vmap; functionalize over this package's traced graphs.

autograd layer (under `python -m minitorch2 run`, `torch.func` is this module), library surface. These are not
functorch's transforms: grad differentiates with the eager engine (keeping the graph only inside another grad, so
grad(grad(f)) works; jacrev takes one backward pass per output element, jacfwd and jvp are computed from it; an
output that does not depend differentiably on an input gives it a zero gradient, as torch's transforms do),
and vmap calls the function once per slice and stacks the results, as torch's vmap does for an
op with no batching rule (an empty batch runs it once, on zeros, for its outputs' shapes). Arguments, in_dims and
out_dims, argnums, has_aux outputs and vmap's randomness flag are checked as torch checks them, in its words.
Values equal torch's; a traced graph shows the loop, not batched ops. What the loop cannot see, torch's batching
rules' own refusals, is listed in tests/autograd/test_func_grammar_s37.py.
"""
import functools

import minitorch2
from minitorch2 import _dispatch, _random
from minitorch2._tensor import Tensor
from minitorch2.nn.utils.stateless import _functional_call as functional_call  # noqa: F401  (torch.func's)
from minitorch2.utils import _pytree as pytree

from .functionalize import functionalize_graph
from .proxy_tensor import make_fx

_grad_depth = [0]  # how many grad transforms are running: inside one, results keep their graph


def grad_and_value(func, argnums=0, has_aux=False):
    def wrapper(*args, **kwargs):
        positions = _positions(argnums, len(args))
        args = _inputs_for(args, positions)
        _grad_depth[0] += 1
        try:
            with minitorch2.enable_grad():
                value, aux = _split_aux(func(*args, **kwargs), has_aux, "grad_and_value(f)(*args)")
                if not isinstance(value, Tensor):
                    raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                                       f"{type(value)}")
                if value.dim() != 0:
                    raise RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                       f"tensor with {value.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                                       "APIs instead?")
                wrt = [t for i in positions for t in pytree.tree_leaves(args[i])]
                flat = iter(_gradients([value], wrt, None, create_graph=_grad_depth[0] > 1))
        finally:
            _grad_depth[0] -= 1
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
    """torch.func.vmap as a loop: func runs once per slice of the mapped dims and the results are stacked. Inputs,
    outputs and the randomness flag are checked as torch's vmap checks them, in its words."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    def wrapper(*args, **kwargs):
        flat_args, args_spec = pytree.tree_flatten(args)
        flat_dims = _mapped_dims(func, in_dims, args, flat_args, args_spec)
        size = _batch_size(flat_args, flat_dims)

        def call_on(slices):
            return func(*pytree.tree_unflatten(slices, args_spec), **kwargs)

        # an empty batch still runs func once (on zeros of one example's shape) to learn its outputs' shapes
        examples = [_slices_at(flat_args, flat_dims, i) for i in range(size)] or [_zero_example(flat_args, flat_dims)]
        results = _run_each(call_on, examples, randomness)
        return _stacked(func, results[:size] if size else results, out_dims, size)

    return wrapper


def _function_name(func):
    if isinstance(func, functools.partial):
        return f"functools.partial({_function_name(func.func)}, ...)"
    return getattr(func, "__name__", repr(func))


def _mapped_dims(func, in_dims, args, flat_args, args_spec):
    """One mapped dim (or None) per leaf of the arguments, checked as torch's vmap checks in_dims."""
    where = f"vmap({_function_name(func)}, in_dims={in_dims}, ...)(<inputs>)"
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(f"{where}: expected `in_dims` to be int or a (potentially nested) tuple matching the "
                         f"structure of inputs, got: {type(in_dims)}.")
    if not args:
        raise ValueError(f"vmap({_function_name(func)})(<inputs>): got no inputs. Maybe you forgot to add inputs, or "
                         "you are trying to vmap over a function with no inputs. The latter is unsupported.")
    flat_dims = _broadcast_to(in_dims if isinstance(in_dims, tuple) else (in_dims,) * len(args), args_spec)
    if flat_dims is None:
        raise ValueError(f"{where}: in_dims is not compatible with the structure of `inputs`. in_dims has structure "
                         f"{pytree.tree_flatten(in_dims)[1]} but inputs has structure {args_spec}.")
    for arg, dim in zip(flat_args, flat_dims):
        if dim is not None and not isinstance(dim, int):
            raise ValueError(f"{where}: Got in_dim={dim} for an input but in_dim must be either an integer dimension "
                             "or None.")
        if isinstance(dim, int) and not isinstance(arg, Tensor):
            raise ValueError(f"{where}: Got in_dim={dim} for an input but the input is of type {type(arg)}. We cannot "
                             "vmap over non-Tensor arguments, please use None as the respective in_dim")
        if isinstance(dim, int) and not -arg.dim() <= dim < arg.dim():
            raise ValueError(f"{where}: Got in_dim={dim} for some input, but that input is a Tensor of dimensionality "
                             f"{arg.dim()} so expected in_dim to satisfy -{arg.dim()} <= in_dim < {arg.dim()}.")
    return [d % a.dim() if d is not None else None for a, d in zip(flat_args, flat_dims)]


def _broadcast_to(dims, spec):
    """dims (an int or None standing for a whole subtree, or a tree of them shaped like spec) as one per leaf of
    spec; None when the two trees do not match."""
    if not isinstance(dims, (tuple, list, dict)):  # (a leaf: an int, None, or a wrong value found by the caller)
        return [dims] * spec.num_leaves
    if spec.type is None:
        return None
    dims_leaves, dims_spec = pytree.tree_flatten(dims)
    if (dims_spec.type, dims_spec.context, len(dims_spec.children_specs)) != \
            (spec.type, spec.context, len(spec.children_specs)):
        return None
    children = pytree.tree_unflatten(dims_leaves, dims_spec)
    flat = [_broadcast_to(child, child_spec)
            for child, child_spec in zip(children.values() if isinstance(children, dict) else children,
                                         spec.children_specs)]
    return None if any(f is None for f in flat) else [d for f in flat for d in f]


def _batch_size(flat_args, flat_dims):
    sizes = [t.shape[d] for t, d in zip(flat_args, flat_dims) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if len(set(sizes)) != 1:
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return sizes[0]


def _slices_at(flat_args, flat_dims, i):
    return [t.select(d, i) if d is not None else t for t, d in zip(flat_args, flat_dims)]


def _zero_example(flat_args, flat_dims):
    return [t.new_zeros(t.shape[:d] + t.shape[d + 1:]) if d is not None else t for t, d in zip(flat_args, flat_dims)]


def _run_each(call_on, examples, randomness):
    """func on each example under vmap's randomness flag: 'error' refuses a random op, 'same' replays one draw for
    every example (the generator restored before each), 'different' draws on, example after example."""
    generator = _random.default_generator
    start = generator.get_state()
    results = []
    for example in examples:
        if randomness == "same":
            generator.set_state(start)
        before = _draw_count(generator)
        results.append(call_on(example))
        if randomness == "error" and _draw_count(generator) != before:
            raise RuntimeError("vmap: called random operation while in randomness error mode. Please either use the "
                               "'same' or 'different' randomness flags on vmap or perform the randomness operation "
                               "out of vmap")
    return results


def _draw_count(generator):
    """What changes whenever the generator hands out samples (its engine's position, its spare normal samples): read
    from its private fields, which no sample-free call moves (get_state would copy 5 KB per example)."""
    engine = generator._engine
    return id(engine), id(engine.state), engine.left, generator._next_double_normal, generator._next_float_normal


def _stacked(func, results, out_dims, size):
    """The per-example outputs stacked along their out_dims (an output whose out_dim is None is returned as is)."""
    name = _function_name(func)
    if not isinstance(out_dims, (int, tuple, list)) and out_dims is not None:
        raise ValueError(f"vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a python "
                         "collection of ints representing where in the outputs the vmapped dimension should appear.")
    spec = pytree.tree_flatten(results[0])[1]
    flat_out_dims = _broadcast_to(out_dims, spec)
    if flat_out_dims is None:
        raise ValueError(f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with the "
                         f"structure of `outputs`. out_dims has structure {pytree.tree_flatten(out_dims)[1]} but "
                         f"outputs has structure {spec}.")
    columns = list(zip(*[pytree.tree_leaves(r) for r in results]))
    stacked = [_stack_column(name, list(column), dim, size) for column, dim in zip(columns, flat_out_dims)]
    return pytree.tree_unflatten(stacked, spec)


def _stack_column(name, column, dim, size):
    if dim is None:
        return column[0]
    if not isinstance(column[0], Tensor):
        raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(column[0])}. Did you "
                         "mean to set out_dims= to None for output?")
    if size == 0:
        out = column[0]
        return out.new_empty((0, *out.shape)).movedim(0, dim % (out.dim() + 1))
    return minitorch2.stack(column, dim=dim)


def _positions(argnums, num_args):
    """argnums checked and made non-negative, as a tuple, in torch's order of checks and words."""
    if isinstance(argnums, tuple):
        if not argnums:
            raise RuntimeError("argnums must be non-empty")
        if len(set(argnums)) != len(argnums):
            raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    elif not isinstance(argnums, int):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    for argnum in (argnums,) if isinstance(argnums, int) else argnums:
        if not isinstance(argnum, int):
            raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
        if not -num_args <= argnum < num_args:
            raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")
    return tuple(a % num_args for a in ((argnums,) if isinstance(argnums, int) else argnums))


def _split_aux(output, has_aux, api):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True")
    return output


def _gradients(outputs, wrt, cotangents, create_graph):
    """autograd.grad of the outputs that depend differentiably on the inputs; a zero gradient where none does (an
    argmax, a comparison, a constant): torch's transforms answer zeros there, the eager engine would raise."""
    cotangents = [None] * len(outputs) if cotangents is None else cotangents
    connected = [(o, c) for o, c in zip(outputs, cotangents) if o.requires_grad]
    grads = minitorch2.autograd.grad([o for o, _ in connected], wrt, [c for _, c in connected], retain_graph=True,
                                     allow_unused=True, create_graph=create_graph) if connected else [None] * len(wrt)
    return [g if g is not None else minitorch2.zeros_like(t) for g, t in zip(grads, wrt)]


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
    if chunk_size is not None and chunk_size <= 0:
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    def wrapper(*args):
        positions = _positions(argnums, len(args))
        args = _inputs_for(args, positions)
        _grad_depth[0] += 1
        try:
            with minitorch2.enable_grad():
                value, aux = _split_aux(func(*args), has_aux, "jacrev(f, ...)(*args)")
                wrt = [t for i in positions for t in pytree.tree_leaves(args[i])]
                out_leaves, out_spec = pytree.tree_flatten(value)
                _only_tensors(out_leaves, "vjp(f, *primals)")
                jacobians = [_jacobian_of(o, wrt, args, positions, isinstance(argnums, int)) for o in out_leaves]
        finally:
            _grad_depth[0] -= 1
        result = _outermost_detached(pytree.tree_unflatten(jacobians, out_spec))
        return (result, _outermost_detached(aux)) if has_aux else result

    return wrapper


def _jacobian_of(out, wrt, args, positions, single):
    rows = [_gradients([out.reshape(-1)[k]], wrt, None, create_graph=_grad_depth[0] > 1) for k in range(out.numel())]
    blocks = iter([minitorch2.stack([r[j] for r in rows]).reshape(tuple(out.shape) + tuple(w.shape)) if rows
                   else out.new_zeros(*out.shape, *w.shape) for j, w in enumerate(wrt)])
    per_argument = tuple(pytree.tree_map(lambda t: next(blocks), args[i]) for i in positions)
    return per_argument[0] if single else per_argument


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The same Jacobian as jacrev's (torch builds it column by column with forward-mode AD under vmap, so a random
    op in func meets vmap's randomness flag; here, row by row)."""
    def checked(*args):
        return _run_each(lambda example: func(*example), [args], randomness)[0]

    return jacrev(checked, argnums, has_aux=has_aux)


def hessian(func, argnums=0):
    return jacfwd(jacrev(func, argnums), argnums)


def vjp(func, *primals, has_aux=False):
    """(func(*primals), vjp_fn): vjp_fn(cotangents) is the tuple of each primal's vector-Jacobian product."""
    primals = _inputs_for(primals, range(len(primals)))
    nested = _grad_depth[0] > 0
    _grad_depth[0] += 1  # (a grad inside func keeps its graph, for vjp_fn to differentiate)
    try:
        with minitorch2.enable_grad():
            value, aux = _split_aux(func(*primals), has_aux, "vjp(f, *primals)")
            _only_tensors(pytree.tree_leaves(value), "vjp(f, *primals)")
    finally:
        _grad_depth[0] -= 1

    def vjp_fn(cotangents):
        (outs, out_spec), (given, given_spec) = pytree.tree_flatten(value), pytree.tree_flatten(cotangents)
        if out_spec != given_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of outputs "
                               f"to the function. cotangents: {given_spec}, primal output: {out_spec}")
        wrt = pytree.tree_leaves(primals)
        flat = iter(_gradients(outs, wrt, given, create_graph=nested))
        return _outermost_detached(tuple(pytree.tree_map(lambda t: next(flat), p) for p in primals))

    result, aux = _outermost_detached(value), _outermost_detached(aux) if nested else _detached(aux)
    return (result, vjp_fn, aux) if has_aux else (result, vjp_fn)


def _only_tensors(outputs, api):
    for output in outputs:
        if not isinstance(output, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got unsupported type "
                               f"{type(output)}")


def _detached(tree):
    return pytree.tree_map(lambda t: t.detach() if isinstance(t, Tensor) else t, tree)


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """(func(*primals), the Jacobian-vector product with tangents): the Jacobian contracted with the tangents (torch
    computes it with forward-mode AD; the values agree)."""
    _check_jvp_arguments(primals, tangents)
    value, aux = _split_aux(func(*primals), has_aux, "jvp(f, primals, tangents)")
    _only_tensors(pytree.tree_leaves(value), "jvp(f, primals, tangents)")
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
    return (value, products, _detached(aux)) if has_aux else (value, products)


def _check_jvp_arguments(primals, tangents):
    if not isinstance(primals, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals to be a tuple. E.g. it should be valid to call "
                           "f(*primals).")
    (flat_primals, primals_spec), (flat_tangents, tangents_spec) = map(pytree.tree_flatten, (primals, tangents))
    if primals_spec != tangents_spec:
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the same python "
                           "structure. For example, if primals is a tuple of 3 tensors, tangents also must be. Got "
                           f"primals with structure {primals_spec} and tangents with structure {tangents_spec}")
    for name, flat in (("primals", flat_primals), ("tangents", flat_tangents)):
        if not flat:
            raise RuntimeError(f"jvp(f, primals, tangents): Expected {name} to contain at least one Tensor.")
        for leaf in flat:
            if not isinstance(leaf, Tensor):
                raise RuntimeError(f"jvp(f, primals, tangents): Expected {name} to only contain Tensors, got "
                                   f"{type(leaf)}")
    for p, t in zip(flat_primals, flat_tangents):
        if p.shape != t.shape:
            raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                               f"Tensor, this is not supported. Tensor is of size {list(p.shape)} while the given "
                               f"forward gradient is of size {list(t.shape)}.")


def linearize(func, *primals):
    """(func(*primals), jvp_fn): jvp_fn(*tangents) is the Jacobian-vector product at primals (torch traces the
    forward-mode graph once; here each call computes the product again)."""
    output = _detached(func(*primals))
    return output, lambda *tangents: jvp(func, primals, tangents)[1]


def stack_module_state(models):
    """Each parameter and buffer of same-shaped models stacked along a new dim 0 (the parameters as new leaves that
    require grad): the state vmap maps over in a model ensemble."""
    def stacked(tensors):
        out = minitorch2.stack([t.detach() for t in tensors])
        return out.requires_grad_() if tensors[0].requires_grad else out

    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if len({m.training for m in models}) > 1:
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    params = {k: stacked([dict(m.named_parameters())[k] for m in models]) for k, _ in models[0].named_parameters()}
    buffers = {k: stacked([dict(m.named_buffers())[k] for m in models]) for k, _ in models[0].named_buffers()}
    return params, buffers


__all__ = ["functional_call", "grad", "grad_and_value", "vmap", "jacrev", "jacfwd", "hessian", "vjp", "jvp",
           "linearize", "stack_module_state", "functionalize"]


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
