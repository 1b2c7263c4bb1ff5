"""One Triton source handler per loop-IR value op, and the device helpers generated kernels call.

Codegen layer, beside `triton.py` (as `llvm_ops.py` sits beside `llvm_emit.py`). Two halves:

  * device helpers: `@triton.jit` functions (`maximum`, `floordiv_int`, the argmax combine, ...) that a
    generated kernel imports as `helpers.<name>`, the way Inductor's kernels call `triton_helpers`, plus
    `libdevice`, the math library for the functions `tl.math` lacks (tan, tanh, log1p, expm1, trunc, rint,
    atan2, pow): on a GPU Triton's libdevice; under `TRITON_INTERPRET=1`, which cannot call external
    libraries, a stand-in of the same names that applies numpy's functions to the block.
  * the op table (`UNARY`, `BINARY`): each handler takes the operands as `Term`s (source text + minitorch2
    dtype) and returns the result as a Term; and the reductions: accumulator dtypes, identities, the per-lane
    combine and the final reduction across lanes.

Semantics follow torch on CPU, as the LLVM handlers do (llvm_ops.py); float->int casts to narrow types wrap
through int32. Integer division by zero is the emitter's business (it substitutes a safe divisor and raises
torch's error after the launch).
"""
import math
from dataclasses import dataclass

import numpy as np
import triton
import triton.language as tl

from minitorch2 import _dtype as dt
from minitorch2._aten.transcendental_bits import saturating_tanh  # torch's saturation at +-1

from .. import loop_ir as L

# ---- device helpers ------------------------------------------------------------------------


@triton.jit
def maximum(a, b):
    """torch.maximum: NaN wins (a NaN in `b` by the second test, in `a` because NaN > a is false), and a
    tie keeps `a`, as ATen's: maximum(-0., 0.) is -0."""
    return tl.where((b > a) | (b != b), b, a)


@triton.jit
def minimum(a, b):
    return tl.where((b < a) | (b != b), b, a)


@triton.jit
def multiply(a, b):
    return a * b


@triton.jit
def add(a, b):
    return a + b


@triton.jit
def argmax_combine(value, index, other, other_index):
    """(value, index) of the pair that wins argmax: larger, NaN above all, the lower index on ties."""
    value_nan = value != value
    other_nan = other != other
    tie = (value == other) | (value_nan & other_nan)
    keep = (value > other) | (value_nan & ~other_nan) | (tie & (index < other_index))
    return tl.where(keep, value, other), tl.where(keep, index, other_index)


@triton.jit
def argmin_combine(value, index, other, other_index):
    value_nan = value != value
    other_nan = other != other
    tie = (value == other) | (value_nan & other_nan)
    keep = (value < other) | (value_nan & ~other_nan) | (tie & (index < other_index))
    return tl.where(keep, value, other), tl.where(keep, index, other_index)


@triton.jit
def floordiv_int(a, b):
    """Python's a // b for signed integers (Triton's // truncates toward zero)."""
    quotient = a // b
    remainder = a % b
    fix = (remainder != 0) & ((remainder < 0) != (b < 0))
    return tl.where(fix, quotient - 1, quotient)


@triton.jit
def remainder_int(a, b):
    """Python's a % b for signed integers: the sign of the divisor."""
    remainder = a % b
    fix = (remainder != 0) & ((remainder < 0) != (b < 0))
    return tl.where(fix, remainder + b, remainder)


remainder_float = remainder_int  # the same steps: Triton's % on floats is fmod, on integers C's %


@triton.jit
def floordiv_float(a, b):
    """Python's float a // b: (a - fmod(a, b)) / b, corrected toward minus infinity and rounded."""
    remainder = a % b
    fix = (remainder != 0) & ((remainder < 0) != (b < 0))
    quotient = (a - remainder) / b
    quotient = tl.where(fix, quotient - 1, quotient)
    floor = tl.floor(quotient)
    quotient = tl.where(quotient - floor > 0.5, floor + 1, floor)
    quotient = tl.where(quotient == 0, 0 * (a / b), quotient)  # keeps the sign of a zero quotient
    return tl.where(b == 0, a / b, quotient)


