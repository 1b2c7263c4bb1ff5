"""Lowering: an aten FX graph to the backend IR (plays torch._inductor.graph.GraphLowering and the table of
torch._inductor.lowering).

Backend layer, first step after the aot graphs arrive. `GraphLowering.run()` walks the graph once, node by node, and
calls the node's entry in LOWERINGS with IR values for its tensor arguments:

    placeholder  -> InputBuffer (the caller's layout)
    aten op      -> LOWERINGS[op](*args): a StorageBox / View / tuple of them
                    (ops with no entry: an ExternKernel calling the eager op, a "fallback")
    output       -> every output realized into a buffer (or a strided view of one)

Realization decides what becomes a buffer, and so most of what fusion can do later: pointwise results are left
unrealized (their readers inline them) unless several users would each recompute a heavy body (Inductor's
realize_reads_threshold / realize_opcount_threshold); reductions, extern outputs and graph outputs are always buffers.
"""
import operator

import sympy

import minitorch2
from minitorch2 import _dtype, ops
from minitorch2._aten.complex_ops import touches_complex
from minitorch2._sym import is_symbolic
from minitorch2._subclasses.fake_tensor import FakeTensorMode
from minitorch2._tensor import Tensor
from minitorch2.fx import Node
from minitorch2.utils import _pytree as pytree

from . import ir
from . import loop_ir as L
from . import lowering_indexing as I
from . import lowering_more as more
from . import lowering_pointwise as P
from . import lowering_pooling as pooling
from . import lowering_reductions as R
from . import lowering_views as V
from .virtualized import current_graph, lowering_graph

aten = ops.aten
REALIZE_READS_THRESHOLD = 4  # a multi-user pointwise reading more buffers than this is computed once
REALIZE_OPCOUNT_THRESHOLD = 30  # ... or doing more ops than this
REALIZE_ALWAYS_OPCOUNT = 200  # a body this large is realized even with one user (bounds inlining growth)

# ---- extern kernels -----------------------------------------------------------------------


def _layout_from_meta(val):
    """The layout an extern or output buffer gets: the eager op's strides when dense, else contiguous."""
    size, stride = _geometry(val)
    return ir.Layout(size, stride if _is_dense(val) else ir.contiguous_strides(size), val.dtype)


def _is_dense(val):
    """Do the value's strides lay its elements out without gaps (in some order of its dims)? Asked of the backend's
    sizes by equality alone, so that sizes over symbols decide nothing: a dim whose size is not 1 as written counts."""
    size, stride = _geometry(val)
    dims, expected = [(n, s) for n, s in zip(size, stride) if n != 1], 1
    while dims:
        step = next(((n, s) for n, s in dims if s == expected), None)
        if step is None:
            return False
        dims.remove(step)
        expected *= step[0]
    return True


def _geometry(val):
    """(size, stride) of a node's example value, as the backend holds them (ir.size_expr)."""
    return [ir.size_expr(n) for n in val.shape], [ir.size_expr(s) for s in val.stride()]


def _significant(size, stride):
    """The strides that address elements: those of dims longer than 1 (none when there are no elements)."""
    return [] if 0 in size else [s for s, n in zip(stride, size) if n != 1]


class TensorArg:
    """How an extern kernel sees one tensor argument: a strided view of a named buffer."""

    def __init__(self, node):
        self.name, self.layout = ir.affine_layout(_as_strided_readable(node))

    def __repr__(self):
        return f"{self.name}{list(self.layout.size)}"


def _as_strided_readable(node):
    """Realize `node` so that it is a strided view of one buffer (copy it if the view is not affine)."""
    node.realize()
    if ir.affine_layout(node) is not None:
        return node
    copy = P.clone(node)
    copy.realize()
    return copy


