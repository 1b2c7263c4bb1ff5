"""numpy inside compiled frames: numpy's functions, and ndarrays that are tensors in the graph (plays Dynamo's
NumpyVariable and NumpyNdarrayVariable).

Frontend layer, coverage surface. Dynamo traces numpy code as it traces torch code: `x.numpy()` is a view of the
tensor (`a = l_x_.view_as(l_x_)`) that the translator knows to be an ndarray, and every numpy function, ndarray
method, operator and attribute on it is one graph node whose target (minitorch2/_numpy_ops.py) runs numpy at run
time: `np.clip(a, 0, 1).sum()` records `wrapped_clip(a, 0, 1)` and `wrapped_sum(wrapped_clip)`. An ndarray the frame
returns, or leaves in a local at a graph break, is handed back as numpy's: the output tensor's array (a 0-d result
is a 0-d array). An ndarray read from outside the frame (an argument, a global, one a graph break left in a local)
is a graph input, the tensor over its memory fetched anew at each call (`L_a_`); so is a numpy float read from outside
(a 0-d array: `np.sqrt(d)` as a scale), while a numpy int is a constant. An ndarray meets the torch world
through `torch.from_numpy(a)` / `torch.as_tensor(a)`, recorded as `torch.as_tensor(a)`, and through an operator
with a tensor (`x + a`), which is the tensor's operator.

The one idea to hold: what is traced is decided by the table in _numpy_ops.py. A numpy function with no row there,
an ndarray method or attribute not modelled (`a.dtype`, as in Dynamo), a value numpy would give to Python
(`float(a)`, `if a.any()`) is a graph break, so numpy runs it eagerly and no value is ever silently different.
"""
import operator

import numpy as np

import minitorch2
from minitorch2 import _numpy_ops

from .. import guards
from ..exc import Unsupported
from ..source import FOREIGN_GLOBALS, Source
from .base import MethodVariable, VariableTracker
from .constant import ConstantVariable
from .lists import TupleVariable
from .sym_node import SymNodeVariable
from .tensor import TensorVariable, record, record_mutation

# (ids: builder.py never hashes a user's value; the in-place operators' rows are not numpy's functions)
NUMPY_FUNCTION_IDS = {id(fn) for fn in _numpy_ops.ROWS if fn not in _numpy_ops.OPERATORS}
_NUMPY_FUNCTION_TYPES = (np.ufunc, type(np.sum))  # numpy's ufuncs and array functions, with a row or not
_NDARRAY_INPUT_DTYPES = {np.dtype(d) for d in ("float64", "float32", "float16", "int64", "int32", "int16", "int8",
                                               "uint8", "bool")}


def _tensor_over(value):
    """The tensor over an ndarray's memory, or over a numpy scalar's 0-d array."""
    return minitorch2.from_numpy(np.asarray(value))


_FROM_NUMPY = {"___from_numpy": _tensor_over}  # what NumpyTensorSource calls, reached as a foreign global


def is_numpy_value(value, source):
    """A numpy function or scalar type of the table; another of numpy's ufuncs and array functions (whose call is
    then a graph break that names it); an ndarray read from outside the frame."""
    if type(value) is np.ndarray:  # (a negative stride: from_numpy would copy, and writes would miss the array)
        return source is not None and value.dtype in _NDARRAY_INPUT_DTYPES and min(value.strides, default=0) >= 0
    if isinstance(value, np.number):  # a numpy number read from outside (np.bool_ is a constant)
        return source is not None and value.dtype in _NDARRAY_INPUT_DTYPES
    return id(value) in NUMPY_FUNCTION_IDS or any(type(value) is t for t in _NUMPY_FUNCTION_TYPES)


def wrap_numpy(og, value, source):
    """builder.wrap for what is_numpy_value accepts: a function's tracker (guarded to be the same object), or an
    ndarray's: a graph input, the tensor over its memory, as Dynamo's (`L_a_`, guarded as `___from_numpy(L['a'])`).
    A numpy float is a 0-d array input, as Dynamo's (`np.sqrt(d)` as a scale). A numpy int is the constant it holds,
    guarded by value: Dynamo's is a 0-d array whose item() sizes the graph, one graph for every value."""
    if isinstance(value, np.integer):
        og.guards.add(guards.constant_guard(source, value))
        return ConstantVariable(value, source)
    if not isinstance(value, (np.ndarray, np.number)):
        if source is not None:
            og.guards.add(guards.id_guard(source, value), value)
        return NumpyFunctionVariable(value, source)
    if isinstance(value, np.number):  # (a Python float at the next call is a constant: another graph, as Dynamo's)
        og.guards.add(guards.type_guard(source, value), type(value))
    tensor = og.add_graph_input(NumpyTensorSource(source), _tensor_over(value))
    array = NumpyNdarrayVariable(tensor.proxy, tensor.example_value, source=source)
    array.scalar_type = type(value) if isinstance(value, np.number) else None  # (`type(s)`: np.float64 still)
    return array


