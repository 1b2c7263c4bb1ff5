"""ATen function schemas: parsing and argument normalisation.

Runtime layer, used by the operator registry. A schema string such as `sum.dim_IntList(Tensor self, int[1]? dim, bool
keepdim=False, *, ScalarType? dtype=None) -> Tensor` says how an op is called. The dispatcher uses it to put every
call into one canonical form before anything sees it, the form PyTorch hands to `__torch_dispatch__`: positional
arguments in schema order with trailing ones that equal their defaults left off, keyword-only arguments in `kwargs`
only when they differ from their defaults, and `int[]` arguments as lists (`x.sum(0)` reaches the kernel and any
tracer as `sum.dim_IntList(x, [0])`). `check_types` then refuses arguments of the wrong Python type with torch's
argument parser's errors (_arg_parser.py, coverage surface).
"""
import ast
import re
from dataclasses import dataclass

from ._arg_parser import ArgumentChecks

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
        self._checks = ArgumentChecks(self, numbers_as_tensors)
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
        """The call's (args, kwargs) as torch's argument parser checks and converts them (_arg_parser.py)."""
        return self._checks.check(op, args, kwargs)

    def _normalize_slow(self, op, args, kwargs):
        npos = len(self.positional)
        if len(args) > npos:
            raise TypeError(f"{op}() takes {npos} positional arguments but {len(args)} were given")
        values = list(args) + [_NO_DEFAULT] * (npos - len(args))
        extra = {}
        for key, value in kwargs.items():
            slot = self._by_name.get(key)
            if slot is not None:
                if values[slot] is not _NO_DEFAULT and slot < len(args):
                    raise TypeError(f"{op}() got multiple values for argument '{key}'")
                values[slot] = value
            elif key in self._kwarg_only:
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


def _same(value, default):
    if value is default:
        return True
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
        type_, alias = _parse_type(part.split(" ")[0])
        returns.append(Return(type_, alias))
    return returns
