"""Joint-graph passes: rewrites of the forward+backward graph before the min-cut partitioner cuts it.

Backend layer (plays torch._inductor.fx_passes.joint_graph). compile_fx's partition function runs
`joint_graph_passes(joint)` on the decomposed joint graph, then the min-cut partitioner, as torch's inductor does (an
inference graph, never partitioned, goes through them in compile_fx_inner); the rewrites change what the partitioner
sees (which values exist to be saved or recomputed), so they run first:

    1. remove_noop_ops        alias, clone, copy, same-shape view, slice or slice_scatter, same-dtype convert: its input
    2. fold_uniform_constant  a factory of one value (scalar_tensor, full), torch.tensor(2.0) or x * 0 becomes one `full`
    3. early patterns         view(x, x's shape), view(view(x)) back to x's shape, permute(permute(x)) = x
    4. patterns               convert(convert(x)) between float dtypes, a -1.0 one-hot scatter into a constant
                              `full` (nll_loss_backward) becomes where(index == iota, value, background), and
                              a scaled softmax's x/T - amax(x/T) is made stable (joint_graph_softmax.py)

A pattern whose inner node has other users is left alone (the inner value is needed anyway), as torch's pattern
matcher requires of inner nodes. Each new node gets its `val` from the op's meta function, so the partitioner can size
it. torch's passes not here (constant folding beyond one-number constants, x + 0 and x * 1, redundant views, bmm and
quantization patterns) fire on none of the programs tests/backend/test_inductor_aot_graphs.py compares.
"""
from minitorch2 import _dtype, ops
from minitorch2._sym import is_symbolic
from minitorch2._tensor import Tensor, strided
from minitorch2.utils import _pytree as pytree

from .joint_graph_softmax import scaled_softmax_to_stable

aten, prims = ops.aten, ops.prims
SOURCE_SECOND = (aten.copy.default, aten.slice_scatter.default)  # no-ops whose value is their second argument


def joint_graph_passes(gm):
    graph = gm.graph
    changed = remove_noop_ops(graph)
    for rewrite in (fold_uniform_constant, remove_pointless_view, remove_pointless_view_pair,
                    remove_pointless_permute_pair, remove_pointless_convert, scatter_upon_constant_to_where,
                    lambda node: scaled_softmax_to_stable(node, _call, _replace)):  # (joint_graph_softmax.py)
        changed |= _apply(graph, rewrite)
    if changed:
        gm.recompile()
    return gm


def _apply(graph, rewrite):
    # (a list, not a generator: every node gets its chance, not only those up to the first rewrite)
    return any([rewrite(node) for node in list(graph.nodes) if node.op == "call_function" and node.graph is graph])


def _val(node):
    return node.meta.get("val") if hasattr(node, "meta") else None


def _same_meta(a, b):
    va, vb = _val(a), _val(b)
    return (isinstance(va, Tensor) and isinstance(vb, Tensor) and tuple(va.shape) == tuple(vb.shape)
            and va.dtype is vb.dtype and tuple(va.stride()) == tuple(vb.stride()))


def _call(graph, target, args, kwargs=None, *, like):
    """A new call_function node at the insert point, with its meta `val` and `like`'s partitioner tag and trace."""
    kwargs = kwargs or {}
    node = graph.call_function(target, args, kwargs, name=target._opname)
    node.meta.update({k: v for k, v in like.meta.items() if k == "partitioner_tag" or k == "stack_trace"})
    node.meta["val"] = _fake_result(target, args, kwargs)
    return node


def _fake_result(target, args, kwargs):
    args, kwargs = pytree.tree_map(lambda a: a.meta["val"] if hasattr(a, "meta") else a, (args, dict(kwargs)))
    args, kwargs = target._schema.normalize(target, args, kwargs)
    return target.meta(*args, **kwargs)


# ---- 1. no-op removal -------------------------------------------------------------------


