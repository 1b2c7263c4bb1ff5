"""torch's argument parser on an op call: its type checks, refusals and two conversions.

Runtime layer, coverage surface (eager fidelity: torch's errors for a wrong call, which no stage of the pipeline
needs). Every call of an OpOverload, once in canonical form (_schema.py), goes through `ArgumentChecks.check`: an
argument of the wrong Python type raises the TypeError torch's parser gives (`add(): argument 'other' (position 2)
must be Tensor, not list`), a Python int outside int64/uint64 its OverflowError, an op torch refuses for complex
tensors its error, all before any kernel runs, so fake and meta calls refuse them too; a Python type given for a
dtype is converted (`dtype=float` is float64), a SymFloat given for a `float` is read as its value, guarded
(layer_norm's eps), and a conjugated tensor is resolved for an op that cannot read the conjugate bit. Only calls of
an op check: graph passes normalize calls whose arguments are graph nodes.
"""
import operator
import re

import numpy as np

from . import _dtype
from ._dtype import dtype as _dtype_class
from ._sym import SymBool, SymFloat, SymInt
from ._tensor import Tensor
from ._aten.memory import _dtype_title

_NUMBER = (bool, int, float, complex, np.number, np.bool_, SymInt, SymFloat, SymBool)
_INDEX = (int, np.integer, Tensor, SymInt)  # an integer tensor of one element is an index, as in torch
_EXPECTED = {  # schema type -> (Python types accepted, the words torch's TypeError uses)
    "Tensor": ((Tensor,), "Tensor"),
    "Tensor[]": ((list, tuple), "tuple of Tensors"),
    "Scalar": (_NUMBER + (Tensor,), "Number"),
    "int": (_INDEX, "int"),
    "int[]": ((list, tuple) + _INDEX, "tuple of ints"),
    "float": ((int, float, np.number, np.bool_, Tensor, SymInt, SymFloat), "float"),
    "bool": ((bool, int, np.bool_), "bool"),
    "ScalarType": ((_dtype_class,), "torch.dtype"),
    "str": ((str,), "str"),
}


class ArgumentChecks:
    """What one schema's parser accepts, worked out once: the Python types per positional argument."""

    def __init__(self, schema, numbers_as_tensors):
        self.positional = schema.positional
        self.kwarg_only = {a.name: a for a in schema.kwarg_only}
        # a Python number may stand for a Tensor in a pointwise op of two or more tensors (sub.Tensor(1, x)),
        # as torch's ops allow; never in exp(3) or mm(x, 2)
        numbers_as_tensors = numbers_as_tensors and sum(_kind(a.type)[0] == "Tensor" for a in schema.arguments) > 1
        self.accepted = [_accepted_types(a, numbers_as_tensors) for a in self.positional]
        self.tensor_list_slots = [i for i, a in enumerate(self.positional) if _kind(a.type)[0] == "Tensor[]"]

    def check(self, op, args, kwargs):
        """The call's (args, kwargs), checked, with a Python type given for a ScalarType made that dtype, and a
        conjugated tensor resolved (resolve_conjugates)."""
        try:
            self._check(op, args, kwargs)
        except _Convertible as c:
            return self.check(op, *c.converted(args, kwargs))
        if CONJUGATES_MADE[0] and op.is_inplace and args and _writes_a_conjugate(args[0]):
            raise NotImplementedError(f"{op}: a write into the result of conj() (or a view of it): torch's conj is a "
                                      "view, so the write would reach the conjugated tensor; minitorch2's conj is a "
                                      "copy, so it would not. Write into the tensor itself, or into conj_physical()")
        if CONJUGATES_MADE[0] and not (op.is_view or op.is_inplace or op._opname in _READ_CONJUGATED):
            args = resolve_conjugates(args)
        return args, kwargs

    def _check(self, op, args, kwargs):
        if _refused_name(op) and any(isinstance(a, Tensor) and a.dtype.is_complex for a in args):
            _refuse_complex(op, args, kwargs)
        if op._opname in ("lt", "le", "gt", "ge") and any(isinstance(a, complex) for a in args):  # (tensor < 1j)
            kind = _dtype_title(_dtype.result_type(*args))
            raise NotImplementedError(f'"{op._opname}_cpu" not implemented for \'{kind}\'')
        if op._opname in ("clamp_", "clamp_min_", "clamp_max_") and op._overloadname == "default":
            check_clamp_in_place(*args, *kwargs.values())
        for i, value in enumerate(args):
            accepted = self.accepted[i]
            if accepted is not None and not isinstance(value, accepted):
                _refuse(op, self.positional[i], i, value)
            if type(value) is int and not -2 ** 63 <= value < 2 ** 64 and _kind(self.positional[i].type)[0] != "float":
                _dtype.unpack_int(value)  # (an int64 or a uint64, but for a double, which takes any int)
            if isinstance(value, SymFloat) and _kind(self.positional[i].type)[0] == "float" and value.node.hint is not None:
                raise _Convertible(i, float(value))  # the parser reads a double: the SymFloat is pinned (guarded)
            if self.positional[i].type.startswith("int") and _holds_symint(value):
                raise _Convertible(i, _pinned_ints(value, self.positional[i]))
        for key, value in kwargs.items():
            arg = self.kwarg_only.get(key)
            accepted = arg and _accepted_types(arg, False)
            if accepted is not None and not isinstance(value, accepted):
                _refuse(op, arg, key, value)
            if type(value) is int and not -2 ** 63 <= value < 2 ** 64 and not (arg and _kind(arg.type)[0] == "float"):
                _dtype.unpack_int(value)
            if arg and arg.type.startswith("int") and _holds_symint(value):
                raise _Convertible(key, _pinned_ints(value, arg))
        for i in self.tensor_list_slots:
            if i < len(args):
                _check_tensor_list(self.positional[i], args[i])


