"""The graph-level IR of the backend (plays torch._inductor.ir): what lowering builds from an aten graph.

Backend layer, between the aot graphs (`autograd/`, `partition/`) and the scheduler. `lowering.py` turns every aten
node into one of these; the scheduler turns the realized ones into `loop_ir.Kernel`s and extern calls.

    StorageBox ──> Pointwise   (unrealized: a body, inlined into every reader)
               ──> Reduction   (always realized)
               ──> ComputedBuffer(Pointwise | Reduction)   (realized: has a name and a layout)
               ──> InputBuffer / ExternKernel   (fixed layouts, made outside our kernels)
    View(base, size, reindex)   (permute, expand, reshape, slice...: index arithmetic, no copy)

The one idea to hold: a tensor here is a *loader*, a function from an index (a list of `loop_ir.Index`, one per
dimension) to a loop_ir value expression. A realized buffer's loader emits `Load(name, offset + sum(stride * index))`;
an unrealized Pointwise's loader is its body, so reading it inlines it (that is vertical fusion at lowering time); a
View's loader rewrites the index and asks its base. Realizing turns a body into a named buffer that kernels store.
"""
import itertools
import math
from dataclasses import dataclass

from minitorch2 import _dtype
from minitorch2._sym import is_symbolic

from . import loop_ir as L
from .simplify import simplify

# ---- layouts ------------------------------------------------------------------------------


def size_expr(value):
    """A size or stride as the backend holds it: an int, or (dynamic shapes) a SymInt's sympy expression over the
    graph's size symbols, with the ShapeEnv's replacements made (a symbol unified with another reads as that one)."""
    if not is_symbolic(value):
        return value
    expr = value.node.shape_env.simplify(value.node.expr)
    return int(expr) if expr.is_Integer else expr


def contiguous_strides(size):
    # (an empty dim counts as 1; a size over symbols is never 0 where an element is read)
    return [math.prod(n if L.is_size_expr(n) else max(n, 1) for n in size[i + 1:]) for i in range(len(size))]


@dataclass
class Layout:
    """Where a realized buffer's elements live: element (i0, i1, ...) is at offset + sum(stride * i)."""
    size: list
    stride: list
    dtype: object
    offset: int = 0

    def storage_numel(self):
        """Elements a kernel may touch from the buffer's first element."""
        if any(n == 0 for n in self.size):
            return 0
        return self.offset + 1 + sum((n - 1) * s for n, s in zip(self.size, self.stride))

    def index(self, idx):
        return sum((i * s for i, s in zip(idx, self.stride)), L.Const(self.offset))

    def __str__(self):
        return f"{self.dtype.name}{list(self.size)} stride={list(self.stride)}" + (
            f" offset={self.offset}" if self.offset else "")


numel = math.prod  # the element count of a size


# ---- nodes --------------------------------------------------------------------------------


class IRNode:
    """Anything lowering hands around for a tensor: it has a `dtype`, `get_size()`, `make_loader()` and
    `realize()`, which makes the value live in a named buffer and returns the buffer (views: their base's)."""

    def dim(self):  # lets _dtype.result_type treat IR nodes like tensors
        return len(self.get_size())


class Pointwise:
    """An elementwise body: inner_fn(index) -> loop_ir value, over `size`."""

    def __init__(self, size, dtype, inner_fn):
        self.size, self.dtype, self.inner_fn = list(size), dtype, inner_fn

    def body(self):
        return self.inner_fn(symbolic_index(self.size, "x"))


class Reduction:
    """reduction_type over `reduction_ranges` of inner_fn(index, rindex); the result has `size`."""

    def __init__(self, size, reduction_ranges, reduction_type, inner_fn, dtype):
        self.size, self.reduction_ranges = list(size), list(reduction_ranges)
        self.reduction_type, self.inner_fn, self.dtype = reduction_type, inner_fn, dtype

    def body(self):
        return self.inner_fn(symbolic_index(self.size, "x"), symbolic_index(self.reduction_ranges, "r"))


class Scatter:
    """A scatter into its ComputedBuffer's storage (already holding the tensor scattered into): for each
    index of `size`, write inner_fn(index) to element output_indexer(index) of the buffer (an index
    with Indirect terms), or add it there when `mode` is "add". Iterations may write the same element,
    so the kernel runs alone and on one thread; with "add", duplicates all add up, as in eager."""

    def __init__(self, size, dtype, inner_fn, output_indexer, mode=None):
        self.size, self.dtype, self.inner_fn = list(size), dtype, inner_fn
        self.output_indexer, self.mode = output_indexer, mode


def symbolic_index(size, prefix):
    """One loop variable per dimension longer than 1 (x0, x1...); size-1 dimensions index 0."""
    names = (f"{prefix}{i}" for i in itertools.count())
    return [L.Const(0) if n == 1 else L.Var(next(names)) for n in size]


class Buffer(IRNode):
    """A realized, named tensor with a fixed layout."""

    def __init__(self, name, layout):
        self.name, self.layout = name, layout
        self.dtype = layout.dtype

    def get_size(self):
        return list(self.layout.size)

    def make_loader(self):
        return lambda idx: L.Load(self.name, self.layout.index(idx), self.dtype)

    def realize(self):
        return self


class InputBuffer(Buffer):
    """A graph input (placeholder); its layout is the one the caller's tensor has."""


