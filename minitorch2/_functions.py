"""The torch-level functions (`minitorch2.relu`, `minitorch2.sum`, `minitorch2.matmul`, ...).

Runtime layer, between user code and the op registry. Each function parses a
PyTorch-style call (optional dims, keyword arguments, Python scalars), picks
the aten overload PyTorch would dispatch to, and calls it. Composite
functions that PyTorch implements in terms of other ops at this level
(`matmul`, `reshape`, `flatten`, `softmax` with a dtype, ...) are written the
same way here, so traced graphs record the same aten ops.
"""

from . import _dtype
from ._ops import ops
from ._tensor import Tensor, contiguous_format

aten = ops.aten


def _t(x):
    return isinstance(x, Tensor)


def _dims(dim):
    if dim is None:
        return None
    if isinstance(dim, (list, tuple)):
        return list(dim)
    return [dim]


# ---------------------------------------------------------------- arithmetic
def add(input, other, *, alpha=1, out=None):
    if not _t(input):
        input, other = other, input
    if alpha == 1:
        return aten.add.Tensor(input, other)
    return aten.add.Tensor(input, other, alpha=alpha)


def sub(input, other, *, alpha=1, out=None):
    if not _t(input):
        return aten.rsub.Scalar(other, input, alpha)
    if alpha == 1:
        return aten.sub.Tensor(input, other)
    return aten.sub.Tensor(input, other, alpha=alpha)


subtract = sub


def rsub(input, other, *, alpha=1):
    if _t(other):
        return aten.rsub.Tensor(input, other, alpha=alpha)
    return aten.rsub.Scalar(input, other, alpha)


def mul(input, other, *, out=None):
    if not _t(input):
        input, other = other, input
    return aten.mul.Tensor(input, other)


multiply = mul


def div(input, other, *, rounding_mode=None, out=None):
    if not _t(input):
        input = scalar_tensor_like(input, other)
    if rounding_mode is not None:
        return aten.div.Tensor_mode(input, other, rounding_mode=rounding_mode)
    return aten.div.Tensor(input, other)


divide = true_divide = div


def floor_divide(input, other):
    if not _t(input):
        input = scalar_tensor_like(input, other)
    return aten.div.Tensor_mode(input, other, rounding_mode="floor")


def remainder(input, other):
    if not _t(input):
        input = scalar_tensor_like(input, other)
    return aten.remainder.Tensor(input, other)


def fmod(input, other):
    return aten.fmod.Tensor(input, other) if _t(other) else aten.fmod.Scalar(input, other)


def scalar_tensor_like(value, like):
    return aten.scalar_tensor.default(value, dtype=_dtype.scalar_dtype(value))


def pow(input, exponent):
    if not _t(input):
        return aten.pow.Scalar(input, exponent)
    if _t(exponent):
        return aten.pow.Tensor_Tensor(input, exponent)
    return aten.pow.Tensor_Scalar(input, exponent)


def neg(input):
    return aten.neg.default(input)


negative = neg


def maximum(input, other):
    return aten.maximum.default(input, other)


def minimum(input, other):
    return aten.minimum.default(input, other)


def atan2(input, other):
    return aten.atan2.default(input, other)


def lerp(input, end, weight):
    return aten.lerp.Scalar(input, end, weight)


def addcmul(input, tensor1, tensor2, *, value=1):
    return aten.addcmul.default(input, tensor1, tensor2, value=value)


def addcdiv(input, tensor1, tensor2, *, value=1):
    return aten.addcdiv.default(input, tensor1, tensor2, value=value)


def _unary(op):
    def fn(input, *, out=None):
        return op(input)

    fn.__name__ = fn.__qualname__ = op._opname
    return fn


