"""The overloads of Tensor's reductions, conversions, pointwise, selection and sorting methods, parsed as torch's
Python argument parser parses them, so a call of the wrong kind raises torch's TypeError in torch's words.

Runtime layer, coverage surface: _tensor_methods.install() wraps the methods named below once, when minitorch2 loads
(the shape methods' ints are _method_arguments.py's). torch's binding tries each overload of a method in order; a call
no overload takes is refused before any kernel runs: `x.clone(2.5)` and `x.sort(descending=1)` are TypeErrors, where
Python would have read them as something. The words depend on how many overloads could have taken that many
arguments: one gives the argument at fault (`topk(): argument 'k' (position 1) must be int, not float`), several give
"received an invalid combination of arguments". A call whose argument types were accepted once is remembered by its
types (plain ints, floats, bools, dtypes, Tensors in Tensor places), so well-typed calls pay one set lookup.
"""
import functools
import numbers
import warnings

import numpy as np

from . import _numpy_names
from ._dtype import dtype
from ._sym import SymBool, SymFloat, SymInt
from ._tensor import Tensor, device, layout, memory_format

_DTYPE = "*, torch.dtype dtype = None"
_CLAMP = ("Tensor min = None, Tensor max = None", "Number min = None, Number max = None")
_OTHER = ("Tensor other", "Number other")
_VAR = ("tuple of ints? dim, bool unbiased = True, bool keepdim = False",
        "tuple of ints dim = None, *, Number correction = None, bool keepdim = False", "bool unbiased = True")
_SORT = ("*, bool? stable, int dim = -1, bool descending = False", "int dim = -1, bool descending = False")
_ARGSORT = ("*, bool stable, int dim = -1, bool descending = False", "int dim = -1, bool descending = False")
_ALL = ("", "tuple of ints[] dim = None, bool keepdim = False", "int dim, bool keepdim = False")
_MAX = ("", "Tensor other", "int dim, bool keepdim = False")
_ARITHMETIC = ("Tensor other, *, Number alpha = 1",)
_MASKED_FILL = ("Tensor mask, Tensor value", "Tensor mask, Number value")
_CONVERSION = ("*, torch.memory_format memory_format = None",)
_POINTWISE_SUM = ("Tensor tensor1, Tensor tensor2, *, Number value = 1",)

