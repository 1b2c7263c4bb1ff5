"""Tensor methods and Python operators, bound onto `Tensor` in one place.

Runtime layer. Methods that only call one overload with the arguments as given (`x.addcmul_(a, b, value=2)`,
`x.zero_()`) are made from the op table's rows marked `method=True`; method forms (`x.sum(0)`, `x.relu()`) call the
torch-level functions in minitorch2/_functions.py; operators map to the overloads PyTorch uses (`x + 1` is
`aten.add.Tensor(x, 1)`, `2 - x` is `aten.rsub.Scalar`); `__getitem__` turns indices into the same sequence of
select/slice/unsqueeze/ index calls PyTorch makes, and `__setitem__` into copy_/fill_/index_put_.
"""
import builtins

import numpy as np

from . import _dtype, _functions_common, _functions_complex, _functions_extra, _tensor_methods_more, sparse
from . import _method_arguments
from . import _numpy_names, _sym
from . import _functions as F
from ._factories import tensor as make_tensor
from ._arg_parser import ArgumentChecks, check_clamp_bounds, check_subscript_of_0d, slice_bound
from ._ops import ops, python_signature
from ._aten.composite_sizes import check_select_index, covers_whole_dim
from ._aten.nn_ops import is_channels_last
from ._tensor import Tensor, contiguous_format

aten = ops.aten


def _binary_operators():
    def compare(fn, otherwise):  # == and != with anything but a tensor or a number answer False and True, as torch's
        numbers = (Tensor, int, float, complex, np.number, np.bool_, _sym._SymNumber)  # (numpy's scalars, sizes)
        return lambda self, other: fn(self, other) if isinstance(other, numbers) else otherwise

    and_, or_, xor = F.bitwise_and, F.bitwise_or, F.bitwise_xor  # (of bools too: bool & 5 is an int64 tensor)
    return {  # (the torch-level functions bind as methods: x + y is F.add(x, y))
        "__add__": F.add, "__sub__": F.sub, "__mul__": F.mul, "__truediv__": F.div, "__floordiv__": F.floor_divide,
        "__mod__": F.remainder, "__pow__": F.pow, "__lt__": F.lt, "__le__": F.le, "__gt__": F.gt, "__ge__": F.ge,
        "__radd__": lambda self, other: aten.add.Tensor(self, other),
        "__rsub__": lambda self, other: (F.sub(other, self) if isinstance(other, Tensor)
                                         else aten.rsub.Scalar(self, other)),
        "__rmul__": lambda self, other: aten.mul.Tensor(self, other),
        "__rtruediv__": lambda self, other: F.reciprocal(self) * other,  # torch's: not a division (an array: numpy's *)
        "__rfloordiv__": lambda self, other: F.floor_divide(other, self),
        "__rmod__": lambda self, other: aten.remainder.Scalar_Tensor(other, self),
        "__rpow__": lambda self, other: aten.pow.Scalar(other, self),
        "__matmul__": lambda self, other: F.matmul(self, other) if isinstance(other, Tensor) else NotImplemented,
        "__rmatmul__": lambda self, other: F.matmul(other, self) if isinstance(other, Tensor) else NotImplemented,
        "__neg__": lambda self: aten.neg.default(self), "__pos__": lambda self: self,
        "__abs__": lambda self: aten.abs.default(self),
        "__and__": and_, "__or__": or_, "__xor__": xor, "__rand__": and_, "__ror__": or_, "__rxor__": xor,
        "__eq__": compare(F.eq, False), "__ne__": compare(F.ne, True),
    }


def _inplace_operators():
    return {"__iadd__": lambda self, other: self.add_(other), "__isub__": lambda self, other: self.sub_(other),
            "__imul__": lambda self, other: self.mul_(other), "__itruediv__": lambda self, other: self.div_(other),
            "__ipow__": lambda self, other: aten.pow_.Scalar(self, other),
            "__imatmul__": lambda self, other: self.copy_(F.matmul(self, other))}


def _methods_from_rows():
    """Tensor.<name> for each op-table row marked `method=True`: its overload, whose schema binds the arguments."""
    return {overload._opname: _method_of(overload) for overload in aten.overloads() if overload.is_tensor_method}


