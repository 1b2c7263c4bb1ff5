"""bfloat16 and float16 in the LLVM code generator: float32 in registers, 16 bits in memory, rounded at stores.

Codegen layer, beside `llvm_ops.py` (casts) and `llvm_emit.py` (loads and stores). A bfloat16 is the top half of a
float32, so a load widens its bits into a float32 register and every op on it runs in float32, unrounded, until a
store rounds it to nearest-even (NaN to the quiet NaN 0x7FC0), as c10::BFloat16 rounds; a float16 is widened with
fpext and rounded with fptrunc. That is what torch's Inductor compiles both to on the CPU (its C++ kernels' "lowp
legalization"): loads upcast to float, a conversion to a 16-bit float inside a kernel is one to float, stores
round, so `(x * x).sqrt()` of a float16 65504 is 65504, where eager's rounded product overflows.
"""
from minitorch2 import _dtype as dt

from .llvm_builder import Value


def cast(b, x, dtype, cast_float32):
    """llvm_ops.cast to or from a 16-bit float (`cast_float32` casts the float32 register): to one stays unrounded
    until stored, as torch's Inductor legalizes a conversion inside a kernel."""
    if x.dtype in dt.HALVES:
        return cast_float32(b, Value(x.ref, dt.float32), dtype)
    return Value(cast_float32(b, x, dt.float32).ref, dtype)


def converted_again(b, op, x):
    """x, the value of op's operand, for op, a conversion: rounded where that operand is itself a conversion to a
    16-bit float from another dtype than float32 (`h.half().to(bfloat16).float()`), as torch's C++ kernels keep a
    conversion to a 16-bit float that only conversions read. From float32 they do not: the to-float conversion
    after it gives back the float32 value it came from (their CSE cache, pytorch#115260)."""
    inner = op.args[0]
    if getattr(inner, "name", None) != "to_dtype" or inner.dtype not in dt.HALVES or \
            inner.args[0].dtype in (dt.float32, inner.dtype):
        return x
    return rounded(b, x)


def as_loaded(b, loaded, dtype):
    """A loaded element as its register: a bfloat16's `i16` bits or a float16 widened to the float32 holding it."""
    if dtype is dt.float16:
        return Value(b.op("f16.wide", f"fpext half {loaded.ref} to float"), dt.float16)
    if dtype is not dt.bfloat16:
        return loaded
    wide = b.op("bf16.wide", f"zext i16 {loaded.ref} to i32")
    shifted = b.op("bf16.bits", f"shl i32 {wide}, 16")
    return Value(b.op("bf16", f"bitcast i32 {shifted} to float"), dt.bfloat16)


def rounded(b, x):
    """A float32 register rounded to the nearest 16-bit float of its dtype, ties to even, still in float32."""
    if x.dtype is dt.float16:
        narrow = b.op("f16", f"fptrunc float {x.ref} to half")
        return Value(b.op("f16.wide", f"fpext half {narrow} to float"), dt.float16)
    bits = b.op("f32.bits", f"bitcast float {x.ref} to i32")
    lowest_kept = b.op("bf16.lsb", f"and i32 {b.op('bf16.lsb', f'lshr i32 {bits}, 16')}, 1")
    biased = b.op("bf16.biased", f"add i32 {bits}, {b.op('bf16.bias', f'add i32 {lowest_kept}, 32767')}")
    kept = b.op("bf16.kept", f"and i32 {biased}, -65536")
    is_nan = b.op("isnan", f"fcmp uno float {x.ref}, 0.0")
    bits = b.op("bf16.bits", f"select i1 {is_nan}, i32 2143289344, i32 {kept}")  # 0x7FC00000
    return Value(b.op("bf16", f"bitcast i32 {bits} to float"), dt.bfloat16)


def as_reduced(b, x):
    """A reduction's result: a 16-bit float one rounded, as torch's is stored to the buffer its consumer reads."""
    return rounded(b, x) if x.dtype in dt.HALVES else x


def as_stored(b, x, dtype):
    """What a store writes for a value of the buffer's `dtype`: a bfloat16's `i16` bits or a float16, rounded (ops
    leave their values in float32)."""
    if dtype is dt.float16:
        return Value(b.op("f16", f"fptrunc float {x.ref} to half"), dt.float16)
    if dtype is not dt.bfloat16:
        return x
    bits = b.op("bf16.bits", f"bitcast float {rounded(b, x).ref} to i32")
    return Value(b.op("bf16.bits", f"trunc i32 {b.op('bf16.high', f'lshr i32 {bits}, 16')} to i16"), dt.int16)