@triton.jit
def pow_int(base, exponent):
    """base ** exponent by squaring; negative exponents give 1/base truncated (0 unless base is +-1)."""
    result = tl.full(base.shape, 1, base.dtype) + base * 0
    square = base + result * 0
    rest = exponent + result * 0
    for _ in tl.static_range(64):
        result = tl.where((rest & 1) != 0, result * square, result)
        square = square * square
        rest = rest >> 1
    odd = (exponent & 1) != 0
    reciprocal = tl.where(base == 1, 1, tl.where(base == -1, tl.where(odd, -1, 1), 0)).to(base.dtype)
    return tl.where(exponent < 0, reciprocal, result)


@triton.jit
def round_to_bfloat16(x):
    """float32 to bfloat16, to nearest-even as c10::BFloat16 (the interpreter's .to(tl.bfloat16) truncates)."""
    bits = x.to(tl.uint32, bitcast=True)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return tl.where(x != x, x, bits.to(tl.float32, bitcast=True)).to(tl.bfloat16)


@triton.jit
def flag_if(flag_ptr, condition):
    """Set the int32 error flag at flag_ptr where `condition` holds (the host raises after the launch)."""
    tl.store(flag_ptr + tl.full(condition.shape, 0, tl.int32), tl.full(condition.shape, 1, tl.int32), mask=condition)


class InterpreterLibdevice:
    """libdevice's names, computed by numpy on the interpreter's blocks (it cannot call libdevice)."""

    @staticmethod
    def _apply(function, *blocks):
        from triton.runtime.interpreter import TensorHandle  # Triton's interpreter: loaded only when interpreting

        data = function(*(block.handle.data for block in blocks))  # broadcast as Triton would
        element = blocks[0].dtype.scalar
        shape = np.broadcast_shapes(*(tuple(block.shape) for block in blocks))
        result_type = tl.block_type(element, list(shape)) if shape else element
        return tl.core.tensor(TensorHandle(data.astype(blocks[0].handle.data.dtype, copy=False), element), result_type)

    @classmethod
    def numpy_function(cls, function):
        return staticmethod(lambda *blocks: cls._apply(function, *blocks))


for _name, _function in {"tan": np.tan, "tanh": saturating_tanh, "log1p": np.log1p, "expm1": np.expm1, "trunc": np.trunc,
                         "rint": np.rint, "atan2": np.arctan2, "pow": np.power}.items():
    setattr(InterpreterLibdevice, _name, InterpreterLibdevice.numpy_function(_function))


if triton.knobs.runtime.interpret:
    libdevice = InterpreterLibdevice
else:
    from triton.language.extra import libdevice  # the GPU's library: loaded only with a GPU

# ---- dtypes ----------------------------------------------------------------------------------

TRITON_DTYPES = {"bool": "tl.int1", **{name: f"tl.{name}" for name in (
    "uint8", "int8", "int16", "int32", "int64", "float32", "float64")},
    "float16": "tl.float32", "bfloat16": "tl.float32"}  # (in registers, as torch's Inductor: loads widen them,
# stores round, triton.py)


def triton_dtype(dtype):
    if dtype.name not in TRITON_DTYPES:
        raise NotImplementedError(f"Triton codegen: no Triton type for {dtype.name}")
    return TRITON_DTYPES[dtype.name]


def is_unsigned(dtype):
    return dtype.name.startswith("uint")


@dataclass(frozen=True)
class Term:
    """A Triton expression (source text) and the minitorch2 dtype of its value."""
    text: str
    dtype: object


def literal(value, dtype):
    """`value` as a one-element block of `dtype` (typed, so Triton's promotion never widens it)."""
    if dtype is dt.bool_:
        return f"tl.full([1], {bool(value)}, tl.int1)"
    if dtype.is_floating_point:
        value = float(value)
        text = repr(value) if np.isfinite(value) else f'float("{value}")'
    else:
        text = str(int(value))
    return f"tl.full([1], {text}, {triton_dtype(dtype)})"


def truthy(x):
    return x.text if x.dtype is dt.bool_ else f"({x.text} != 0)"


def cast(x, dtype):
    """to_dtype: torch's conversion rules (float->int truncates; narrow ints wrap through int32, as torch's CPU
    kernels convert)."""
    source = x.dtype
    if source is dtype:
        return x
    if dtype is dt.bool_:
        return Term(truthy(x), dtype)
    if source.is_floating_point and not dtype.is_floating_point and (dtype.itemsize < 4 or is_unsigned(dtype)):
        wide = "tl.int64" if source is dt.float64 and dtype is dt.uint8 else "tl.int32"  # as ATen's CPU casts
        if dtype is dt.int8 and source is not dt.float64:  # (saturated, as llvm_ops.float_to_int: torch's compiled)
            return Term(f"tl.minimum(tl.maximum({x.text}.to(tl.int32), -128), 127).to(tl.int8)", dtype)
        return Term(f"{x.text}.to({wide}).to({triton_dtype(dtype)})", dtype)
    return Term(f"{x.text}.to({triton_dtype(dtype)})", dtype)