# method -> its overloads as torch prints them in "expected one of" ("?": an argument without a default that takes
# None; "[]": an int list without a length, which takes no single int; torch prints neither)
SIGNATURES = {
    "sum": (_DTYPE, "tuple of ints? dim, bool keepdim = False, " + _DTYPE),
    "mean": (_DTYPE, "tuple of ints? dim, bool keepdim = False, " + _DTYPE),
    "nansum": ("tuple of ints dim = None, bool keepdim = False, " + _DTYPE,),
    "prod": (_DTYPE, "int dim, bool keepdim = False, " + _DTYPE),
    "std": _VAR, "var": _VAR, "all": _ALL, "any": _ALL, "max": _MAX, "min": _MAX,
    "amax": ("tuple of ints dim = (), bool keepdim = False",),
    "amin": ("tuple of ints dim = (), bool keepdim = False",),
    "argmax": ("int dim = None, bool keepdim = False",), "argmin": ("int dim = None, bool keepdim = False",),
    "logsumexp": ("tuple of ints dim, bool keepdim = False",),
    "median": ("", "int dim, bool keepdim = False"),
    "cumsum": ("int dim, " + _DTYPE,), "cumprod": ("int dim, " + _DTYPE,),
    "softmax": ("int dim, torch.dtype dtype = None",), "log_softmax": ("int dim, torch.dtype dtype = None",),
    "clone": _CONVERSION, "contiguous": _CONVERSION, "float": _CONVERSION, "double": _CONVERSION,
    "half": _CONVERSION, "int": _CONVERSION, "long": _CONVERSION, "bool": _CONVERSION,
    "fill_": ("Tensor value", "Number value"),
    "masked_fill": _MASKED_FILL, "masked_fill_": _MASKED_FILL,
    "clamp": _CLAMP, "clamp_": _CLAMP, "clip": _CLAMP, "clip_": _CLAMP,
    "topk": ("int k, int dim = -1, bool largest = True, bool sorted = True",),
    "sort": _SORT, "argsort": _ARGSORT,
    "index_select": ("int dim, Tensor index",),
    "gather": ("int dim, Tensor index, *, bool sparse_grad = False",),
    "add": _ARITHMETIC, "add_": _ARITHMETIC, "sub": _ARITHMETIC, "sub_": _ARITHMETIC,
    "addcmul": _POINTWISE_SUM, "addcmul_": _POINTWISE_SUM, "addcdiv": _POINTWISE_SUM, "addcdiv_": _POINTWISE_SUM,
    "mul": ("Tensor other",), "mul_": ("Tensor other",),
    "div": ("Tensor other", "Tensor other, *, str rounding_mode", "Number other, *, str rounding_mode"),
    "pow": ("Tensor exponent", "Number exponent"),
    "eq": _OTHER, "ne": _OTHER, "lt": _OTHER, "gt": _OTHER, "le": _OTHER, "ge": _OTHER,
    "fmod": _OTHER, "remainder": _OTHER,
    "maximum": ("Tensor other",), "minimum": ("Tensor other",),
    "repeat_interleave": ("Tensor repeats, int dim = None, *, int output_size = None",
                          "int repeats, int dim = None, *, int output_size = None"),
    "where": ("Tensor condition, Tensor other", "Tensor condition, Number other"),
    "lerp": ("Tensor end, Tensor weight", "Tensor end, Number weight"),
    "to": tuple(first + ", bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None"
                for first in ("torch.device device = None, torch.dtype dtype = None", "torch.dtype dtype",
                              "Tensor tensor")),
}
_OUT = ", *, Tensor out = None"
# torch's functions -> their overloads: those taking a dim, which _numpy_names.py wraps already, and the arithmetic
# ones with a Number argument, which no library code calls (a graph spells a function by the identity of the public
# one: wrapping torch.zeros_like, which the nn layers call unwrapped, would change how their graphs print it)
FUNCTION_SIGNATURES = {
    "sum": ("Tensor input, " + _DTYPE, "Tensor input, tuple of ints? dim, bool keepdim = False, " + _DTYPE +
            ", Tensor out = None"),
    "mean": ("Tensor input, " + _DTYPE + ", Tensor out = None",
             "Tensor input, tuple of ints? dim, bool keepdim = False, " + _DTYPE + ", Tensor out = None"),
    "argmax": ("Tensor input, int dim = None, bool keepdim = False" + _OUT,),
    "argmin": ("Tensor input, int dim = None, bool keepdim = False" + _OUT,),
    "amax": ("Tensor input, tuple of ints dim = (), bool keepdim = False" + _OUT,),
    "amin": ("Tensor input, tuple of ints dim = (), bool keepdim = False" + _OUT,),
    "topk": ("Tensor input, int k, int dim = -1, bool largest = True, bool sorted = True, *, "
             + "tuple of Tensors out = None",),
    "sort": ("Tensor input, *, bool? stable, int dim = -1, bool descending = False, tuple of Tensors out = None",
             "Tensor input, int dim = -1, bool descending = False, *, tuple of Tensors out = None"),
    "index_select": ("Tensor input, int dim, Tensor index" + _OUT,),
    "gather": ("Tensor input, int dim, Tensor index, *, bool sparse_grad = False, Tensor out = None",),
    "cumsum": ("Tensor input, int dim, " + _DTYPE + ", Tensor out = None",),
    "softmax": ("Tensor input, int dim, torch.dtype dtype = None" + _OUT,),
    "cat": ("tuple of Tensors tensors, int dim = 0" + _OUT,),
    "stack": ("tuple of Tensors tensors, int dim = 0" + _OUT,),
    "add": ("Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None",),
    "sub": ("Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None",),
    "rsub": ("Tensor input, Tensor other, *, Number alpha = 1", "Tensor input, Number other, Number alpha = 1"),
    "addcmul": ("Tensor input, Tensor tensor1, Tensor tensor2, *, Number value = 1, Tensor out = None",),
    "addcdiv": ("Tensor input, Tensor tensor1, Tensor tensor2, *, Number value = 1, Tensor out = None",),
    "fmod": ("Tensor input, Tensor other" + _OUT, "Tensor input, Number other" + _OUT),
}
# the functions whose size may be spread out, torch.zeros(2, 3), when its first item is an int
_SPREAD_SIZES = frozenset({"zeros", "ones", "empty", "rand", "randn"})
# methods torch binds as taking nothing at all: any argument is "Tensor.exp() takes no arguments (1 given)"
NO_ARGUMENTS = ("exp", "log", "abs", "neg", "relu", "sigmoid", "tanh", "sqrt", "rsqrt", "sin", "cos", "square",
                "exp_", "neg_", "relu_", "sigmoid_", "tanh_", "detach", "detach_", "numel", "dim", "argwhere")
