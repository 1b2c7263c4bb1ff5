"""One LLVM IR handler per loop-IR value op: the scalar semantics of each aten op, per dtype.

Codegen layer, called by `llvm_emit.py` for every `loop_ir.Op`. The tables at the bottom (`UNARY`, `BINARY`,
then how reductions combine) are the whole op vocabulary of the LLVM backend; an op missing from them fails
loudly with NotImplementedError naming it.

Semantics are loop_ir's (torch's on CPU), each handler's docstring says where that takes care. Transcendentals
call libm (`expf`, `tanhf`, `exp`...); float16 and bfloat16 are float32 in registers, rounded only where stored
(llvm_bfloat16.py), as torch's Inductor compiles them; the math functions run on the float32 (`in_float32`).
"""
from minitorch2 import _dtype as dt
from minitorch2._aten.transcendental_bits import TANH_ROUNDS_TO_ONE

from .. import loop_ir as L
from . import llvm_bfloat16
from .llvm_builder import FLOAT_SUFFIXES, ZERO_DIVISION, Value, const, is_unsigned, register_type


def bit_width(dtype):
    return int(register_type(dtype)[1:])


def truthy(b, x):  # (a bool x too: icmp ne i1 x, false is x)
    if x.dtype.is_floating_point:
        return b.fcmp("une", x, const(0.0, x.dtype), hint="truthy")
    return b.icmp("ne", x, const(0, x.dtype), hint="truthy")


def cast(b, x, dtype):
    """to_dtype(x): torch's scalar conversion rules, without poison for out-of-range floats."""
    source = x.dtype
    if source is dtype:
        return x
    if source in dt.HALVES or dtype in dt.HALVES:
        return llvm_bfloat16.cast(b, x, dtype, cast)
    if dtype is dt.bool_:
        return truthy(b, x)
    if source.is_floating_point and dtype.is_floating_point:
        return b.convert("fpext" if dtype.itemsize > source.itemsize else "fptrunc", x, dtype)
    if source.is_floating_point:
        return float_to_int(b, x, dtype)
    if dtype.is_floating_point:
        return b.convert("uitofp" if is_unsigned(source) else "sitofp", x, dtype)
    old, new = bit_width(source), bit_width(dtype)
    if new == old:
        return Value(x.ref, dtype)  # int8 <-> uint8: same bits
    return b.convert("trunc" if new < old else "zext" if is_unsigned(source) else "sext", x, dtype)


def float_to_int(b, x, dtype):
    """The truncating conversion torch's CPU kernels do (x86's cvtt): to int64 for int64, else to int32 and
    then wrapped to the narrow type (saturated for float32 to int8); NaN and values outside the conversion's range
    give its minimum (-2**63 or -2**31), never LLVM poison. float64 to uint8 goes through int64, as ATen's."""
    if x.dtype in dt.HALVES:
        x = cast(b, x, dt.float32)  # (its register)
    wide = dt.int64 if dtype is dt.int64 or (dtype is dt.uint8 and x.dtype is dt.float64) else dt.int32
    limit = 2.0 ** (bit_width(wide) - 1)
    whole = b.intrinsic("trunc", x.dtype, [x])
    in_range = b.binop("and", b.fcmp("oge", whole, const(-limit, x.dtype)), b.fcmp("olt", whole, const(limit, x.dtype)),
                       hint="in_range")
    converted = b.call(f"llvm.fptosi.sat.{register_type(wide)}.{FLOAT_SUFFIXES[x.ty]}", wide, [x], hint="to_int")
    converted = b.select(in_range, converted, const(-int(limit), wide), hint="to_int")
    if dtype is dt.int8 and x.dtype is dt.float32:  # (torch's compiled kernels saturate here: their vector convert)
        low = b.intrinsic("smin", wide, [converted, const(127, wide)])
        converted = b.intrinsic("smax", wide, [low, const(-128, wide)], hint="to_int")
    return converted if wide is dtype else b.convert("trunc", converted, dtype)


# ---- unary ---------------------------------------------------------------------------------

LIBM = set(L.TRANSCENDENTAL) - {"sigmoid"}  # float32: expf, ...


def in_float32(emit):
    """16-bit float math runs on the float32 register (rounded where stored, llvm_bfloat16.py)."""
    def emit_via_float32(b, *args):
        if args[0].dtype not in dt.HALVES:
            return emit(b, *args)
        return cast(b, emit(b, *(cast(b, arg, dt.float32) for arg in args)), args[0].dtype)
    return emit_via_float32


