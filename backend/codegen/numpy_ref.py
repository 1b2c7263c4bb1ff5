"""The numpy reference evaluator of loop_ir kernels: the executable definition of the loop IR.

Codegen layer, a code generator beside `llvm.py` with the same interface (codegen/__init__.py); tests use it as
the oracle the compiled kernels are compared against.

Vectorised, not per element: a Loop's variables become broadcast index grids (np.ogrid-style arrays, one axis
per variable), a body statement is evaluated for all iterations at once, and a Reduce reduces its value grid
along the axes of its reduction variables. That is faithful to the loop semantics because the scheduler only
fuses statements whose iterations are independent: nothing one iteration writes is read by another. The
exception is a scatter, whose iterations may write the same element: a plain store keeps the last write (numpy
assigns in order), an accumulating one adds up every duplicate (`np.add.at`). An indirect index out of range
raises the error it names, with the first offending value, as eager does; the compiled kernels only set a
flag, and run this evaluator to say which (`flagged_error`).
"""
import ctypes

import numpy as np
import scipy.special

from minitorch2 import _dtype
from minitorch2._tensor_data import copy_as_aten
from minitorch2._aten.more_ops2 import shift_left_values, shift_right_values
from minitorch2._aten.pointwise_arithmetic import _check_int_division, prefer_first
from minitorch2._aten.transcendental_bits import saturating_tanh  # torch's saturation at +-1
from minitorch2._aten.reductions import zero_tie

from .. import loop_ir as L
from . import CompiledKernel


def _truncdiv(x, y):
    """C's x / y, toward zero, exact on integers: the floor quotient moved up where the signs differ."""
    if x.dtype in _dtype.NP_FLOATS:
        return np.trunc(x / y)
    quotient = np.floor_divide(x, y)
    inexact = (np.remainder(x, y) != 0) & ((x < 0) != (y < 0))
    return quotient + inexact.astype(quotient.dtype)


_UNARY = {
    "neg": np.negative, "abs": np.abs, "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2,
    "log1p": np.log1p, "expm1": np.expm1, "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x),
    "reciprocal": lambda x: 1 / x, "sin": np.sin, "cos": np.cos, "tan": np.tan, "tanh": saturating_tanh,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "erf": scipy.special.erf, "floor": np.floor, "ceil": np.ceil,
    "trunc": np.trunc, "round": np.round,
    # torch: sign(nan) is 0, sign of a bool is the bool
    "sign": lambda x: x.copy() if x.dtype == np.bool_ else np.where(x != x, 0, np.sign(x)).astype(x.dtype),
    "relu": lambda x: np.where(x < 0, np.zeros_like(x), x),  # -0. and NaN stay (relu(-inf) is 0, not -inf * 0)
    "logical_not": np.logical_not, "bitwise_not": np.invert, "isnan": np.isnan, "isinf": np.isinf,
}
_BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide, "floordiv": np.floor_divide,
    "remainder": lambda x, y: x - np.floor_divide(x, y) * y if _is_float(x) else np.remainder(x, y), "pow": np.power,
    # torch's: NaN wins, a tie keeps the first operand (the sign of zero: maximum(-0., 0.) is -0.)
    "maximum": lambda x, y: prefer_first(x, y, np.greater) if _is_float(x) else np.maximum(x, y),
    "minimum": lambda x, y: prefer_first(x, y, np.less) if _is_float(x) else np.minimum(x, y), "eq": np.equal,
    "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal,
    "logical_and": np.logical_and, "logical_or": np.logical_or, "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor, "atan2": np.arctan2,
    "lshift": shift_left_values, "rshift": shift_right_values,
    "truncdiv": _truncdiv, "fmod": np.fmod,
}
_REDUCE = {"sum": np.sum, "prod": np.prod, "max": zero_tie(np.max), "min": zero_tie(np.min), "any": np.any,
           "all": np.all}


def _is_float(x):
    return np.asarray(x).dtype in _dtype.NP_FLOATS


