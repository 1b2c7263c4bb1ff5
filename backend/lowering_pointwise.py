"""Lowerings of elementwise aten ops and factories to `ir.Pointwise` (plays torch._inductor.lowering's pointwise part).

Backend layer, called by `lowering.GraphLowering` for each aten node. Every lowering here takes IR nodes (and Python
scalars) and returns a StorageBox holding an unrealized Pointwise: a body that loads its inputs at the broadcast index
and combines them with loop_ir `Op`s. Nothing is computed or stored; a reader of the result inlines the body.

The one idea to hold: dtypes are decided here, once. `pointwise()` computes in the promoted dtype of its operands (as
aten does), casting each load to it; the loop IR below never promotes.
"""
import functools
import math

import numpy as np

from minitorch2 import _dtype
from minitorch2._aten.pow_forms import build_form, scalar_exponent_form

from . import ir
from . import loop_ir as L
from .virtualized import current_graph

# ---- value builders (one loop_ir Op each) -------------------------------------------------


def op(name, *args, dtype=None):
    """A loop_ir Op; its dtype is its first operand's (a where's: its second's) unless given."""
    return L.Op(name, tuple(args), dtype or (args[1] if name == "where" else args[0]).dtype)


def cast(value, dtype):
    if value.dtype is dtype:
        return value
    return constant(value.value, dtype) if isinstance(value, L.Constant) else L.Op("to_dtype", (value,), dtype)


def constant(value, dtype):
    if L.is_size_expr(value):  # a size as a value (dynamic shapes): the kernel computes it from its size arguments
        L.check_integer(value)
        return L.Constant(value, dtype)
    if dtype is _dtype.bool_ or dtype.is_floating_point:
        return L.Constant((bool if dtype is _dtype.bool_ else float)(value), dtype)
    return L.Constant(int(_dtype.wrapped_int(int(value), dtype)), dtype)  # as c10 casts: int8's 2**31 is 0


def compare(name, a, b):
    return L.Op(name, (a, b), _dtype.bool_)


# ---- the pointwise builder ----------------------------------------------------------------


def broadcast_sizes(*shapes):
    """The shapes broadcast as torch's broadcast_symbolic_shapes: sizes the trace's guards make equal are one."""
    padded = [(1,) * (max(map(len, shapes), default=0) - len(shape)) + tuple(shape) for shape in shapes]
    return tuple(functools.reduce(lambda a, b: b if L.is_one(a) else a if L.is_one(b) else L.equal_size(a, b), sizes)
                 for sizes in zip(*padded))


def broadcast_loader(node, out_size):
    """The loader of `node` read at an index of `out_size` (right-aligned, size-1 dims pinned to 0)."""
    size = node.get_size()
    load = node.make_loader()
    lead = len(out_size) - len(size)
    return lambda idx: load([L.Const(0) if L.is_one(n) else idx[lead + i] for i, n in enumerate(size)])


def is_tensor(value):
    return isinstance(value, ir.IRNode)


def pointwise(fn, *inputs, compute_dtype=None, uncast=()):
    """A StorageBox over Pointwise(fn(loaded operands...)). Tensor operands load cast to the compute dtype
    (default: promotion of all operands) except those at the positions in `uncast` (masks, conditions);
    scalars become constants of it."""
    compute = compute_dtype or ir.promote(*[x for i, x in enumerate(inputs) if i not in uncast])
    size = list(broadcast_sizes(*[x.get_size() for x in inputs if is_tensor(x)]))
    loaders = [broadcast_loader(x, size) if is_tensor(x) else x for x in inputs]

    def load(position, loader, idx):
        if not is_tensor(inputs[position]):
            return constant(loader, compute)
        return loader(idx) if position in uncast else cast(loader(idx), compute)

    def inner_fn(idx):
        return fn(*[load(i, ld, idx) for i, ld in enumerate(loaders)])

    probe = inner_fn(ir.symbolic_index(size, "x"))
    return pointwise_node(size, probe.dtype, inner_fn)


