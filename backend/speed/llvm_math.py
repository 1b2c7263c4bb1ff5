"""float32 exp, exp2, log, log2, log1p, expm1, tanh, erf and sigmoid as inline, branch-free LLVM IR.

Speed wing, called by `codegen/llvm_emit.py` for float32 (and, through float32,
float16) operands, through `speed.inline_math`; the plain path calls libm's
`expf`, `tanhf`... (codegen/llvm_ops.py). A call to libm's
`expf` stops LLVM's loop vectorizer cold (it cannot widen an opaque call), so
the transcendentals that dominate neural-network kernels (exp in softmax,
tanh/erf in GELU, sigmoid) are spelled out here as range reduction plus a
polynomial, with selects for the special values. The loop vectorizer then
turns them into 8- or 16-lane vector code like any other arithmetic.

The one idea to hold: every function reduces its argument to a small interval
where a low-degree polynomial is accurate to about one float32 ulp, and
patches inf/nan/overflow/underflow with selects at the end.

    exp(x)   x = n*ln2 + r, |r| <= ln2/2 (Cody-Waite: ln2 split in two parts so n*ln2_hi
             is exact), exp(r) = 1 + r + r^2*P(r), times 2^n built from exponent bits
             (in two factors so results that are subnormal round only once); a NaN flows
             through the arithmetic, so no select is needed for it
    log(x)   x = 2^e * m, m in [sqrt(1/2), sqrt(2)), log(1+f) = f - f^2/2 + f^3*P(f)
    tanh(x), erf(x)   x * P(x^2) / Q(x^2) with x clamped where the function has rounded to +-1:
             no range reduction and no branches, so a GELU costs little more than the memory it
             touches; within 6 ulps (2 for the others), a relative error of 3.3e-7
    log1p, expm1: the classical tricks log(u) * (x/(u-1)) and (u-1) * (x/log(u)), u = 1+x or exp(x),
             which cancel the rounding error of u

The log coefficients are Cephes' (S. L. Moshier's) minimax fit. exp's
degree-4 P and the tanh and erf rational functions were fitted for this module
by iteratively reweighted (Lawson) least squares on Chebyshev nodes: relative
errors 3e-9, 2e-8 and 7e-8 before rounding to float32 (Cephes' degree-5 exp
polynomial is fifty times more accurate than float32 can show, for one more
multiply-add). Rounding in float32 evaluation brings tanh's and erf's worst
case to 5-6 ulps. tests/backend/test_llvm_codegen.py measures every function against
numpy's float64 results over a dense sweep of float32 inputs.
"""
from minitorch2 import _dtype as dt

from ..codegen.llvm_builder import Value, const

F32 = dt.float32

EXP_POLY = (0.4999999404, 0.16666521132, 0.041668388993, 0.0083687100559,
            0.0013814612757)  # exp(r) = 1 + r + r^2 * EXP_POLY(r)
LN2_HI, LN2_LO = 0.693359375, -2.12194440e-4  # LN2_HI has 9 significant bits: n*LN2_HI is exact
LOG_POLY = (3.3333331174e-1, -2.4999993993e-1, 2.0000714765e-1, -1.6668057665e-1, 1.4249322787e-1,
            -1.2420140846e-1, 1.1676998740e-1, -1.1514610310e-1, 7.0376836292e-2)
TANH_P = (1.0, 0.13381033, 0.0034955952, 2.0609159e-05, 1.3354698e-08)
TANH_Q = (1.0, 0.46714348, 0.025877012, 0.00032856446, 7.776587e-07)
TANH_LIMIT = 9.0  # tanh(x) = x * TANH_P(x^2) / TANH_Q(x^2) for |x| <= 9; tanh(9) is 1 - 1 ulp
TANH_ROUNDS_TO_ONE = 9.01084  # from here on torch's float32 tanh is 1.0 (1 - tanh is under 1.5 ulp)
ERF_P = (1.1283791065216064, 0.20710693299770355, 0.05152236670255661, 0.003989674150943756,
         0.00014725621440447867, -1.9420265289227245e-06, 1.9108476578821865e-08)
ERF_Q = (1.0, 0.5168750286102295, 0.11796307563781738, 0.014956390485167503, 0.0010208645835518837)
ERF_LIMIT = 4.0  # erf(x) = x * ERF_P(x^2) / ERF_Q(x^2) for |x| <= 4; erf(4) rounds to 1
INF, NAN = float("inf"), float("nan")
ROUNDING_SHIFTER, ROUNDING_SHIFTER_BITS = 12582912.0, 0x4B400000  # 1.5 * 2**23 and its bits


def c(value):
    return const(value, F32)


def polynomial(b, t, coefficients):
    """coefficients[0] + t*(coefficients[1] + t*(...)), one fused multiply-add per step."""
    acc = c(coefficients[-1])
    for coefficient in reversed(coefficients[:-1]):
        acc = b.intrinsic("fmuladd", F32, [acc, t, c(coefficient)], hint="poly")
    return acc


