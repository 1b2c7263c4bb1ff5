"""numpy calls inside compiled frames as graph nodes (plays torch._numpy and the wrappers in torch._dynamo.utils).

Runtime layer, coverage surface; frontend/variables/numpy_arrays.py records the nodes. Dynamo traces `np.sin(x) + 1`
as two nodes, `wrapped_sin(l_x_)` and `wrapped_add(wrapped_sin, 1)`: inside the graph an ndarray is a tensor, and
each numpy function, ndarray method, operator on ndarrays and ndarray attribute is a callable node target:

    numpy_call(np.sin)             wrapped_sin(a)          np.sin(a)
    numpy_method("sum")            wrapped_sum(a, axis=0)  a.sum(axis=0)
    numpy_operator(operator.add)   wrapped_add(a, 1)       a + 1
    numpy_attr_wrapper             numpy_attr_wrapper(a, 'T')

A target runs one of two ways. On real tensors, under no dispatch mode and with no gradient wanted, it runs numpy
itself on the tensors' arrays (zero-copy: a tensor's memory is a numpy array) and hands the result back as a tensor,
a numpy scalar as a 0-d one: the values are numpy's own. Traced (fake tensors while the frontend records, AOT's
proxy mode, an input that requires grad) it runs its row of ROWS instead: minitorch2 ops under numpy's dtype rules,
which numpy itself is asked for, on one-element arrays of the inputs' dtypes (`np.mean` of int64 gives float64,
`np.sin` of float32 stays float32, a Python number is weak). A function with no row is not traced: the frontend
breaks the graph there, and numpy runs it eagerly.
"""
import collections
import operator
import warnings

import numpy as np

import minitorch2

from . import _dtype
from ._dispatch import current_modes
from ._sym import SymFloat, is_symbolic
from ._tensor import Tensor

# Dynamo's wrappers live in torch._dynamo.utils: graphs print their targets as globals named from there
# (`torch__dynamo_utils_wrapped_sin`), so ours are spelled the same.
DYNAMO_UTILS = "torch._dynamo.utils"


# ---- numpy's dtype rules, asked of numpy ---------------------------------------------------

def torch_dtype(np_dtype):
    return _dtype.from_numpy(np.dtype(np_dtype))


def _dummy(value):
    """What numpy is asked about in value's place: a tensor as a one-element array of its dtype and rank."""
    if isinstance(value, Tensor):
        return np.ones((1,) * value.dim(), value.dtype.np)
    if isinstance(value, (list, tuple)):
        return type(value)(_dummy(v) for v in value)
    if is_symbolic(value):
        return 1.0 if isinstance(value, SymFloat) else 1
    return value


def numpy_result_dtype(np_fn, args, kwargs):
    """The dtype numpy's np_fn gives for arguments of these dtypes and ranks."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):  # (the std of one element: no degrees of freedom)
        warnings.simplefilter("ignore")
        out = np_fn(*_dummy(args), **{k: _dummy(v) for k, v in kwargs.items()})
    return torch_dtype(np.asarray(out).dtype)


def _promoted(args):
    """The dtype numpy computes a comparison in: its operands' common dtype (a Python number weak)."""
    return torch_dtype(np.result_type(*[_dummy(a) for a in args]))


def _as(value, dtype):
    """A tensor (cast to dtype) or a numpy scalar as a tensor of dtype; a Python number stays one (weak)."""
    if isinstance(value, Tensor):
        return value if value.dtype is dtype else value.to(dtype)
    if isinstance(value, (list, tuple)) and any(is_symbolic(v) for v in value):  # a shape under dynamic sizes
        return minitorch2.stack([minitorch2.scalar_tensor(v, dtype=dtype) for v in value])
    if isinstance(value, (np.generic, list, tuple)):
        return minitorch2.tensor(np.asarray(value), dtype=dtype)
    return value


def _as_tensor(value, dtype):
    return value if isinstance(value, Tensor) else minitorch2.full((), value, dtype=dtype)


# ---- the rows: each numpy function as minitorch2 ops ------------------------------------------