def _method_of(overload):
    """Tensor.<name>: the op with self first; a Python number for a Tensor argument refused as torch's binding
    does, but where the op has a Scalar overload (x.add_(2))."""
    packets = {getattr(aten, name, None) for name in (overload._opname, overload._opname.rstrip("_"))} - {None}
    scalar_form = any("Scalar" in name for packet in packets for name in packet.overloads())
    strict = None if scalar_form else ArgumentChecks(overload._schema, numbers_as_tensors=False)

    def method(self, *args, **kwargs):
        if strict and any(isinstance(a, (bool, int, float, complex)) for a in (*args, *kwargs.values())):
            strict.check(overload, (self, *args), kwargs)
        return overload(self, *args, **kwargs)

    method.__name__ = overload._opname
    method.__qualname__ = f"Tensor.{overload._opname}"
    method.__signature__ = python_signature(overload)
    method.__doc__ = f"Calls {overload} with this tensor as self."
    return method


def _inplace_methods():
    """The in-place methods that pick an overload or change their arguments (the others come from rows)."""
    def fill_(self, value):
        return aten.fill_.Tensor(self, value) if isinstance(value, Tensor) else aten.fill_.Scalar(self, value)

    def copy_(self, src, non_blocking=False):
        return aten.copy_.default(self, src)

    def index_put_(self, indices, values, accumulate=False):
        return aten.index_put_.default(self, list(indices), values, accumulate)

    def lerp_(self, end, weight):
        return (aten.lerp_.Tensor if isinstance(weight, Tensor) else aten.lerp_.Scalar)(self, end, weight)

    def clamp_(self, min=None, max=None):
        min, max = check_clamp_bounds("clamp_", min, max)
        return (aten.clamp_.Tensor if isinstance(min, Tensor) or isinstance(max, Tensor) else aten.clamp_.default)(
            self, min, max)

    return {"fill_": fill_, "copy_": copy_, "index_put_": index_put_, "lerp_": lerp_, "clamp_": clamp_}


# The torch-level functions that torch.Tensor has no method of; every other one is also a method (`x.sum(0)` is
# `torch.sum(x, 0)`), the tensor as its first argument.
_NOT_METHODS = frozenset("""asarray atleast_1d atleast_2d atleast_3d bartlett_window binomial blackman_window
    block_diag broadcast_shapes broadcast_tensors bucketize cartesian_prod cat cdist chain_matmul column_stack
    combinations concat concatenate cumulative_trapezoid diagonal_copy dstack einsum empty_strided fill
    frombuffer get_default_device hamming_window hann_window hstack is_anomaly_check_nan_enabled
    is_anomaly_enabled is_tensor isin logspace lu_unpack meshgrid poisson range result_type row_stack rsub
    scalar_tensor_like searchsorted set_anomaly_enabled set_default_device set_default_tensor_type
    set_printoptions stack std_mean tensordot trapezoid trapz tril_indices triu_indices typename unravel_index
    vander var_mean vstack""".split()) | frozenset(_functions_complex.NOT_METHODS)


def _method_forms():
    """x.fn(...) for the torch-level functions (_functions.py) that are Tensor methods in torch, where the class
    does not define the method itself (`x.numel()`)."""
    methods = {name: fn for name, fn in vars(F).items()
               if not name.startswith("_") and name not in _NOT_METHODS and name not in vars(Tensor)}
    methods["where"] = lambda self, condition, other: F.where(condition, self, other)
    return methods


def _one_list(values, method=None, parameter=None):
    """x.view(2, 3) and x.view((2, 3)) alike: the sizes (or dims) as one list; none at all, Python's TypeError."""
    if not values and method:
        raise TypeError(f'{method}() missing 1 required positional arguments: "{parameter}"')
    return list(values[0] if len(values) == 1 and isinstance(values[0], (list, tuple)) else values)


