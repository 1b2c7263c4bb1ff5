"""NumPy's keyword names where torch's have others: `x.sum(axis=1, keepdims=True)` is `x.sum(dim=1, keepdim=True)`.

Runtime layer, coverage surface. PyTorch's C++ argument parser accepts `axis` for any `dim` and `keepdims` for any
`keepdim` (its numpy-compatibility names), so programs written by NumPy users pass them to torch.sum, Tensor.mean,
torch.cat... The torch-level functions and Tensor methods taking `dim` or `keepdim` are wrapped once, when
minitorch2 loads (minitorch2/__init__.py, _tensor_methods.install), to rename them. The functions PyTorch writes in
Python (torch/functional.py, torch/_tensor.py) take only their own keywords and are left as they are.
Tensor's binary operators are wrapped here too, to answer NotImplemented where a call raises TypeError, as torch's
do: a numpy array on the other side is then numpy's to compute (`t * np.array([1., 2.])`).
"""
import functools
import inspect
import types

import numpy as np

ALIASES = {"axis": "dim", "keepdims": "keepdim"}
WRITTEN_IN_PYTHON = frozenset({"norm", "split", "unflatten", "unique", "unique_consecutive"})


def accepting_numpy_names(fn):
    """fn, or a wrapper of it renaming `axis` and `keepdims` in a call (only where fn has the torch names)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # (a builtin without a signature)
        return fn
    renames = {alias: name for alias, name in ALIASES.items() if name in params and alias not in params}
    if not renames:
        return fn

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if kwargs and not renames.keys().isdisjoint(kwargs):
            kwargs = {renames.get(key, key): value for key, value in kwargs.items()}
        return fn(*args, **kwargs)

    return call


# Tensor's binary operators, which torch's binding makes answer NotImplemented where the call raises TypeError
OPERATORS = frozenset(f"__{prefix}{name}__" for prefix in ("", "r", "i") for name in (
    "add sub mul truediv floordiv div mod pow matmul and or xor lshift rshift".split())) | {
    "__lt__", "__le__", "__gt__", "__ge__"}


def wrap_all(functions):
    """{name: function} with each public function that PyTorch binds in C++ made to accept NumPy's names, and each
    binary operator deferring to the other operand on a TypeError."""
    return {name: _deferring(fn) if name in OPERATORS else _comparing_arrays(fn) if name == "__eq__"
            else accepting_numpy_names(fn) if isinstance(fn, types.FunctionType) and not name.startswith("_")
            and name not in WRITTEN_IN_PYTHON else fn for name, fn in functions.items()}


def _deferring(operator):
    """`t + np.array([1., 2.])` is then numpy's reflected operator, which computes on t's values and gives the result
    back as a tensor through Tensor.__array_wrap__ (float64 here: numpy's promotion), and `t + "a"` is Python's
    TypeError naming both types, as torch's."""
    @functools.wraps(operator)
    def deferring_operator(self, other):
        try:
            return operator(self, other)
        except TypeError:
            return NotImplemented

    return deferring_operator


def _comparing_arrays(eq):
    """torch's == reads a numeric numpy array as a tensor (its other comparisons do not)."""
    @functools.wraps(eq)
    def equal(self, other):
        if isinstance(other, np.ndarray) and other.dtype.kind in "biufc":
            other = type(self)._from_numpy(np.ascontiguousarray(other))
        return eq(self, other)

    return equal
