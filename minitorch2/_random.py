"""PyTorch's CPU random number generator, reproduced bit for bit on numpy.

Runtime layer. Factories (`rand`, `randn`, `randint`, `randperm`) and random
ops (`uniform_`, `normal_`, `random_`, `bernoulli`, `exponential_`,
`native_dropout`) ask a `Generator` here for a numpy array of samples; nothing
in this module knows about tensors.

The one idea to hold: PyTorch's CPU generator (`CPUGeneratorImpl`) is a plain
mt19937 engine, and every distribution is a small, fixed transform of its
32-bit words (`random()`) or of pairs of them (`random64()`, first word high).
Reproduce the engine, consume words in the same order, and apply the same
floating-point operations in the same order, and the samples are identical to
torch's, not merely close. That last part is why this file spells out fused
multiply-adds and a cephes-style vector log/sincos: ATen's AVX2 kernels use
them, and a "more accurate" formula would differ in the last bit.

Everything mirrors torch as built for x86-64 with AVX2 (ATen's CPU capability
"AVX2", which AVX-512 machines also use for `normal_`).
"""
import math
import secrets

import numpy as np

f32, f64 = np.float32, np.float64

DEFAULT_SEED = 67280421310721  # torch.Generator()'s seed when none is given
_STATE_BYTES = 5056  # sizeof(CPUGeneratorImplState): torch.get_rng_state().numel()


# ---------------------------------------------------------------- mt19937 --

_N = 624
_MATRIX_A = np.uint32(0x9908B0DF)


def _seeded_state(seed):
    state = np.empty(_N, np.uint32)
    x = seed & 0xFFFFFFFF  # torch seeds the engine with the low 32 bits only
    state[0] = x
    for i in range(1, _N):
        x = (1812433253 * (x ^ (x >> 30)) + i) & 0xFFFFFFFF
        state[i] = x
    return state


def _temper(y):
    y = y ^ (y >> np.uint32(11))
    y = y ^ ((y << np.uint32(7)) & np.uint32(0x9D2C5680))
    y = y ^ ((y << np.uint32(15)) & np.uint32(0xEFC60000))
    return y ^ (y >> np.uint32(18))


class _MT19937:
    """at::mt19937 with its bookkeeping (`left`, `next`) kept as torch keeps it,
    plus the tempered copy of the current state so draws are array slices."""

    def __init__(self, seed):
        self.seed = seed
        self.state = _seeded_state(seed)
        self.tempered = _temper(self.state)
        self.left, self.next = 1, 0  # left == 1: the next draw twists first
        self.numpy_engine = np.random.MT19937(0)  # set to our state for each twisting draw

    def words(self, n):
        """The next n 32-bit outputs, in order."""
        out = np.empty(n, np.uint32)
        take = min(n, self.left - 1)
        out[:take] = self.tempered[self.next:self.next + take]
        self.next += take
        self.left -= take
        rest = n - take
        if rest:
            # numpy's MT19937 is the same engine (the reference mt19937, tempered outputs), twisting in C; started
            # at position 624 it twists our state first, as torch's engine does when `left` reaches 1
            self.numpy_engine.state = {"bit_generator": "MT19937", "state": {"key": self.state, "pos": _N}}
            out[take:] = self.numpy_engine.random_raw(rest)
            after = self.numpy_engine.state["state"]
            self.state = after["key"].astype(np.uint32)
            self.tempered = _temper(self.state)
            self.next, self.left = int(after["pos"]), _N + 1 - int(after["pos"])
        return out

    def words64(self, n):
        w = self.words(2 * n).astype(np.uint64)
        return (w[0::2] << np.uint64(32)) | w[1::2]


# ------------------------------------------------- exact fused multiply-add --
# ATen's AVX2 kernels are compiled with FMA contraction, so `x * y + z` there is
# one rounding. numpy has no fma; these emulate it exactly.

def _two_sum_error(a, b, s):
    bb = s - a
    return (a - (s - bb)) + (b - bb)


def _fma_f32(a, b, c):
    """float32 fma via float64: the product of two 24-bit significands is exact,
    and the sum is rounded once more; that double rounding only bites when the
    float64 sum lands exactly halfway between two floats, so fix those."""
    product = np.multiply(a, b, dtype=f64)
    s = product + np.asarray(c, f64)
    ties = (s.view(np.uint64) & np.uint64(0x1FFFFFFF)) == np.uint64(0x10000000)
    if ties.any():
        idx = np.nonzero(ties)
        p_t = np.broadcast_to(product, s.shape)[idx]
        c_t = np.broadcast_to(np.asarray(c, f64), s.shape)[idx]
        err = _two_sum_error(p_t, c_t, s[idx])
        step = np.where((err > 0) == (s[idx] > 0), 1, -1) * (err != 0)
        s[idx] = (s[idx].view(np.int64) + step).view(f64)  # round to odd
    return s.astype(f32)


