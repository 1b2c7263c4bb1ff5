"""Export's own decompositions: the ops torch's core ATen table (run_decompositions()' default) splits that the op
table's rows keep whole, or split otherwise for the inductor path.

torch.export layer (coverage surface): exported_program.core_aten_decomposition_table() adds these to the rows'
decompositions of the ops outside the core set, and they win over a row's own (tril's row counts with prims.iota,
as torch's inductor graphs do; an exported graph counts with aten.arange). Each records the ops torch's export
records for the op, in the same order (`value * tensor1` is `mul.Tensor(tensor1, value)`; `torch.where(c, 0, x)`
makes a scalar_tensor of x's dtype, layout and device). A decomposition returns NotImplemented where torch's
would record something ours cannot (an op we lack) and the op then stays whole.

Torch's table also holds the in-place forms (addcdiv_, fill_, tril_, xlogy_, ...); its export never reaches them,
as functionalization first turns each into its functional form, which the table then splits. run_decompositions()
does the same. Left whole, with the reason: empty_like (torch records empty_permuted, an op we lack), xlogy with
a Python number (prims.scalar_tensor, which we lack), affine_grid_generator_backward (an op of joint graphs only),
sym_size.int (symbolic sizes; our export refuses dynamic shapes).
"""
import math

from .. import _dtype
from .._ops import ops
from .._tensor import contiguous_format, preserve_format, strided
from .._type_info import finfo
from .decompositions_backward import BACKWARD, scalar as _scalar

aten = ops.aten


def _positions(length, like, **dtype):
    return aten.arange.start_step(0, length, **dtype, layout=strided, device=like.device, pin_memory=False)


def _as_float(t):
    """An integer tensor cast to the default float dtype first, as torch's integer-to-float ops do."""
    if t.dtype.is_floating_point:
        return t
    return aten._to_copy.default(t, dtype=_dtype.get_default_dtype())


def _from_integers(decomposition):
    """A float-valued op of an integer input: the input cast first."""
    def decompose(self, *args, **kwargs):
        return decomposition(_as_float(self), *args, **kwargs)
    decompose.__name__ = decomposition.__name__
    return decompose


def _float_only(decomposition):
    """Integer inputs take other routes in torch (logaddexp's a cast afterwards); those stay whole."""
    def decompose(self, *args, **kwargs):
        return decomposition(self, *args, **kwargs) if self.dtype.is_floating_point else NotImplemented
    decompose.__name__ = decomposition.__name__
    return decompose


# ---------------------------------------------------------------- arithmetic
def addcmul(self, tensor1, tensor2, *, value=1):
    return aten.add.Tensor(self, aten.mul.Tensor(aten.mul.Tensor(tensor1, value), tensor2))


def addcdiv(self, tensor1, tensor2, *, value=1):
    return aten.add.Tensor(self, aten.div.Tensor(aten.mul.Tensor(tensor1, value), tensor2))


def clamp_min(self, min):
    return aten.clamp.default(self, min)


def clamp_max(self, max):
    return aten.clamp.default(self, None, max)


def sum_default(self, *, dtype=None):
    return aten.sum.dim_IntList(self, [], dtype=dtype)


def deg2rad(self):
    return aten.mul.Tensor(_as_float(self), math.pi / 180)


def rad2deg(self):
    return aten.mul.Tensor(_as_float(self), 180 / math.pi)


def dot(self, tensor):
    return aten.sum.dim_IntList(aten.mul.Tensor(self, tensor), [])


def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    product = aten.bmm.default(batch1, batch2)
    if alpha != 1:
        product = aten.mul.Tensor(product, alpha)
    if beta == 0:
        return product
    return aten.add.Tensor(self if beta == 1 else aten.mul.Tensor(self, beta), product)


@_float_only
def lerp_scalar(self, end, weight):
    """Two formulas, chosen per element by |weight| < 0.5 (the weight a 0-d full of end's dtype):
    start + w * (end - start) below, end + (w - 1) * (end - start) above."""
    weight = aten.full.default([], weight, dtype=end.dtype, layout=strided, device=end.device, pin_memory=False)
    upper = aten.ge.Scalar(aten.abs.default(weight), 0.5)
    weight = aten.where.self(upper, aten.sub.Tensor(weight, 1), weight)
    base = aten.where.self(upper, end, self)
    return aten.add.Tensor(aten.mul.Tensor(weight, aten.sub.Tensor(end, self)), base)


