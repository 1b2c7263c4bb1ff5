"""ATen function schemas: parsing and argument normalisation.

Runtime layer, used by the operator registry. A schema string such as `sum.dim_IntList(Tensor self, int[1]? dim, bool
keepdim=False, *, ScalarType? dtype=None) -> Tensor` says how an op is called. The dispatcher uses it to put every
call into one canonical form before anything sees it, the form PyTorch hands to `__torch_dispatch__`: positional
arguments in schema order with trailing ones that equal their defaults left off, keyword-only arguments in `kwargs`
only when they differ from their defaults, and `int[]` arguments as lists (`x.sum(0)` reaches the kernel and any
tracer as `sum.dim_IntList(x, [0])`). `check_types` refuses an op call's argument of the wrong Python type with the
TypeError torch's argument parser gives (`add(): argument 'other' (position 2) must be Tensor, not list`), before any
kernel sees it, and makes the parser's one conversion: a Python type given for a dtype (`dtype=float` is float64). A
complex number is refused with its own error: minitorch2 has no complex dtypes.
"""
import ast
import re
from dataclasses import dataclass

import numpy as np

from . import _dtype
from ._dtype import dtype as _dtype_class
from ._sym import SymBool, SymFloat, SymInt
from ._tensor import Tensor

_NO_DEFAULT = object()


@dataclass(frozen=True)
class Argument:
    name: str
    type: str
    default: object = _NO_DEFAULT
    kwarg_only: bool = False
    alias: str = ""  # "a" for Tensor(a), "a!" for a mutated alias

    @property
    def has_default(self):
        return self.default is not _NO_DEFAULT

    @property
    def is_mutable(self):
        return self.alias.endswith("!")

    @property
    def is_int_list(self):
        return self.type.startswith(("int[", "SymInt["))

    @property
    def list_size(self):
        """N for `int[N]` (an int given for it means N copies), else 1."""
        inside = self.type[self.type.index("[") + 1:self.type.index("]")] if self.is_int_list else ""
        return int(inside) if inside.isdigit() else 1


@dataclass(frozen=True)
class Return:
    type: str
    alias: str = ""


