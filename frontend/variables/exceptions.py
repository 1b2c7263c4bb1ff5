"""Exceptions made and raised inside a compiled frame: `KeyError("k")`, `raise _Stop(t)`, `except E as e: e.args`.

Frontend layer, beside the translator's exception opcodes (opcodes_exceptions.py). As Dynamo 2.13 does, an
exception the program raises and catches in the frame is traced: the exception is a tracker of its class and
arguments, raised as an ObservedException that the translator unwinds to its handler. The one idea to hold:
nothing is raised for real; a handler's `except KeyError` is a question about the tracker's class.
"""
import inspect
import types

from ..exc import Unsupported
from .base import VariableTracker
from .constant import ConstantVariable


class ObservedException(Exception):
    """An exception the traced program raises (d[k]'s KeyError, next()'s StopIteration, `raise E(...)`): the
    translator unwinds to the handler CPython would run (opcodes_exceptions.py). `value` is the exception's tracker;
    its `uncaught` is the graph break it is when no handler of the frame catches it."""

    def __init__(self, value):
        super().__init__(value.uncaught.msg)
        self.value = value


def is_exception_class(value):
    """An exception class whose instances the translator models: one whose __init__ and __new__ are Python's own
    (an __init__ written in Python is not inlined)."""
    return isinstance(value, type) and issubclass(value, BaseException) and not any(
        isinstance(inspect.getattr_static(value, name), (types.FunctionType, staticmethod))
        for name in ("__init__", "__new__"))


class ExceptionVariable(VariableTracker):
    """An exception instance made in the frame: its class, its argument trackers and its __cause__."""

    def __init__(self, cls, args):
        super().__init__()
        self.cls, self.args = cls, list(args)
        self.cause = self.context = ConstantVariable(None)  # (context: the one being handled when it was raised)
        self.uncaught = None  # the graph break its first raise is, should no handler catch it

    def python_type(self):
        return self.cls

    def is_python_constant(self):  # str(e), isinstance(e, KeyError): folded on a real instance when it can be made
        return all(a.realize().is_python_constant() for a in self.args)

    def as_python_constant(self):
        return self.cls(*[a.realize().as_python_constant() for a in self.args])

    def var_getattr(self, tx, name):
        if name == "args":
            from .lists import TupleVariable  # (lists.py raises IndexError through this module: a cycle)
            return TupleVariable(self.args)
        if name in ("__cause__", "__context__"):
            return self.cause if name == "__cause__" else self.context
        raise Unsupported(f"attribute {name!r} of a {self.cls.__name__} raised in the frame", "unsupported_attr")

    def __repr__(self):
        return f"ExceptionVariable({self.cls.__name__})"


class ExceptionClassVariable(ConstantVariable):
    """An exception class (KeyError, the user's `class _Stop(Exception)`): calling it makes an ExceptionVariable."""

    def call_function(self, tx, args, kwargs):
        if kwargs:
            raise Unsupported(f"{self.value.__name__}() with keyword arguments", "unsupported_call")
        return ExceptionVariable(self.value, args)


def as_exception(var):
    """What `raise var` raises: an instance, or a class called with no arguments (`raise StopIteration`)."""
    var = var.realize()
    if isinstance(var, ExceptionVariable):
        return var
    if var.is_python_constant() and is_exception_class(var.as_python_constant()):
        return ExceptionVariable(var.as_python_constant(), [])
    raise Unsupported(f"raise of {var}", "unsupported_opcode")


def raise_observed(cls, args, uncaught_msg):
    """Raise `cls(*args)` in the traced program; uncaught in the frame, it is the graph break `uncaught_msg`."""
    exception = ExceptionVariable(cls, [ConstantVariable(a) for a in args])
    exception.uncaught = Unsupported(f"{uncaught_msg}, not caught in the frame", "uncaught_exception")
    raise ObservedException(exception)


def raise_unpack_error(count, expected, starred=False):
    """`p, q = xs` (`p, *rest = xs` when starred) over `count` values: Python's ValueError, raised in the program."""
    if count > expected and not starred:
        message = f"too many values to unpack (expected {expected})"
    else:
        message = f"not enough values to unpack (expected {'at least ' * starred}{expected}, got {count})"
    raise_observed(ValueError, [message], f"unpacking {count} values into {expected}")


def raise_keyword_given_twice(function, keywords, more_keywords):
    """`f(**p, **q)` where p and q share a key: Python's TypeError naming the function as CPython names it."""
    name = next(iter(keywords.keys() & more_keywords.keys()), None)
    if name is None:
        return
    fn = getattr(function, "fn", getattr(function, "value", None))
    module = getattr(fn, "__module__", None)
    where = f"{module}." if module not in (None, "builtins") else ""
    qualname = getattr(fn, "__qualname__", type(fn).__name__)
    raise_observed(TypeError, [f"{where}{qualname}() got multiple values for keyword argument {name!r}"],
                   f"keyword argument {name!r} given twice")