# ---------------------------------------------------------------- pointwise selections
def isfinite(self):
    if not self.dtype.is_floating_point:  # integers are always finite
        return aten.full_like.default(self, True, dtype=_dtype.bool_, pin_memory=False, memory_format=preserve_format)
    not_infinite = aten.ne.Scalar(aten.abs.default(self), math.inf)
    return aten.mul.Tensor(aten.eq.Tensor(self, self), not_infinite)


def heaviside(self, values):
    is_zero = aten.eq.Scalar(self, 0)
    below = aten.logical_or.default(aten.lt.Scalar(self, 0), aten.isnan.default(self))
    one, zero = _scalar(1, self, _dtype.int64), _scalar(0, self, _dtype.int64)
    return aten.where.self(is_zero, values, aten.where.self(below, zero, one))


@_from_integers
def logit(self, eps=None):
    low, high = (-1.0, 2.0) if eps is None else (eps, 1 - eps)
    below, above = aten.lt.Scalar(self, low), aten.gt.Scalar(self, high)
    clamped = aten.where.self(above, _scalar(high, self), self)
    clamped = aten.where.self(below, _scalar(low, self), clamped)
    return aten.log.default(aten.div.Tensor(clamped, aten.sub.Tensor(1, clamped)))


@_from_integers
def sinc(self):
    scaled = aten.mul.Tensor(self, math.pi)
    at_zero = aten.eq.Scalar(scaled, 0)
    quotient = aten.div.Tensor(aten.sin.default(scaled), scaled)
    return aten.where.self(at_zero, _scalar(1, self), quotient)


@_from_integers
def special_entr(self):
    nan, positive = aten.isnan.default(self), aten.gt.Scalar(self, 0)
    entropy = aten.mul.Tensor(aten.neg.default(self), aten.log.default(self))
    at_zero = aten.eq.Scalar(self, 0)
    minus_inf = _scalar(-math.inf, self)
    rest = aten.where.self(at_zero, _scalar(0, self), minus_inf)
    return aten.where.self(nan, self, aten.where.self(positive, entropy, rest))


def threshold(self, threshold, value):
    return aten.where.self(aten.le.Scalar(self, threshold), _scalar(value, self), self)


def xlogy_tensor(self, other):
    self, other = _as_float(self), _as_float(other)
    if other.dtype is not self.dtype:
        return NotImplemented
    at_zero = aten.eq.Scalar(self, 0)
    product = aten.mul.Tensor(self, aten.log.default(other))
    product = aten.where.self(at_zero, _scalar(0, self), product)
    return aten.where.self(aten.isnan.default(other), _scalar(math.nan, self), product)


def masked_fill_scalar(self, mask, value):
    """where(mask, value, self), the value a number of self's kind; the result contiguous, as masked_fill's is."""
    python_type = float if self.dtype.is_floating_point else bool if self.dtype is _dtype.bool_ else int
    filled = aten.where.self(mask, _scalar(python_type(value), self), self)
    return filled if filled.is_contiguous() else aten.clone.default(filled, memory_format=contiguous_format)


def nan_to_num(self, nan=None, posinf=None, neginf=None):
    if not self.dtype.is_floating_point:
        return aten.clone.default(self)  # integers hold no nan or infinity
    limits = finfo(self.dtype)
    result = aten.where.self(aten.isnan.default(self), _scalar(0.0 if nan is None else nan, self), self)
    low = limits.min if neginf is None else neginf
    result = aten.where.self(aten.eq.Scalar(self, -math.inf), _scalar(low, self), result)
    high = limits.max if posinf is None else posinf
    return aten.where.self(aten.eq.Scalar(self, math.inf), _scalar(high, self), result)