def _refuse(name, **given):
    """An argument the row does not model: NotImplementedError, which the frontend turns into a graph break."""
    unknown = [k for k, v in given.items() if v is not None]
    if unknown:
        raise NotImplementedError(f"numpy {name} with {', '.join(unknown)} is not traced")


def elementwise(torch_fn, compare=False, all_tensors=False):
    """A ufunc or operator: the tensors cast to the dtype numpy computes in, torch_fn, the result in numpy's dtype."""
    def run(np_fn, *args, **kwargs):
        _refuse(np_fn.__name__, **kwargs)
        out_dtype = numpy_result_dtype(np_fn, args, {})
        work = _promoted(args) if compare else out_dtype
        operands = [_as(a, work) for a in args]
        if all_tensors or not any(isinstance(a, Tensor) for a in operands):
            operands = [_as_tensor(a, work) for a in operands]
        return _as(torch_fn(*operands), out_dtype)
    return run


def _clip(np_fn, a, a_min=None, a_max=None, *, min=None, max=None, **kwargs):  # (numpy's keyword names)
    _refuse("clip", **kwargs)
    lo, hi = a_min if min is None else min, a_max if max is None else max
    out_dtype = numpy_result_dtype(np_fn, (a, lo, hi), {})
    bound = [_as(v, out_dtype) for v in (lo, hi)]
    return minitorch2.clamp(_as_tensor(_as(a, out_dtype), out_dtype), *bound)


def _where(np_fn, condition, x=None, y=None):
    if x is None or y is None:
        raise NotImplementedError("np.where with one argument (the indices of the nonzeros) is data-dependent")
    out_dtype = numpy_result_dtype(np_fn, (condition, x, y), {})
    cond = _as_tensor(_as(condition, minitorch2.bool), minitorch2.bool)
    return minitorch2.where(cond, *[_as_tensor(_as(v, out_dtype), out_dtype) for v in (x, y)])


_REDUCTION_OPTIONS = ("keepdims", "dtype", "ddof")


def reduction(reduce, cast_input=True):
    """sum, mean, max, argmax...: over `axis` (None: all of them), keepdims, in the dtype numpy reduces in."""
    def run(np_fn, a, axis=None, *extra, **kwargs):
        _refuse("reduction", extra=extra or None, **{k: v for k, v in kwargs.items() if k not in _REDUCTION_OPTIONS})
        out_dtype = numpy_result_dtype(np_fn, (a, axis), kwargs)
        x = _as_tensor(_as(a, out_dtype if cast_input else _promoted((a,))), out_dtype)
        dims = tuple(range(x.dim())) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
        result = reduce(x, dims, bool(kwargs.get("keepdims", False)), kwargs.get("ddof", 0))
        return _as(result, out_dtype)
    return run


def _prod(x, dims, keepdim, ddof):
    for dim in sorted((d % max(x.dim(), 1) for d in dims), reverse=True):
        x = minitorch2.prod(x, dim, keepdim=keepdim)
    return x


def _arg_reduce(torch_fn):
    def reduce(x, dims, keepdim, ddof):
        x = x.to(minitorch2.uint8) if x.dtype is minitorch2.bool else x  # (ATen's argmax takes no bools)
        if len(dims) == 1 or x.dim() <= 1:
            return torch_fn(x, dims[0] if dims else None, keepdim=keepdim)
        flat = torch_fn(x.reshape(-1))  # axis=None: the index into the flattened array
        return flat.reshape((1,) * x.dim()) if keepdim else flat
    return reduce


def _reduce_with(torch_fn, correction=False):
    if correction:
        return lambda x, dims, keepdim, ddof: torch_fn(x, dim=dims, correction=ddof, keepdim=keepdim)
    return lambda x, dims, keepdim, ddof: torch_fn(x, dim=dims, keepdim=keepdim)


def _factory_dtype(dtype, default):
    return torch_dtype(dtype) if dtype is not None else default


def _arange(np_fn, start, stop=None, step=None, dtype=None):
    bounds = [v for v in (start, stop, step) if v is not None]
    default = torch_dtype(np.result_type(*_dummy(bounds)))
    return minitorch2.arange(*bounds, dtype=_factory_dtype(dtype, default))