def power_of_two(b, n_i32):
    """2.0**n for integer n in [-126, 127], by writing n + 127 into the exponent bits."""
    biased = b.binop("add", n_i32, Value("127", dt.int32), hint="biased")
    shifted = b.binop("shl", biased, Value("23", dt.int32), hint="exp_bits")
    return b.convert("bitcast", shifted, F32, hint="pow2")


def round_to_integer(b, x):
    """(n, n as an int32) for x rounded to the nearest integer, |x| < 2**22: adding 1.5 * 2**23 leaves
    the rounded value in the low mantissa bits. Unlike rint and fptosi, a NaN x gives a NaN n and a
    defined (if meaningless) integer, so the NaN reaches the result through arithmetic alone."""
    shifted = b.binop("fadd", x, c(ROUNDING_SHIFTER), hint="shifted")
    n = b.binop("fsub", shifted, c(ROUNDING_SHIFTER), hint="n")
    n_int = b.binop("sub", b.convert("bitcast", shifted, dt.int32, hint="bits"),
                    Value(str(ROUNDING_SHIFTER_BITS), dt.int32), hint="n_int")
    return n, n_int


def scale_by_power_of_two(b, y, n):
    """y * 2**n for int32 n in [-152, 129], as two exact-range factors so a subnormal result rounds once."""
    half = b.binop("ashr", n, Value("1", dt.int32), hint="n_half")
    rest = b.binop("sub", n, half, hint="n_rest")
    y = b.binop("fmul", y, power_of_two(b, half), hint="scaled")
    return b.binop("fmul", y, power_of_two(b, rest), hint="scaled")


def exp_of_reduced(b, r, n):
    """exp(r) * 2**n for |r| <= ln2/2."""
    r2 = b.binop("fmul", r, r, hint="r2")
    one_plus_r = b.binop("fadd", r, c(1.0), hint="one_plus_r")
    y = b.intrinsic("fmuladd", F32, [polynomial(b, r, EXP_POLY), r2, one_plus_r], hint="exp_r")
    return scale_by_power_of_two(b, y, n)


def clamp(b, x, low, high):
    """x limited to [low, high]; NaN stays NaN (callers select x itself for NaN at the end, so what the
    rest of the computation makes of a NaN lane is never used). Compare-and-select, not minnum/maxnum:
    x86 has no instruction with minnum's NaN rule, so each minnum costs three; `low > x ? low : x` is
    exactly one vmaxps."""
    above = b.select(b.fcmp("ogt", c(low), x), c(low), x, hint="clamped")
    return b.select(b.fcmp("olt", c(high), above), c(high), above, hint="clamped")


def exp(b, x):
    xc = clamp(b, x, -104.0, 89.0)  # beyond: 0 or inf, which the scaling produces by itself
    n, n_int = round_to_integer(b, b.binop("fmul", xc, c(1.4426950408889634), hint="x_log2e"))
    r = b.intrinsic("fmuladd", F32, [n, c(-LN2_HI), xc], hint="r")
    r = b.intrinsic("fmuladd", F32, [n, c(-LN2_LO), r], hint="r")
    return exp_of_reduced(b, r, n_int)


def exp2(b, x):
    xc = clamp(b, x, -152.0, 129.0)
    n, n_int = round_to_integer(b, xc)
    r = b.binop("fmul", b.binop("fsub", xc, n, hint="frac"), c(0.6931471805599453), hint="r")
    return exp_of_reduced(b, r, n_int)


def log_parts(b, x):
    """(e, log(m)) with x = 2^e * m, m in [sqrt(1/2), sqrt(2)), for finite x > 0."""
    subnormal = b.fcmp("olt", x, c(1.1754943508222875e-38), hint="subnormal")
    x_normal = b.select(subnormal, b.binop("fmul", x, c(8388608.0), hint="x_scaled"), x)
    bits = b.convert("bitcast", x_normal, dt.int32, hint="bits")
    exponent = b.binop("sub", b.binop("lshr", bits, Value("23", dt.int32)), Value("126", dt.int32),
                       hint="exponent")
    exponent = b.binop("sub", exponent, b.select(subnormal, Value("23", dt.int32), Value("0", dt.int32)),
                       hint="exponent")
    mantissa_bits = b.binop("or", b.binop("and", bits, Value("8388607", dt.int32)),
                            Value("1056964608", dt.int32), hint="mantissa_bits")  # in [0.5, 1)
    m = b.convert("bitcast", mantissa_bits, F32, hint="m")
    below = b.fcmp("olt", m, c(0.7071067811865476), hint="below_sqrt_half")
    exponent = b.binop("sub", exponent, b.convert("zext", below, dt.int32), hint="exponent")
    f = b.binop("fsub", b.select(below, b.binop("fadd", m, m, hint="m2"), m), c(1.0), hint="f")
    f2 = b.binop("fmul", f, f, hint="f2")
    y = b.binop("fmul", b.binop("fmul", polynomial(b, f, LOG_POLY), f, hint="pf"), f2, hint="y")
    y = b.intrinsic("fmuladd", F32, [f2, c(-0.5), y], hint="y")
    return b.convert("sitofp", exponent, F32, hint="e"), f, y  # log(m) = f + y, y small