def extern_call(kind, op, args, kwargs=None, fallback=False):
    """An ExternKernel for the current node; returns its buffer, or a tuple of MultiOutput buffers."""
    graph, kwargs = current_graph(), dict(kwargs or {})
    meta = graph.current_node.meta  # (a node a graph pass added has no metadata: the op is run on fake tensors)
    val = meta["val"] if "val" in meta else _fake_run(op, args, kwargs)
    args, kwargs = pytree.tree_map(lambda v: TensorArg(v) if isinstance(v, ir.IRNode) else v, (list(args), kwargs))
    if val is None or isinstance(val, Tensor):  # (None: no result, a runtime assertion; the kernel runs for its check)
        layout = None if val is None else _layout_from_meta(val)
        return graph.register_buffer(lambda name: ir.ExternKernel(name, layout, kind, op, args, kwargs, fallback))
    kernel = graph.register_buffer(lambda name: ir.ExternKernel(name, None, kind, op, args, kwargs, fallback))
    kernel.outputs = [graph.register_buffer(lambda name: ir.MultiOutput(name, _layout_from_meta(v), kernel, i))
                      if isinstance(v, Tensor) else None for i, v in enumerate(val)]
    return tuple(kernel.outputs)


def _fake_run(op, args, kwargs):
    with FakeTensorMode():
        args, kwargs = pytree.tree_map(lambda v: minitorch2.empty(tuple(v.get_size()), dtype=v.dtype)
                                       if isinstance(v, ir.IRNode) else v, (list(args), kwargs))
        return op(*args, **kwargs)


def matmul(kind):
    """mm or bmm: an extern kernel (the wrapper calls numpy's matmul, or the speed wing's BLAS)."""
    return lambda a, b: extern_call(kind, None, [a, b])


def matmul_plus(kind):
    """addmm or baddbmm, beta * x + alpha * (mm or bmm): the matmul is extern, the scaling and the add a pointwise
    epilogue (torch's Inductor keeps addmm in its graphs too); a half one the eager kernel (more.whole_for_half)."""
    return more.whole_for_half(lambda x, a, b, *, beta=1, alpha=1: _scaled_sum(matmul(kind)(a, b), x, beta, alpha))


def _scaled_sum(product, x, beta, alpha):
    if beta == 0:
        return P.pointwise(lambda p: _scaled(p, alpha), product)
    return P.pointwise(lambda p, c: P.op("add", _scaled(p, alpha), _scaled(c, beta)), product, x)


def _scaled(value, scale):
    """value * scale, or value itself for the unit scale (addmm's default alpha and beta)."""
    return value if scale == 1 else P.op("mul", value, P.constant(scale, value.dtype))


def extern_kernel(name):
    """An op whose kernel stays outside our code generation by design, not for want of a lowering:
    convolution, whose eager kernel is im2col plus one numpy BLAS matmul per group (torch's Inductor
    calls ATen's convolution as an extern kernel the same way). Not listed among the fallbacks."""
    op = overload(name)
    return lambda *args, **kwargs: extern_call(name, op, args, kwargs)


def copy_into_input(dst, src):  # (an input mutation aot kept in the graph: only ever into a placeholder)
    current_graph().input_mutations.append((dst.name, P.copy(dst, src)))  # (the wrapper writes it in at the end)
    return dst


def make_fallback(op):
    def fallback(*args, **kwargs):
        current_graph().fallbacks.append(str(op))
        return extern_call(str(op), op, args, kwargs, fallback=True)

    return fallback


# ---- the table ----------------------------------------------------------------------------

UNARY = ["neg", "abs", "sign", "floor", "ceil", "trunc", "round", "relu", "bitwise_not"]
UNARY_FLOAT = [*L.TRANSCENDENTAL, "sqrt", "rsqrt", "reciprocal"]
COMPARISONS = ["eq", "ne", "lt", "le", "gt", "ge"]
SHIFTS = {"bitwise_left_shift": "lshift", "__lshift__": "lshift", "bitwise_right_shift": "rshift",
          "__rshift__": "rshift"}


def overload(qualified):  # "[namespace::]name[.overload]" -> the OpOverload, or None where the registry has none
    namespace, _, qualified = qualified.rpartition("::")
    name, _, variant = qualified.partition(".")
    return getattr(getattr(getattr(ops, namespace or "aten"), name), variant or "default", None)