# where a Tensor is wanted, these take a Python number too (x.add(2)), as torch's parser allows for them
# the overloads torch's parser tries last but does not list: add's deprecated `x.add(2, y)`, x + 2 * y (with a warning)
_DEPRECATED = {**{name: "Number alpha, Tensor other" for name in ("add", "add_", "sub", "sub_")},  # (functions: input 1st)
               **{name: "Number value, Tensor tensor1, Tensor tensor2" for name in ("addcmul", "addcmul_", "addcdiv",
                                                                                   "addcdiv_")}}
_NUMBERS_AS_TENSORS = frozenset({"add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_"})


def checked(methods):
    """{name: method} with the methods named here checking their arguments first."""
    return {name: _checking(name, method) if name in SIGNATURES else
            _taking_nothing(name, method) if name in NO_ARGUMENTS else method for name, method in methods.items()}


def _taking_nothing(name, method):
    @functools.wraps(method)
    def taking_nothing(self, *args, **kwargs):
        if args or kwargs:
            given = "takes no keyword arguments" if kwargs else f"takes no arguments ({len(args)} given)"
            raise TypeError(f"TensorBase.{name}() {given}")
        return method(self)

    return taking_nothing


def _checking(name, method):
    checker = _Checker(name, SIGNATURES[name], _DEPRECATED.get(name))

    @functools.wraps(method)
    def checking(self, *args, **kwargs):
        key = _types_of(args, kwargs)
        if key not in checker.accepted:
            args, kwargs, deprecated = checker.check(key, args, kwargs)
            if deprecated:
                return method(self, **kwargs)
        return method(self, *args, **kwargs)

    return checking


def _types_of(args, kwargs):
    """A call's argument types (keywords with their names): what a well-typed call is remembered by."""
    key = tuple(map(type, args))
    return key + tuple((k, type(v)) for k, v in kwargs.items()) if kwargs else key


def wrap_all(functions):
    """{name: function} with torch's functions named in FUNCTION_SIGNATURES checking their arguments first, and all
    taking NumPy's names for theirs (_numpy_names.py: `axis` is renamed `dim` before the check)."""
    return _numpy_names.wrap_all({name: _checking_function(name, fn) if name in FUNCTION_SIGNATURES else fn
                                  for name, fn in functions.items()})


def _checking_function(name, fn):
    checker = _Checker(name, FUNCTION_SIGNATURES[name], _DEPRECATED.get(name) and "Tensor input, " + _DEPRECATED[name]
                       + ", *, Tensor out = None")

    @functools.wraps(fn)
    def checking(*args, **kwargs):
        key = _types_of(args, kwargs)
        if key not in checker.accepted:
            args, kwargs, deprecated = checker.check(key, args, kwargs)
            if deprecated:
                return fn(**kwargs)
        return fn(*args, **kwargs)

    return checking


class _Checker:
    """A method's or function's overloads, and the argument types of the calls found well typed (for calls whose types
    say it all)."""

    def __init__(self, name, texts, deprecated):
        self.name, self.signatures = name, [_Signature(name, text) for text in texts]
        self.deprecated = deprecated and _Signature(name, deprecated)
        self.accepted = set()

    def check(self, key, args, kwargs):
        """The call's (args, kwargs, whether they are the deprecated overload's, by name), with a 0-d integer tensor or
        a NumPy integer given for an int, and a 0-d tensor given for a Number, read as its value, as torch's parser
        reads them; torch's TypeError for a call no overload takes."""
        fit = self.deprecated and not any(s.match(args, kwargs) for s in self.signatures) and self.deprecated.match(
            args, kwargs)
        if fit:
            warnings.warn(f"This overload of {self.name} is deprecated:\n\t{self.name}({self.deprecated.text})\n"
                          f"Consider using one of the following signatures instead:\n\t{self.name}("
                          f"{self.signatures[0].text})", UserWarning)
            names = [p[0] for p in self.deprecated.parameters]
            read = {names[k] if isinstance(k, int) else k: value for k, value in fit[1].items()}
            return (), {**dict(zip(names, args)), **kwargs, **read}, True
        by_type, ints = _parse(self.name, self.signatures, args, kwargs)
        if by_type:
            self.accepted.add(key)
        args = tuple(ints.get(place, value) for place, value in enumerate(args))
        return args, {key: ints.get(key, value) for key, value in kwargs.items()}, False