# ---------------------------------------------------------------- logaddexp
@_float_only
def logaddexp(self, other):
    """max + log1p(exp(min - max)); where both are the same infinity, self."""
    larger, smaller = _ordered(self, other)
    same_infinity = aten.logical_and.default(aten.logical_not.default(aten.isfinite.default(self)),
                                             aten.eq.Tensor(self, other))
    result = aten.add.Tensor(larger, aten.log1p.default(aten.exp.default(aten.sub.Tensor(smaller, larger))))
    return aten.where.self(same_infinity, self, result)


@_float_only
def logaddexp2(self, other):
    larger, smaller = _ordered(self, other)
    same_infinity = aten.logical_and.default(aten.isinf.default(self), aten.eq.Tensor(self, other))
    log1p = aten.log1p.default(aten.exp2.default(aten.sub.Tensor(smaller, larger)))
    result = aten.add.Tensor(larger, aten.mul.Tensor(log1p, 1 / math.log(2)))
    return aten.where.self(same_infinity, self, result)


def _ordered(self, other):
    self_larger = aten.ge.Tensor(self, other)
    return aten.where.self(self_larger, self, other), aten.where.self(self_larger, other, self)


# ---------------------------------------------------------------- reductions
def aminmax(self, *, dim=None, keepdim=False):
    if dim is None:
        return aten.amin.default(self), aten.amax.default(self)
    if keepdim:
        return aten.amin.default(self, [dim], True), aten.amax.default(self, [dim], True)
    return aten.amin.default(self, [dim]), aten.amax.default(self, [dim])


def isin_tensor_scalar(elements, test_element, *, assume_unique=False, invert=False):
    return (aten.ne.Scalar if invert else aten.eq.Scalar)(elements, test_element)


def isin_scalar_tensor(element, test_elements, *, assume_unique=False, invert=False):
    element = aten.scalar_tensor.default(element, device=test_elements.device, pin_memory=False)
    return isin_tensor_tensor(element, test_elements, assume_unique=assume_unique, invert=invert)


def isin_tensor_tensor(elements, test_elements, *, assume_unique=False, invert=False):
    """Every element against every test element (a view with trailing ones, eq, any over the test's dims) while
    the test elements are few (torch's rule: fewer than 10 * elements**0.145); beyond that a binary search of
    the sorted test elements."""
    if test_elements.numel() >= 10.0 * pow(elements.numel(), 0.145):
        return _isin_sorted(elements, test_elements, assume_unique, invert)
    trailing = max(test_elements.dim(), 1)
    spread = aten.view.default(elements, list(elements.shape) + [1] * trailing)
    found = aten.any.dims(aten.eq.Tensor(spread, test_elements), list(range(-1, -trailing - 1, -1)))
    return aten.bitwise_not.default(found) if invert else found


def _isin_sorted(elements, test_elements, assume_unique, invert):
    if assume_unique or invert:
        return NotImplemented
    flat, count = _flattened(elements), test_elements.numel()
    ordered = aten.sort.default(_flattened(test_elements))[0]
    found_at = aten.searchsorted.Tensor(ordered, flat)
    found_at = aten.where.self(aten.lt.Scalar(found_at, count), found_at, _scalar(0, found_at))
    found = aten.eq.Tensor(aten.index.Tensor(ordered, [found_at]), flat)
    return aten.view.default(found, list(elements.shape))


def _flattened(t):
    """t.flatten(): t itself when it is 1-d already."""
    return t if t.dim() == 1 else aten.view.default(t, [t.numel()])


# ---------------------------------------------------------------- factories
def _float_default(dtype):
    return dtype or _dtype.get_default_dtype()


def _full_factory(value):
    def decomposition(size, *, dtype=None, layout=None, device=None, pin_memory=None):
        return aten.full.default(list(size), value, dtype=_float_default(dtype), layout=strided,
                                 device=device or "cpu", pin_memory=False)
    return decomposition


zeros, ones = _full_factory(0), _full_factory(1)


def new_empty(self, size, *, dtype=None, layout=None, device=None, pin_memory=None):
    return aten.empty.memory_format(list(size), dtype=dtype or self.dtype, layout=strided,
                                    device=device or self.device, pin_memory=False)