def _build_table():
    # No entry for an op select_decomp_table (compile_fx.py) always rewrites into others: softplus, the activation
    # backwards, logsumexp, nll_loss, t and transpose, ... never reach lowering (tests/backend/test_lowering.py).
    table = {
        "add.Tensor": P.add, "add.Scalar": P.add, "sub.Tensor": P.sub, "sub.Scalar": P.sub,
        "mul.Tensor": P.mul, "mul.Scalar": P.mul,
        "div.Tensor": P.div, "div.Scalar": P.div, "div.Tensor_mode": P.div_mode,
        "remainder.Tensor": P.elementwise("remainder"), "remainder.Scalar": P.elementwise("remainder"),
        "fmod.Tensor": P.elementwise("fmod"), "fmod.Scalar": P.elementwise("fmod"),
        "pow.Tensor_Scalar": P.pow_, "pow.Tensor_Tensor": P.pow_, "pow.Scalar": P.pow_,
        "maximum": P.elementwise("maximum"), "minimum": P.elementwise("minimum"),
        "atan2": P.elementwise("atan2", "float"), "log10": P.log10, "isnan": P.elementwise("isnan", predicate=True),
        "isinf": P.elementwise("isinf", predicate=True), "isfinite": P.isfinite,
        **{name: P.elementwise(name, "bool") for name in ("logical_not", "logical_and", "logical_or")},
        "logical_xor": P.logical_xor,
        "where.self": P.where, "clamp.Tensor": P.clamp,
        "clamp_min": lambda x, min: P.clamp(x, min), "clamp_max": lambda x, max: P.clamp(x, None, max),
        "addcmul": P.addc("mul"), "addcdiv": P.addc("truediv"),
        "native_dropout_backward": P.native_dropout_backward,
        # copies, casts, aliases
        "_to_copy": P.to_copy, "clone": P.clone, "copy": P.copy, "alias": P.identity, "lift_fresh": P.identity,
        "lift_fresh_copy": P.clone, "copy_": copy_into_input,
        # factories
        "full": P.full, "zeros": P.factory(0), "ones": P.factory(1), "empty.memory_format": P.factory(0),
        "zeros_like": P.like(0), "ones_like": P.like(1), "empty_like": P.like(0), "full_like": P.full_like,
        "new_empty": P.new_factory(0), "fill.Scalar": P.full_like, "scalar_tensor": P.scalar_tensor,
        "arange.start_step": P.arange,
        # prims
        "prims::convert_element_type": P.to_dtype, "prims::iota": P.iota, "prims::fma": P.fma,
        # views
        "view": V.view, "expand": V.expand, "permute": V.permute, "unsqueeze": V.unsqueeze, "squeeze": V.squeeze,
        "squeeze.dim": V.squeeze, "squeeze.dims": V.squeeze, "select.int": V.select, "slice.Tensor": V.slice_,
        "as_strided": V.as_strided, "split.Tensor": V.split, "split_with_sizes": V.split_with_sizes,
        "unbind.int": V.unbind, "cat": V.cat, "slice_scatter": V.slice_scatter, "select_scatter": V.select_scatter,
        # reductions
        "sum": R.sum_, "sum.dim_IntList": R.sum_, "prod": R.prod, "prod.dim_int": R.prod, "mean": R.mean,
        "mean.dim": R.mean, "amax": R.reduction("max"), "amin": R.reduction("min"), "max": R.reduction("max"),
        "min": R.reduction("min"), "max.dim": R.value_and_index("max"), "min.dim": R.value_and_index("min"),
        "argmax": R.reduction("argmax"), "argmin": R.reduction("argmin"),
        "var.correction": R.var, "var_mean.correction": R.var_mean, "dot": R.dot,
        **{f"{kind}{suffix}": R.reduction(kind, _dtype.bool_)
           for kind in ("any", "all") for suffix in ("", ".dims", ".dim")},
        # (the layer and batch norms have no entry: select_decomp_table rewrites them, as torch's inductor table)
        **pooling.LOWERINGS,  # (windows inside the input; the rest falls back)
        **more.LOWERINGS,  # flip, repeat, 0-d scans, new_empty_strided, fill.Tensor
        # indexing: gathers (indirect loads) and scatters (indirect stores)
        "embedding": I.embedding, "gather": I.gather, "index_select": I.index_select, "index.Tensor": I.index,
        "index_put": I.index_put, "scatter.src": I.scatter_src, "scatter.value": I.scatter_along,
        "scatter_add": I.scatter_add, "index_add": I.index_add,
        "_unsafe_masked_index_put_accumulate": I.unsafe_masked_index_put_accumulate,
        # (scatter_reduce has no entry: its eager kernel runs, as torch's CPU inductor falls back for every
        # reduction: prod/mean/amax/amin always, sum under its default cpp.fallback_scatter_reduce_sum)
        # extern kernels
        "mm": matmul("mm"), "bmm": matmul("bmm"), "addmm": matmul_plus("mm"), "baddbmm": matmul_plus("bmm"),
        "convolution": extern_kernel("convolution"),
        # torch._check of sizes: the frame's guards hold it; torch's Inductor too asserts only unbacked symbols
        "_assert_scalar": lambda cond, assert_msg: None,
        "_assert_async.msg": extern_kernel("_assert_async.msg"),  # (one_hot's checks; torch's lowers to an assert)
        # the seeded random ops of the inductor path (lowering_random.py): seeds drawn, Philox values computed
        **{f"prims::inductor_{n}": extern_kernel(f"prims::inductor_{n}")
           for n in ("seeds", "lookup_seed", "random", "randint")},
    }
    table.update({name: P.elementwise(name) for name in UNARY})
    table.update({name: P.elementwise(name, "float") for name in UNARY_FLOAT})
    table.update({f"{name}.{suffix}": P.elementwise(name) for name in ("bitwise_and", "bitwise_or", "bitwise_xor")
                  for suffix in ("Tensor", "Scalar", "Scalar_Tensor")})
    # (suffix, not overload: on Python 3.12 an inlined comprehension's variable would shadow overload() below)
    table.update({f"{packet}.{suffix}": P.elementwise(loop_op) for packet, loop_op in SHIFTS.items()
                  for suffix in ("Tensor", "Tensor_Scalar", "Scalar_Tensor", "Scalar")})
    table.update({f"{name}.{suffix}": P.elementwise(name, predicate=True) for name in COMPARISONS
                  for suffix in ("Tensor", "Scalar")})
    # (an overload minitorch2's registry does not have is left out)
    return {op: fn for qualified, fn in table.items() if (op := overload(qualified)) is not None}