abs = _unary(aten.abs.default)
absolute = abs
exp = _unary(aten.exp.default)
exp2 = _unary(aten.exp2.default)
expm1 = _unary(aten.expm1.default)
log = _unary(aten.log.default)
log2 = _unary(aten.log2.default)
log10 = _unary(aten.log10.default)
log1p = _unary(aten.log1p.default)
sin = _unary(aten.sin.default)
cos = _unary(aten.cos.default)
tan = _unary(aten.tan.default)
asin = _unary(aten.asin.default)
acos = _unary(aten.acos.default)
atan = _unary(aten.atan.default)
sinh = _unary(aten.sinh.default)
cosh = _unary(aten.cosh.default)
sqrt = _unary(aten.sqrt.default)
rsqrt = _unary(aten.rsqrt.default)
reciprocal = _unary(aten.reciprocal.default)
tanh = _unary(aten.tanh.default)
sigmoid = _unary(aten.sigmoid.default)
erf = _unary(aten.erf.default)
relu = _unary(aten.relu.default)
sign = _unary(aten.sign.default)
sgn = _unary(aten.sgn.default)
floor = _unary(aten.floor.default)
ceil = _unary(aten.ceil.default)
trunc = _unary(aten.trunc.default)
round = _unary(aten.round.default)
logical_not = _unary(aten.logical_not.default)
bitwise_not = _unary(aten.bitwise_not.default)
isnan = _unary(aten.isnan.default)
isinf = _unary(aten.isinf.default)
isfinite = _unary(aten.isfinite.default)


def relu_(input):
    return aten.relu_.default(input)


def clamp(input, min=None, max=None, *, out=None):
    if _t(min) or _t(max):
        return aten.clamp.Tensor(input, min, max)
    return aten.clamp.default(input, min, max)


clip = clamp


def clamp_min(input, min):
    return aten.clamp_min.default(input, min)


def clamp_max(input, max):
    return aten.clamp_max.default(input, max)


def where(condition, input=None, other=None):
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    if not _t(input):
        input = aten.scalar_tensor.default(input, dtype=_scalar_where_dtype(input, other))
    if not _t(other):
        other = aten.scalar_tensor.default(other, dtype=_scalar_where_dtype(other, input))
    return aten.where.self(condition, input, other)


def _scalar_where_dtype(value, other):
    if _t(other) and _dtype.scalar_dtype(value).category <= other.dtype.category:
        return other.dtype
    return _dtype.scalar_dtype(value)


def masked_fill(input, mask, value):
    if _t(value):
        return aten.masked_fill.Tensor(input, mask, value)
    return aten.masked_fill.Scalar(input, mask, value)


# ---------------------------------------------------------------- comparisons
def _compare(name):
    tensor_op = getattr(aten, name).Tensor
    scalar_op = getattr(aten, name).Scalar

    def fn(input, other, *, out=None):
        return tensor_op(input, other) if _t(other) else scalar_op(input, other)

    fn.__name__ = fn.__qualname__ = name
    return fn


eq = _compare("eq")
ne = _compare("ne")
lt = _compare("lt")
le = _compare("le")
gt = _compare("gt")
ge = _compare("ge")
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne


def logical_and(input, other):
    return aten.logical_and.default(input, other)


def logical_or(input, other):
    return aten.logical_or.default(input, other)


def logical_xor(input, other):
    return aten.logical_xor.default(input, other)


def bitwise_and(input, other):
    return aten.bitwise_and.Tensor(input, other)


def bitwise_or(input, other):
    return aten.bitwise_or.Tensor(input, other)


def bitwise_xor(input, other):
    return aten.bitwise_xor.Tensor(input, other)


def equal(input, other):
    return tuple(input.shape) == tuple(other.shape) and bool(aten.eq.Tensor(input, other).all())


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(isclose(input, other, rtol, atol, equal_nan).all())


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    import numpy as np

    result = np.isclose(input.numpy(force=True), other.numpy(force=True), rtol=rtol, atol=atol, equal_nan=equal_nan)
    return Tensor._from_numpy(np.asarray(result))