class FunctionSchema:
    """A parsed schema; `str()` gives back the schema string."""

    def __init__(self, text, numbers_as_tensors=False):
        self.text = text
        m = re.fullmatch(r"\s*(?:(\w+)::)?([\w.]+)\((.*)\)\s*->\s*(.*)", text)
        if not m:
            raise ValueError(f"malformed schema: {text!r}")
        namespace, qualified, args_text, returns_text = m.groups()
        self.namespace = namespace or "aten"  # "prims::iota(...)" names its namespace; aten is the default
        self.text = text.split("::", 1)[1] if namespace else text
        base_name, _, self.overload_name = qualified.partition(".")
        self.name = f"{self.namespace}::{base_name}"  # as PyTorch's FunctionSchema.name
        self.overload_name = self.overload_name or "default"
        self.arguments = _parse_arguments(args_text)
        self.returns = _parse_returns(returns_text)
        self.positional = [a for a in self.arguments if not a.kwarg_only]
        self.kwarg_only = [a for a in self.arguments if a.kwarg_only]
        self._by_name = {a.name: i for i, a in enumerate(self.positional)}
        self._n_required = sum(1 for a in self.positional if not a.has_default)
        self._int_list_slots = [i for i, a in enumerate(self.positional) if a.is_int_list]
        self._kwarg_only = {a.name: a for a in self.kwarg_only}
        # a Python number may stand for a Tensor in a pointwise op of two or more tensors (sub.Tensor(1, x)),
        # as torch's ops allow; never in exp(3) or mm(x, 2)
        numbers_as_tensors = numbers_as_tensors and sum(_kind(a.type)[0] == "Tensor" for a in self.arguments) > 1
        self._accepted = [_accepted_types(a, numbers_as_tensors) for a in self.positional]
        self._tensor_list_slots = [i for i, a in enumerate(self.positional) if _kind(a.type)[0] == "Tensor[]"]
        # add_(other, alpha=-lr): every positional required and given, only keyword-only names passed
        self._keywords_fast = self._n_required == len(self.positional) and not self._int_list_slots and \
            all(a.has_default for a in self.kwarg_only)

    def __str__(self):
        return f"{self.namespace}::{self.text}"

    @property
    def is_mutable(self):
        return any(a.is_mutable for a in self.arguments)

    def normalize(self, op, args, kwargs):
        """Return (args, kwargs) in canonical form, raising TypeError for a bad call."""
        npos = len(self.positional)
        if not kwargs and len(args) == self._n_required and not self._int_list_slots:
            return args, {}
        if self._keywords_fast and len(args) == npos and kwargs.keys() <= self._kwarg_only.keys():
            only = self._kwarg_only
            return args, {key: value for key, value in kwargs.items() if not _same(value, only[key].default)}
        return self._normalize_slow(op, args, kwargs)

    def check_types(self, op, args, kwargs):
        """The call's (args, kwargs), checked as torch's argument parser checks them (_check_types) and with
        the conversions it makes: a Python type given for a ScalarType is that dtype (dtype=float is
        float64)."""
        try:
            self._check_types(op, args, kwargs)
        except _Convertible as c:
            return self.check_types(op, *c.converted(args, kwargs))
        return args, kwargs

    def _check_types(self, op, args, kwargs):
        """Raise torch's TypeError for an argument of the wrong Python type (args in canonical form), and its
        OverflowError for a Python int outside int64/uint64, as its argument parser does before any kernel
        runs (so fake and meta calls refuse 2**70 too). Only calls of an op check: graph passes normalize
        calls whose arguments are graph nodes."""
        for i, value in enumerate(args):
            accepted = self._accepted[i]
            if accepted is not None and not isinstance(value, accepted):
                _refuse(op, self.positional[i], i, value)
            if type(value) is int:
                _dtype.unpack_int(value)
        for key, value in kwargs.items():
            arg = self._kwarg_only.get(key)
            accepted = arg and _accepted_types(arg, False)
            if accepted is not None and not isinstance(value, accepted):
                _refuse(op, arg, key, value)
            if type(value) is int:
                _dtype.unpack_int(value)
        for i in self._tensor_list_slots:
            if i < len(args):
                _check_tensor_list(self.positional[i], args[i])

    def _normalize_slow(self, op, args, kwargs):
        npos = len(self.positional)
        if len(args) > npos:
            raise TypeError(f"{op}() takes {npos} positional arguments but {len(args)} were given")
        values = list(args)
        if len(values) < npos:
            values.extend([_NO_DEFAULT] * (npos - len(values)))
        extra = {}
        for key, value in kwargs.items():
            slot = self._by_name.get(key)
            if slot is not None:
                if values[slot] is not _NO_DEFAULT and slot < len(args):
                    raise TypeError(f"{op}() got multiple values for argument '{key}'")
                values[slot] = value
            elif any(a.name == key for a in self.kwarg_only):
                extra[key] = value
            else:
                raise TypeError(f"{op}() got an unexpected keyword argument '{key}'")
        for i, arg in enumerate(self.positional):
            if values[i] is _NO_DEFAULT:
                if not arg.has_default:
                    raise TypeError(f"{op}() missing required argument '{arg.name}' (schema: {self.text})")
                values[i] = arg.default
        for i in self._int_list_slots:
            v = values[i]
            if isinstance(v, int) and not isinstance(v, bool):
                values[i] = [v] * self.positional[i].list_size
            elif isinstance(v, tuple):
                values[i] = list(v)
        end = npos
        while end > 0 and self.positional[end - 1].has_default and _same(values[end - 1], self.positional[end - 1].default):
            end -= 1
        out_kwargs = {}
        for arg in self.kwarg_only:
            if arg.name in extra and not _same(extra[arg.name], arg.default):
                out_kwargs[arg.name] = extra[arg.name]
            elif arg.name not in extra and not arg.has_default:
                raise TypeError(f"{op}() missing required keyword argument '{arg.name}'")
        return tuple(values[:end]), out_kwargs