class NumpyKernel(CompiledKernel):
    def __init__(self, kernel):
        self.kernel = kernel

    def run(self, *addresses):
        kernel = self.kernel  # (over symbolic sizes: at the sizes of this run, which follow the addresses)
        if kernel.sizes:
            kernel = L.with_sizes(kernel, dict(zip(kernel.sizes, addresses[len(kernel.args):])))
        NumpyKernel(kernel).run_arrays(**{arg.name: array_at(address, arg) for arg, address in zip(kernel.args,
                                                                                                     addresses)})

    def run_arrays(self, **arrays):
        """Run over numpy arrays by argument name (tests)."""
        _Evaluator({k: v.reshape(-1) for k, v in arrays.items()}).loop(self.kernel.loop, {}, {}, 0)


compile_kernel = NumpyKernel  # (the code generators' interface: compile_kernel(kernel) -> .run(*addresses))


def array_at(address, arg):
    """The argument's memory as a numpy array, without a copy."""
    if arg.numel == 0:
        return np.empty(0, arg.dtype.np)
    raw = (ctypes.c_char * (arg.numel * arg.dtype.itemsize)).from_address(address)
    return np.frombuffer(raw, dtype=arg.dtype.np)


def flagged_error(kernel, zero_division, addresses):
    """The exception eager raises where a compiled run of `kernel` raised an error flag: the zero division,
    else the first index out of range, which this evaluator finds by running the kernel again."""
    if zero_division:
        return RuntimeError("ZeroDivisionError")  # what torch raises for integer division by zero
    try:
        compile_kernel(kernel).run(*addresses)
    except (IndexError, RuntimeError) as error:
        return error
    return IndexError("index out of range in self")


class _Evaluator:
    def __init__(self, arrays):
        self.arrays = arrays

    def loop(self, loop, env, temps, depth):
        """Run `loop` inside `depth` enclosing loop axes: its variables take the next axes."""
        env, temps, total = _with_axes(env, temps, depth, loop.vars, loop.ranges)
        for stmt in loop.body:
            if isinstance(stmt, L.Loop):
                self.loop(stmt, env, temps, total)
            elif isinstance(stmt, L.Reduce):
                temps[stmt.temp] = self.reduce(stmt, env, temps, total)
            else:
                self.store(stmt, env, temps, total)

    def store(self, stmt, env, temps, depth):
        shape = _grid_shape(env, depth)
        index = np.broadcast_to(self.index(stmt.index, env, temps), shape)
        value = np.broadcast_to(self.value(stmt.value, env, temps), shape)
        if stmt.mode == "add":
            target = self.arrays[stmt.buffer]
            np.add.at(target, index.reshape(-1), value.reshape(-1).astype(target.dtype, copy=False))
        else:
            self.arrays[stmt.buffer][index] = value

    def reduce(self, stmt, env, temps, depth):
        inner, inner_temps, total = _with_axes(env, temps, depth, stmt.rvars, stmt.rranges)
        value = np.broadcast_to(self.value(stmt.value, inner, inner_temps), _grid_shape(inner, total))
        if stmt.reduction_type in ("argmax", "argmin"):
            flat = value.reshape(value.shape[:depth] + (-1,))
            pick = np.argmax if stmt.reduction_type == "argmax" else np.argmin
            return pick(flat, axis=-1).astype(np.int64)
        with np.errstate(all="ignore"):
            total = _REDUCE[stmt.reduction_type](value, axis=tuple(range(depth, total)))
            return total.astype(stmt.dtype.np).astype(_register(stmt.dtype))

    def index(self, index, env, temps):
        if isinstance(index, L.Var):
            return env[index.name]
        if isinstance(index, L.Const):
            return np.int64(index.value)
        if isinstance(index, L.Add):
            return sum((self.index(t, env, temps) for t in index.terms), np.int64(0))
        if isinstance(index, L.Mul):
            return index.factor * self.index(index.term, env, temps)
        if isinstance(index, L.FloorDiv):
            return np.floor_divide(self.index(index.term, env, temps), index.divisor)
        if isinstance(index, L.Mod):
            return np.mod(self.index(index.term, env, temps), index.divisor)
        if isinstance(index, L.Indirect):
            return checked_indirect(index, np.asarray(self.value(index.value, env, temps)).astype(np.int64))
        raise TypeError(f"not an index: {index!r}")

    def value(self, value, env, temps):
        if isinstance(value, L.Load):
            return self.arrays[value.buffer][self.index(value.index, env, temps)].astype(_register(value.dtype))
        if isinstance(value, L.Constant):
            return np.array(value.value, dtype=_register(value.dtype))
        if isinstance(value, L.IndexValue):
            return np.asarray(self.index(value.index, env, temps)).astype(_register(value.dtype))
        if isinstance(value, L.Temp):
            return temps[value.name]
        if isinstance(value, L.Op):
            args = [self.value(a, env, temps) for a in value.args]
            with np.errstate(all="ignore"):
                return np.asarray(_apply(value.name, args, value.dtype)).astype(_register(value.dtype), copy=False)
        raise TypeError(f"not a value: {value!r}")