def in_float32(emit):
    """float16 math runs on its float32 register (rounded where stored, triton.py)."""
    def emit_via_float32(*args):
        if args[0].dtype is not dt.float16:
            return emit(*args)
        return cast(emit(*(cast(arg, dt.float32) for arg in args)), dt.float16)
    return emit_via_float32


# ---- the op table ----------------------------------------------------------------------------


def template(text, result_dtype=None):
    """A handler that writes `text` with {x} (and {y}) replaced by the operands' source; its result has the
    first operand's dtype, or `result_dtype`."""
    def emit(x, y=None):
        return Term(text.format(x=x.text, y=y and y.text), result_dtype or x.dtype)
    return emit


def by_kind(floating, unsigned, signed):
    """A float16-via-float32 handler whose template depends on the operands' dtype."""
    @in_float32
    def emit(x, y):
        return template(floating if x.dtype.is_floating_point else unsigned if is_unsigned(x.dtype) else signed)(x, y)
    return emit


def float_function(call):
    return in_float32(template(call + "({x})"))


def floats_only(emit):
    """A rounding op: the identity on integers."""
    def emit_or_identity(x):
        return emit(x) if x.dtype.is_floating_point else x
    return emit_or_identity


def neg(x):
    return x if x.dtype is dt.bool_ else Term(f"-{x.text}", x.dtype)


def absolute(x):
    return x if x.dtype is dt.bool_ or is_unsigned(x.dtype) else Term(f"tl.abs({x.text})", x.dtype)


def sign(x):
    if x.dtype is dt.bool_:
        return x
    if is_unsigned(x.dtype):
        return Term(f"({x.text} != 0).to({triton_dtype(x.dtype)})", x.dtype)
    ty = triton_dtype(x.dtype)  # (x > 0) - (x < 0): NaN and -0.0 give 0, as torch
    return Term(f"(({x.text} > 0).to({ty}) - ({x.text} < 0).to({ty}))", x.dtype)


def relu(x):
    if x.dtype is dt.bool_ or is_unsigned(x.dtype):
        return x
    return Term(f"tl.where({x.text} < 0, 0, {x.text}).to({triton_dtype(x.dtype)})", x.dtype)  # NaN stays NaN


def isinf(x):
    if not x.dtype.is_floating_point:
        return Term(f"({x.text} != {x.text})", dt.bool_)  # all false
    return Term(f'(tl.abs({x.text}) == float("inf"))', dt.bool_)


def arithmetic(operator, bool_operator):
    def emit(x, y):
        op = bool_operator if x.dtype is dt.bool_ else operator
        return Term(f"({x.text} {op} {y.text})", x.dtype)
    return emit


def extremum(helper, integer_call, bool_operator):
    def emit(x, y):
        if x.dtype.is_floating_point:
            return Term(f"helpers.{helper}({x.text}, {y.text})", x.dtype)
        if x.dtype is dt.bool_:
            return Term(f"({x.text} {bool_operator} {y.text})", x.dtype)
        return Term(f"{integer_call}({x.text}, {y.text})", x.dtype)
    return emit


def logical(operator):
    def emit(x, y):
        return Term(f"({truthy(x)} {operator} {truthy(y)})", dt.bool_)
    return emit


def shift_left(x, y):
    """x << y as ATen's: 0 for a count outside [0, width)."""
    width = x.dtype.itemsize * 8
    return Term(f"tl.where(({y.text} >= 0) & ({y.text} < {width}), {x.text} << ({y.text} & {width - 1}), 0)", x.dtype)


def shift_right(x, y):
    """x >> y as ATen's: a count outside [0, width) shifts by width - 1 (signed) or gives 0 (unsigned)."""
    width = x.dtype.itemsize * 8
    in_range = f"(({y.text} >= 0) & ({y.text} < {width}))"
    if x.dtype is dt.uint8:
        return Term(f"tl.where({in_range}, {x.text} >> ({y.text} & {width - 1}), 0)", x.dtype)
    return Term(f"({x.text} >> tl.where({in_range}, {y.text}, {width - 1}))", x.dtype)