class NumpyTensorSource(Source):
    """The tensor over an ndarray input's memory, fetched anew at each call (Dynamo's NumpyTensorSource); its
    placeholder is named after the array's own source (`L_a_`)."""

    def __init__(self, base):
        FOREIGN_GLOBALS[id(_FROM_NUMPY)] = _FROM_NUMPY
        self.base = base

    def name(self):
        return f"FOREIGN_GLOBALS[{id(_FROM_NUMPY)}]['___from_numpy']({self.base.name()})"

    def placeholder_name(self):
        return self.base.placeholder_name()


# Dynamo's spelling of clip's old keyword names
_RENAMED_KWARGS = {"a_min": "min", "a_max": "max"}

# ndarray attributes answered from the example value; those Dynamo refuses
_CONSTANT_ATTRS = ("ndim", "itemsize")
_REFUSED_ATTRS = ("dtype", "base", "flags", "flat")


def _node_arg(var):
    """A numpy scalar type or dtype passed to a numpy node is passed by name (`'int64'`), as Dynamo passes it."""
    var = var.realize()
    value = var.value if isinstance(var, ConstantVariable) else None
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return ConstantVariable(np.dtype(value).name)
    return var


def record_numpy(tx, target, args, kwargs):
    """One node computing target(*args, **kwargs); its result an ndarray."""
    args = [_node_arg(a) for a in args]
    kwargs = {_RENAMED_KWARGS.get(k, k): _node_arg(v) for k, v in kwargs.items()}
    result = record(tx.output, "call_function", target, args, kwargs)
    if isinstance(result, TupleVariable):  # (np.meshgrid's arrays)
        return TupleVariable([NumpyNdarrayVariable(item.proxy, item.example_value) for item in result.items])
    return NumpyNdarrayVariable(result.proxy, result.example_value)


class NumpyFunctionVariable(ConstantVariable):
    """A numpy function or scalar type of _numpy_ops.ROWS (`np.sin`, `np.float32`): a call is a node. As a value
    it is the constant it is (`dtype=np.float32`, `isinstance(v, np.float32)`)."""

    def call_function(self, tx, args, kwargs):
        if id(self.value) not in NUMPY_FUNCTION_IDS:
            raise Unsupported(f"numpy function {self.value.__name__} is not traced (no row in "
                              "minitorch2/_numpy_ops.py)", "unsupported_call")
        return record_numpy(tx, _numpy_ops.numpy_call(self.value), [a.realize() for a in args],
                            {k: v.realize() for k, v in kwargs.items()})