def checked_indirect(index, raw):
    """The positions an Indirect index reads (negatives wrapped if it wraps), or its error, raised with the
    first value out of range."""
    low = -index.size if index.wrap_negative else 0
    bad = (raw < low) | (raw >= index.size)
    if bad.any():
        raise index.error.exception(int(raw[bad].reshape(-1)[0]))
    return np.where(raw < 0, raw + index.size, raw) if index.wrap_negative else raw


def _apply(name, args, dtype):
    if name == "to_dtype":
        return _to_dtype(args[0], dtype)
    if name == "where":
        return np.where(args[0], args[1], args[2])
    if name in _UNARY:
        return _UNARY[name](args[0])
    if name == "truediv" and not dtype.is_floating_point:
        raise TypeError("truediv on integers: lowering must compute it in a floating dtype")
    if name in L.INTEGER_DIVISIONS and not dtype.is_floating_point:
        _check_int_division(*args)  # eager's RuntimeError("ZeroDivisionError"), over the grid's elements
    return _BINARY[name](*args)


def _register(dtype):  # the 16-bit floats compute in float32, rounded where stored, as the LLVM kernels (llvm_bfloat16.py)
    return np.dtype(np.float32) if dtype in _dtype.HALVES else dtype.np



def _to_dtype(x, dtype):
    x = np.asarray(x)
    if dtype is _dtype.bool_:
        return x != 0
    if dtype is _dtype.int8 and x.dtype == np.float32:  # (saturated, as llvm_ops.float_to_int: torch's compiled)
        x = np.clip(_to_dtype(x, _dtype.int32), -128, 127)
    copy_as_aten(result := np.empty(x.shape, _register(dtype)), x)  # (a C cast truncates toward zero)
    return result


def _with_axes(env, temps, depth, variables, ranges):
    """(env, temps, axes) with one axis more per variable after the `depth` there are: the variables count
    up along theirs, and the values so far broadcast along them."""
    env = {k: _extend(v, len(variables)) for k, v in env.items()}
    temps = {k: _extend(v, len(variables)) for k, v in temps.items()}
    total = depth + len(variables)
    for axis, (var, n) in enumerate(zip(variables, ranges)):
        shape = [1] * total
        shape[depth + axis] = n
        env[var] = np.arange(n, dtype=np.int64).reshape(shape)
    return env, temps, total


def _grid_shape(env, depth):
    """The shape of a statement's iteration grid: every loop variable's axis at its full length."""
    return np.broadcast_shapes((1,) * depth, *(np.shape(value) for value in env.values()))


def _extend(value, axes):
    value = np.asarray(value)
    return value.reshape(value.shape + (1,) * axes) if axes else value