def fill_scalar(self, value):
    return aten.full_like.default(self, value, pin_memory=False)


def fill_tensor(self, value):
    return aten.copy.default(self, value)


def zero(self):
    return aten.full_like.default(self, 0, pin_memory=False, memory_format=preserve_format)


def eye(n, m=None, *, dtype=None, layout=None, device=None, pin_memory=None):
    """Row index == column index, counted in the smallest unsigned type that holds the sizes (uint8 here;
    torch's uint16 for larger sizes is not ours, so those stay whole)."""
    m = n if m is None else m
    if max(n, m) > 255:
        return NotImplemented
    options = {"dtype": _dtype.uint8, "layout": strided, "device": device or "cpu", "pin_memory": False}
    rows, columns = aten.arange.start_step(0, n, **options), aten.arange.start_step(0, m, **options)
    diagonal = aten.eq.Tensor(aten.unsqueeze.default(rows, -1), columns)
    return aten._to_copy.default(diagonal, dtype=_float_default(dtype))


def eye_m(n, m, **options):
    return eye(n, m, **options)


def bernoulli(self, *, generator=None):
    if generator is not None:
        return NotImplemented
    uniform = aten.rand.default(list(self.shape), dtype=self.dtype, device=self.device, pin_memory=False)
    return aten._to_copy.default(aten.lt.Tensor(uniform, self), dtype=self.dtype)


# ---------------------------------------------------------------- shapes and indexing
def split_tensor(self, split_size, dim=0):
    length = self.shape[dim]
    sizes = [min(split_size, length - start) for start in range(0, length, split_size)] if split_size else [0]
    return aten.split_with_sizes.default(self, sizes, dim)


def squeeze_default(self):
    return aten.squeeze.dims(self, list(range(self.dim())))


def squeeze_dim(self, dim):
    return aten.squeeze.dims(self, [dim])


def unbind(self, dim=0):
    """Unit slices along dim, then each squeezed."""
    dim = dim % max(self.dim(), 1)
    pieces = [aten.slice.Tensor(self, dim, i, i + 1) for i in range(self.shape[dim])]
    return [aten.squeeze.dims(piece, [dim]) for piece in pieces]


def roll(self, shifts, dims=()):
    """One index_select per rolled dim, gathering at (i + size - shift) mod size; no dims rolls the flat view."""
    if not dims:
        if len(shifts) != 1:
            return NotImplemented
        flat = aten.view.default(self, [self.numel()])
        return aten.view.default(roll(flat, shifts, [0]), list(self.shape))
    result = self
    for shift, dim in zip(shifts, dims):
        size = self.shape[dim]
        if size == 0:
            continue
        positions = aten.add.Tensor(_positions(size, self), (size - shift) % size)
        result = aten.index_select.default(result, dim, aten.fmod.Scalar(positions, size))
    return result


def select_scatter(self, src, dim, index):
    """Where the position along dim is index, src broadcast back over that dim; elsewhere self."""
    dim = dim % self.dim()
    position = aten.view.default(_positions(self.shape[dim], self), [1] * dim + [-1] + [1] * (self.dim() - dim - 1))
    chosen = aten.eq.Scalar(position, index % self.shape[dim])
    spread = aten.expand.default(aten.unsqueeze.default(src, dim), list(self.shape))
    return aten.where.self(chosen, spread, self)


def index_add(self, dim, index, source, *, alpha=1):
    if alpha != 1:
        source = aten.mul.Tensor(source, alpha)
    return aten.index_put.default(self, [None] * (dim % max(self.dim(), 1)) + [index], source, True)


def _triangle(keep_below):
    def decomposition(self, diagonal=0):
        if self.dim() < 2 or self.dtype is _dtype.bool_:
            return NotImplemented
        height, width = self.shape[-2:]
        columns = aten.unsqueeze.default(_positions(width, self), -2)
        offset = aten.sub.Tensor(columns, aten.unsqueeze.default(_positions(height, self), -1))
        mask = (aten.le.Scalar if keep_below else aten.ge.Scalar)(offset, diagonal)
        return aten.where.self(mask, self, _scalar(0, self))
    return decomposition