class _Signature:
    """One overload: its parameters (name, type, has a default, default is None) and where the keyword-only begin."""

    def __init__(self, name, text):
        self.name, self.text, self.parameters, self.positional = name, text.replace("?", "").replace("[]", ""), [], None
        for item in filter(None, text.split(", ")):
            if item == "*":
                self.positional = len(self.parameters)
                continue
            declaration, _, default = item.partition(" = ")
            kind, _, parameter = declaration.rpartition(" ")
            takes_none = default == "None" or kind.endswith("?") or kind == "tuple of ints" and bool(default)
            self.parameters.append((parameter, kind.rstrip("?"), bool(default), takes_none))  # (kind: "int", ...)
        if self.positional is None:
            self.positional = len(self.parameters)
        self.required = sum(not has_default for _, _, has_default, _ in self.parameters)

    def plausible(self, count):
        return self.required <= count <= len(self.parameters)

    def match(self, args, kwargs, raising=False):
        """Whether the call fits (and whether its types alone said so); with raising, torch's error where not, in
        the order torch's parser looks: the count of positional arguments, each parameter, then the keywords left."""
        given = len(args)  # (torch's count of positional arguments for its keyword checks, a spread size's items all)
        spread = self.name in _SPREAD_SIZES and args and _is_int(args[0])
        if spread:
            args = (args,)
        if len(args) > self.positional:
            s, low = "" if self.positional == 1 else "s", self.required
            takes = (f"{self.positional} positional argument{s}" if low == self.positional else
                     f"from {low} to {self.positional} positional arguments")
            return raising and self._fail(f"{self.name}() takes {takes} but {len(args)} "
                                          f"{'was' if len(args) == 1 and low == self.positional else 'were'} given")
        by_type, ints = True, {}
        for place, (parameter, kind, has_default, none_default) in enumerate(self.parameters):
            if place < len(args):
                value, where = args[place], f" (position {place + 1})"
            elif parameter in kwargs:
                value, where = kwargs[parameter], ""
            elif has_default:
                continue
            else:
                return raising and self._missing(place)
            if kind == "tuple of Tensors" and isinstance(value, (list, tuple)):
                _check_tensors(value, place)
            fits = value is None and none_default or _fits(kind, value, self.name in _NUMBERS_AS_TENSORS)
            if not fits:
                return raising and self._fail(_wrong_type(self.name, parameter, where, kind, value))
            by_type = by_type and (isinstance(value, Tensor) and kind == "Tensor" or type(value) in _PLAIN or
                                   spread and place == 0 and all(type(a) is int for a in value))
            if kind in ("int", "tuple of ints") and isinstance(value, (Tensor, np.integer)) and not spread:
                ints[place if place < len(args) else parameter] = _as_int(value)
            elif kind == "Number" and isinstance(value, (Tensor, np.generic)):
                ints[place if place < len(args) else parameter] = _number(value)
        names = [p[0] for p in self.parameters]
        for key in kwargs if any(k not in names[len(args):] for k in kwargs) else ():
            if key not in names[given:]:
                return raising and self._fail(
                    f"{self.name}() got multiple values for argument '{key}'" if key in names else
                    f"{self.name}() got an unexpected keyword argument '{key}'")
        _unpack_int_lists(self.name, self.parameters, args, kwargs)
        return by_type, ints

    def _missing(self, first):
        missing = [f'"{p}"' for p, _, has_default, _ in self.parameters[first:]
                   if not has_default]  # (from the first missing on, those given by keyword too, as torch lists them)
        s = "s" if len(missing) == 1 else ""  # (sic: torch's words have the plural for one)
        self._fail(f"{self.name}() missing {len(missing)} required positional argument{s}: {', '.join(missing)}")

    def _fail(self, message):
        raise TypeError(message)


_PLAIN = frozenset({int, float, bool, type(None), str, dtype})


def _parse(name, signatures, args, kwargs):
    """(whether the call's types alone make it well typed, so that it may be remembered; its ints to read, by place or
    keyword), or torch's TypeError when no overload takes it."""
    for signature in signatures:
        fits = signature.match(args, kwargs)
        if fits:
            return fits
    plausible = [s for s in signatures if s.plausible(len(args) + len(kwargs))]
    if len(signatures) == 1 and name not in _DEPRECATED:  # (a deprecated overload makes two)
        plausible = signatures
    if len(plausible) == 1:
        plausible[0].match(args, kwargs, raising=True)
    got = ", ".join([_type_name(a) for a in args] + [f"{k}={_type_name(kwargs[k])}" for k in sorted(kwargs)])
    got += ", " if kwargs and not args else ""  # (torch's words: a trailing comma after keywords alone)
    expected = ("one of:\n" + "".join(f" * ({s.text})\n" for s in signatures) if len(signatures) > 1 else
                f"({signatures[0].text})")
    raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected {expected}")