_SPLITTER = f64(134217729.0)  # 2**27 + 1, Veltkamp splitting


def _two_product(a, b):
    p = a * b
    ca, cb = _SPLITTER * a, _SPLITTER * b
    a_hi = ca - (ca - a)
    b_hi = cb - (cb - b)
    a_lo, b_lo = a - a_hi, b - b_hi
    return p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def _add_round_to_odd(a, b):
    s = a + b
    err = _two_sum_error(a, b, s)
    bits = s.view(np.int64)
    inexact_even = (err != 0) & ((bits & 1) == 0)
    step = np.where((err > 0) == (s > 0), 1, -1)
    return np.where(inexact_even, bits + step, bits).view(f64)


def _fma_f64(a, b, c):
    """Exact float64 fma (Boldo & Melquiond, round-to-odd emulation)."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, f64) for v in (a, b, c)))
    p_hi, p_lo = _two_product(a, b)
    s_hi = c + p_hi
    s_lo = _two_sum_error(c, p_hi, s_hi)
    return s_hi + _add_round_to_odd(s_lo, p_lo)


def _scale_shift_f64(x, scale, shift):
    """fma(x, scale, shift), skipping the emulation where one rounding is plain."""
    if scale == 1.0:
        return x + shift
    if shift == 0.0:
        return x * scale + 0.0  # + 0.0 turns -0.0 into +0.0, as fma does
    return _fma_f64(x, scale, shift)


# ---------------------------------------------- avx_mathfun.h, with FMA --
# ATen's normal_fill_16_AVX2 takes log and sincos from avx_mathfun.h (cephes
# polynomials). GCC fuses each `mul` feeding an `add` into one FMA.

_LOG_POLY = [f32(v) for v in (
    7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
    1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
    3.3333331174e-1)]
_LOG_Q1, _LOG_Q2 = f32(-2.12194440e-4), f32(0.693359375)
_SQRT_HALF = f32(0.707106781186547524)


def _avx2_log(x):
    """log256_ps for x in (0, 1] (here x = 1 - uniform, never 0 or denormal)."""
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(f32) + f32(1)
    m = ((bits & ~0x7F800000) | 0x3F000000).view(f32)  # mantissa in [0.5, 1)
    small = m < _SQRT_HALF
    e = e - small.astype(f32)
    x = (m - f32(1)) + np.where(small, m, f32(0))
    z = x * x
    y = np.full_like(x, _LOG_POLY[0])
    for coefficient in _LOG_POLY[1:]:
        y = _fma_f32(y, x, coefficient)
    y = _fma_f32(y * x, z, e * _LOG_Q1)
    y = y - z * f32(0.5)
    return (x + y) + e * _LOG_Q2


_REDUCE = [f32(-0.78515625), f32(-2.4187564849853515625e-4), f32(-3.77489497744594108e-8)]
_SIN_POLY = [f32(-1.9515295891e-4), f32(8.3321608736e-3), f32(-1.6666654611e-1)]
_COS_POLY = [f32(2.443315711809948e-5), f32(-1.388731625493765e-3), f32(4.166664568298827e-2)]
_FOUR_OVER_PI = f32(1.27323954473516)


def _avx2_sincos(x):
    """sincos256_ps for x >= 0: reduce by multiples of pi/4, pick a polynomial."""
    octant = (x * _FOUR_OVER_PI).astype(np.int32)
    octant = (octant + 1) & ~1
    y = octant.astype(f32)
    for part in _REDUCE:  # x - y*pi/4 in three pieces (Cody-Waite)
        x = _fma_f32(y, part, x)
    z = x * x
    cos_poly = _fma_f32(_fma_f32(np.full_like(z, _COS_POLY[0]), z, _COS_POLY[1]), z, _COS_POLY[2])
    cos_poly = _fma_f32(cos_poly * z, z, -(z * f32(0.5))) + f32(1)
    sin_poly = _fma_f32(_fma_f32(np.full_like(z, _SIN_POLY[0]), z, _SIN_POLY[1]), z, _SIN_POLY[2])
    sin_poly = _fma_f32(sin_poly * z, x, x)
    swap = (octant & 2) != 0  # octants 2-3 and 6-7 of the reduction swap sin and cos
    sin = np.where(swap, cos_poly, sin_poly)
    cos = np.where(swap, sin_poly, cos_poly)
    sin = np.where((octant & 4) != 0, -sin, sin)
    cos = np.where(((octant - 2) & 4) == 0, -cos, cos)
    return sin, cos


# ------------------------------------------------ Box-Muller, 16 at a time --

def _box_muller_16_f32(u, mean, std):
    """normal_fill_16_AVX2 over rows of 16 uniforms: the first 8 give the radius,
    the last 8 the angle; cos goes to the first half, sin to the second."""
    rows = u.reshape(-1, 16)
    radius = np.sqrt(f32(-2) * _avx2_log(f32(1) - rows[:, :8]))
    sin, cos = _avx2_sincos(f32(2 * math.pi) * rows[:, 8:])
    n1, n2 = radius * cos, radius * sin
    return np.concatenate([_fma_f32(n1, std, mean), _fma_f32(n2, std, mean)], 1).ravel()


def libm(fn, *arrays):
    """The C library's double fn (math.log, ...) element by element, as ATen's CPU kernels call it: numpy's own
    loops (AVX-512 ones on machines that have them) round some results otherwise in the last bit."""
    return np.frompyfunc(fn, len(arrays), 1)(*arrays).astype(np.float64)


def _box_muller_16_f64(u, mean, std):
    """normal_fill_16<double>: libm log/cos/sin."""
    rows = u.reshape(-1, 16)
    radius = np.sqrt(-2 * libm(math.log, 1 - rows[:, :8]))
    theta = 2.0 * math.pi * rows[:, 8:]
    normals = np.concatenate([radius * libm(math.cos, theta), radius * libm(math.sin, theta)], 1).ravel()
    return _scale_shift_f64(normals, std, mean)


# ------------------------------------------------------------- Generator --

_RANDOM_MODULUS = {  # Tensor.random_() with no bounds: word % modulus
    np.dtype(np.bool_): 2, np.dtype(np.uint8): 1 << 8, np.dtype(np.int8): 1 << 7,
    np.dtype(np.int16): 1 << 15, np.dtype(np.int32): 1 << 31,
    np.dtype(np.float32): (1 << 24) + 1,
}
_RANDOM64_MODULUS = {np.dtype(np.int64): 1 << 63, np.dtype(np.float64): (1 << 53) + 1}


_CHUNK = 1 << 14  # elements per Box-Muller batch (a multiple of 16)


def _numel(shape):
    return int(np.prod(shape, dtype=np.int64))


def _float_kind(np_dtype):
    """The dtype that samples are computed in: float16 and bfloat16 ones in float32, rounded at the end."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype.itemsize == 2 and np_dtype.name in ("float16", "bfloat16"):
        return np.dtype(f32)
    if np_dtype not in (np.dtype(f32), np.dtype(f64)):
        raise TypeError(f"minitorch2 random: unsupported floating dtype {np_dtype}")
    return np_dtype