tril, triu = _triangle(keep_below=True), _triangle(keep_below=False)


def block_diag(tensors):
    """Each 2-d block padded with zeros left and right to the full width, the rows then stacked."""
    if any(t.dim() != 2 for t in tensors):
        return NotImplemented
    width, rows, before = sum(t.shape[1] for t in tensors), [], 0
    for t in tensors:
        options = {"dtype": t.dtype, "layout": strided, "device": t.device, "pin_memory": False}
        left = aten.full.default([t.shape[0], before], 0, **options)
        right = aten.full.default([t.shape[0], width - before - t.shape[1]], 0, **options)
        rows.append(aten.cat.default([left, t, right], 1))
        before += t.shape[1]
    return aten.cat.default(rows)


def diag_embed(self, offset=0, dim1=-2, dim2=-1):
    """The input spread along a new last-but-one dim, kept where row index == column index (the last two dims
    by default; other placements stay whole)."""
    if (offset, dim1 % (self.dim() + 1), dim2 % (self.dim() + 1)) != (0, self.dim() - 1, self.dim()):
        return NotImplemented
    n = self.shape[-1]
    spread = aten.permute.default(aten.unsqueeze.default(self, self.dim() - 1), list(range(self.dim() + 1)))
    columns, rows = _positions(n, self, dtype=_dtype.int64), _positions(n, self, dtype=_dtype.int64)
    diagonal = aten.eq.Tensor(columns, aten.unsqueeze.default(rows, -1))
    diagonal = aten.view.default(diagonal, [1] * (self.dim() - 1) + [n, n])
    return aten.where.self(diagonal, spread, _scalar(0, self))


def linalg_cross(self, other, *, dim=-1):
    """a[i+1] * b[i+2] - a[i+2] * b[i+1] along dim, the shifted positions picked by index_select."""
    if tuple(self.shape) != tuple(other.shape):
        return NotImplemented
    dim = dim % self.dim()
    positions = _positions(3, self)

    def shifted(t, by):
        return aten.index_select.default(t, dim, aten.remainder.Scalar(aten.add.Tensor(positions, by), 3))
    first = aten.mul.Tensor(shifted(self, 1), shifted(other, 2))
    return aten.sub.Tensor(first, aten.mul.Tensor(shifted(self, 2), shifted(other, 1)))


def linspace(start, end, steps, *, dtype=None, layout=None, device=None, pin_memory=None):
    """Counted from start in the first half and back from end in the second (exact endpoints), the step
    (end - start) / (steps - 1); fewer than two steps, tensor bounds or a non-float dtype stay whole."""
    dtype = _float_default(dtype)
    if steps < 2 or not dtype.is_floating_point or not all(isinstance(v, (int, float)) for v in (start, end)):
        return NotImplemented
    step = (end - start) / (steps - 1)
    index = aten.arange.start_step(0, steps, layout=strided, device=device or "cpu", pin_memory=False)
    first_half = aten.lt.Scalar(index, steps / 2)
    forward = aten.add.Tensor(aten.mul.Tensor(aten._to_copy.default(index, dtype=dtype), step), start)
    backward = aten._to_copy.default(aten.sub.Tensor(steps - 1, index), dtype=dtype)
    backward = aten.sub.Tensor(end, aten.mul.Tensor(backward, step))
    return aten.where.self(first_half, forward, backward)