class NumpyNdarrayVariable(TensorVariable):
    """An ndarray made in the frame or read from outside it: in the graph the tensor whose memory it is (a numpy
    scalar read from outside is one too, a 0-d array whose type is still the scalar's)."""
    scalar_type = None

    def python_type(self):
        return self.scalar_type or np.ndarray

    def var_getattr(self, tx, name):
        fake = self.example_value
        if name in ("shape", "size"):
            sizes = [tx.output.size_variable(self, d) for d in range(fake.dim())]
            if name == "shape":
                return TupleVariable(sizes)
            if any(isinstance(s, SymNodeVariable) for s in sizes):
                raise Unsupported("ndarray.size over a symbolic shape", "unsupported_attr")
            return ConstantVariable(int(fake.numel()))
        if name in _CONSTANT_ATTRS:
            return ConstantVariable(fake.dim() if name == "ndim" else fake.element_size())
        if name == "strides":  # (bytes, from the example value's strides)
            return ConstantVariable(tuple(int(s) * fake.element_size() for s in fake.stride()))
        if name in ("T", "real", "imag"):
            return record_numpy(tx, _numpy_ops.numpy_attr_wrapper, [self, ConstantVariable(name)], {})
        if name in _numpy_ops.METHODS:
            return MethodVariable(self, name)
        raise Unsupported(f"ndarray.{name} is not traced" + (" (as in Dynamo)" if name in _REFUSED_ATTRS else ""),
                          "unsupported_attr")

    def call_method(self, tx, name, args, kwargs):
        if name == "__len__":
            return super().call_method(tx, name, args, kwargs)
        if name not in _numpy_ops.METHODS:
            raise Unsupported(f"ndarray.{name}() is not traced", "unsupported_call")
        if name in ("fill", "__setitem__"):  # in place, returning None
            record_mutation(tx.output, _numpy_ops.numpy_method(name), [self, *[a.realize() for a in args]])
            return ConstantVariable(None)
        return record_numpy(tx, _numpy_ops.numpy_method(name), [self, *[a.realize() for a in args]],
                            {k: v.realize() for k, v in kwargs.items()})

    def getitem(self, tx, index):
        return record_numpy(tx, _numpy_ops.numpy_operator(operator.getitem), [self, index], {})

    def unpack_var_sequence(self, tx):  # (Dynamo's rows are plain `a[0]` nodes, ndarrays still)
        rows = [record(tx.output, "call_function", operator.getitem, [self, ConstantVariable(i)], {})
                for i in range(int(self.example_value.shape[0]))]
        return [NumpyNdarrayVariable(row.proxy, row.example_value) for row in rows]

    def output_plan(self, og):
        if self.source is not None:  # an ndarray input returned: the caller's own object, read again
            return VariableTracker.output_plan(self, og)
        index = og.add_output(self)
        return lambda outs, L, G: _numpy_ops.to_numpy(outs[index])

    def build(self, cg):
        cg.append("PUSH_NULL")
        cg.append("LOAD_CONST", _numpy_ops.to_numpy)
        cg.load_graph_output(cg.output.add_output(self))
        cg.call(1)

    def __repr__(self):
        return f"NumpyNdarrayVariable({self.proxy.node.name})"


def tensor_numpy(tx, tensor, kwargs):
    """`x.numpy()`: a view of x known to be an ndarray (`l_x_.view_as(l_x_)`); with force=True, Dynamo's
    `x.detach().cpu()`."""
    if tensor.example_value.layout != minitorch2.strided:
        raise Unsupported("numpy() of a sparse tensor", "unsupported_call")
    force = kwargs.get("force")
    if force is not None and force.realize().as_python_constant():
        view = record(tx.output, "call_method", "cpu", [tensor.call_method(tx, "detach", [], {})], {})
    else:
        view = record(tx.output, "call_method", "view_as", [tensor, tensor], {})
    return NumpyNdarrayVariable(view.proxy, view.example_value)


def is_ndarray_operation(args):
    """An operator numpy runs: an ndarray among the operands and no tensor (a tensor's operator wins, as in Dynamo)."""
    return any(isinstance(a, NumpyNdarrayVariable) for a in args) and not any(type(a) is TensorVariable for a in args)


def ndarray_operator(tx, fn, args):
    if fn not in _numpy_ops.OPERATORS:
        raise Unsupported(f"{fn.__name__} of an ndarray is not traced", "unsupported")
    return record_numpy(tx, _numpy_ops.numpy_operator(fn), args, {})


def ndarray_min_max(tx, fn, items):
    """min()/max() over ndarrays (and numbers), pairwise as Dynamo: np.clip(a, min=c) with a number, else
    np.maximum(a, b) / np.minimum(a, b)."""
    result = items[0]
    for item in items[1:]:
        if result.is_python_constant() and item.is_python_constant():
            result = ConstantVariable(fn(result.as_python_constant(), item.as_python_constant()))
        elif result.is_python_constant() or item.is_python_constant():
            array, bound = (item, result) if result.is_python_constant() else (result, item)
            result = NumpyFunctionVariable(np.clip).call_function(tx, [array], {"max" if fn is min else "min": bound})
        else:
            pairwise = NumpyFunctionVariable(np.minimum if fn is min else np.maximum)
            result = pairwise.call_function(tx, [result, item], {})
    return result


def ndarray_as_tensor(tx, args, kwargs):
    """torch.from_numpy(a) / torch.as_tensor(a) of a traced ndarray: `torch.as_tensor(a)`, a tensor again (None for
    any other argument: recorded as called)."""
    if not args or not isinstance(args[0].realize(), NumpyNdarrayVariable):
        return None
    return record(tx.output, "call_function", minitorch2.as_tensor, [args[0].realize()], kwargs)