def _filled(fill):
    def run(np_fn, shape, dtype=None, order="C"):
        return minitorch2.full(_shape(shape), fill, dtype=_factory_dtype(dtype, minitorch2.float64))
    return run


def _full(np_fn, shape, fill_value, dtype=None, order="C"):
    default = torch_dtype(np.result_type(_dummy(fill_value)))
    dtype = _factory_dtype(dtype, default)
    if isinstance(fill_value, Tensor):
        return _as(fill_value, dtype).expand(_shape(shape)).clone()
    return minitorch2.full(_shape(shape), fill_value, dtype=dtype)


def _filled_like(fill=None):
    """np.zeros_like / ones_like(a), or full_like(a, fill_value) with fill=None: a's shape, and a's dtype unless
    dtype= says otherwise (a fill value is cast to it, as numpy casts 2.4 into an int array)."""
    def run(np_fn, a, *fill_value, dtype=None, order="K", subok=True, shape=None):
        dtype = _factory_dtype(dtype, a.dtype if isinstance(a, Tensor) else torch_dtype(np.result_type(_dummy(a))))
        value = fill if fill is not None else fill_value[0]
        size = _shape(shape) if shape is not None else tuple(a.shape)
        if isinstance(value, Tensor):
            return value.to(dtype).expand(size).clone()
        return minitorch2.full(size, int(value) if not dtype.is_inexact and dtype is not _dtype.bool_ else value,
                               dtype=dtype)
    return run


def _shape(shape):
    return tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)


def _join(torch_fn):
    def run(np_fn, arrays, axis=0, **kwargs):
        _refuse("concatenate/stack", axis_none=True if axis is None else None, **kwargs)
        out_dtype = numpy_result_dtype(np_fn, (list(arrays), axis), {})
        return torch_fn([_as_tensor(_as(a, out_dtype), out_dtype) for a in arrays], axis)
    return run


def _matmul(np_fn, a, b, **kwargs):
    _refuse("matmul", **kwargs)
    out_dtype = numpy_result_dtype(np_fn, (a, b), {})
    a, b = (_as_tensor(_as(v, out_dtype), out_dtype) for v in (a, b))
    if np_fn is np.dot and (a.dim() == 0 or b.dim() == 0):
        return a * b
    if np_fn is np.dot and max(a.dim(), b.dim()) > 2:
        raise NotImplementedError("np.dot of arrays of more than two dims is not traced")
    return minitorch2.matmul(a, b)


def _reshape(np_fn, a, *shape, order="C"):
    shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
    _refuse("reshape", order=None if order == "C" else order)
    return minitorch2.reshape(_as_tensor(_as(a, _promoted((a,))), _promoted((a,))), tuple(shape))


def _transpose(np_fn, a, *axes):
    axes = axes[0] if len(axes) == 1 and isinstance(axes[0], (tuple, list, type(None))) else axes
    return a.permute(tuple(axes) if axes else tuple(reversed(range(a.dim()))))


def _ravel(np_fn, a, order="C"):
    _refuse("ravel", order=None if order == "C" else order)
    return a.reshape(-1)


def _astype(np_fn, a, dtype, copy=True):
    cast = _as_tensor(_as(a, torch_dtype(dtype)), torch_dtype(dtype))
    return cast.clone() if copy and cast is a else cast


def _array(np_fn, obj, dtype=None, *, copy=None, order=None, ndmin=0):
    """np.array / np.asarray: of an array, itself (cast; np.array's a copy); of numbers, numpy's array made now."""
    _refuse("array", order=order, ndmin=ndmin or None)
    if not isinstance(obj, Tensor):
        if any(True for _ in _tensors(obj)):
            raise NotImplementedError("np.array of a list holding arrays is not traced")
        made = np_fn(obj, dtype=dtype)
        if made.dtype.kind not in "biufc":  # (strings, objects: no tensor holds them, so numpy makes it eagerly)
            raise NotImplementedError(f"np.array of {made.dtype} values is not traced")
        return minitorch2.tensor(made)
    cast = _as(obj, torch_dtype(dtype)) if dtype is not None else obj
    return cast.clone() if np_fn is np.array and copy is not False and cast is obj else cast