def transcendental(name):
    @in_float32
    def emit(b, x):
        if x.dtype is dt.float32 and name == "tanh":
            return saturating_tanh(b, x)
        if x.dtype in (dt.float32, dt.float64) and name in LIBM:
            return b.call(name + "f" if x.dtype is dt.float32 else name, x.dtype, [x], hint=name)
        if x.dtype is dt.float32 and name == "sigmoid":
            return sigmoid_float32(b, x)
        if name == "sigmoid":
            e = b.call("exp", x.dtype, [b.fneg(x)], hint="exp")
            return b.binop("fdiv", const(1.0, x.dtype), b.binop("fadd", e, const(1.0, x.dtype)), hint=name)
        raise NotImplementedError(f"LLVM codegen: {name} on {x.dtype.name}")
    return emit


def saturating_tanh(b, x):
    """tanhf, but exactly +-1 from |x| = 9.01084 on, where torch's float32 tanh is (libm's is 1 ulp short)."""
    rounded = b.call("tanhf", x.dtype, [x], hint="tanh_libm")
    saturated = b.fcmp("oge", b.intrinsic("fabs", x.dtype, [x]), const(TANH_ROUNDS_TO_ONE, x.dtype))
    return b.select(saturated, b.intrinsic("copysign", x.dtype, [const(1.0, x.dtype), x]), rounded, hint="tanh")


def sigmoid_float32(b, x):
    """1 / (1 + exp(-x)) for x >= 0 and exp(x) / (1 + exp(x)) below, so that tiny results (down to the
    subnormals, which exp(-x) would overflow past) stay accurate."""
    e = b.call("expf", x.dtype, [b.fneg(b.intrinsic("fabs", x.dtype, [x]))], hint="exp")
    numerator = b.select(b.fcmp("olt", x, const(0.0, x.dtype)), e, const(1.0, x.dtype), hint="numerator")
    return b.binop("fdiv", numerator, b.binop("fadd", e, const(1.0, x.dtype)), hint="sigmoid")


def neg(b, x):  # (a bool x too: 0 - x is x in one bit)
    return b.fneg(x) if x.dtype.is_floating_point else b.binop("sub", const(0, x.dtype), x, hint="neg")


def absolute(b, x):
    if x.dtype.is_floating_point:
        return b.intrinsic("fabs", x.dtype, [x], hint="abs")
    return x if is_unsigned(x.dtype) else b.intrinsic("abs", x.dtype, [x, Value("false", dt.bool_)], hint="abs")


def rounding(intrinsic_name):
    return lambda b, x: b.intrinsic(intrinsic_name, x.dtype, [x]) if x.dtype.is_floating_point else x


def sqrt(b, x):
    return b.intrinsic("sqrt", x.dtype, [x])


def rsqrt(b, x):
    return b.binop("fdiv", const(1.0, x.dtype), sqrt(b, x), hint="rsqrt")


def reciprocal(b, x):
    return b.binop("fdiv", const(1.0, x.dtype), x, hint="reciprocal")


def sign(b, x):
    if x.dtype.is_floating_point:  # (x > 0) - (x < 0): NaN and -0.0 give 0, as torch
        positive = b.fcmp("ogt", x, const(0.0, x.dtype))
        negative = b.fcmp("olt", x, const(0.0, x.dtype))
        signed = b.select(negative, const(-1.0, x.dtype), const(0.0, x.dtype))
        return b.select(positive, const(1.0, x.dtype), signed, hint="sign")
    if is_unsigned(x.dtype):
        return cast(b, truthy(b, x), x.dtype)
    positive = b.convert("zext", b.icmp("sgt", x, const(0, x.dtype)), x.dtype)
    negative = b.convert("zext", b.icmp("slt", x, const(0, x.dtype)), x.dtype)
    return b.binop("sub", positive, negative, hint="sign")


def relu(b, x):
    if x.dtype.is_floating_point:
        return b.select(b.fcmp("olt", x, const(0.0, x.dtype)), const(0.0, x.dtype), x, hint="relu")
    return x if is_unsigned(x.dtype) else b.intrinsic("smax", x.dtype, [x, const(0, x.dtype)], hint="relu")


def logical_not(b, x):
    return b.binop("xor", truthy(b, x), Value("true", dt.bool_), hint="not")


def bitwise_not(b, x):
    return b.binop("xor", x, const(-1, x.dtype) if x.dtype is not dt.bool_ else Value("true", dt.bool_), hint="bitnot")


def isnan(b, x):
    return b.fcmp("uno", x, x, hint="isnan") if x.dtype.is_floating_point else Value("false", dt.bool_)