def _holds_symint(value):
    return isinstance(value, SymInt) or isinstance(value, (list, tuple)) and any(isinstance(v, SymInt) for v in value)


def _pinned_ints(value, arg):
    """A SymInt (or a list holding some) given for an `int` or `int[]` argument (a dim, not a size), read as ints
    as torch's parser reads it: each pinned to its value, guarded (an int made dynamic by a recompile, used as a dim,
    recompiles for each value, as torch's)."""
    if isinstance(value, SymInt):
        return [int(value)] * arg.list_size if arg.type.startswith("int[") else int(value)
    return [int(v) for v in value]


def _kind(type_):
    """('int[]', optional) for `SymInt[2]?`; ('', False) for a type that is not checked."""
    m = re.fullmatch(r"(\w+)(\?)?(\[\d*\])?(\?)?", type_)
    if not m:
        return "", False
    base, element_optional, brackets, optional = m.groups()
    base = "int" if base == "SymInt" else base
    return base + ("[]" if brackets else ""), bool(optional) or (bool(element_optional) and not brackets)


def _accepted_types(arg, numbers_as_tensors):
    """The Python types an argument takes, or None when it is not checked here."""
    kind, optional = _kind(arg.type)
    if kind not in _EXPECTED:
        return None
    types = _EXPECTED[kind][0]
    if kind == "Tensor" and numbers_as_tensors:
        types = types + _NUMBER
    return types + (type(None),) if optional or arg.default is None else types


class _Convertible(Exception):
    """An argument torch's parser would convert (a Python type for a dtype), found while checking."""

    def __init__(self, slot, value):
        self.slot, self.value = slot, value

    def converted(self, args, kwargs):
        if isinstance(self.slot, int):
            return args[:self.slot] + (self.value,) + args[self.slot + 1:], kwargs
        return args, {**kwargs, self.slot: self.value}


def _refuse(op, arg, slot, value):
    """Raise torch's TypeError for an argument of the wrong type (slot: its position, or its keyword), or
    _Convertible for a value the parser converts."""
    if _kind(arg.type)[0] == "ScalarType" and _dtype.as_dtype(value) is not value:
        raise _Convertible(slot, _dtype.as_dtype(value))
    raise TypeError(_type_error(op, arg, slot if isinstance(slot, int) else None, value))