def _shape_methods():
    def view(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
            return aten.detach.default(aten.view.dtype(self, shape[0]))  # (detached, as torch's autograd hands it out)
        return aten.view.default(self, _one_list(shape))

    def contiguous(self, memory_format=contiguous_format):
        already = self.is_contiguous(memory_format=memory_format)
        return self if already else aten.clone.default(self, memory_format=memory_format)

    def to(self, *args, **kwargs):
        dtype = _tensor_methods_more.to_dtype(args, kwargs)  # (its arguments parsed as torch's binding parses them)
        copy, memory_format = kwargs.get("copy", False), kwargs.get("memory_format")
        relayout = memory_format not in (None, "torch.preserve_format") and memory_format != (  # (ATen's test:
            "torch.channels_last" if is_channels_last(self) else "torch.contiguous_format")  # suggest_memory_format)
        if (dtype is None or dtype is self.dtype) and not copy and not relayout:
            return self
        return aten._to_copy.default(self, dtype=dtype, **({"memory_format": memory_format} if relayout else {}))

    def conversion(dtype):
        return lambda self, memory_format=None: self.to(dtype)

    return {
        "view": view, "reshape": lambda self, *shape: F.reshape(self, _one_list(shape, "reshape", "shape")),
        "expand": lambda self, *size: aten.expand.default(self, _one_list(size, "expand", "size")),
        "permute": lambda self, *dims: aten.permute.default(self, _one_list(dims, "permute", "dims")),
        "repeat": lambda self, *sizes: aten.repeat.default(self, _one_list(sizes, "repeat", "repeats")),
        "contiguous": contiguous, "to": to,
        "clone": lambda self, memory_format=None: F.clone(self, memory_format=memory_format),
        "float": conversion(_dtype.float32), "double": conversion(_dtype.float64), "half": conversion(_dtype.float16),
        "bfloat16": conversion(_dtype.bfloat16), "long": conversion(_dtype.int64), "int": conversion(_dtype.int32),
        "bool": conversion(_dtype.bool_), "cpu": lambda self: self, "cuda": _tensor_methods_more.cuda,
        "T": property(lambda self: F.permute(self, list(reversed(range(self.dim()))))),
    }


# ---------------------------------------------------------------- indexing
def _normalize_index(index):
    """A tuple holds one index per dim, and so does a short list holding a sequence, tensor, slice, None or `...`
    (torch's treatSequenceAsTuple, after NumPy's); sequences, ranges and numpy arrays become index tensors."""
    if not isinstance(index, tuple):
        several = isinstance(index, list) and len(index) < 32 and builtins.any(
            _is_advanced(item) or item is None or item is Ellipsis or isinstance(item, slice) for item in index)
        index = tuple(index) if several else (index,)
    return tuple(_index_tensor(item) if _is_advanced(item) else item for item in index)


def _is_advanced(item):
    return isinstance(item, (Tensor, np.ndarray, list, tuple, range))


def _index_tensor(item):
    """torch's indexing_tensor_from_data: bools (and numpy uint8) stay a mask; any other data becomes long."""
    if isinstance(item, Tensor):
        return item
    t = make_tensor(item)
    return t if t.dtype is _dtype.bool_ or t.dtype is _dtype.uint8 else t.to(_dtype.int64)


def _apply_basic(self, index, keep_slices=False):
    """Apply ints, slices, None and Ellipsis as views; return the view and the advanced indices left. A slice
    covering a whole dim is skipped (torch's applySlicing), but for `keep_slices` (torch's getitem of one slice)."""
    n_real = builtins.sum(
        1 if not (item is None or item is Ellipsis or isinstance(item, bool))
        and not (isinstance(item, Tensor) and item.dtype is _dtype.bool_) else
        (item.dim() if isinstance(item, Tensor) else 0)
        for item in index
    )
    if n_real > self.dim():
        raise IndexError(f"too many indices for tensor of dimension {self.dim()}")
    result = self
    dim = 0
    advanced = []
    for position, item in enumerate(index):
        if item is None:
            result = aten.unsqueeze.default(result, dim)
            dim += 1
        elif item is Ellipsis:
            dim += self.dim() - n_real
        elif isinstance(item, bool) or isinstance(item, Tensor) and item.dim() == 0 and item.dtype is _dtype.bool_:
            result = aten.unsqueeze.default(result, dim)  # (then indexed by [0] or by nothing, as ATen's)
            advanced.append((dim, make_tensor([0] if item else [], dtype=_dtype.int64)))
            dim += 1
        elif isinstance(item, int) or (hasattr(item, "__index__") and not isinstance(item, Tensor) and not isinstance(item, slice)) \
                or (isinstance(item, Tensor) and item.dim() == 0 and item.dtype.category == 1):  # a 0-d int tensor: an int
            index = check_select_index(result.shape[dim], item, position)  # (an int, or a symbolic size expression)
            result = aten.select.int(result, dim, index)
        elif isinstance(item, slice):
            start, stop, step = (slice_bound(v) for v in (item.start, item.stop, 1 if item.step is None else item.step))
            if step <= 0:
                raise ValueError("step must be greater than zero" if step else "slice step cannot be zero")
            start, stop = 0 if start is None else start, 9223372036854775807 if stop is None else stop
            if keep_slices or not covers_whole_dim(result.shape[dim], start, stop, step):
                result = aten.slice.Tensor(result, dim, start, stop, step)
            dim += 1
        elif isinstance(item, Tensor):
            if item.dtype not in (_dtype.int64, _dtype.int32, _dtype.bool_, _dtype.uint8):
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            advanced.append((dim, item))
            dim += item.dim() if item.dtype is _dtype.bool_ else 1
        elif isinstance(item, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
        else:
            raise IndexError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices "
                f"(got {type(item).__name__})"
            )
    return result, advanced


def _indices_list(advanced):
    """ATen's list: None for each dim passed over, one entry per index tensor (a k-dim bool mask covers k dims)."""
    indices, covered = [], 0
    for dim, t in advanced:
        indices += [None] * (dim - covered) + [t]
        covered = dim + (t.dim() if t.dtype is _dtype.bool_ else 1)
    return indices


def getitem(self, index):
    check_subscript_of_0d(self, index)
    result, advanced = _apply_basic(self, _normalize_index(index), keep_slices=isinstance(index, slice))
    if not advanced:
        return aten.alias.default(self) if result is self else result
    return aten.index.Tensor(result, _indices_list(advanced))


def setitem(self, index, value):
    """As torch's: a number becomes a 0-d tensor (lift_fresh), basic indices take views, then index_put_ or _copy_to."""
    if isinstance(value, (int, float, complex, np.number, np.bool_)):  # (an int may wrap; nan into int64 does not fit)
        value = _dtype.checked_scalar(value, self.dtype)
    if not isinstance(value, Tensor):
        value = aten.lift_fresh.default(Tensor._from_numpy(np.array(value).astype(self.dtype.np), self.dtype))
    check_subscript_of_0d(self, index)
    target, advanced = _apply_basic(self, _normalize_index(index))
    if advanced:  # (of another dtype: ATen's error)
        sizes = _leading_ones_dropped(value)
        aten.index_put_.default(target, _indices_list(advanced),
                                value if len(sizes) == value.dim() else aten.view.default(value, sizes))
        return
    _copy_to(target, value)


def _leading_ones_dropped(value):
    sizes = list(value.shape)
    while sizes and sizes[0] == 1:
        sizes.pop(0)
    return sizes


def _copy_to(target, value):
    """torch's copy_to: copy_ for equal shapes, fill_ from a 0-d value, else leading 1s dropped, expanded, copy_."""
    if tuple(target.shape) == tuple(value.shape):
        aten.copy_.default(target, value)
    elif value.dim() == 0:
        aten.fill_.Tensor(target, value)
    else:
        value = aten.view.default(value, _leading_ones_dropped(value))
        if tuple(value.shape) != tuple(target.shape):
            value = aten.expand.default(value, list(target.shape))
        aten.copy_.default(target, value)


def install():
    methods = _method_forms()
    methods.update(_methods_from_rows())
    methods.update(_binary_operators())
    methods.update(_inplace_operators())
    methods.update(_inplace_methods())
    methods.update(_functions_extra.tensor_methods(), **_functions_common.tensor_methods(),  # the coverage surface's
                   **_tensor_methods_more.tensor_methods(), **sparse.tensor_methods())
    methods.update(_shape_methods())
    methods.update(__getitem__=getitem, __setitem__=setitem)
    for name, fn in _numpy_names.wrap_all(_method_arguments.checked(methods)).items():
        setattr(Tensor, name, fn)