def isinf(b, x):
    if not x.dtype.is_floating_point:
        return Value("false", dt.bool_)
    return b.fcmp("oeq", b.intrinsic("fabs", x.dtype, [x]), const(float("inf"), x.dtype), hint="isinf")


# ---- binary --------------------------------------------------------------------------------


def by_kind(float_opcode, int_opcode, bool_opcode):
    """One LLVM instruction, chosen by the operands' kind: float, integer or bool."""
    def emit(b, x, y):
        if x.dtype.is_floating_point:
            return b.binop(float_opcode, x, y, hint=float_opcode)
        return b.binop(bool_opcode if x.dtype is dt.bool_ else int_opcode, x, y, hint=int_opcode)
    return emit


def truediv(b, x, y):
    return b.binop("fdiv", x, y, hint="div")


@in_float32
def remainder(b, x, y):
    if x.dtype.is_floating_point:  # torch's compiled kernels: x - (x // y) * y, not fmod's (other bits, signs of 0)
        return b.binop("fsub", x, b.binop("fmul", floordiv(b, x, y), y), hint="remainder")
    safe_y = safe_divisor(b, y)
    if is_unsigned(x.dtype):
        return b.binop("urem", x, safe_y, hint="remainder")
    mod, fix = signed_mod(b, x, y, safe_y)
    return b.select(fix, b.binop("add", mod, y), mod, hint="remainder")


def signed_mod(b, x, y, safe_y):
    """C's x % y, and whether it needs the divisor added to take the divisor's sign (Python's %)."""
    mod = b.binop("srem", x, safe_y, hint="srem")
    zero = const(0, x.dtype)
    return mod, b.binop("and", b.icmp("ne", mod, zero), b.icmp("slt", b.binop("xor", mod, y), zero), hint="fix")


def safe_divisor(b, y):
    """y, with 0 and -1 replaced by 1: x86 traps on division by zero and on INT_MIN / -1.

    A zero divisor also raises the kernel's zero-division flag, which `LLVMKernel.run` turns
    into torch's RuntimeError("ZeroDivisionError") (index arithmetic divides by non-zero constants
    only, so its kernels get no flag)."""
    bad = b.icmp("eq", y, const(0, y.dtype))
    if y.ref.startswith("%") or y.ref == const(0, y.dtype).ref:  # a register, or a literal 0 (`x % 0`)
        b.flag_if(bad, ZERO_DIVISION)
    if not is_unsigned(y.dtype):
        bad = b.binop("or", bad, b.icmp("eq", y, const(-1, y.dtype)))
    return b.select(bad, const(1, y.dtype), y, hint="safe_divisor")


@in_float32
def floordiv(b, x, y):
    if x.dtype.is_floating_point:  # the same steps as Python's float floor division (from fmod)
        zero, mod = const(0.0, x.dtype), b.binop("frem", x, y, hint="fmod")
        fix = b.binop("and", b.fcmp("une", mod, zero), b.binop("xor", b.fcmp("olt", y, zero), b.fcmp("olt", mod, zero)))
        div = b.binop("fdiv", b.binop("fsub", x, mod), y, hint="div")
        div = b.select(fix, b.binop("fsub", div, const(1.0, x.dtype)), div)
        signed_zero = b.intrinsic("copysign", x.dtype, [zero, b.binop("fdiv", x, y)])
        floor = b.intrinsic("floor", x.dtype, [div])
        round_up = b.fcmp("ogt", b.binop("fsub", div, floor), const(0.5, x.dtype))
        result = b.select(round_up, b.binop("fadd", floor, const(1.0, x.dtype)), floor)
        result = b.select(b.fcmp("oeq", div, zero), signed_zero, result)
        return b.select(b.fcmp("oeq", y, zero), b.binop("fdiv", x, y), result, hint="floordiv")
    return integer_division(b, x, y, "floordiv", floor=True)


@in_float32
def truncdiv(b, x, y):
    """C's x / y, toward zero: div(rounding_mode="trunc"); exact on int64, unlike a float quotient."""
    if x.dtype.is_floating_point:
        return b.intrinsic("trunc", x.dtype, [b.binop("fdiv", x, y, hint="div")], hint="truncdiv")
    return integer_division(b, x, y, "truncdiv", floor=False)


