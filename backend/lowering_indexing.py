"""Lowerings of the ops that read or write at positions held in a tensor: embedding, gather, index_select,
index.Tensor and the scatters (plays the indexing part of torch._inductor.lowering).

Backend layer, called by `lowering.GraphLowering` for each aten node. The one idea to hold: an index tensor is just
another loader. Its value, read inside a body, becomes a `loop_ir.Indirect` term of the index of another load:

    embedding(weight[V, D], indices[N])[x0, x1] = load(weight, D*indirect(load(indices, x0), V) + x1)

so a gather is an ordinary Pointwise, inlined into its readers and fused like any other (embedding + positional add is
one kernel). Each Indirect carries the size it must stay below and the error eager raises otherwise.

A scatter writes at such positions instead: the tensor scattered into is copied to a fresh buffer (a clone),
then an `ir.Scatter` stores (or, accumulating, adds) each value at the indirect position in that buffer. The scheduler
runs a scatter alone, after the copy and before any reader, on one thread.
"""
from minitorch2 import _dtype

from . import ir
from . import loop_ir as L
from . import lowering_pointwise as P
from . import lowering_views as V
from .virtualized import current_graph

INDEX_OUT_OF_RANGE = L.OutOfRange("IndexError", "index out of range in self")  # embedding, index_select
TARGET_OUT_OF_BOUNDS = L.OutOfRange("IndexError", "Target {} is out of bounds.")  # nll_loss, cross_entropy
# ops whose decomposition gathers at their targets: a bad target raises the op's error, not gather's
TARGET_GATHERS = {"aten.nll_loss_forward.default"}


def out_of_bounds(error_class, dim, size):
    """The message gather, scatter and index use: 'index 7 is out of bounds for dimension 1 with size 4'."""
    return L.OutOfRange(error_class, f"index {{}} is out of bounds for dimension {dim} with size {size}")


def indirect(value, size, error, wrap_negative=False):
    return L.Indirect(P.cast(value, _dtype.int64), size, wrap_negative, error)


def along(dim, size, position, error):
    """An indexer: an index with its `dim` entry replaced by the checked position position(index) reads."""
    return lambda idx: idx[:dim] + [indirect(position(idx), size[dim], error)] + idx[dim + 1:]


def _entry_at(index, dim):
    """The position a 1-d (or 0-d) index tensor holds for an index: its element at that index's `dim` entry."""
    load = index.make_loader()
    return lambda idx: load([idx[dim]] if len(index.get_size()) == 1 else [])


def _require_dims(*nodes):
    if any(len(n.get_size()) == 0 for n in nodes):
        raise NotImplementedError("indexing a 0-d tensor")


# ---- gathers: pointwise bodies with an indirect load --------------------------------------


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    rows, width = weight.get_size()
    load_weight, load_indices = weight.make_loader(), indices.make_loader()

    def inner_fn(idx):
        return load_weight([indirect(load_indices(idx[:-1]), rows, INDEX_OUT_OF_RANGE), idx[-1]])

    return P.pointwise_node(indices.get_size() + [width], weight.dtype, inner_fn)


def index_select(x, dim, index):
    _require_dims(x)
    size = x.get_size()
    dim = V.wrap_dim(dim, len(size))
    error = INDEX_OUT_OF_RANGE if dim == 0 else L.OutOfRange(  # as eager: ATen checks dim > 0 in another loop
        "RuntimeError", f"INDICES element is out of DATA bounds, id={{}} axis_dim={size[dim]}")
    load_x, at = x.make_loader(), along(dim, size, _entry_at(index, dim), error)
    out_size = list(size)
    out_size[dim] = ir.numel(index.get_size())
    return P.pointwise_node(out_size, x.dtype, lambda idx: load_x(at(idx)))


def _decomposed_from():
    """The name of the aten op whose decomposition recorded the node being lowered (meta["original_aten"])."""
    return str(current_graph().current_node.meta.get("original_aten"))  # ("None" where none did)