def affine_grid_generator(theta, size, align_corners):
    """A 2-d sampling grid: the base grid (x, y, 1) per output pixel, built by padding each coordinate into
    its own column, times theta (a broadcast product summed, not a matmul)."""
    if len(size) != 4 or min(size[2:]) < 2:
        return NotImplemented
    n, _, height, width = size
    xs = aten.view.default(_from_minus_one(theta, width, align_corners), [1, width, 1])
    ys = aten.view.default(_from_minus_one(theta, height, align_corners), [height, 1, 1])
    one = aten.full.default([1, 1, 1], 1, dtype=theta.dtype, layout=strided, device=theta.device, pin_memory=False)
    columns = [aten.constant_pad_nd.default(xs, [0, 2], 0.0), aten.constant_pad_nd.default(ys, [1, 1], 0.0),
               aten.constant_pad_nd.default(one, [2, 0], 0.0)]
    base = aten.add.Tensor(aten.add.Tensor(columns[0], columns[1]), columns[2])
    base = aten.view.default(base, [-1, 3, 1])
    transposed = aten.unsqueeze.default(aten.permute.default(theta, [0, 2, 1]), 1)
    grid = aten.sum.dim_IntList(aten.mul.Tensor(base, transposed), [-2])
    return aten.view.default(grid, [n, height, width, 2])


def _from_minus_one(like, steps, align_corners):
    """Pixel centres in [-1, 1]: the ends themselves with align_corners, else shrunk by (steps - 1) / steps."""
    end = 1 if align_corners else (steps - 1) / steps
    return aten.linspace.default(-end, end, steps, dtype=like.dtype, device=like.device)


def lift_fresh_copy(self):
    """A tensor made from Python data while tracing: a copy of the constant (torch's functionalization makes
    it a clone)."""
    return aten.clone.default(self)


EXPORT_ONLY = {
    # arithmetic
    aten.addcmul.default: addcmul, aten.addcdiv.default: addcdiv, aten.clamp_min.default: clamp_min,
    aten.clamp_max.default: clamp_max, aten.sum.default: sum_default, aten.deg2rad.default: deg2rad,
    aten.rad2deg.default: rad2deg, aten.dot.default: dot, aten.baddbmm.default: baddbmm, aten.lerp.Scalar: lerp_scalar,
    # pointwise selections
    aten.isfinite.default: isfinite, aten.heaviside.default: heaviside, aten.logit.default: logit,
    aten.sinc.default: sinc, aten.special_entr.default: special_entr, aten.threshold.default: threshold,
    aten.xlogy.Tensor: xlogy_tensor, aten.masked_fill.Scalar: masked_fill_scalar, aten.nan_to_num.default: nan_to_num,
    aten.logaddexp.default: logaddexp, aten.logaddexp2.default: logaddexp2,
    # reductions
    aten.aminmax.default: aminmax,
    aten.isin.Tensor_Scalar: isin_tensor_scalar, aten.isin.Tensor_Tensor: isin_tensor_tensor,
    aten.isin.Scalar_Tensor: isin_scalar_tensor,
    # factories
    aten.zeros.default: zeros, aten.ones.default: ones, aten.new_empty.default: new_empty,
    aten.fill.Scalar: fill_scalar, aten.fill.Tensor: fill_tensor, aten.zero.default: zero, aten.eye.default: eye,
    aten.eye.m: eye_m, aten.bernoulli.default: bernoulli, aten.linspace.default: linspace,
    aten.lift_fresh_copy.default: lift_fresh_copy,
    # shapes and indexing
    aten.split.Tensor: split_tensor, aten.squeeze.default: squeeze_default, aten.squeeze.dim: squeeze_dim,
    aten.unbind.int: unbind, aten.roll.default: roll, aten.select_scatter.default: select_scatter,
    aten.index_add.default: index_add, aten.tril.default: tril, aten.triu.default: triu,
    aten.block_diag.default: block_diag, aten.diag_embed.default: diag_embed, aten.linalg_cross.default: linalg_cross,
    aten.affine_grid_generator.default: affine_grid_generator,
    # backward ops (an exported joint graph's)
    **BACKWARD,
}

# Rows whose decomposition is inductor's alone (torch's core ATen table lacks it, or, fill_, its export never reaches
# it: functionalized first): export keeps these ops whole.
INDUCTOR_ONLY = ("var_mean.correction", "round.decimals", "linalg_vector_norm.default", "upsample_bilinear2d.default",
                 "upsample_trilinear3d.default", "fill_.Scalar", "_native_batch_norm_legit_functional.default", "native_batch_norm.default",
                 "clamp_min_.Tensor", "rrelu_with_noise_backward.default", "softshrink_backward.default",
                 "hardshrink_backward.default")