class Generator:
    """Mirror of torch.Generator(device='cpu')."""

    def __init__(self, device="cpu"):
        if str(device) != "cpu":
            raise RuntimeError(f"minitorch2 only has CPU generators, got {device!r}")
        self.device = "cpu"
        self.manual_seed(DEFAULT_SEED)

    # ---- seeding and state

    def manual_seed(self, seed):
        seed = int(seed)
        if not -(1 << 63) <= seed < (1 << 64):
            raise RuntimeError("Overflow when unpacking long long")
        self._engine = _MT19937(seed % (1 << 64))
        self._next_double_normal = None  # Box-Muller's spare sample
        self._next_float_normal = None   # kept only so states round-trip
        return self

    def seed(self):
        seed = secrets.randbits(64)
        self.manual_seed(seed)
        return seed

    def initial_seed(self):
        return self._engine.seed

    def get_state(self):
        """The state as torch lays it out (CPUGeneratorImplState), a uint8 tensor of 5056 bytes."""
        from ._numpy_interop import from_numpy  # reason: tensors sit above this runtime layer (as in set_state)
        return from_numpy(self._state_bytes())

    def _state_bytes(self):
        e = self._engine
        buf = np.zeros(_STATE_BYTES, np.uint8)
        buf[0:8].view(np.uint64)[0] = e.seed
        buf[8:16].view(np.int32)[:] = (e.left, 1)
        buf[16:24].view(np.uint64)[0] = e.next
        buf[24:5016].view(np.uint64)[:] = e.state
        if self._next_double_normal is not None:
            buf[5024:5032].view(f64)[0] = self._next_double_normal
            buf[5040:5044].view(np.int32)[0] = 1
        if self._next_float_normal is not None:
            buf[5048:5052].view(f32)[0] = self._next_float_normal
            buf[5052] = 1
        return buf

    def set_state(self, state):
        if isinstance(state, np.ndarray):
            raise TypeError("expected a torch.ByteTensor, but got numpy.ndarray")
        from ._dtype import uint8  # reason: tensors and their dtypes sit above this runtime layer
        if getattr(state, "dtype", None) is not uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        buf = np.ascontiguousarray(state.numpy()).ravel()
        if buf.size != _STATE_BYTES:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_BYTES} but found the input RNG state "
                               f"size to be {buf.size}")
        left, seeded = (int(v) for v in buf[8:16].view(np.int32))
        nxt = int(buf[16:24].view(np.uint64)[0])
        if not (seeded and 0 < left <= _N and nxt <= _N):
            raise RuntimeError("Invalid mt19937 state")
        engine = _MT19937(0)
        engine.seed = int(buf[0:8].view(np.uint64)[0])
        engine.state = buf[24:5016].view(np.uint64).astype(np.uint32)
        engine.tempered = _temper(engine.state)
        engine.left, engine.next = left, nxt
        self._engine = engine
        valid = buf[5040:5044].view(np.int32)[0]
        self._next_double_normal = float(buf[5024:5032].view(f64)[0]) if valid else None
        self._next_float_normal = float(buf[5048:5052].view(f32)[0]) if buf[5052] else None
        return self

    # ---- uniform words turned into floats

    def _uniform_f32(self, n):
        # 24 random bits scaled by 2**-24: exact, in [0, 1)
        return (self._engine.words(n) & np.uint32(0xFFFFFF)).astype(f32) * f32(2.0 ** -24)

    def _uniform_f64(self, n):
        mantissa = self._engine.words64(n) & np.uint64((1 << 53) - 1)
        return mantissa.astype(f64) * 2.0 ** -53

    # ---- samplers

    def uniform(self, shape, np_dtype, low=0.0, high=1.0):
        """Tensor.uniform_(low, high): x * (high - low) + low as one fma."""
        half, (np_dtype, n) = np.dtype(np_dtype), (_float_kind(np_dtype), _numel(shape))
        if np_dtype == f32:
            low, high = f32(low), f32(high)
            x = self._uniform_f32(n)
            out = x if (low, high) == (0, 1) else _fma_f32(x, high - low, low)
        else:
            out = _scale_shift_f64(self._uniform_f64(n), float(high) - float(low), float(low))
        if half != np_dtype:  # a float32 sample that rounds up to `high` becomes `low`, as ATen's kernel keeps [low, high)
            out = out.astype(half)
            out[out == out.dtype.type(high)] = low
        return out.reshape(shape)

    def normal(self, shape, np_dtype, mean=0.0, std=1.0):
        """Tensor.normal_(mean, std). 16 or more elements: fill with uniforms, then
        Box-Muller in blocks of 16; a ragged tail redraws and redoes the last 16.
        Fewer: one double-precision Box-Muller pair per two samples, the spare
        cached in the generator (it survives other calls until the next seed).
        float16 / bfloat16: float32 samples, rounded."""
        half, (np_dtype, n) = np.dtype(np_dtype), (_float_kind(np_dtype), _numel(shape))
        if n < 16:
            return self._normal_scalar(n, float(mean), float(std)).astype(half).reshape(shape)
        ragged = n % 16 != 0
        if np_dtype == f32:
            if half == np_dtype:
                u = self._uniform_f32(n + 16 * ragged)
            else:  # 16-bit floats draw no uniforms for the ragged tail's first pass
                u = self._uniform_f32(n - n % 16 + 16 * ragged)
                u = np.concatenate([u[:n - n % 16], np.zeros(n % 16, f32), u[n - n % 16:]])
            fill, mean, std = _box_muller_16_f32, f32(mean), f32(std)
        else:
            u = self._uniform_f64(n + 16 * ragged)
            fill, mean, std = _box_muller_16_f64, float(mean), float(std)
        out = np.empty(n, np_dtype)
        full = n - n % 16
        for start in range(0, full, _CHUNK):  # cache-sized pieces: far faster
            stop = min(start + _CHUNK, full)
            out[start:stop] = fill(u[start:stop], mean, std)
        if ragged:
            out[n - 16:] = fill(u[n:], mean, std)
        return out.astype(half, copy=False).reshape(shape)

    def _normal_scalar(self, n, mean, std):
        """at::normal_distribution<double>, one sample at a time."""
        samples = np.empty(n, f64)
        for i in range(n):
            if self._next_double_normal is not None:
                samples[i], self._next_double_normal = self._next_double_normal, None
                continue
            u1, u2 = self._uniform_f64(2)
            radius = math.sqrt(-2.0 * math.log1p(-u2))
            theta = 2.0 * math.pi * u1
            self._next_double_normal = radius * math.sin(theta)
            samples[i] = radius * math.cos(theta)
        return _scale_shift_f64(samples, std, mean)

    def randint(self, low, high, shape, np_dtype=np.int64):
        """Tensor.random_(low, high): word % (high - low) + low. Ranges of 2**28 or
        more draw 64-bit words (torch's cap on modulo bias)."""
        span, n = int(high) - int(low), _numel(shape)
        if span <= 0:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        words = self._engine.words64(n) if span >= 1 << 28 else self._engine.words(n).astype(np.uint64)
        offsets = (words % np.uint64(span)).astype(np.int64)
        return (offsets + np.int64(low)).astype(np_dtype).reshape(shape)

    def random_(self, shape, np_dtype):
        """Tensor.random_() without bounds: [0, 2**mantissa] for floats, else [0, max]."""
        np_dtype, n = np.dtype(np_dtype), _numel(shape)
        if np_dtype in _RANDOM64_MODULUS:
            words = self._engine.words64(n) % np.uint64(_RANDOM64_MODULUS[np_dtype])
        elif np_dtype in _RANDOM_MODULUS:
            words = self._engine.words(n) % np.uint32(_RANDOM_MODULUS[np_dtype])
        else:
            raise TypeError(f"minitorch2 random_: unsupported dtype {np_dtype}")
        return words.astype(np_dtype).reshape(shape)

    def randperm(self, n, np_dtype=np.int64):
        """randperm on CPU: swap-with-random-later-slot Fisher-Yates for n below
        2**32 / 20 (32-bit words), else the inside-out variant on 64-bit words."""
        n = int(n)
        if n < 0xFFFFFFFF // 20:
            perm = list(range(n))
            if n > 1:
                remaining = np.arange(n, 1, -1, dtype=np.uint64)
                picks = (self._engine.words(n - 1) % remaining).tolist()
                for i, pick in enumerate(picks):
                    j = i + pick
                    perm[i], perm[j] = perm[j], perm[i]
        else:
            picks = (self._engine.words64(n) % np.arange(1, n + 1, dtype=np.uint64)).tolist()
            perm = [0] * n
            for i, z in enumerate(picks):
                perm[i], perm[z] = perm[z], i
        return np.fromiter(perm, np.int64, n).astype(np_dtype)

    def bernoulli_scalar(self, shape, np_dtype, p):
        """Tensor.bernoulli_(p) (and so dropout): double uniform < p. MKL's
        Intel-only path is not modelled; AMD and non-MKL builds use this one."""
        n = _numel(shape)
        return (self._uniform_f64(n) < float(p)).astype(np_dtype).reshape(shape)

    def bernoulli_tensor(self, probs, np_dtype):
        """torch.bernoulli(probs), probs consumed in C order: double probabilities
        compare against a double uniform, all others against a float one."""
        probs = np.asarray(probs)
        n = probs.size
        if probs.dtype == f64:
            hits = self._uniform_f64(n) < probs.ravel()
        else:
            hits = self._uniform_f32(n) < probs.astype(f32).ravel()
        return hits.astype(np_dtype).reshape(probs.shape)

    def exponential(self, shape, np_dtype, lambd=1.0):
        """Tensor.exponential_(lambd): -1/lambd * log1p(-u), u a double uniform."""
        n = _numel(shape)
        return ((-1.0 / float(lambd)) * libm(math.log1p, -self._uniform_f64(n))).astype(np_dtype).reshape(shape)


# ------------------------------------------------------- default generator --

default_generator = Generator()


def manual_seed(seed):
    return default_generator.manual_seed(seed)


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(state):
    default_generator.set_state(state)