def integer_division(b, x, y, hint, floor):
    """x // y on integers, rounded toward minus infinity (`floor`) or zero; 0 for a zero divisor (flagged)."""
    safe_y = safe_divisor(b, y)
    zero = const(0, x.dtype)
    if is_unsigned(x.dtype):
        return b.select(b.icmp("eq", y, zero), zero, b.binop("udiv", x, safe_y), hint=hint)
    quotient = b.binop("sdiv", x, safe_y, hint="quotient")
    if floor:
        _, fix = signed_mod(b, x, y, safe_y)
        quotient = b.binop("sub", quotient, b.convert("zext", fix, x.dtype), hint="floor_quotient")
    quotient = b.select(b.icmp("eq", y, const(-1, x.dtype)), b.binop("sub", zero, x), quotient)  # wraps MIN / -1
    return b.select(b.icmp("eq", y, zero), zero, quotient, hint=hint)


@in_float32
def fmod(b, x, y):
    """C's fmod: the remainder of the quotient truncated toward zero, with the dividend's sign."""
    if x.dtype.is_floating_point:
        return b.binop("frem", x, y, hint="fmod")
    return b.binop("urem" if is_unsigned(x.dtype) else "srem", x, safe_divisor(b, y), hint="fmod")


@in_float32
def power(b, x, y):
    if x.dtype.is_floating_point:  # (lowering writes x ** 2 and x ** 0.5 as a product and a sqrt)
        if y.ref == const(3.0, y.dtype).ref:
            return b.binop("fmul", b.binop("fmul", x, x, hint="square"), x, hint="cube")
        return b.call("powf" if x.dtype is dt.float32 else "pow", x.dtype, [x, y], hint="pow")
    name = f"ipow_{'u' if is_unsigned(x.dtype) else 'i'}{bit_width(x.dtype)}"
    b.helpers[name] = integer_power_helper(name, x.ty, signed=not is_unsigned(x.dtype))
    return Value(b.op("pow", f"call {x.ty} @{name}({x.ty} {x.ref}, {y.ty} {y.ref})"), x.dtype)


def integer_power_helper(name, ty, signed):
    """base ** exponent by squaring; negative exponents give 1/base truncated (0 unless base is +-1)."""
    negative_case = f"""negative:
  %is_one = icmp eq {ty} %base, 1
  %is_minus_one = icmp eq {ty} %base, -1
  %odd_bit = and {ty} %exponent, 1
  %odd = icmp ne {ty} %odd_bit, 0
  %minus_one_power = select i1 %odd, {ty} -1, {ty} 1
  %from_minus_one = select i1 %is_minus_one, {ty} %minus_one_power, {ty} 0
  %reciprocal = select i1 %is_one, {ty} 1, {ty} %from_minus_one
  ret {ty} %reciprocal
""" if signed else ""
    entry_branch = (f"  %is_negative = icmp slt {ty} %exponent, 0\n"
                    f"  br i1 %is_negative, label %negative, label %loop\n" if signed else "  br label %loop\n")
    return f"""define internal {ty} @{name}({ty} %base, {ty} %exponent) alwaysinline {{
entry:
{entry_branch}{negative_case}loop:
  %result = phi {ty} [ 1, %entry ], [ %result.next, %step ]
  %square = phi {ty} [ %base, %entry ], [ %square.next, %step ]
  %rest = phi {ty} [ %exponent, %entry ], [ %rest.next, %step ]
  %done = icmp eq {ty} %rest, 0
  br i1 %done, label %exit, label %step
step:
  %low_bit = and {ty} %rest, 1
  %take = icmp ne {ty} %low_bit, 0
  %product = mul {ty} %result, %square
  %result.next = select i1 %take, {ty} %product, {ty} %result
  %square.next = mul {ty} %square, %square
  %rest.next = lshr {ty} %rest, 1
  br label %loop
exit:
  ret {ty} %result
}}"""


def extremum(float_intrinsic, signed_intrinsic, unsigned_intrinsic, bool_opcode):
    beats = "ogt" if float_intrinsic == "maximum" else "olt"

    def emit(b, x, y):
        if x.dtype.is_floating_point:  # x if it wins or is NaN, else y: a tie (-0., 0.) gives y, as torch's kernels
            takes_x = b.binop("or", b.fcmp(beats, x, y), b.fcmp("uno", x, x), hint="takes")
            return b.select(takes_x, x, y, hint=float_intrinsic)
        if x.dtype is dt.bool_:
            return b.binop(bool_opcode, x, y, hint=float_intrinsic)
        return b.intrinsic(unsigned_intrinsic if is_unsigned(x.dtype) else signed_intrinsic, x.dtype, [x, y])
    return emit


FLOAT_PREDICATES = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}