def gather(x, dim, index, sparse_grad=False):
    _require_dims(x)
    size = x.get_size()
    dim = V.wrap_dim(dim, len(size))
    error = TARGET_OUT_OF_BOUNDS if _decomposed_from() in TARGET_GATHERS else out_of_bounds("RuntimeError", dim,
                                                                                              size[dim])
    load_x, at = x.make_loader(), along(dim, size, index.make_loader(), error)
    return P.pointwise_node(index.get_size(), x.dtype, lambda idx: load_x(at(idx)))


def advanced_index(x, indices):
    """(output size, fn(output index) -> index of x) of x[indices] (ATen's index: one optional integer
    tensor per leading dim, broadcast together; negatives count from the end)."""
    size = x.get_size()
    indices = list(indices) + [None] * (len(size) - len(indices))
    positions = [k for k, t in enumerate(indices) if t is not None]
    if not positions or any(indices[k].dtype in (_dtype.bool_, _dtype.uint8) for k in positions):
        raise NotImplementedError("index with a boolean mask: the output size depends on the data")
    broadcast = list(P.broadcast_sizes(*[indices[k].get_size() for k in positions]))
    loaders = {k: P.broadcast_loader(indices[k], broadcast) for k in positions}
    adjacent = positions == list(range(positions[0], positions[-1] + 1))
    start = positions[0] if adjacent else 0  # where the broadcast index dims sit in the output
    kept = [n for k, n in enumerate(size) if indices[k] is None]
    out_size = kept[:start] + broadcast + kept[start:]

    def indexer(idx):
        tensor_idx = idx[start:start + len(broadcast)]
        rest = iter(idx[:start] + idx[start + len(broadcast):])
        return [next(rest) if indices[k] is None else
                indirect(loaders[k](tensor_idx), n, out_of_bounds("IndexError", k, n), wrap_negative=True)
                for k, n in enumerate(size)]

    return out_size, indexer


def index(x, indices):
    _require_dims(x)
    out_size, indexer = advanced_index(x, indices)
    load_x = x.make_loader()
    return P.pointwise_node(out_size, x.dtype, lambda idx: load_x(indexer(idx)))


# ---- scatters: a copy, then stores at indirect positions ----------------------------------


def scatter_into(fresh, size, value_fn, indexer, mode):
    """Realize `fresh` (an unrealized StorageBox: a clone), then scatter value_fn(idx) to
    indexer(idx) of it for every idx of `size`. Returns `fresh`: readers read the buffer after the scatter."""
    buffer = fresh.realize()
    if ir.numel(size) > 0:
        scatter = ir.Scatter(size, buffer.dtype, value_fn, indexer, mode)
        current_graph().register_buffer(lambda name: ir.ComputedBuffer(name, buffer.layout, scatter, buffer.name))
    return fresh


def index_put(x, indices, values, accumulate=False):
    _require_dims(x)
    out_size, indexer = advanced_index(x, indices)
    load_values = P.broadcast_loader(values, out_size)
    return scatter_into(P.clone(x), out_size, lambda idx: P.cast(load_values(idx), x.dtype), indexer,
                        "add" if accumulate else None)


def scatter_along(x, dim, index, src, mode=None):
    _require_dims(x, index)
    size = x.get_size()
    dim = V.wrap_dim(dim, len(size))
    indexer = along(dim, size, index.make_loader(), out_of_bounds("RuntimeError", dim, size[dim]))
    load_src = src.make_loader() if P.is_tensor(src) else lambda idx: P.constant(src, x.dtype)
    return scatter_into(P.clone(x), index.get_size(), lambda idx: P.cast(load_src(idx), x.dtype), indexer, mode)