def where(condition, x, y):
    return Term(f"tl.where({truthy(condition)}, {x.text}, {y.text})", x.dtype)


UNARY = {
    "neg": neg, "abs": absolute, "reciprocal": in_float32(template("1.0 / {x}")),
    "sigmoid": in_float32(template("1.0 / (1.0 + tl.exp(-{x}))")),
    **{name: float_function(f"tl.{name}") for name in ("exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos",
                                                        "erf")},
    **{name: float_function(f"libdevice.{name}") for name in ("tan", "tanh", "log1p", "expm1")},
    "floor": floats_only(float_function("tl.floor")), "ceil": floats_only(float_function("tl.ceil")),
    "trunc": floats_only(float_function("libdevice.trunc")), "round": floats_only(float_function("libdevice.rint")),
    "sign": sign, "relu": relu, "logical_not": template("({x} == 0)", dt.bool_), "bitwise_not": template("~{x}"),
    "isnan": template("({x} != {x})", dt.bool_), "isinf": isinf,
}
BINARY = {
    "add": arithmetic("+", "|"), "sub": arithmetic("-", "^"), "mul": arithmetic("*", "&"),
    "truediv": template("({x} / {y})"),
    "floordiv": by_kind("helpers.floordiv_float({x}, {y})", "({x} // {y})", "helpers.floordiv_int({x}, {y})"),
    "remainder": by_kind("helpers.remainder_float({x}, {y})", "({x} % {y})", "helpers.remainder_int({x}, {y})"),
    # truncdiv and fmod: C's, toward zero and with the dividend's sign (Triton's integer // and % are C's)
    "truncdiv": by_kind("libdevice.trunc({x} / {y})", "({x} // {y})", "({x} // {y})"),
    "fmod": in_float32(template("({x} % {y})")),
    "pow": by_kind("libdevice.pow({x}, {y})", "helpers.pow_int({x}, {y})", "helpers.pow_int({x}, {y})"),
    "atan2": in_float32(template("libdevice.atan2({x}, {y})")),
    "maximum": extremum("maximum", "tl.maximum", "|"), "minimum": extremum("minimum", "tl.minimum", "&"),
    **{name: template(f"({{x}} {operator} {{y}})", dt.bool_)
       for name, operator in {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}.items()},
    "logical_and": logical("&"), "logical_or": logical("|"),
    **{f"bitwise_{name}": template(f"({{x}} {operator} {{y}})") for name, operator in (("and", "&"), ("or", "|"),
                                                                                       ("xor", "^"))},
    "lshift": shift_left, "rshift": shift_right,
}


# ---- reductions: per-lane accumulators over RBLOCK chunks, then one reduction across the lanes ----


def accumulator_dtype(reduce):
    """The Reduce's accumulator dtype, with int8 for bools (comparisons on int1 tiles are avoided)."""
    dtype = reduce.accumulator_dtype()
    return dt.int8 if dtype is dt.bool_ or reduce.reduction_type in ("any", "all") else dtype


def identity(kind, dtype):
    value = L.reduction_identity(kind, dtype)
    return f'float("{value}")' if math.isinf(value) else str(int(value))


COMBINE_OPERATORS = {"sum": "+", "prod": "*", "any": "|", "all": "&"}


def combine(kind, acc, value):
    """The running per-lane accumulator updated with one more element."""
    if kind in ("max", "min"):
        return BINARY["maximum" if kind == "max" else "minimum"](acc, value).text
    if kind not in COMBINE_OPERATORS:
        raise NotImplementedError(f"Triton codegen has no reduction {kind!r}")
    return f"{acc.text} {COMBINE_OPERATORS[kind]} {value.text}"


def block_reduction(kind, acc, dtype):
    """The per-lane accumulators of one row reduced to one value. Always tl.reduce with a combine
    function of this module, never tl.sum / tl.max: those are @triton.jit functions of Triton's own
    library, compiled (not interpreted) when triton.language was imported before TRITON_INTERPRET was
    set (as `import torch._dynamo` does), and then not callable from an interpreted kernel."""
    combine = {"sum": "add", "prod": "multiply", "max": "maximum", "any": "maximum", "min": "minimum",
               "all": "minimum"}[kind]  # (maximum/minimum: NaN-propagating for floats, plain for the rest)
    return f"tl.reduce({acc}, 1, helpers.{combine})"