class ComputedBuffer(Buffer):
    """A Pointwise or Reduction written out to memory by a kernel. `storage_name` is the buffer its
    stores go to: its own, or a ConcatBuffer's (its layout is then its slice of that buffer)."""

    def __init__(self, name, layout, data, storage_name=None):
        super().__init__(name, layout)
        self.data = data
        self.storage_name = storage_name or name

    def store_index(self, idx):
        """Where the kernel stores element `idx` of the computed value (a Scatter: where it points)."""
        return self.layout.index(self.data.output_indexer(idx) if isinstance(self.data, Scatter) else idx)


class ConcatBuffer(Buffer):
    """cat's output. No kernel computes it whole: each input is copied into its slice by its own
    ComputedBuffer (`writers`), so inputs that are pointwise bodies are computed straight into place."""

    def __init__(self, name, layout):
        super().__init__(name, layout)
        self.writers = []


class ExternKernel(Buffer):
    """A call outside our kernels: numpy BLAS for matmuls, or the eager minitorch2 kernel of an op
    that has no lowering (a fallback). `args` may hold IR nodes (realized), lists and constants.
    A kernel returning several tensors gets one `MultiOutput` buffer per output (its layout is None)."""

    def __init__(self, name, layout, kind, op, args, kwargs=None, fallback=False):
        self.name, self.layout = name, layout  # no Buffer.__init__: a multi-output kernel has no layout
        self.dtype = layout.dtype if layout is not None else None
        self.kind, self.op, self.args, self.kwargs, self.fallback = kind, op, args, kwargs or {}, fallback
        self.outputs = []


class MultiOutput(Buffer):
    """Output `index` of a multi-output ExternKernel."""

    def __init__(self, name, layout, kernel, index):
        super().__init__(name, layout)
        self.kernel, self.index = kernel, index


class StorageBox(IRNode):
    """A tensor value whose storage may not exist yet. Holds a Pointwise until realized (a Reduction is realized
    as soon as it is made: lowering_reductions.reduction_node), then the ComputedBuffer (or any Buffer)."""

    def __init__(self, data, graph):
        self.data, self.graph = data, graph

    @property
    def dtype(self):
        return self.data.dtype

    def get_size(self):
        return self.data.get_size() if isinstance(self.data, Buffer) else list(self.data.size)

    def is_realized(self):
        return isinstance(self.data, Buffer)

    def make_loader(self):
        return self.data.inner_fn if isinstance(self.data, Pointwise) else self.data.make_loader()

    def realize(self, stride=None):
        """Give the value a buffer: contiguous, or with `stride` (a graph output takes eager's strides)."""
        if not self.is_realized():
            size = list(self.data.size)
            layout = Layout(size, list(stride) if stride is not None else contiguous_strides(size), self.data.dtype)
            self.data = self.graph.register_buffer(lambda name: ComputedBuffer(name, layout, self.data))
        return self.data

    def body_stats(self):
        """(distinct buffers read, op count) of the unrealized pointwise body; realization heuristics use it."""
        nodes = list(L.walk(self.data.body()))
        return len({n.buffer for n in nodes if isinstance(n, L.Load)}), sum(isinstance(n, L.Op) for n in nodes)


class View(IRNode):
    """A view of `base` with `size`: index -> reindex(index) into the base. No data moves."""

    def __init__(self, base, size, reindex, name="view"):
        self.base, self.size, self.reindex, self.name = base, list(size), reindex, name

    @property
    def dtype(self):
        return self.base.dtype

    def get_size(self):
        return list(self.size)

    def make_loader(self):
        inner = self.base.make_loader()
        return lambda idx: inner(self.reindex(idx))

    def realize(self):
        return self.base.realize()


class ReinterpretView(View):
    """A strided view straight onto a realized buffer's memory (as_strided): its own layout."""

    def __init__(self, buffer, layout):
        super().__init__(buffer, layout.size, None, "as_strided")
        self.layout = layout

    def make_loader(self):
        return lambda idx: L.Load(self.base.name, self.layout.index(idx), self.base.dtype)


# ---- looking at expressions ---------------------------------------------------------------


def affine_layout(node):
    """If `node` (a realized buffer, possibly through views) reads memory affinely, the (buffer, Layout)
    that describes it as a strided view; else None (a FloorDiv/Mod reshape needs a copy)."""
    size = node.get_size()
    names = [f"v{i}" for i in range(len(size))]
    index = node.make_loader()([L.Var(n) for n in names])
    if not isinstance(index, L.Load):
        return None
    coeffs, offset = _linear_coefficients(simplify(index.index, {}))  # merges reshapes' t//k, t%k pairs
    if coeffs is None:
        return None
    return index.buffer, Layout(size, [coeffs.get(n, 0) for n in names], node.dtype, offset)


def _linear_coefficients(index):
    """({variable: coefficient}, constant) of an affine index, else (None, 0). Index arithmetic keeps a sum flat
    and a product's term a Var, a division or an Indirect (loop_ir's _add and _mul), so one pass over the terms."""
    coefficients, offset = {}, 0
    for term in index.terms if isinstance(index, L.Add) else (index,):
        factor, inner = (term.factor, term.term) if isinstance(term, L.Mul) else (1, term)
        if isinstance(inner, L.Const):
            offset += factor * inner.value
        elif isinstance(inner, L.Var):
            coefficients[inner.name] = coefficients.get(inner.name, 0) + factor
        else:
            return None, 0
    return coefficients, offset


def promote(*operands):
    """The dtype an op on these operands computes in (a size over symbols counts as the int it stands for)."""
    return _dtype.result_type(*[1 if L.is_size_expr(x) else x for x in operands])