def _scalar_type(np_type):
    """np.float32(v): v (a number, or an array) as that dtype."""
    def run(np_fn, value=0):
        return _as_tensor(_as(value, torch_dtype(np_type)), torch_dtype(np_type))
    return run


def _integers_kept(torch_fn):
    """floor, ceil, trunc: numpy gives an integer (or bool) array back as it is."""
    return lambda x: torch_fn(x) if x.is_floating_point() else x.clone()


def _scan(torch_fn):
    """cumsum, cumprod: along `axis` (None: of the flattened array), in the dtype numpy accumulates in."""
    def run(np_fn, a, axis=None, dtype=None):
        out_dtype = numpy_result_dtype(np_fn, (a, axis), {"dtype": dtype})
        x = _as_tensor(_as(a, out_dtype), out_dtype)
        return torch_fn(x.reshape(-1) if axis is None else x, 0 if axis is None else axis)
    return run


def _sort(np_fn, a, axis=-1, kind=None, order=None, **kwargs):
    """np.sort (values: the same whatever the algorithm); np.argsort only stable, since numpy's default quicksort
    orders equal elements otherwise than ATen's sort, and the indices would differ silently."""
    _refuse(np_fn.__name__, order=order, **kwargs)
    if np_fn is np.argsort and kind != "stable":
        raise NotImplementedError("np.argsort with numpy's default (unstable) sort is not traced")
    x = _as_tensor(_as(a, _promoted((a,))), _promoted((a,)))
    x, axis = (x.reshape(-1), 0) if axis is None else (x, axis)
    values, indices = minitorch2.sort(x, dim=axis, stable=True)
    return indices if np_fn is np.argsort else values


def _same_dtype(torch_fn):
    """A function numpy computes in its input's dtype, with the extra arguments as they are (triu, flip, ...)."""
    def run(np_fn, a, *args, **kwargs):
        return torch_fn(_as_tensor(_as(a, _promoted((a,))), _promoted((a,))), *args, **kwargs)
    return run


def _shift(torch_fn):
    """np.fft.fftshift / ifftshift(a, axes=None): torch.fft's, whose `dim` is numpy's `axes`."""
    return _same_dtype(lambda a, axes=None: torch_fn(a, dim=axes))


def _meshgrid(np_fn, *xi, copy=True, sparse=False, indexing="xy"):
    """np.meshgrid: each input keeps its dtype; the grids are copies (torch.meshgrid's are views)."""
    if sparse:
        raise NotImplementedError("np.meshgrid(sparse=True) is not traced")
    grids = minitorch2.meshgrid(*[_as_tensor(x, None).reshape(-1) for x in xi], indexing=indexing)  # (inputs raveled)
    return tuple(g.clone() if copy else g for g in grids)


def _diag(a, k=0):
    return minitorch2.diag(a, k)


def _trace(np_fn, a, offset=0, axis1=0, axis2=1, dtype=None):
    out_dtype = numpy_result_dtype(np_fn, (a,), {"dtype": dtype})
    x = _as_tensor(_as(a, out_dtype), out_dtype)
    return minitorch2.diagonal(x, offset, axis1, axis2).sum(-1)


def _squeeze(a, axis=None):
    return a.squeeze() if axis is None else a.squeeze(axis)


def _expand_dims(a, axis):
    for dim in sorted(d % (a.dim() + len(axis)) for d in axis) if isinstance(axis, tuple) else [axis]:
        a = a.unsqueeze(dim)
    return a


def _flip(a, axis=None):
    return minitorch2.flip(a, tuple(range(a.dim())) if axis is None else axis if isinstance(axis, tuple) else (axis,))


def _nan_to_num(np_fn, x, copy=True, nan=0.0, posinf=None, neginf=None):
    dtype = _promoted((x,))
    x = _as_tensor(_as(x, dtype), dtype)
    return minitorch2.nan_to_num(x, nan, posinf, neginf) if x.is_floating_point() else x.clone()