def scatter_src(x, dim, index, src):
    """One index per slice along dim is a pointwise choice (_scatter_one_per_slice); any other scatter stores."""
    try:
        size = x.get_size()
        dim = V.wrap_dim(dim, max(len(size), 1))
        return _scatter_one_per_slice(x, dim, index, src, out_of_bounds("RuntimeError", dim, size[dim] if size else 1))
    except NotImplementedError:
        return scatter_along(x, dim, index, src)


def _scatter_one_per_slice(x, dim, index, src, error):
    """scatter along `dim` (wrapped) where `index` is 1 long on dim and x's size elsewhere (a value-selecting
    reduction's backward: zeros.scatter(dim, argmax, grad)); then each output element is a pointwise
    choice: src where the index names its position, else x. The index is read through a checked
    `Indirect`, so one out of range raises `error` as eager does. Other scatters raise NotImplementedError."""
    size, index_size = x.get_size(), index.get_size()
    zero_dim = len(size) == 0
    if zero_dim:  # one element, at index 0
        size, index_size, x, index, src = [1], [1], _as_1d(x), _as_1d(index), _as_1d(src)
    if index_size != size[:dim] + [1] + size[dim + 1:] or any(n < m for n, m in zip(src.get_size(), index_size)):
        raise NotImplementedError("scatter: only one index per slice along dim")
    load_index, load_src, load_x = index.make_loader(), src.make_loader(), x.make_loader()

    def inner_fn(idx):
        at_slice = idx[:dim] + [L.Const(0)] + idx[dim + 1:]
        target = indirect(load_index(at_slice), size[dim], error)
        here = P.compare("eq", L.IndexValue(target, _dtype.int64), L.IndexValue(idx[dim], _dtype.int64))
        return P.op("where", here, P.cast(load_src(at_slice), x.dtype), load_x(idx))

    result = P.pointwise_node(size, x.dtype, inner_fn)
    return V.view(result, []) if zero_dim else result


def _as_1d(node):
    return V.view(node, [1]) if not node.get_size() else node


def scatter_add(x, dim, index, src):
    return scatter_along(x, dim, index, src, "add")


def index_add(x, dim, index, source, alpha=1):
    _require_dims(x, source)
    size = x.get_size()
    dim = V.wrap_dim(dim, len(size))
    load_source = source.make_loader()
    indexer = along(dim, size, _entry_at(index, dim), out_of_bounds("RuntimeError", dim, size[dim]))

    def value_fn(idx):
        value = P.cast(load_source(idx), x.dtype)
        return value if alpha == 1 else P.op("mul", value, P.constant(alpha, x.dtype))

    return scatter_into(P.clone(x), source.get_size(), value_fn, indexer, "add")


def unsafe_masked_index_put_accumulate(x, mask, indices, values):
    """x[indices] += where(mask, values, 0), each index clamped into [-rows, rows - 1] as ATen's kernel
    does (a masked-out position may hold any index, and adds 0). One index tensor, on x's first dim
    (what the embedding backward records)."""
    if len(indices) != 1 or indices[0] is None:
        raise NotImplementedError("_unsafe_masked_index_put_accumulate with other than one leading index")
    _require_dims(x)
    index = indices[0]
    index_ndim, rows = len(index.get_size()), x.get_size()[0]
    out_size = index.get_size() + x.get_size()[1:]
    load_mask, load_values = P.broadcast_loader(mask, out_size), P.broadcast_loader(values, out_size)
    load_index = index.make_loader()

    def value_fn(idx):
        kept = P.cast(load_mask(idx), _dtype.bool_)
        return P.op("where", kept, P.cast(load_values(idx), x.dtype), P.constant(0, x.dtype))

    def indexer(idx):
        position = P.op("maximum", P.cast(load_index(idx[:index_ndim]), _dtype.int64), P.constant(-rows, _dtype.int64))
        position = P.op("minimum", position, P.constant(rows - 1, _dtype.int64))
        return [indirect(position, rows, INDEX_OUT_OF_RANGE, wrap_negative=True)] + idx[index_ndim:]

    return scatter_into(P.clone(x), out_size, value_fn, indexer, "add")