# ---------------------------------------------------------------- reductions
def sum(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return aten.sum.default(input, dtype=dtype)
    return aten.sum.dim_IntList(input, _dims(dim), keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return aten.mean.default(input, dtype=dtype)
    return aten.mean.dim(input, _dims(dim), keepdim, dtype=dtype)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        return aten.prod.default(input, dtype=dtype)
    raise NotImplementedError("minitorch2: prod over a dim is not implemented yet")


def amax(input, dim=(), keepdim=False):
    return aten.amax.default(input, _dims(dim), keepdim)


def amin(input, dim=(), keepdim=False):
    return aten.amin.default(input, _dims(dim), keepdim)


class _MinMax(tuple):
    """torch.return_types.max: a (values, indices) tuple with names."""

    def __new__(cls, values, indices, name="max"):
        self = tuple.__new__(cls, (values, indices))
        self._name = name
        return self

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


def max(input, dim=None, keepdim=False, *, out=None):
    if dim is None:
        return aten.max.default(input)
    if _t(dim):
        return maximum(input, dim)
    return _MinMax(*aten.max.dim(input, dim, keepdim), name="max")


def min(input, dim=None, keepdim=False, *, out=None):
    if dim is None:
        return aten.min.default(input)
    if _t(dim):
        return minimum(input, dim)
    return _MinMax(*aten.min.dim(input, dim, keepdim), name="min")


def argmax(input, dim=None, keepdim=False):
    return aten.argmax.default(input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return aten.argmin.default(input, dim, keepdim)


def _correction(unbiased, correction):
    if correction is not None:
        return correction
    if unbiased is None or unbiased is True:
        return None
    return 0


def _var_args(dim, unbiased, keepdim, correction):
    if isinstance(dim, bool):  # var(x, False): the old `unbiased` positional form
        dim, unbiased = None, dim
    return _dims(dim), _correction(unbiased, correction), keepdim


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, correction, keepdim = _var_args(dim, unbiased, keepdim, correction)
    return aten.var.correction(input, dim, correction=correction, keepdim=keepdim)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, correction, keepdim = _var_args(dim, unbiased, keepdim, correction)
    return aten.std.correction(input, dim, correction=correction, keepdim=keepdim)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    dim, correction, keepdim = _var_args(dim, unbiased, keepdim, correction)
    return aten.var_mean.correction(input, dim, correction=correction, keepdim=keepdim)


def logsumexp(input, dim, keepdim=False):
    return aten.logsumexp.default(input, _dims(dim), keepdim)


def cumsum(input, dim, *, dtype=None):
    return aten.cumsum.default(input, dim, dtype=dtype)


def any(input, dim=None, keepdim=False):
    if dim is None:
        return aten.any.default(input)
    return aten.any.dims(input, _dims(dim), keepdim)


def all(input, dim=None, keepdim=False):
    if dim is None:
        return aten.all.default(input)
    return aten.all.dims(input, _dims(dim), keepdim)


def softmax(input, dim, dtype=None, *, _stacklevel=3):
    if dtype is not None:
        input = input.to(dtype)
    return aten._softmax.default(input, dim, False)


def log_softmax(input, dim, dtype=None, *, _stacklevel=3):
    if dtype is not None:
        input = input.to(dtype)
    return aten._log_softmax.default(input, dim, False)


# ---------------------------------------------------------------- matrix products
def mm(input, mat2):
    return aten.mm.default(input, mat2)


def bmm(input, mat2):
    return aten.bmm.default(input, mat2)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return aten.addmm.default(input, mat1, mat2, beta=beta, alpha=alpha)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    return aten.baddbmm.default(input, batch1, batch2, beta=beta, alpha=alpha)


def dot(input, other):
    return aten.dot.default(input, other)


def mv(input, vec):
    return aten.mv.default(input, vec)


def outer(input, vec2):
    return mul(reshape(input, [input.shape[0], 1]), vec2)


ger = outer


def matmul(input, other):
    """torch.matmul, composed of dot/mv/mm/bmm and views as PyTorch composes it, so traces record the
    same ops: the larger operand's batch folds into mm rows when that needs no copy (or when the smaller
    operand requires grad, so its gradient is one mm); otherwise bmm over the expanded batches.

    As in PyTorch there are two variants: eager runs ATen's C++ `_matmul_impl`; with the Python
    dispatcher enabled (AOT tracing) torch._decomp's `matmul` runs. They differ in three details,
    marked `traced` below."""
    a, b = input.dim(), other.dim()
    if a == 0 or b == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
    if a == 1 and b == 1:
        return dot(input, other)
    if a == 2 and b == 1:
        return mv(input, other)
    if a == 1 and b == 2:
        return squeeze(mm(unsqueeze(input, 0), other), 0)  # (eager ATen squeezes in place: squeeze_)
    if a == 2 and b == 2:
        return mm(input, other)
    from ._python_dispatcher import python_dispatcher_enabled

    traced = python_dispatcher_enabled()
    if _should_fold(input, other, traced):
        return _folded_matmul(input, other)
    return _batched_matmul(input, other, traced)


def _should_fold(tensor1, tensor2, traced):
    if tensor1.dim() >= tensor2.dim():
        t1, t2 = tensor1, tensor2
    else:  # eager looks at the transposed larger operand (a recorded transpose); the decomposition does not
        t1, t2 = (tensor2 if traced else transpose(tensor2, -2, -1)), tensor1
    if not (t1.dim() >= 3 and t2.dim() <= 2):
        return False
    if t2.requires_grad:
        return True
    if tensor1.dim() == 2:
        return False
    if t1.numel() == 0:
        return True
    shape, stride = t1.shape, t1.stride()
    if traced:  # t1 contiguous, size-1 dims aside
        expected = 1
        for size, st in zip(reversed(shape), reversed(stride)):
            if size != 1 and st != expected:
                return False
            expected *= size
        return True
    for i in range(t1.dim() - 2):  # eager: the batch dims flatten into rows without a copy
        if stride[i] != stride[i + 1] * shape[i + 1]:
            return False
    return True


def _folded_matmul(tensor1, tensor2):
    transposed = tensor2.dim() > tensor1.dim()
    t1 = transpose(tensor2, -2, -1) if transposed else tensor1
    t2 = tensor2 if not transposed else (t(tensor1) if tensor1.dim() == 2 else tensor1)
    output_shape = list(t1.shape[:-1])
    folded = reshape(t1, [_prod(output_shape), t1.shape[-1]])
    if t2.dim() == 2:
        output = aten._unsafe_view.default(mm(folded, t2), output_shape + [t2.shape[1]])
        return transpose(output, -2, -1).contiguous() if transposed else output
    return aten._unsafe_view.default(mv(folded, t2), output_shape)


def _batched_matmul(tensor1, tensor2, traced):
    a, b = tensor1.dim(), tensor2.dim()
    n = tensor1.shape[-2] if a > 1 else 1
    m1 = tensor1.shape[-1]
    m2 = tensor2.shape[-2] if b > 1 else tensor2.shape[-1]
    p = tensor2.shape[-1] if b > 1 else 1
    batch1, batch2 = tuple(tensor1.shape[:-2]), tuple(tensor2.shape[:-2])
    if a == 3 and b == 3 and batch1[0] != batch2[0]:  # a batch of one folds instead (traced: if it requires grad)
        if batch1[0] == 1 and (tensor1.requires_grad or not traced):
            return matmul(squeeze(tensor1, 0), tensor2)
        if batch2[0] == 1 and (tensor2.requires_grad or not traced):
            return matmul(tensor1, squeeze(tensor2, 0))
    from ._aten.meta_util import broadcast_shapes

    batch = list(broadcast_shapes(batch1, batch2))
    nbatch = _prod(batch)
    tensor1_expanded = reshape(expand(tensor1, batch + [n, m1]), [nbatch, n, m1])
    if b == 1:
        tensor2_expanded = unsqueeze(reshape(expand(tensor2, batch + [m2]), [nbatch, m2]), 2)
    else:
        tensor2_expanded = reshape(expand(tensor2, batch + [m2, p]), [nbatch, m2, p])
    output_shape = batch + ([n] if a > 1 else []) + ([p] if b > 1 else [])
    out = bmm(tensor1_expanded, tensor2_expanded)
    if b == 1:
        out = squeeze(out, -1)
    return view(out, output_shape) if traced else aten._unsafe_view.default(out, output_shape)


# ---------------------------------------------------------------- shape functions
def reshape(input, shape, *more):
    if more or isinstance(shape, int):
        shape = [shape, *more]
    shape = list(shape)
    from ._aten.views import infer_size, view_strides

    target = infer_size(shape, input.numel())
    if view_strides(tuple(input.shape), input.stride(), target) is not None:
        return aten.view.default(input, shape)
    return aten._unsafe_view.default(aten.clone.default(input, memory_format=contiguous_format), list(target))


def view(input, shape):
    return aten.view.default(input, list(shape))


def flatten(input, start_dim=0, end_dim=-1):
    n = input.dim()
    if n == 0:
        return reshape(input, [1])
    s = start_dim % n
    e = end_dim % n
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shape = list(input.shape[:s]) + [-1 if input.numel() else _prod(input.shape[s:e + 1])] + list(input.shape[e + 1:])
    return reshape(input, shape)


def unflatten(input, dim, sizes):
    d = dim % input.dim()
    return view(input, list(input.shape[:d]) + list(sizes) + list(input.shape[d + 1:]))


def _prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


def squeeze(input, dim=None):
    if dim is None:
        return aten.squeeze.default(input)
    if isinstance(dim, (list, tuple)):
        return aten.squeeze.dims(input, list(dim))
    return aten.squeeze.dim(input, dim)


def unsqueeze(input, dim):
    return aten.unsqueeze.default(input, dim)


def permute(input, dims):
    return aten.permute.default(input, list(dims))


def transpose(input, dim0, dim1):
    return aten.transpose.int(input, dim0, dim1)


swapaxes = swapdims = transpose


def t(input):
    return aten.t.default(input)


def expand(input, size):
    return aten.expand.default(input, list(size))


def select(input, dim, index):
    return aten.select.int(input, dim, index)


def narrow(input, dim, start, length):
    return aten.slice.Tensor(input, dim, start, start + length)


def diagonal(input, offset=0, dim1=0, dim2=1):
    return aten.diagonal.default(input, offset, dim1, dim2)


def movedim(input, source, destination):
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    n = input.dim()
    src = [s % n for s in src]
    dst = [s % n for s in dst]
    order = [i for i in range(n) if i not in src]
    result = [None] * n
    for s, dd in zip(src, dst):
        result[dd] = s
    it = iter(order)
    return permute(input, [r if r is not None else next(it) for r in result])


def cat(tensors, dim=0, *, out=None):
    return aten.cat.default(list(tensors), dim)


concat = concatenate = cat


def stack(tensors, dim=0, *, out=None):
    return aten.stack.default(list(tensors), dim)


def hstack(tensors):
    return cat(tensors, 0 if tensors[0].dim() == 1 else 1)


def vstack(tensors):
    return cat([t if t.dim() > 1 else unsqueeze(t, 0) for t in tensors], 0)


def split(tensor, split_size_or_sections, dim=0):
    if isinstance(split_size_or_sections, int):
        return tuple(aten.split.Tensor(tensor, split_size_or_sections, dim))
    return tuple(aten.split_with_sizes.default(tensor, list(split_size_or_sections), dim))


def chunk(input, chunks, dim=0):
    size = input.shape[dim]
    each = -(-size // chunks) if size else 1
    return split(input, each, dim)


def unbind(input, dim=0):
    return tuple(aten.unbind.int(input, dim))


def tril(input, diagonal=0):
    return aten.tril.default(input, diagonal)


def triu(input, diagonal=0):
    return aten.triu.default(input, diagonal)


def flip(input, dims):
    return aten.flip.default(input, list(dims))


def roll(input, shifts, dims=None):
    shifts = [shifts] if isinstance(shifts, int) else list(shifts)
    return aten.roll.default(input, shifts, [] if dims is None else _dims(dims))


def gather(input, dim, index, *, sparse_grad=False):
    return aten.gather.default(input, dim, index)


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    if src is None:
        src = value
    if _t(src):
        return aten.scatter.src(input, dim, index, src)
    return aten.scatter.value(input, dim, index, src)


def scatter_add(input, dim, index, src):
    return aten.scatter_add.default(input, dim, index, src)


def index_select(input, dim, index):
    return aten.index_select.default(input, dim, index)


def index_add(input, dim, index, source, *, alpha=1):
    return aten.index_add.default(input, dim, index, source, alpha=alpha)


def nonzero(input, *, as_tuple=False):
    result = aten.nonzero.default(input)
    if as_tuple:
        return tuple(result[:, i] for i in range(result.shape[1]))
    return result


def clone(input, *, memory_format=None):
    return aten.clone.default(input)


def detach(input):
    return aten.detach.default(input)


def numel(input):
    return input.numel()


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(input):
    return input.dtype.is_floating_point


def broadcast_tensors(*tensors):
    from ._aten.meta_util import broadcast_shapes

    shape = list(broadcast_shapes(*(tuple(t.shape) for t in tensors)))
    return tuple(expand(t, shape) for t in tensors)


def broadcast_to(input, size):
    return expand(input, size)


def einsum(equation, *operands):
    raise NotImplementedError("minitorch2 does not implement einsum (optional in API.md)")


def result_type(tensor1, tensor2):
    return _dtype.result_type(tensor1, tensor2)




# The torch-level names `minitorch2/__init__.py` re-exports: every public function above.
__all__ = [name for name, value in list(globals().items())
           if callable(value) and not name.startswith("_") and name not in ("Tensor", "aten")
           and getattr(value, "__module__", __name__) == __name__]