def patch_log_specials(b, x, result):
    result = b.select(b.fcmp("oeq", x, c(INF)), c(INF), result)
    result = b.select(b.fcmp("oeq", x, c(0.0)), c(-INF), result)
    return b.select(b.fcmp("ult", x, c(0.0), hint="negative_or_nan"), c(NAN), result, hint="log")


def log(b, x):
    e, f, y = log_parts(b, x)
    y = b.intrinsic("fmuladd", F32, [e, c(LN2_LO), y], hint="y")
    result = b.intrinsic("fmuladd", F32, [e, c(LN2_HI), b.binop("fadd", f, y, hint="y")], hint="log")
    return patch_log_specials(b, x, result)


def log2(b, x):
    """e + log(m) * log2(e): exact at powers of two, where log(m) is 0."""
    e, f, y = log_parts(b, x)
    log_m = b.binop("fadd", f, y, hint="log_m")
    return patch_log_specials(b, x, b.intrinsic("fmuladd", F32, [log_m, c(1.4426950408889634), e], hint="log2"))


def log1p(b, x):
    u = b.binop("fadd", x, c(1.0), hint="u")
    u_minus_one = b.binop("fsub", u, c(1.0), hint="u_minus_one")
    corrected = b.binop("fmul", log(b, u), b.binop("fdiv", x, u_minus_one, hint="ratio"), hint="log1p")
    result = b.select(b.fcmp("oeq", u_minus_one, c(0.0)), x, corrected)
    return b.select(b.fcmp("oeq", x, c(INF)), x, result, hint="log1p")


def expm1(b, x):
    u = exp(b, x)
    u_minus_one = b.binop("fsub", u, c(1.0), hint="u_minus_one")
    corrected = b.binop("fmul", u_minus_one, b.binop("fdiv", x, log(b, u)), hint="expm1")
    result = b.select(b.fcmp("oeq", u_minus_one, c(-1.0)), c(-1.0), corrected)
    result = b.select(b.fcmp("oeq", u, c(1.0)), x, result)
    return b.select(b.fcmp("oeq", u, c(INF)), u, result, hint="expm1")


def odd_rational(b, x, limit, numerator, denominator, hint):
    """x * P(x^2) / Q(x^2) with |x| clamped to limit: one division, no branches. Beyond the limit the
    function has rounded to +-1 in float32, which the clamped value gives. The sign goes back on with
    copysign, a bitwise operation, where clamping x itself would take two compare-and-selects."""
    ax = b.intrinsic("fabs", F32, [x], hint="ax")
    axc = b.select(b.fcmp("olt", c(limit), ax), c(limit), ax, hint="clamped")
    t = b.binop("fmul", axc, axc, hint="x2")
    p = b.binop("fmul", axc, polynomial(b, t, numerator), hint="xp")
    return b.intrinsic("copysign", F32, [b.binop("fdiv", p, polynomial(b, t, denominator)), x], hint=hint)


def tanh(b, x):
    """The rational at TANH_LIMIT is tanh(9) = 1 - 1 ulp; from 9.0108 on, torch's is 1.0."""
    ax = b.intrinsic("fabs", F32, [x], hint="ax")
    rational = odd_rational(b, x, TANH_LIMIT, TANH_P, TANH_Q, "tanh_rational")
    one = b.intrinsic("copysign", F32, [c(1.0), x], hint="one")
    return b.select(b.fcmp("oge", ax, c(TANH_ROUNDS_TO_ONE)), one, rational, hint="tanh")


def erf(b, x):
    return odd_rational(b, x, ERF_LIMIT, ERF_P, ERF_Q, "erf")


def sigmoid(b, x):
    """1 / (1 + exp(-x)) for x >= 0 and exp(x) / (1 + exp(x)) below, so tiny results stay accurate."""
    e = exp(b, b.fneg(b.intrinsic("fabs", F32, [x], hint="ax")))
    numerator = b.select(b.fcmp("olt", x, c(0.0)), e, c(1.0), hint="numerator")
    return b.binop("fdiv", numerator, b.binop("fadd", e, c(1.0)), hint="sigmoid")


INLINE_FLOAT32 = {"exp": exp, "exp2": exp2, "log": log, "log2": log2, "log1p": log1p, "expm1": expm1,
                  "tanh": tanh, "erf": erf, "sigmoid": sigmoid}
