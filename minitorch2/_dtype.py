"""dtypes and PyTorch's type-promotion rules.

Runtime layer. A `dtype` names a numpy dtype and prints as PyTorch prints it (`torch.float32` becomes
`minitorch2.float32`, shown as `torch.float32` so that scripts run through the alias table print what they print on
torch).

Promotion follows c10's `ResultTypeState`: operands fall into three priority groups (tensors with dimensions,
zero-dim tensors, Python scalars). Each group is promoted on its own, then a lower-priority group only wins when it
belongs to a higher *category* (bool < integer < floating < complex). So `int_tensor + 1.5` is the default float dtype,
while `float16_tensor + 1.5` stays float16 (and `float64_tensor * 1j` is complex128: _combine).
"""
import math

import ml_dtypes
import numpy as np

from ._sym import SymBool, SymInt, is_symbolic


class dtype:
    __slots__ = ("name", "np", "is_floating_point", "is_complex", "is_inexact", "is_signed", "itemsize", "category")

    def __init__(self, name, np_dtype, category):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.category = category  # 0 bool, 1 integer, 2 floating, 3 complex
        self.is_floating_point = category == 2
        self.is_complex = category == 3
        self.is_inexact = category >= 2  # floating or complex: the dtypes gradients flow through
        self.is_signed = category >= 2 or self.np.kind == "i"
        self.itemsize = self.np.itemsize

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):
        return (from_name, (self.name,))

    # dtypes are singletons, so identity comparison and hashing are enough.


bool_ = dtype("bool", np.bool_, 0)
uint8 = dtype("uint8", np.uint8, 1)
int8 = dtype("int8", np.int8, 1)
int16 = dtype("int16", np.int16, 1)
int32 = dtype("int32", np.int32, 1)
int64 = dtype("int64", np.int64, 1)
float16 = dtype("float16", np.float16, 2)
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, 2)  # numpy has none: ml_dtypes' (its kind is "V")
float32 = dtype("float32", np.float32, 2)
float64 = dtype("float64", np.float64, 2)
complex64 = dtype("complex64", np.complex64, 3)
complex128 = dtype("complex128", np.complex128, 3)

ALL = (bool_, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex64, complex128)
_BY_NUMPY = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}
_BY_NAME.update(half=float16, float=float32, double=float64, long=int64, int=int32, short=int16)
COMPLEX_OF = {float32: complex64, float64: complex128}  # the complex dtype whose parts have a floating dtype


HALVES = (float16, bfloat16)  # the 16-bit floats, which ATen's CPU kernels compute in float32
NP_FLOATS = frozenset((float16.np, bfloat16.np, float32.np, float64.np))  # (bfloat16's numpy kind is "V", not "f")


# The dtype ATen's CPU kernels compute `d` in ("opmath"): float32 for the halves, rounded once at the end.
def opmath(d):
    return float32 if d in HALVES else d


def from_name(name):
    return _BY_NAME[name]


def from_numpy(np_dtype):
    try:
        return _BY_NUMPY[np.dtype(np_dtype)]
    except KeyError:
        if not np.dtype(np_dtype).isnative:
            raise ValueError("given numpy array has byte order different from the native byte order. Conversion "
                             "between byte orders is currently not supported.") from None
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The only supported types are: "
            "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, "
            "uint8, and bool."
        ) from None


_default_float = float32


def get_default_dtype():
    return _default_float


def to_complex(d):
    """The complex dtype of float dtype `d` (c10's toComplexType; bfloat16's is complex64); complex32 is not here."""
    if d is float16:
        raise NotImplementedError("minitorch2 has no complex32 (ComplexHalf), which torch computes float16's in")
    return complex64 if d is bfloat16 else COMPLEX_OF.get(d, d)


def set_default_dtype(d):
    global _default_float
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float = d


def promote_types(a, b):
    """The smallest dtype both `a` and `b` convert to without losing range (torch.promote_types)."""
    if a is b:
        return a
    if a.category != b.category and min(a.category, b.category) < 2:  # (int64 + complex64 is complex64)
        return a if a.category > b.category else b
    if a.category == b.category == 2:  # (float16 and bfloat16 hold neither's range and precision: float32)
        return a if a.itemsize > b.itemsize else b if b.itemsize > a.itemsize else float32
    # integers, and floating with complex: numpy's table agrees with PyTorch's for the types we have (uint8 + int8 ->
    # int16, float64 + complex64 -> complex128); bfloat16 widens into complex as float16 does
    a, b = (float16 if d is bfloat16 else d for d in (a, b))
    return _BY_NUMPY[np.promote_types(a.np, b.np)]