# the ops torch refuses for complex tensors: (its error class, its message; {kind}: ComplexFloat, ComplexDouble)
_NOT_FOR_KIND = (NotImplementedError, '"{name}_cpu" not implemented for \'{kind}\'')
_COMPLEX_REFUSALS = {
    **{name: (RuntimeError, f"{name} not implemented for complex tensors.") for name in ("maximum", "minimum")},
    **{name: _NOT_FOR_KIND for name in ("lt", "le", "gt", "ge", "remainder", "atan2", "bitwise_not", "logit", "xlogy",
                                        "aminmax", "bincount", "cummax", "cummin", "kthvalue", "mode", "median")},
    **{name: (NotImplementedError, '"{name}_vml_cpu" not implemented for \'{kind}\'')
       for name in ("erf", "erfc", "erfinv", "i0", "lgamma", "round")},
    "digamma": (NotImplementedError, '"digamma" not implemented for \'{kind}\''),
    "amax": (NotImplementedError, '"max_values_cpu" not implemented for \'{kind}\''),
    "amin": (NotImplementedError, '"min_values_cpu" not implemented for \'{kind}\''),
    "nanmedian": (NotImplementedError, '"median_cpu" not implemented for \'{kind}\''),
    "histc": (NotImplementedError, '"aminmax_cpu" not implemented for \'{kind}\''),
    "nansum": (RuntimeError, "nansum on CPU does not support complex inputs"),
    "topk": (RuntimeError, " topk does not support complex dtypes on CPU"),
    "heaviside": (RuntimeError, "heaviside is not yet implemented for complex tensors."),
    "signbit": (NotImplementedError, "signbit is not implemented for complex tensors."),
    **{name: (RuntimeError, f"{name} is not supported for complex tensors.") for name in ("deg2rad", "rad2deg")},
    **{name: (NotImplementedError, "clamp is not supported for complex types")
       for name in ("clamp", "clamp_min", "clamp_max", "relu", "hardtanh")},
    "threshold": _NOT_FOR_KIND,
    **{name: (NotImplementedError, f"{name} is not supported for complex inputs")
       for name in ("floor", "ceil", "trunc")},
    "max": (NotImplementedError, '"max_all" not implemented for \'{kind}\''),
    "min": (NotImplementedError, '"min_all" not implemented for \'{kind}\''),
    "div": None,
    "sort": (RuntimeError, " Sort does not support complex dtypes on CPU"),
    "abs_": (RuntimeError, "In-place abs is not supported for complex tensors."),
    **{name: (NotImplementedError, '"unique" not implemented for \'{kind}\'')
       for name in ("_unique2", "unique_dim", "unique_consecutive")},
    "sign": (NotImplementedError, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
                                  "torch.sgn instead."),
    **{name: (RuntimeError, f"{name}(): does not support complex input") for name in ("argmax", "argmin")},
}


# ---------------------------------------------------------------- the conjugate bit
# torch's conjugate fallback: an op that cannot read a tensor's conjugate bit (all but views, in-place writes and
# these) gets a resolved copy of it (a clone, which traced graphs record: _conj, clone, mul). Ours holds the
# conjugated values already (complex_ops.py), so the clone changes no value; it is made for the graphs' sake.
_READ_CONJUGATED = frozenset({"clone", "_conj", "conj_physical"})
CONJUGATES_MADE = [False]  # (set by complex_ops' _conj: until a program conjugates, no call looks)


def _writes_a_conjugate(target):
    return isinstance(target, Tensor) and any(t is not None and t.__dict__.get("_is_conj")
                                              for t in (target, getattr(target, "_base", None)))


def resolve_conjugates(args):
    if not any(isinstance(a, Tensor) and a.__dict__.get("_is_conj") for a in args):
        return args
    from ._ops import ops  # (the op registry is built on this module)
    return tuple(ops.aten.clone.default(a) if isinstance(a, Tensor) and a.__dict__.get("_is_conj") else a
                 for a in args)