def _is_noop(node):
    target, args = node.target, node.args
    if target in (aten.alias.default, aten.clone.default, aten.copy.default):
        return True
    if target is aten.view.default:
        return list(_val(args[0]).shape) == list(args[1])
    if target is prims.convert_element_type.default:
        return _val(args[0]).dtype is args[1]
    if target is aten.slice.Tensor:  # x[0:n:1] of x's shape (see _same_meta); x[None:None] is kept, as torch keeps it
        return len(args) > 3 and args[2] == 0 and args[3] is not None and args[4:] in ((), (1,))
    if target is aten.slice_scatter.default:  # src scattered over all of x: src (of x's shape, see _same_meta)
        return args[3:4] in ((), (0,), (None,)) and args[5:] in ((), (1,))
    return (target is aten.repeat.default and all(r == 1 for r in args[1])) or (
        target is aten.pow.Tensor_Scalar and isinstance(args[1], int) and args[1] == 1)


def remove_noop_ops(graph):
    """Replace an op that returns its input's value unchanged (same shape, dtype and strides) by the input,
    unless that would make a graph output alias a graph input or another output where it did not."""
    output = graph.output_node()
    outputs = [a for a in output.args[0] if hasattr(a, "meta")] if isinstance(output.args[0], (list, tuple)) else []
    input_storages = {_storage(n) for n in graph.nodes if n.op == "placeholder"}
    output_storages = {_storage(n) for n in outputs}

    def remove(node):
        src = node.args[node.target in SOURCE_SECOND] if hasattr(node.target, "_schema") and node.args else None
        if not hasattr(src, "meta") or not _is_noop(node) or not _same_meta(node, src):
            return False
        is_view = _storage(node) == _storage(src)
        if not is_view and _storage(node) in output_storages and (
                _storage(src) in input_storages or _storage(src) in output_storages):
            return False
        if is_view and node in outputs and (src.op == "placeholder" or src in outputs):
            return False
        return _replace(node, src)

    return _apply(graph, remove)


def _symbolic(sizes):
    return any(is_symbolic(n) or hasattr(n, "meta") for n in sizes)


def _storage(node):
    return id(_val(node)._storage) if isinstance(_val(node), Tensor) else None


# ---- 2. constant folding of uniform values ----------------------------------------------


def _one_number_constant(node):
    """torch.tensor(2.0), a lift_fresh_copy of a get_attr: its number if it has one element (as torch), else None."""
    value = getattr(node.graph.owning_module, node.args[0].target, None) if node.args[0].op == "get_attr" else None
    return value.item() if isinstance(value, Tensor) and value.numel() == 1 else None


UNIFORM_FACTORIES = {"scalar_tensor": lambda node: node.args[0], "full": lambda node: node.args[1],
                     "zeros": lambda node: 0, "ones": lambda node: 1, "lift_fresh_copy": _one_number_constant,
                     # x * 0 (a Python int) is zeros, as torch's folding has it: inf * 0 and nan * 0 are 0, not nan
                     "mul": lambda node: 0 if any(isinstance(a, int) and a == 0 for a in node.args) else None}


def fold_uniform_constant(node):
    """A factory node whose value is one number everywhere becomes `full(shape, value)`: one form for
    every constant, which the scatter rewrite below matches."""
    value_of = UNIFORM_FACTORIES.get(node.target._opname) if getattr(node.target, "namespace", None) == "aten" else None
    val = _val(node)
    if value_of is None or not isinstance(val, Tensor) or not val.is_contiguous() or _symbolic(val.shape):
        return False  # (a size over symbols would enter the new node as a constant: the graph is left as it is)
    value = value_of(node)
    if value is None or val.dtype in (_dtype.uint8,) or _symbolic([value]):  # as torch: unsigned values are not
        return False  # round-tripped through Python; a value the graph computes (mse's 2/n) is no constant to fold
    if node.target is not aten.full.default:  # the value read back from the tensor: 0.0 for a float zero
        value = (float if val.dtype.is_floating_point else bool if val.dtype is _dtype.bool_ else int)(value)
    with node.graph.inserting_after(node):
        folded = _call(node.graph, aten.full.default, (list(val.shape), value),
                       {"dtype": val.dtype, "layout": strided, "device": val.device,
                        "pin_memory": node.kwargs.get("pin_memory", False)}, like=node)
    return _replace(node, folded)


# ---- 3./4. patterns ---------------------------------------------------------------------