# ------------------------------------------------------------------ argument types, as torch's arg parser
_NUMBER = (bool, int, float, np.integer, np.floating, np.bool_, SymInt, SymFloat, SymBool)  # (no complex dtypes)
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
    """Raise torch's TypeError for an argument of the wrong type (slot: its position, or its keyword), the
    complex-number error for a complex, or _Convertible for a value the parser converts."""
    if _kind(arg.type)[0] == "ScalarType" and _dtype.as_dtype(value) is not value:
        raise _Convertible(slot, _dtype.as_dtype(value))
    if isinstance(value, (complex, np.complexfloating)):
        raise _dtype.complex_unsupported(value, f"{getattr(op, '_opname', op)}()")
    raise TypeError(_type_error(op, arg, slot if isinstance(slot, int) else None, value))


def _type_error(op, arg, position, value):
    name = getattr(op, "_opname", str(op))
    arg_name = "input" if arg.name == "self" else arg.name
    where = f" (position {position + 1})" if position is not None else ""
    return f"{name}(): argument '{arg_name}'{where} must be {_EXPECTED[_kind(arg.type)[0]][1]}, not {type(value).__name__}"


def _check_tensor_list(arg, values):
    allow_none = "?" in arg.type
    for i, value in enumerate(values):
        if not (isinstance(value, Tensor) or (allow_none and value is None)):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(value).__name__}")


def _same(value, default):
    if value is default:
        return True
    if type(value) is bool or type(default) is bool:
        return type(value) is type(default) and value == default
    if isinstance(value, (int, float)) and isinstance(default, (int, float)):  # a Scalar's type is its meaning:
        return type(value) is type(default) and value == default  # arange(0, 4, 1.0) is float32
    if isinstance(value, (list, tuple)) and isinstance(default, (list, tuple)):
        return list(value) == list(default)
    if isinstance(value, str) and isinstance(default, str):  # gelu(x, approximate="none") records gelu(x)
        return value == default
    return False


def _split_top_level(text):
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


def _parse_default(text):
    """A default as the schema writes it: a Python literal (None, True, [0, 1], 'none', 1e-05), inf or nan, or
    a name kept as text (long, contiguous_format)."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        pass
    try:
        return float(text)
    except ValueError:
        return text


def _parse_type(text):
    m = re.fullmatch(r"(\w+)(\(([\w!]+)\))?(.*)", text)
    base, _, alias, rest = m.groups()
    return base + rest, alias or ""


def _parse_arguments(text):
    arguments, kwarg_only = [], False
    for part in _split_top_level(text):
        if part == "*":
            kwarg_only = True
            continue
        decl, _, default = part.partition("=")
        type_text, name = decl.rsplit(" ", 1)
        type_, alias = _parse_type(type_text.strip())
        value = _parse_default(default.strip()) if default else _NO_DEFAULT
        arg = Argument(name.strip(), type_, value, kwarg_only, alias)
        if arg.is_int_list and isinstance(value, int) and not isinstance(value, bool):
            arg = Argument(arg.name, type_, [value] * arg.list_size, kwarg_only, alias)  # `int[2] padding=0` is [0, 0]
        arguments.append(arg)
    return arguments


def _parse_returns(text):
    text = text.strip()
    if text.startswith("("):
        text = text[1:-1]
    returns = []
    for part in _split_top_level(text):
        if not part:
            continue
        type_text = part.split(" ")[0]
        type_, alias = _parse_type(type_text)
        returns.append(Return(type_, alias))
    return returns