def pointwise_node(size, dtype, inner_fn):
    return ir.StorageBox(ir.Pointwise(size, dtype, inner_fn), current_graph())


def float_dtype(*inputs):
    dtype = ir.promote(*inputs)
    return dtype if dtype.is_floating_point else _dtype.get_default_dtype()


def elementwise(name, compute=None, predicate=False):
    """The lowering of an aten op that is the loop_ir op `name` of its operands, computed in their promoted
    dtype, or with compute="float" in a floating one (integers promote to the default dtype), or with
    compute="bool" on their truth values. A `predicate` (a comparison, isnan) gives bools."""
    def lower(*xs):
        # (a 16-bit float compares with a number rounded to its dtype, as in eager: torch's inductor rounds it too)
        if predicate and (half := next(x.dtype for x in xs if is_tensor(x))) in _dtype.HALVES:
            with np.errstate(over="ignore"):  # (a number past the dtype's range is its inf, as c10 casts it)
                xs = [float(half.np.type(x)) if type(x) in (int, float) else x for x in xs]
        compute_dtype = float_dtype(*xs) if compute == "float" else _dtype.bool_ if compute == "bool" else None
        result_dtype = _dtype.bool_ if predicate else None
        return pointwise(lambda *vs: op(name, *vs, dtype=result_dtype), *xs, compute_dtype=compute_dtype)

    return lower


# ---- arithmetic with alpha, division modes, powers ----------------------------------------


def add(a, b, alpha=1, name="add"):
    """a + alpha * b (sub: a - alpha * b)."""
    if alpha != 1:
        return pointwise(lambda u, v, s: op(name, u, op("mul", v, s)), a, b, alpha, compute_dtype=ir.promote(a, b))
    return pointwise(lambda u, v: op(name, u, v), a, b)


def sub(a, b, alpha=1):
    return add(a, b, alpha, "sub")


def mul(a, b):
    return pointwise(lambda u, v: op("mul", u, v), a, b, compute_dtype=ir.promote(a, b))


def div(a, b):
    return pointwise(lambda u, v: op("truediv", u, v), a, b, compute_dtype=float_dtype(a, b))


def div_mode(a, b, rounding_mode=None):
    if rounding_mode is None:
        return div(a, b)
    if ir.promote(a, b).is_floating_point:  # torch's compiled floor: floor(a / b), not ATen's eager // steps
        return pointwise(lambda u, v: op(rounding_mode, op("truediv", u, v)), a, b, compute_dtype=ir.promote(a, b))
    return pointwise(lambda u, v: op("floordiv" if rounding_mode == "floor" else "truncdiv", u, v), a, b)  # exact


def pow_(a, b):
    form = scalar_exponent_form(b, ir.promote(a, b)) if is_tensor(a) and not is_tensor(b) else "pow"
    if form == "pow":
        return pointwise(lambda u, v: op("pow", u, v), a, b)
    return pointwise(lambda u: build_form(form, u, constant(1, u.dtype), op), a, compute_dtype=ir.promote(a, b))


def log10(x):
    return pointwise(lambda v: op("mul", op("log", v), constant(1 / math.log(10), v.dtype)), x,
                     compute_dtype=float_dtype(x))


def isfinite(x):
    return pointwise(lambda v: op("logical_not", op("logical_or", op("isnan", v, dtype=_dtype.bool_),
                                                      op("isinf", v, dtype=_dtype.bool_))), x)


def logical_xor(a, b):
    """a != b on truth values (loop_ir has no logical_xor op)."""
    return pointwise(lambda u, v: compare("ne", u, v), a, b, compute_dtype=_dtype.bool_)


# ---- selection and clamping ---------------------------------------------------------------


def where(cond, a, b):
    return pointwise(lambda c, u, v: op("where", cast(c, _dtype.bool_), u, v, dtype=u.dtype), cond, a, b, uncast=(0,))