def scalar_dtype(value):
    """The dtype a Python number takes when it is wrapped into a tensor (torch's parser reads np.bool_(True) as 1.0;
    its truncation of np.complex64 to the real part is not copied: tests/minitorch2/test_trust_signed_zeros_complex)."""
    if isinstance(value, (bool, SymBool)):
        return bool_
    if isinstance(value, (complex, np.complexfloating)):
        return to_complex(_default_float)
    return int64 if isinstance(value, (int, np.integer, SymInt)) else _default_float


def result_type(*operands):
    """PyTorch's result dtype for an op over tensors and Python scalars (torch.result_type)."""
    dim_result = zero_dim_result = wrapped_result = None
    for x in operands:
        d = getattr(x, "dtype", None)
        if isinstance(d, dtype):
            if x.dim() > 0:
                dim_result = d if dim_result is None else promote_types(dim_result, d)
            else:
                zero_dim_result = d if zero_dim_result is None else promote_types(zero_dim_result, d)
        elif x is not None:
            d = scalar_dtype(x)
            wrapped_result = d if wrapped_result is None else promote_types(wrapped_result, d)
    result = _combine(_combine(dim_result, zero_dim_result), wrapped_result)
    return result if result is not None else _default_float


def _combine(higher, lower):
    if higher is None:
        return lower
    if lower is not None and lower.is_complex and higher.is_floating_point:  # c10 keeps higher's precision
        return to_complex(higher)
    return higher if lower is None or higher.category >= lower.category else lower


def can_cast(from_, to):
    """torch.can_cast: casting never goes down a category (float -> int, int -> bool)."""
    return from_.category <= to.category


# ---------------------------------------------------------------- Python numbers meeting a dtype
# Python's number types stand for dtypes where torch takes one (zeros(2, dtype=float) is float64)
PYTHON_TYPES = {float: float64, int: int64, bool: bool_, complex: complex128}


def as_dtype(value):
    """A dtype argument as torch's argument parser reads it: float/int/bool/complex are
    float64/int64/bool/complex128; anything else is returned for the caller to check."""
    return PYTHON_TYPES.get(value, value) if isinstance(value, type) else value


_C_NAMES = {"int64": "int64_t", "int32": "int", "int16": "int16_t", "int8": "int8_t", "uint8": "uint8_t",
            "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16", "bool": "bool"}


def unpack_int(value):
    """A Python int as torch's argument parser reads it: int64, or uint64 for [2**63, 2**64); beyond, the
    OverflowError torch gives."""
    if value < -2 ** 63:
        raise OverflowError("can't convert negative int to unsigned")
    if value >= 2 ** 64:
        raise OverflowError("int too big to convert")
    return value


def wrapped_int(value, to):
    """A Python int in an integer op of dtype `to`: cast with wraparound, as c10's Scalar.to<T>() does
    (an int32 tensor times 2**40 multiplies by 0). numpy would raise OverflowError instead."""
    unpack_int(value)
    bits = 8 * to.itemsize
    value %= 2 ** bits
    if to.is_signed and value >= 2 ** (bits - 1):
        value -= 2 ** bits
    return to.np.type(value)


def checked_scalar(value, to, half_overflows=False):
    """A Python number given as a fill value of dtype `to`, refused as c10's checked_convert refuses one
    that does not fit (full((2,), 2**63, dtype=int64), fill_(nan) of an integer tensor); returned
    unchanged when it fits, an int wrapped into an integer dtype (uint8's -1 is 255). Beyond float16's range
    a value saturates to inf; `half_overflows`: refused instead, as a kernel's Scalar argument (clamp's bounds,
    alpha) and a fill of other than one element (ATen's one-element fill_ alone does not check)."""
    if to.is_complex or is_symbolic(value):  # (a symbol is checked once it has a value: a guard here would pin it)
        return value
    if isinstance(value, (complex, np.complexfloating)):  # (c10's checked conversion refuses a nonzero imaginary part)
        if value.imag != 0:
            raise RuntimeError(f"value cannot be converted to type {_C_NAMES[to.name]} without overflow")
        value = value.real
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        value = unpack_int(int(value))
    if to is bool_:
        return bool(value)
    if isinstance(value, (bool, np.bool_)):
        return value
    if to.category == 1:  # (an int may wrap into an unsigned type from as low as -max; a float may not)
        info = np.iinfo(to.np)
        lowest = -info.max if isinstance(value, (int, np.integer)) and not to.is_signed else info.min
        fits = math.isfinite(value) and lowest <= value <= info.max
    else:
        fits = to in HALVES and not half_overflows or not math.isfinite(value) or abs(value) <= float(np.finfo(to.np).max)
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {_C_NAMES[to.name]} without overflow")
    return wrapped_int(value, to) if to.category == 1 and isinstance(value, int) else value