def _fits(kind, value, numbers_as_tensors):
    if kind == "Tensor":
        return isinstance(value, Tensor) or numbers_as_tensors and _fits("Number", value, False)
    if kind == "int":
        return _is_int(value)
    if kind == "tuple of ints[]":
        return isinstance(value, (list, tuple)) and (not value or _is_int(value[0]))
    if kind == "tuple of ints":  # (a 0-d bool tensor is read as an int here, not where one int is wanted)
        return (_is_int(value) or isinstance(value, Tensor) and value.dim() == 0 and value.dtype.category == 0 or
                isinstance(value, (list, tuple)) and (not value or _is_int(value[0])))
    if kind == "bool":
        return isinstance(value, (bool, SymBool))  # (not NumPy's bool, which torch reads as a Number)
    if kind == "Number":
        return (isinstance(value, (numbers.Number, np.bool_, SymInt, SymFloat, SymBool)) or
                isinstance(value, Tensor) and value.dim() == 0 and not value.requires_grad)
    if kind == "torch.dtype":
        return isinstance(value, dtype) or value in (float, int, bool, complex)
    if kind == "tuple of Tensors":
        return isinstance(value, (list, tuple))
    if kind == "torch.Generator":
        return type(value).__name__ == "Generator"  # (minitorch2.Generator: its module imports this one)
    if kind == "torch.layout":
        return isinstance(value, layout)
    if kind == "torch.memory_format":
        return isinstance(value, memory_format)
    if kind == "torch.device":
        return isinstance(value, (device, str, numbers.Integral)) and not isinstance(value, bool)
    return isinstance(value, str)


def _as_int(value):
    """A 0-d integer tensor's value (a fake tensor, which has none, stays) or a NumPy integer's."""
    if isinstance(value, Tensor):
        return int(value.item()) if value._np is not None else value
    return int(value)


def _number(value):
    """A 0-d tensor's value (a bool one stays a bool; a fake one stays) or a NumPy scalar's, as torch's parser reads
    a Number: NumPy's bool as a double, its complex64 as a complex."""
    if isinstance(value, Tensor):
        return value.item() if value._np is not None else value
    return float(value) if isinstance(value, np.bool_) else value.item()


def _is_int(value):
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, Tensor):
        return value.dim() == 0 and value.dtype.category == 1
    return isinstance(value, (numbers.Integral, SymInt))


def _unpack_int_lists(name, parameters, args, kwargs):
    """torch's parser matches an int list on its first item and reads the rest only once an overload is chosen."""
    for place, (parameter, kind, _, _) in enumerate(parameters):
        value = args[place] if place < len(args) else kwargs.get(parameter)
        if kind.startswith("tuple of ints") and isinstance(value, (list, tuple)):
            for item_place, item in enumerate(value):
                if not _is_int(item) and not (item_place and isinstance(item, bool)):
                    raise TypeError(f"{name}(): argument '{parameter}' failed to unpack the object at pos "
                                    f"{item_place + 1} with error \"type must be tuple of ints,but got "
                                    f"{_type_name(item)}\"")


def _check_tensors(values, place):
    """A Tensor list's items, which torch's parser checks as it tries an overload: the first not a Tensor is refused
    at once, whatever the other overloads."""
    for item_place, item in enumerate(values):
        if not isinstance(item, Tensor):
            raise TypeError(f"expected Tensor as element {item_place} in argument {place}, but got "
                            f"{_type_name(item)}")


def _wrong_type(name, parameter, where, kind, value):
    if kind.startswith("tuple of ints") and isinstance(value, (list, tuple)) and where:
        return (f"{name}(): argument '{parameter}'{where} must be tuple of ints, but found element of type "
                f"{_type_name(value[0])} at pos 0")
    return f"{name}(): argument '{parameter}'{where} must be {kind.rstrip('[]')}, not {_type_name(value)}"


def _type_name(value):
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, dtype):
        return "torch.dtype"
    module = type(value).__module__
    return type(value).__name__ if module == "builtins" else f"{module}.{type(value).__name__}"