def _any_all(torch_fn):
    def reduce(x, dims, keepdim, ddof):
        x = x.to(minitorch2.bool)
        for dim in sorted((d % max(x.dim(), 1) for d in dims), reverse=True):
            x = torch_fn(x, dim, keepdim=keepdim)
        return x
    return reduce


def _norm(np_fn, x, ord=None, axis=None, keepdims=False):
    """np.linalg.norm's default: the 2-norm of the flattened array, or along `axis`."""
    _refuse("linalg.norm", ord=ord)
    out_dtype = numpy_result_dtype(np_fn, (x,), {"axis": axis})
    x = _as_tensor(_as(x, out_dtype), out_dtype)
    dims = tuple(range(x.dim())) if axis is None else axis if isinstance(axis, tuple) else (axis,)
    return minitorch2.linalg.vector_norm(x, 2, dims, keepdims)


def _copy(np_fn, a, order="K"):
    return _as_tensor(_as(a, _promoted((a,))), _promoted((a,))).clone()


def _write_into(a, value, casting):
    """`a += b`, `a[i] = v`, `a.fill(v)`: value written into a's memory, as numpy casts it (`same_kind` for an
    in-place operator; `unsafe`, truncating, for setitem and fill). What numpy refuses stays eager, where it raises:
    a cast across kinds, and a non-finite float into an integer array."""
    value_dtype = _promoted((value,)) if isinstance(value, (Tensor, np.generic)) else None
    if value_dtype is not None and not np.can_cast(value_dtype.np, a.dtype.np, casting):
        raise NotImplementedError(f"numpy refuses to cast {value_dtype} into a {a.dtype} array ({casting})")
    if isinstance(value, float) and not np.isfinite(value) and not a.is_floating_point():
        raise NotImplementedError("numpy refuses to write a non-finite float into an integer array")
    return value_dtype, _as(value, a.dtype)


def _inplace(ufunc):
    def run(np_fn, a, b):
        _, result = _write_into(a, ROWS[ufunc].run(ufunc, a, b), "same_kind")
        return a.copy_(result)
    return run


def _ndarray_setitem(a, key, value):
    """ndarray.__setitem__ (a row's key: numpy has no function for it)."""
    a[key] = value


def _ndarray_fill(a, value):
    """ndarray.fill (a row's key)."""
    a.fill(value)


def _setitem(np_fn, a, key, value):
    a[key] = _write_into(a, value, "unsafe")[1]


def _fill(np_fn, a, value):
    a.fill_(_write_into(a, value, "unsafe")[1])


def _ndarray_astype(a, dtype, copy=True):
    """np.astype before numpy 2.1 had it: the method's row is keyed by one function either way."""
    return np.asarray(a).astype(dtype, copy=copy)


NP_ASTYPE = getattr(np, "astype", _ndarray_astype)

Row = collections.namedtuple("Row", "name run")  # run(np_fn, *args, **kwargs) over minitorch2 ops

_UFUNCS = {np.sin: minitorch2.sin, np.cos: minitorch2.cos, np.tan: minitorch2.tan, np.exp: minitorch2.exp,
           np.log: minitorch2.log, np.sqrt: minitorch2.sqrt, np.tanh: minitorch2.tanh, np.abs: minitorch2.abs,
           np.negative: minitorch2.neg, np.square: minitorch2.square, np.add: operator.add,
           np.subtract: operator.sub, np.multiply: operator.mul, np.divide: operator.truediv,
           np.power: operator.pow, np.floor_divide: operator.floordiv, np.remainder: minitorch2.remainder,
           np.log1p: minitorch2.log1p, np.expm1: minitorch2.expm1, np.log2: minitorch2.log2,
           np.log10: minitorch2.log10, np.exp2: minitorch2.exp2, np.sinh: minitorch2.sinh, np.cosh: minitorch2.cosh,
           np.arcsin: minitorch2.asin, np.arccos: minitorch2.acos, np.arctan: minitorch2.atan,
           np.arctan2: minitorch2.atan2, np.sign: minitorch2.sign, np.reciprocal: minitorch2.reciprocal,
           np.hypot: minitorch2.hypot, np.logaddexp: minitorch2.logaddexp, np.fmax: minitorch2.fmax,
           np.fmin: minitorch2.fmin}