def comparison(name):
    def emit(b, x, y):
        if x.dtype.is_floating_point:
            return b.fcmp(FLOAT_PREDICATES[name], x, y, hint=name)
        if name in ("eq", "ne"):
            return b.icmp(name, x, y, hint=name)
        return b.icmp(("u" if is_unsigned(x.dtype) else "s") + name, x, y, hint=name)
    return emit


def logical(opcode):
    return lambda b, x, y: b.binop(opcode, truthy(b, x), truthy(b, y), hint=f"logical_{opcode}")


def shift(left):
    """x << y or x >> y as ATen's: 0 for a count outside [0, width) (a negative count is a huge unsigned one), but a
    signed value shifted right by width - 1 (leaving its sign). LLVM's shifts are poison for such counts, so the
    count is clamped, or masked before the select discards that result."""
    def emit(b, x, y):
        width = bit_width(x.dtype)
        in_range = b.icmp("ult", y, const(width, y.dtype), hint="in_range")
        if not left and not is_unsigned(x.dtype):
            return b.binop("ashr", x, b.select(in_range, y, const(width - 1, y.dtype), hint="count"), hint="rshift")
        opcode = "shl" if left else "lshr"
        shifted = b.binop(opcode, x, b.binop("and", y, const(width - 1, y.dtype)), hint=opcode)
        return b.select(in_range, shifted, const(0, x.dtype), hint="lshift" if left else "rshift")
    return emit


@in_float32
def atan2(b, x, y):
    return b.call("atan2f" if x.dtype is dt.float32 else "atan2", x.dtype, [x, y], hint="atan2")


def where(b, condition, x, y):
    return b.select(truthy(b, condition), x, y, hint="where")


UNARY = {
    "neg": neg, "abs": absolute, "sqrt": sqrt, "rsqrt": rsqrt, "reciprocal": reciprocal,
    **{name: transcendental(name) for name in L.TRANSCENDENTAL},
    "floor": rounding("floor"), "ceil": rounding("ceil"), "trunc": rounding("trunc"),
    "round": rounding("roundeven"), "sign": sign, "relu": relu, "logical_not": logical_not,
    "bitwise_not": bitwise_not, "isnan": isnan, "isinf": isinf,
}
BINARY = {
    "add": by_kind("fadd", "add", "or"), "sub": by_kind("fsub", "sub", "xor"), "mul": by_kind("fmul", "mul", "and"),
    "truediv": truediv, "floordiv": floordiv, "remainder": remainder, "truncdiv": truncdiv, "fmod": fmod, "pow": power,
    "maximum": extremum("maximum", "smax", "umax", "or"), "minimum": extremum("minimum", "smin", "umin", "and"),
    **{name: comparison(name) for name in FLOAT_PREDICATES},
    "logical_and": logical("and"), "logical_or": logical("or"), "atan2": atan2,
    **{f"bitwise_{opcode}": by_kind(None, opcode, opcode) for opcode in ("and", "or", "xor")},  # integers, bools
    "lshift": shift(left=True), "rshift": shift(left=False),
}


# ---- reductions: how an accumulator takes in one more value ----------------------------------


COMBINE_OPCODES = {"sum": ("fadd", "add"), "prod": ("fmul", "mul"), "any": (None, "or"), "all": (None, "and")}


def combine(b, kind, acc, value, hint):
    floating = value.dtype.is_floating_point
    if kind in ("max", "min") and floating:
        # freeze (a no-op on a real value) hides a masked input, max(acc, where(m, -inf, x)), from
        # InstCombine, which would rewrite it as where(m, acc, max(acc, x)): a form the loop
        # vectorizer does not recognise as a reduction, leaving the loop scalar (causal attention)
        value = Value(b.op("frozen", f"freeze {value.ty} {value.ref}"), value.dtype)
        # llvm.maximum, not the pointwise op's select, which the vectorizer does not
        # take for a reduction: a reduction's zero keeps no torch sign rule (ATen's own vector loops differ)
        return b.intrinsic("maximum" if kind == "max" else "minimum", value.dtype, [acc, value], hint=hint)
    if kind in ("max", "min"):
        return BINARY["maximum" if kind == "max" else "minimum"](b, acc, value)
    if kind not in COMBINE_OPCODES:
        raise NotImplementedError(f"LLVM codegen has no reduction {kind!r}")
    float_opcode, int_opcode = COMBINE_OPCODES["any" if kind == "sum" and value.dtype is dt.bool_ else kind]
    if floating and float_opcode:  # reassociable, so that the vectorizer may split the sum into lanes
        return b.binop(f"{float_opcode} reassoc", acc, value, hint=hint)
    return b.binop(int_opcode, acc, value, hint=hint)