def _single_use_call(value, target):
    return hasattr(value, "op") and value.op == "call_function" and value.target is target and len(value.users) == 1


def remove_pointless_view(node):
    return (node.target is aten.view.default and list(_val(node.args[0]).shape) == list(node.args[1])
            and _replace(node, node.args[0]))


def remove_pointless_view_pair(node):
    inner = node.args[0] if node.args else None
    return (node.target is aten.view.default and _single_use_call(inner, aten.view.default)
            and list(_val(inner.args[0]).shape) == list(node.args[1]) and _replace(node, inner.args[0], erase=[inner]))


def remove_pointless_permute_pair(node):
    inner = node.args[0] if node.args else None
    return (node.target is aten.permute.default and _single_use_call(inner, aten.permute.default)
            and all(inner.args[1][j] == i for i, j in enumerate(node.args[1]))  # (the second undoes the first)
            and _replace(node, inner.args[0], erase=[inner]))


FLOATS = (_dtype.float16, _dtype.bfloat16, _dtype.float32, _dtype.float64)  # (torch's pointless_convert's)


def remove_pointless_convert(node):
    """convert(convert(x, d1), d2) between float dtypes is convert(x, d2) unless d1 is the narrower one."""
    inner = node.args[0] if node.args else None
    convert = prims.convert_element_type.default
    if node.target is not convert or not _single_use_call(inner, convert):
        return False
    source, narrow, wide = inner.args[0], inner.args[1], node.args[1]
    if any(dtype not in FLOATS for dtype in (_val(source).dtype, narrow, wide)) or narrow.itemsize < wide.itemsize:
        return False
    with node.graph.inserting_before(node):
        direct = _call(node.graph, prims.convert_element_type.default, (source, wide), like=node)
    return _replace(node, direct, erase=[inner])


def scatter_upon_constant_to_where(node):
    """scatter(full(shape, background), dim, index, value) with one index per row along dim is the pointwise
    where(expand(index) == iota(shape[dim]) viewed along dim, value, background)."""
    if node.target is not aten.scatter.value:
        return False
    base, dim, index, value = node.args
    if not _single_use_call(base, aten.full.default) or not hasattr(index, "meta"):
        return False
    shape, background = list(base.args[0]), base.args[1]
    sizes, index_shape = [_val(n) if hasattr(n, "meta") else n for n in shape], list(_val(index).shape)
    dim = dim + len(shape) if dim < 0 else dim
    if len(index_shape) != len(shape) or index_shape[dim] != 1 or any(
            index_shape[d] < sizes[d] for d in range(len(shape)) if d != dim):  # (sizes over symbols: their values)
        return False
    graph, dtype = node.graph, _val(node).dtype
    with graph.inserting_before(node):
        positions = _call(graph, prims.iota.default, (shape[dim],),
                          {"start": 0, "step": 1, "dtype": _dtype.int64, "device": _val(index).device,
                           "requires_grad": False}, like=node)
        along_dim = [shape[d] if d == dim else 1 for d in range(len(shape))]
        positions = _call(graph, aten.view.default, (positions, along_dim), like=node)
        expanded = _call(graph, aten.expand.default, (index, shape), like=node)
        mask = _call(graph, aten.eq.Tensor, (expanded, positions), like=node)
        # torch.where(mask, value, background) with two numbers: the background's scalar_tensor is made first
        where_dtype = _dtype.get_default_dtype() if isinstance(value, float) or isinstance(background, float) \
            else _dtype.int64
        background_tensor = _call(graph, aten.scalar_tensor.default, (background,), {"dtype": where_dtype}, like=node)
        value_tensor = _call(graph, aten.scalar_tensor.default, (value,), {"dtype": where_dtype}, like=node)
        result = _call(graph, aten.where.self, (mask, value_tensor, background_tensor), like=node)
        if where_dtype is not dtype:
            result = _call(graph, prims.convert_element_type.default, (result, dtype), like=node)
    return _replace(node, result, erase=[base])


def _replace(node, replacement, erase=()):
    node.replace_all_uses_with(replacement)
    node.graph.erase_node(node)
    for inner in erase:
        if not inner.users:
            inner.graph.erase_node(inner)
    return True