# ufuncs whose result dtype (bool) is not what they compute in: computed in their operands' dtype
_PREDICATES = {np.isnan: minitorch2.isnan, np.isinf: minitorch2.isinf, np.isfinite: minitorch2.isfinite,
               np.logical_and: minitorch2.logical_and, np.logical_or: minitorch2.logical_or,
               np.logical_xor: minitorch2.logical_xor, np.logical_not: minitorch2.logical_not}
_INPLACE = {operator.iadd: np.add, operator.isub: np.subtract, operator.imul: np.multiply,
            operator.itruediv: np.divide}
_COMPARISONS = {np.greater: operator.gt, np.less: operator.lt, np.equal: operator.eq, np.not_equal: operator.ne,
                np.greater_equal: operator.ge, np.less_equal: operator.le}

# numpy callable -> its row. np.abs is np.absolute, np.divide np.true_divide: one row each, named as numpy names them.
# torch functions whose every operand is a Tensor (a Python number is refused): numbers made tensors first
_TENSORS_ONLY = {minitorch2.atan2, minitorch2.hypot, minitorch2.logaddexp, minitorch2.fmax, minitorch2.fmin,
                 minitorch2.logical_and, minitorch2.logical_or, minitorch2.logical_xor}

ROWS = {
    **{fn: Row(fn.__name__, elementwise(torch_fn, all_tensors=torch_fn in _TENSORS_ONLY))
       for fn, torch_fn in _UFUNCS.items()},
    **{fn: Row(fn.__name__, elementwise(torch_fn, compare=True)) for fn, torch_fn in _COMPARISONS.items()},
    np.maximum: Row("maximum", elementwise(minitorch2.maximum, all_tensors=True)),
    np.minimum: Row("minimum", elementwise(minitorch2.minimum, all_tensors=True)),
    np.clip: Row("clip", _clip),
    np.where: Row("where", _where),
    np.sum: Row("sum", reduction(_reduce_with(minitorch2.sum))),
    np.mean: Row("mean", reduction(_reduce_with(minitorch2.mean))),
    np.prod: Row("prod", reduction(_prod)),
    np.std: Row("std", reduction(_reduce_with(minitorch2.std, correction=True))),
    np.var: Row("var", reduction(_reduce_with(minitorch2.var, correction=True))),
    np.max: Row("max", reduction(_reduce_with(minitorch2.amax), cast_input=False)),
    np.min: Row("min", reduction(_reduce_with(minitorch2.amin), cast_input=False)),
    np.argmax: Row("argmax", reduction(_arg_reduce(minitorch2.argmax), cast_input=False)),
    np.argmin: Row("argmin", reduction(_arg_reduce(minitorch2.argmin), cast_input=False)),
    np.arange: Row("arange", _arange),
    np.zeros: Row("zeros", _filled(0)),
    np.ones: Row("ones", _filled(1)),
    np.full: Row("full", _full),
    np.zeros_like: Row("zeros_like", _filled_like(0)),
    np.ones_like: Row("ones_like", _filled_like(1)),
    np.full_like: Row("full_like", _filled_like()),
    np.concatenate: Row("concatenate", _join(minitorch2.cat)),
    np.stack: Row("stack", _join(minitorch2.stack)),
    np.dot: Row("dot", _matmul),
    np.matmul: Row("matmul", _matmul),
    np.reshape: Row("reshape", _reshape),
    np.transpose: Row("transpose", _transpose),
    np.ravel: Row("ravel", _ravel),
    np.array: Row("array", _array),
    np.asarray: Row("asarray", _array),
    NP_ASTYPE: Row("astype", _astype),
    **{fn: Row(fn.__name__, elementwise(torch_fn, compare=True, all_tensors=torch_fn in _TENSORS_ONLY))
       for fn, torch_fn in _PREDICATES.items()},
    **{fn: Row(fn.__name__, elementwise(_integers_kept(torch_fn))) for fn, torch_fn in
       ((np.floor, minitorch2.floor), (np.ceil, minitorch2.ceil), (np.trunc, minitorch2.trunc))},
    np.cumsum: Row("cumsum", _scan(minitorch2.cumsum)),
    np.cumprod: Row("cumprod", _scan(minitorch2.cumprod)),
    np.sort: Row("sort", _sort),
    np.argsort: Row("argsort", _sort),
    np.triu: Row("triu", _same_dtype(minitorch2.triu)),
    np.tril: Row("tril", _same_dtype(minitorch2.tril)),
    np.diag: Row("diag", _same_dtype(_diag)),
    np.trace: Row("trace", _trace),
    np.squeeze: Row("squeeze", _same_dtype(_squeeze)),
    np.expand_dims: Row("expand_dims", _same_dtype(_expand_dims)),
    np.swapaxes: Row("swapaxes", _same_dtype(minitorch2.swapaxes)),
    np.flip: Row("flip", _same_dtype(_flip)),
    np.nan_to_num: Row("nan_to_num", _nan_to_num),
    np.any: Row("any", reduction(_any_all(minitorch2.any), cast_input=False)),
    np.all: Row("all", reduction(_any_all(minitorch2.all), cast_input=False)),
    np.linalg.norm: Row("norm", _norm),
    np.meshgrid: Row("meshgrid", _meshgrid),
    np.fft.fftshift: Row("fftshift", _shift(minitorch2.fft.fftshift)),
    np.fft.ifftshift: Row("ifftshift", _shift(minitorch2.fft.ifftshift)),
    np.copy: Row("copy", _copy),
    _ndarray_setitem: Row("__setitem__", _setitem),
    _ndarray_fill: Row("fill", _fill),
    **{op: Row(op.__name__, _inplace(fn)) for op, fn in _INPLACE.items()},
    **{t: Row(t.__name__, _scalar_type(t)) for t in (np.float32, np.float64, np.int64, np.int32, np.bool_)},
}
# aliases numpy keeps as other names of one object
ROWS[np.amax], ROWS[np.amin] = ROWS[np.max], ROWS[np.min]