def clamp(x, min=None, max=None):
    bounded = [(name, bound) for name, bound in (("maximum", min), ("minimum", max)) if bound is not None]

    def body(v, *bounds):
        for (name, _), bound in zip(bounded, bounds):
            v = op(name, v, bound)
        return v

    bounds = [bound for _, bound in bounded]
    return pointwise(body, x, *bounds, compute_dtype=ir.promote(x, *bounds))


def addc(name):  # addcmul, addcdiv: x + value * (t1 `name` t2)
    def lower(x, t1, t2, value=1):
        dtype = ir.promote(x, t1, t2)
        return pointwise(lambda a, b, c, s: cast(op("add", a, op("mul", s, op(name, b, c))), dtype), x, t1, t2, value,
                         compute_dtype=_dtype.opmath(dtype))
    return lower


# ---- activations and their backwards (those the decomposition table leaves whole) ---------


def native_dropout_backward(grad, mask, scale):
    return pointwise(lambda g, m: op("mul", op("mul", g, cast(m, g.dtype)), constant(scale, g.dtype)), grad, mask,
                     compute_dtype=grad.dtype, uncast=(1,))


# ---- copies and casts ---------------------------------------------------------------------


def to_dtype(x, dtype):
    return pointwise(lambda v: cast(v, dtype), x, compute_dtype=x.dtype)


def to_copy(x, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False, memory_format=None):
    return to_dtype(x, dtype or x.dtype)


def clone(x, memory_format=None):
    return pointwise(lambda v: v, x, compute_dtype=x.dtype)


def copy(x, src, non_blocking=False):
    load = broadcast_loader(src, x.get_size())
    return pointwise_node(x.get_size(), x.dtype, lambda idx: cast(load(idx), x.dtype))


def identity(x, *args, **kwargs):
    return x


# ---- factories ----------------------------------------------------------------------------


def full(size, value, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    dtype = dtype or _dtype.scalar_dtype(value)
    return pointwise_node(list(size), dtype, lambda idx: constant(value, dtype))


def full_like(x, value, *, dtype=None, **_):
    return full(x.get_size(), value, dtype=dtype or x.dtype)


def factory(value):
    """zeros, ones (and empty, as zeros)."""
    return lambda size, *, dtype=None, **_: full(size, value, dtype=dtype or _dtype.get_default_dtype())


def like(value):
    return lambda x, *args, dtype=None, **_: full_like(x, value, dtype=dtype)


def new_factory(value):
    return lambda x, size, *, dtype=None, **_: full(size, value, dtype=dtype or x.dtype)


def scalar_tensor(value, *, dtype=None, **_):
    return full([], value, dtype=dtype or _dtype.get_default_dtype())


# (always given a dtype: called by prims.iota, or for an arange.start_step that select_decomp_table left whole, which
# names an integral dtype for float bounds)
def arange(start, end, step=1, *, dtype, **_):
    symbolic = any(L.is_size_expr(v) for v in (start, end, step))  # (-floordiv: the ceiling of the division)
    length = -L.floordiv(start - end, step) if symbolic else max(0, math.ceil((end - start) / step))

    def inner_fn(idx):
        index = L.IndexValue(idx[0], _dtype.int64 if not dtype.is_floating_point else dtype)
        return cast(op("add", constant(start, index.dtype), op("mul", index, constant(step, index.dtype))), dtype)

    return pointwise_node([length], dtype, inner_fn)


# ---- prims (the primitives torch's inductor decompositions record) ------------------------


def iota(length, *, start, step, dtype, device=None, requires_grad=False):
    return arange(start, start + length * step, step, dtype=dtype)


def fma(a, b, c):
    """a * b + c, computed as a multiply then an add (the generated code has no fused instruction)."""
    return pointwise(lambda u, v, w: op("add", op("mul", u, v), w), a, b, c)