LOWERINGS = _build_table()  # (no random op has an entry but Inductor's seeded prims: the others run their eager kernel)


# ---- the graph walk -----------------------------------------------------------------------


class GraphLowering:
    """Lowers one aten GraphModule. After run(): `inputs`, `buffers` (realized, in creation order),
    `outputs` (one IR node or None per graph output, then each of `input_mutations`' new values), `fallbacks`."""

    def __init__(self, gm, name="graph"):
        self.gm, self.name = gm, name
        self.inputs, self.buffers, self.outputs, self.fallbacks = [], [], [], []
        self.placeholder_names, self.input_mutations = [], []  # (input name, its new value): copy_ nodes
        self.size_sources = {}  # size symbol name -> Python source of its value in the wrapper (dynamic shapes)
        self.current_node = None
        self.storage_readers = _storage_read_nodes(gm.graph)

    def register_buffer(self, make):
        self.buffers.append(make(f"buf{len(self.buffers)}"))
        return self.buffers[-1]

    def run(self):
        with lowering_graph(self):
            env = {}
            for node in self.gm.graph.nodes:
                self.current_node = node
                env[node] = getattr(self, node.op)(node, env)
        return self

    def placeholder(self, node, env):
        self.placeholder_names.append(node.name)
        val = node.meta.get("val")
        if not isinstance(val, Tensor):
            self._note_size_source(ir.size_expr(val), node.name)
            return ir.size_expr(val)
        buffer = ir.InputBuffer(node.name, ir.Layout(*_geometry(val), val.dtype))
        for d, (n, stride) in enumerate(zip(buffer.layout.size, buffer.layout.stride)):
            self._note_size_source(n, f"{node.name}.shape[{d}]")
            self._note_size_source(stride, f"{node.name}.stride()[{d}]")
        self.inputs.append(buffer)
        return buffer

    def _note_size_source(self, value, source):
        """Where the wrapper reads a size symbol's value at run time (`s0 = arg0_1`, `s0 = arg1_1.shape[0]`)."""
        if L.is_size_expr(value) and value.is_Symbol:
            self.size_sources.setdefault(value.name, source)

    def call_function(self, node, env):
        if is_symbolic(node.meta.get("val")):  # arithmetic on sizes: its expression over the graph's size symbols
            return ir.size_expr(node.meta["val"])
        args, kwargs = _map((node.args, dict(node.kwargs)), env)
        if node.target is operator.getitem:
            return args[0][args[1]]
        lowering = LOWERINGS.get(node.target)
        if lowering is None or touches_complex(node):  # (the code generators have no complex type, as torch's cpp)
            lowering = make_fallback(node.target)
        try:
            result = lowering(*args, **kwargs)
        except NotImplementedError:
            result = make_fallback(node.target)(*args, **kwargs)
        result = self._check_against_meta(node, result)
        val = node.meta.get("val")
        if node in self.storage_readers and isinstance(val, Tensor) and _is_dense(val) and (
                isinstance(result, ir.StorageBox) and not result.is_realized()):
            result.realize(_geometry(val)[1])
        self._realize_on_reuse(node, result)
        return result

    def output(self, node, env):
        for arg, value in zip(node.args[0], _map(node.args[0], env)):
            val = getattr(arg, "meta", {}).get("val")
            if isinstance(value, ir.IRNode):
                self.outputs.append(self._realize_output(value, val))
            else:  # a size or a constant the graph returns (sizes saved for the backward, a frame's x.shape[0])
                self.outputs.append(value)
        self.outputs += [self._realize_output(value, None) for _, value in self.input_mutations]

    def _realize_output(self, value, val):
        """Outputs live in buffers, or are strided views of one. A value computed here gets the strides
        eager gives it when they are dense (a pointwise op over a transposed input is transposed in eager
        too): realized straight into them, or copied when it already has a buffer laid out otherwise."""
        meta = _geometry(val)[1] if isinstance(val, Tensor) else None
        stride = meta if meta is not None and _is_dense(val) else None
        if stride is not None and isinstance(value, ir.StorageBox) and not value.is_realized():
            value.realize(stride)
        value = _as_strided_readable(value)
        name, layout = ir.affine_layout(value)
        if meta is not None and _significant(layout.size, layout.stride) == _significant(layout.size, meta):
            # as torch's Inductor, a dim of size 0 or 1 (whose stride addresses nothing) reports eager's stride
            layout.stride = [m if n in (0, 1) else s for n, s, m in zip(layout.size, layout.stride, meta)]
            return ir.ReinterpretView(next(b for b in self.inputs + self.buffers if b.name == name), layout)
        if stride is None or not isinstance(value.realize(), ir.ComputedBuffer):
            return value
        value = P.clone(value)
        value.realize(stride)
        return value

    def _check_against_meta(self, node, result):
        """A lowering must produce what the eager op's meta function says; cast dtype mismatches,
        fail loudly on size mismatches (a lowering bug)."""
        val = node.meta.get("val")
        if isinstance(val, Tensor) and isinstance(result, ir.IRNode):
            if not all(L.known(sympy.Eq(ours, meta)) for ours, meta in zip(result.get_size(), _geometry(val)[0])) \
                    or len(result.get_size()) != val.dim():  # (over symbols, equal under the guards: s*(n//s) is n)
                raise AssertionError(f"lowering {node.target}: size {result.get_size()} != meta {list(val.shape)}")
            if result.dtype is not val.dtype:
                result = P.to_dtype(result, val.dtype)
        return result

    def _realize_on_reuse(self, node, result):
        if not isinstance(result, ir.StorageBox) or result.is_realized():
            return
        reads, op_count = result.body_stats()
        if op_count > REALIZE_ALWAYS_OPCOUNT or (
                len(node.users) > 1 and (reads > REALIZE_READS_THRESHOLD or op_count > REALIZE_OPCOUNT_THRESHOLD)):
            result.realize()


def _storage_read_nodes(graph):
    """Nodes whose memory layout is read, not only their values: as_strided (and its scatter) index the
    storage under their input, reached through views. Those nodes are realized with eager's strides."""
    readers = set()
    for node in reversed(graph.nodes):
        for user in node.users:
            if user.args and user.args[0] is node and (
                    getattr(user.target, "__name__", "").startswith("as_strided")
                    or (getattr(user.target, "is_view", False) and user in readers)):
                readers.add(node)
    return readers


def _map(value, env):
    return pytree.tree_map(lambda v: env[v] if isinstance(v, Node) else v, value)


def lower(gm, name="graph"):
    return GraphLowering(gm, name).run()