# ndarray methods traced, by name -> the numpy function whose row they run (`a.max(0)` is np.max(a, 0))
METHODS = {"sum": np.sum, "mean": np.mean, "prod": np.prod, "std": np.std, "var": np.var, "max": np.max,
           "min": np.min, "argmax": np.argmax, "argmin": np.argmin, "clip": np.clip, "reshape": np.reshape,
           "transpose": np.transpose, "ravel": np.ravel, "flatten": np.ravel, "astype": NP_ASTYPE,
           "dot": np.dot, "cumsum": np.cumsum, "cumprod": np.cumprod, "argsort": np.argsort, "squeeze": np.squeeze,
           "swapaxes": np.swapaxes, "any": np.any, "all": np.all, "copy": np.copy, "trace": np.trace,
           "fill": _ndarray_fill, "__setitem__": _ndarray_setitem}

# operators on ndarrays (`a + 1`, `a[0]`, `a > 0`): the functions numpy runs for them
OPERATORS = {operator.add: np.add, operator.sub: np.subtract, operator.mul: np.multiply,
             operator.truediv: np.divide, operator.floordiv: np.floor_divide, operator.pow: np.power,
             operator.mod: np.remainder,
             operator.neg: np.negative, operator.matmul: np.matmul, operator.getitem: None,
             **{op: fn for fn, op in _COMPARISONS.items()}}
# in-place operators (`a += 1`: the array's memory written, perhaps a tensor's), each a row of its own
OPERATORS.update({op: op for op in _INPLACE})


# ---- the node targets ----------------------------------------------------------------------

def _tensors(value):
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _tensors(item)


def _is_traced(args, kwargs):
    """Whether a call must run the row: fake or traced tensors, or a result that must carry gradients."""
    tensors = list(_tensors([*args, *kwargs.values()]))
    return bool(current_modes()) or any(t._np is None for t in tensors) or (
        minitorch2.is_grad_enabled() and any(t.requires_grad for t in tensors))


