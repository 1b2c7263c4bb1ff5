"""The int and int-list arguments of Tensor's shape methods, checked as torch's C++ argument parser checks them.

Runtime layer, coverage surface: _tensor_methods.install() wraps the methods named below once, when minitorch2 loads.
torch's binding refuses a bool, a float, None or a floating tensor where it wants an int (`x.transpose(True, 0)` is
a TypeError, where Python would read True as 1) and reads a 0-d integer tensor through __index__; an int list takes
ints, bools and 0-d integer tensors as its items. Without this, `x.narrow(0, 0, torch.tensor(1))` gave a tensor whose
shape held a tensor, and `x.view(2, 2.5)` a RuntimeError about the shape.
"""
import functools
import numbers

import numpy as np

from . import _method_signatures
from ._dtype import dtype
from ._sym import SymInt
from ._tensor import Tensor

# method -> its int arguments in order ("int": one int; "sizes" and "ints": an int list given as one list or spread
# out, torch's SymInt[] and int[], whose words differ for a bad item of a list; "start": narrow's, an int or a 0-d
# integer tensor)
METHOD_ARGUMENTS = {
    "transpose": (("dim0", "int"), ("dim1", "int")), "swapaxes": (("axis0", "int"), ("axis1", "int")),
    "select": (("dim", "int"), ("index", "int")), "unsqueeze": (("dim", "int"),),
    "chunk": (("chunks", "int"), ("dim", "int")), "narrow": (("dim", "int"), ("start", "start"), ("length", "int")),
    "unfold": (("dimension", "int"), ("size", "int"), ("step", "int")),
    "view": (("size", "sizes"),), "reshape": (("shape", "sizes"),), "expand": (("size", "sizes"),),
    "permute": (("dims", "sizes"),), "repeat": (("repeats", "sizes"),),
    "flip": (("dims", "ints"),), "tile": (("dims", "ints"),),
}


def checked(methods):
    """{name: method} with the methods named in METHOD_ARGUMENTS checking their int arguments first (and those of
    _method_signatures.py their arguments' kinds)."""
    methods = _method_signatures.checked(methods)
    return {name: _checking(name, method) if name in METHOD_ARGUMENTS else method for name, method in methods.items()}


def _checking(name, method):
    arguments = METHOD_ARGUMENTS[name]

    @functools.wraps(method)
    def checking(self, *args, **kwargs):
        kind = arguments[0][1]
        if (len(args) <= len(arguments) or kind in ("sizes", "ints")) and all(
                type(a) is int and -2 ** 63 <= a < 2 ** 63 for a in args):
            return method(self, *args, **kwargs)  # (the common call, plain ints, as it is)
        if kind in ("sizes", "ints") and args:
            if name == "view" and len(args) == 1 and not _is_int(args[0]) and not isinstance(args[0], (list, tuple)):
                if isinstance(args[0], dtype):  # (view's other overload)
                    return method(self, *args, **kwargs)
                raise TypeError(f"view() received an invalid combination of arguments - got ({_type_name(args[0])}), "
                                "but expected one of:\n * (torch.dtype dtype)\n * (tuple of ints size)")
            if _is_int(args[0]) or isinstance(args[0], np.ndarray) and _is_int(args[0], in_a_list=True):
                # (the spread form, x.flip(0, 1), begins with an int or a 0-d int array: expand(True, 4) is refused)
                args = (_sizes(name, arguments[0][0], args),)
            elif len(args) > 1:
                raise TypeError(f"{name}() takes 1 positional argument but {len(args)} were given")
            else:
                args = (_sizes(name, arguments[0][0], args[0]) if kind == "sizes" else
                        _argument(name, arguments[0], 1, args[0]),)
        else:
            if len(args) > len(arguments):
                raise TypeError(f"{name}() received an invalid combination of arguments - got "
                                f"({', '.join(_type_name(a) for a in args)})")
            args = tuple(_argument(name, argument, place + 1, value)
                         for place, (argument, value) in enumerate(zip(arguments, args)))
        return method(self, *args, **kwargs)

    return checking


def _argument(name, argument, position, value):
    argument_name, kind = argument
    if kind == "start" and isinstance(value, Tensor) and not _is_int(value):
        raise RuntimeError("start must be an 0-dim integral Tensor.")
    if kind in ("int", "start"):
        if not _is_int(value):
            raise TypeError(f"{name}(): argument '{argument_name}' (position {position}) must be int, not "
                            f"{_type_name(value)}")
        if isinstance(value, int) and not -2 ** 63 <= value < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")
        return _as_int(value)
    if _is_int(value):
        return _sizes(name, argument_name, [value])[0]
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{name}(): argument '{argument_name}' (position {position}) must be tuple of ints, not "
                        f"{_type_name(value)}")
    for place, item in enumerate(value):
        if not _is_int(item, in_a_list=True):
            raise TypeError(f"{name}(): argument '{argument_name}' (position {position}) must be tuple of ints, but "
                            f"found element of type {_type_name(item)} at pos {place}")
    return _sizes(name, argument_name, value)


def _sizes(name, argument_name, sizes):
    if not isinstance(sizes, (list, tuple)):
        raise TypeError(f"{name}(): argument '{argument_name}' (position 1) must be tuple of ints, not "
                        f"{_type_name(sizes)}")
    for place, item in enumerate(sizes):
        error = (f"type must be tuple of ints,but got {_type_name(item)}" if not _is_int(item, in_a_list=True) else
                 "Overflow when unpacking long long\n" if isinstance(item, int) and not -2 ** 63 <= item < 2 ** 63
                 else None)  # (torch's words go on with the C++ frames of where it was raised)
        if error:
            raise TypeError(f"{name}(): argument '{argument_name}' failed to unpack the object at pos {place + 1} with "
                            f"error \"{error}\"")
    return [_as_int(item) for item in sizes] if isinstance(sizes, list) else tuple(_as_int(item) for item in sizes)


def _as_int(value):
    """A bool or a 0-d integer tensor read as the int torch's parser reads (a fake tensor stays: it has no value)."""
    if isinstance(value, (bool, np.bool_, np.integer, np.ndarray)):  # (numpy's ints too: a shape holds Python ints)
        return int(value)
    return value.item() if isinstance(value, Tensor) and value._np is not None else value


def _is_int(value, in_a_list=False):
    if isinstance(value, (bool, np.bool_)):
        return in_a_list
    if isinstance(value, np.ndarray):  # (a 0-d integer array, a traced numpy int run eagerly: in a size, as an int)
        return in_a_list and value.ndim == 0 and value.dtype.kind in "iu"
    if isinstance(value, Tensor):
        return value.dim() == 0 and value.dtype.category == 1
    return isinstance(value, (numbers.Integral, SymInt))


def _type_name(value):
    return "Tensor" if isinstance(value, Tensor) else type(value).__name__