def _refuse_complex(op, args, kwargs):
    kind = _dtype_title(next(a.dtype for a in args if isinstance(a, Tensor) and a.dtype.is_complex))
    if _refused_name(op) == "div":  # (only with a rounding mode)
        mode = kwargs.get("rounding_mode")
        if mode is None:
            return
        raise NotImplementedError(f'"div_{mode}_cpu" not implemented for \'{kind}\'')
    error, message = _COMPLEX_REFUSALS[_refused_name(op)]
    raise error(message.format(name=op._opname.rstrip("_"), kind=kind))


def _refused_name(op):
    """`op`'s name, or the name of the op it is the in-place form of (floor_ is refused as floor is), if
    _COMPLEX_REFUSALS lists it."""
    return next((name for name in (op._opname, op._opname.rstrip("_")) if name in _COMPLEX_REFUSALS), None)


def _type_error(op, arg, position, value):
    name = getattr(op, "_opname", str(op))
    arg_name = "input" if arg.name == "self" else arg.name
    where = f" (position {position + 1})" if position is not None else ""
    expected = _EXPECTED[_kind(arg.type)[0]][1]
    return f"{name}(): argument '{arg_name}'{where} must be {expected}, not {type(value).__name__}"


def _check_tensor_list(arg, values):
    allow_none = "?" in arg.type
    for i, value in enumerate(values):
        if not (isinstance(value, Tensor) or (allow_none and value is None)):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(value).__name__}")


def out_needs_dim(name):
    """The out= rule of torch.sum / torch.prod (_out.py): its parser takes out= only with a dim, so sum(x, out=t) is
    refused."""
    def rule(input, dim=None, *args, **kwargs):
        if dim is None:
            raise TypeError(f"{name}() received an invalid combination of arguments - got out= without dim; "
                            f"the out= overload is {name}(Tensor input, int dim, bool keepdim, *, torch.dtype dtype, Tensor out)")
        from ._out import ANY  # (_out.py needs the op table, which is built on this module)
        return ANY

    return rule


# ---- the refusals of torch's Python bindings of two functions whose overloads the parser alone does not pick

def check_clamp_bounds(name, min, max):
    """clamp's bounds: both numbers, or both tensors (or one, the other None); a 0-d tensor beside a number reads as
    its number (the Scalar overload: clamp(int_tensor, 0, tensor(1.5)) is float32)."""
    for a, b in ((min, max), (max, min)):
        if isinstance(a, Tensor) and b is not None and not isinstance(b, Tensor):
            if a.dim():
                raise TypeError(f"{name}() received an invalid combination of arguments - got ({type(min).__name__}, "
                                f"{type(max).__name__}), but expected one of: (bounds both numbers, or both tensors)")
            return (a.item(), b) if a is min else (b, a.item())
    return min, max


def slice_bound(value):
    """A bound of x[a:b] as Python reads it, through __index__ (a 0-d integer tensor, numpy's ints), where a shape
    must get ints; a symbolic size, and a fake tensor (no value), as they are."""
    if value is None or isinstance(value, (int, SymInt)) or isinstance(value, Tensor) and value._np is None:
        return value
    if isinstance(value, Tensor):
        return value.__index__()  # (its own words for a float tensor)
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("slice indices must be integers or None or have an __index__ method") from None


def check_subscript_of_0d(self, index):
    """x[i] and x[a:b] (alone, not in a tuple) of a 0-d tensor: the words of torch's indexing binding, which looks at
    a lone int or slice before anything else (in a tuple they read as too many indices)."""
    if self.dim() != 0 or isinstance(index, bool):
        return
    if isinstance(index, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if isinstance(index, (int, np.integer)) and index == 0:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
                         "to convert a 0-dim tensor to a number")
    if isinstance(index, (int, np.integer)):
        raise IndexError(f"index {index} is out of bounds for dimension 0 with size 0")


TYPE_META_NAMES = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int",
                   "int32": "int", "int64": "long int"}  # C++'s names of integral types, which a TypeMeta prints