def _arrays(value):
    """Tensors as their numpy arrays (no copy), through lists and tuples."""
    if isinstance(value, Tensor):
        return value.numpy(force=True)
    if isinstance(value, (list, tuple)):
        return type(value)(_arrays(v) for v in value)
    return value


def _from_numpy(value):
    """numpy's result back in the graph: an array as a tensor over its memory (a kernel's result: laid out as
    torch's op would lay it out, a reversed view copied), a numpy scalar as a 0-d one."""
    if isinstance(value, (np.ndarray, np.generic)):
        return Tensor._from_numpy(np.asarray(value))
    if isinstance(value, (tuple, list)) and value and all(isinstance(v, np.ndarray) for v in value):
        return tuple(Tensor._from_numpy(v) for v in value)  # (np.meshgrid's arrays)
    return value


class _NumpyTarget:
    """A node target: `numpy` run on the arrays, or the row of numpy function `np_fn` traced."""

    def __init__(self, name, numpy, np_fn, rebuild, kind):
        self.__name__ = name
        self.kind = kind  # "function", "method" or "operator": Dynamo's three wrapper classes
        self.__module__ = DYNAMO_UTILS
        self.numpy = numpy
        self.np_fn = np_fn
        self._rebuild = rebuild  # (factory, argument) that makes this target: how a pickled graph gets it back

    def __call__(self, *args, **kwargs):
        if not _is_traced(args, kwargs):
            return _from_numpy(self.numpy(*_arrays(args), **{k: _arrays(v) for k, v in kwargs.items()}))
        if self.np_fn is None:  # a[i]: indexing is the tensor's
            return args[0][args[1]]
        return ROWS[self.np_fn].run(self.np_fn, *args, **kwargs)

    def __reduce__(self):
        return self._rebuild

    def __repr__(self):  # as Dynamo's wrappers print (an operator's original is its wrapped name)
        original = self.__name__ if self.kind == "operator" else self.__name__[len("wrapped_"):]
        return f"<Wrapped {self.kind} <original {original}>>"


# A new target per call, as Dynamo makes a new wrapper per call: a graph calling np.sum twice has two globals,
# `torch__dynamo_utils_wrapped_sum` and `torch__dynamo_utils_wrapped_sum_1`, as Dynamo's.

def numpy_call(np_fn):
    """The target for np.<fn>(...): `wrapped_<name>`."""
    return _NumpyTarget(f"wrapped_{ROWS[np_fn].name}", np_fn, np_fn, (numpy_call, (np_fn,)), "function")


def numpy_method(name):
    """The target for ndarray.<name>(...): `wrapped_<name>`, run as the method (`a.reshape(2, 3)`: varargs)."""
    return _NumpyTarget(f"wrapped_{name}", lambda a, *args, **kwargs: getattr(a, name)(*args, **kwargs),
                        METHODS[name], (numpy_method, (name,)), "method")


def numpy_operator(op):
    """The target for an operator on ndarrays: `wrapped_add`, `wrapped_getitem`..."""
    return _NumpyTarget(f"wrapped_{op.__name__}", op, OPERATORS[op], (numpy_operator, (op,)), "operator")


def numpy_attr_wrapper(array, name):
    """`a.T`, `a.real`, `a.imag`: the attribute of the array (numpy's), or traced: the row's."""
    if not _is_traced((array,), {}):
        return _from_numpy(getattr(_arrays(array), name))
    if name in ("real", "imag"):  # (a real array's real part is itself, its imaginary part zeros)
        if array.dtype.is_complex:
            return getattr(minitorch2, name)(array)
        return array.view_as(array) if name == "real" else minitorch2.zeros_like(array)
    if name != "T":
        raise NotImplementedError(f"ndarray.{name} is not traced")
    return _transpose(None, array)


numpy_attr_wrapper.__module__ = DYNAMO_UTILS


def to_numpy(value):
    """A graph's ndarray output as the frame returns it: the tensor's array (a 0-d result is a 0-d array)."""
    return value.numpy(force=True) if isinstance(value, Tensor) else value