def check_clamp_in_place(self, *bounds):
    """clamp_(x, number...) of an integral x: its meta's own check that the numbers keep x's dtype, worded with
    x's TypeMeta (`long int`), before anything else is looked at."""
    if isinstance(self, Tensor) and self.dtype.name in TYPE_META_NAMES:
        result = _dtype.result_type(self, *(b for b in bounds if b is not None))
        if result is not self.dtype:
            raise RuntimeError(f"result type {_dtype_title(result)} can't be cast to the desired output type "
                               f"{TYPE_META_NAMES[self.dtype.name]}")


def check_isclose(input, other, rtol, atol):
    """isclose's: `other` a tensor of input's dtype, tolerances not negative; the tolerances as the doubles it reads."""
    if not isinstance(other, Tensor):
        raise TypeError(f"isclose(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    if other.dtype is not input.dtype:
        raise RuntimeError(f"{_dtype_title(input.dtype)} did not match {_dtype_title(other.dtype)}")
    for name, tolerance in (("rtol", rtol), ("atol", atol)):
        if not tolerance >= 0:
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got {tolerance}")
    return float(rtol), float(atol)


# ---------------------------------------------------------------- a factory's size
def size_list(name, given):
    """The ints of a factory's size as torch's parser reads them (`zeros(2, 3)`, `zeros([2, 3])`; `full` takes only
    the list), or its TypeError: the first item must be an int, the others may be bools, and a 0-d integer tensor or a
    NumPy integer reads as its value."""
    if not given and name in ("rand", "randn"):
        raise TypeError(f"{name}() received an invalid combination of arguments - got (), but expected one of:\n"
                        " * (tuple of ints size, *, torch.Generator generator, Tensor out = None, torch.dtype dtype"
                        " = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False,"
                        " bool requires_grad = False)")
    if not given:  # (torch.zeros(()) is the 0-d tensor; torch.zeros() is refused)
        raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
    spread = not isinstance(given[0], (list, tuple)) and name != "full"
    sizes = given if spread else given[0]
    if not spread and not isinstance(sizes, (list, tuple)) or spread and not _size_item(sizes[0], first=True):
        if len(given) > 1:
            raise TypeError(f"{name}() takes 1 positional argument but {len(given)} were given")
        raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not {_type_name(given[0])}")
    if not spread and len(given) > 1:
        raise TypeError(f"{name}() takes 1 positional argument but {len(given)} were given")
    for place, item in enumerate(sizes):
        if not _size_item(item, first=place == 0):
            if place == 0:
                raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, but found element of "
                                f"type {_type_name(item)} at pos 0")
            raise TypeError(f"{name}(): argument 'size' failed to unpack the object at pos {place + 1} with error "
                            f"\"type must be tuple of ints,but got {_type_name(item)}\"")
    return [item.item() if isinstance(item, Tensor) and item._np is not None else item for item in sizes]


def _size_item(item, first):
    if isinstance(item, (bool, np.bool_)):
        return not first
    if isinstance(item, Tensor):
        return item.dim() == 0 and item.dtype.category == 1
    return isinstance(item, (int, np.integer, SymInt))


def _type_name(value):
    if isinstance(value, Tensor):
        return "Tensor"
    module = type(value).__module__
    return type(value).__name__ if module == "builtins" else f"{module}.{type(value).__name__}"


_LINSPACE = ", int steps, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device " \
            "device = None, bool pin_memory = False, bool requires_grad = False)\n"


def linspace_steps(start, end, steps):
    """linspace's `int steps` as torch's parser reads it (not a SymInt: a size symbol given here is pinned)."""
    if not _size_item(steps, first=True):
        got = ", ".join(_type_name(a) for a in (start, end, steps))
        raise TypeError(f"linspace() received an invalid combination of arguments - got ({got}), but expected one "
                        "of:\n" + "".join(f" * ({a} start, {b} end{_LINSPACE}" for b in ("Tensor", "Number")
                                          for a in ("Tensor", "Number")))
    return int(steps)
