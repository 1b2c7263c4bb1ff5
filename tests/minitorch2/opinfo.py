"""The OpInfo table: sample inputs for every registered aten overload.

Each `OpInfo` names one overload (`"add.Tensor"`), the dtypes it is tested in,
and a sample generator. A generator receives a `Maker`, which builds argument
*recipes*: a `TensorArg` holds the values as a numpy array plus a layout
("contig", "T" transposed, "step" sliced with a step, "offset" with a storage
offset, "expand" with a zero stride). test_ops.py turns one recipe into a
minitorch2 tensor, a torch tensor and a torch meta tensor with the same
values, shape, strides and storage offset, runs `minitorch2.ops.aten.X.Y` and
`torch.ops.aten.X.Y` on them, and compares.

Known differences are listed in each entry's `xfails` with a reason; they run
as `xfail(strict=True)`, so fixing the bug turns the entry red until the xfail
is removed. Ops tested in another file are listed in COVERED_ELSEWHERE.
"""
import fnmatch
import zlib
from dataclasses import dataclass, field

import ml_dtypes  # noqa: F401  (registers numpy's "bfloat16" dtype name)
import numpy as np

FLOAT = ("float32", "float64", "float16")
FLOAT_LIKE = FLOAT + ("bfloat16",)  # the samples test_bfloat16_ops.py builds too
INT = ("int64", "int32")
ALL = FLOAT + INT + ("bool",)
NUMERIC = FLOAT + INT
GRAD_DTYPES = ("float32", "float64")
LINALG_DTYPES = ("float32", "float64")  # torch's CPU linalg has no float16 kernels

# Overloads whose tests live elsewhere (fnmatch patterns on "name.overload").
COVERED_ELSEWHERE = {
    # tests/nn/test_bags_sampling_ctc.py: embedding bags, grid sampling, affine grids, CTC through F and nn
    **{f"{name}.*": "nn ops" for name in (
        "_embedding_bag", "_embedding_bag_backward", "_embedding_bag_per_sample_weights_backward", "grid_sampler_2d",
        "grid_sampler_2d_backward", "affine_grid_generator", "affine_grid_generator_backward", "_ctc_loss",
        "_ctc_loss_backward")},
    # weight normalization's fused op and its backward: tests/backend/test_graph_fidelity_3.py (eager and compiled)
    "_weight_norm_interface*": "weight norm",
    # complex numbers: tests/minitorch2/test_complex.py (values, views, errors and gradients against torch's)
    **{f"{name}.*": "complex numbers" for name in (
        "view_as_real", "view_as_complex", "_conj", "conj_physical", "angle", "complex", "polar")},
    # torch.fft's ops: tests/minitorch2/test_fft.py (values, gradients and traced graphs through torch.fft)
    "_fft_c2c.*": "fft", "_fft_r2c.*": "fft", "_fft_c2r.*": "fft",
    # nn ops: tests/minitorch2/test_nn_ops.py
    "binary_cross_entropy*": "nn ops", "_adaptive_avg_pool2d*": "nn ops", "_native_batch_norm*": "nn ops",
    "_softmax.*": "nn ops", "_log_softmax.*": "nn ops", "_softmax_backward_data.*": "nn ops",
    "_log_softmax_backward_data.*": "nn ops", "nll_loss*": "nn ops", "native_layer_norm*": "nn ops",
    "convolution*": "nn ops", "*batch_norm*": "nn ops", "*pool2d*": "nn ops", "embedding*": "nn ops",
    "native_dropout*": "nn ops", "mse_loss*": "nn ops",
    # tests/autograd/test_functional_op_choices_s38.py: F.rrelu's op and its backward, seeded, values, gradients and
    # traced ops against torch's
    "rrelu_with_noise*": "rrelu",
    # tests/nn/test_attention_backend_choice.py: the fused CPU attention, its backward and _safe_softmax, values,
    # gradients, layouts and traced ops against torch's, through F.scaled_dot_product_attention and directly
    "_scaled_dot_product_flash_attention_for_cpu*": "attention", "_safe_softmax.*": "attention",
    # tests/nn/test_transformer_fastpath.py: the inference fast path's two ops, through the modules and directly
    "_native_multi_head_attention.*": "attention", "_transformer_encoder_layer_fwd.*": "attention",
    # tests/backend/test_sum_order_and_view_dtype.py: Tensor.view(dtype)'s bytes, geometry, errors and graphs
    "view.dtype": "views",
    # random ops: tests/minitorch2/test_random.py compares streams bit for bit
    "uniform_.*": "random ops", "normal_.*": "random ops", "random_.*": "random ops", "uniform.*": "random ops",
    "normal_functional.*": "random ops",
    # table_extra.py's random fills: tests/minitorch2/test_functions_extra.py compares their samples bit for bit
    **{f"{name}{form}.*": "random ops" for name in ("exponential", "geometric", "log_normal", "cauchy")
       for form in ("", "_")},
    "bernoulli.*": "random ops", "bernoulli_.*": "random ops", "randperm.*": "random ops",
    # tests/frontend/test_misc_fidelity.py: x & True, 3 | y, x ^= 1 through make_fx, aot and compiled graphs
    **{f"{name}{form}.Scalar*": "bitwise with a number" for name in ("bitwise_and", "bitwise_or", "bitwise_xor")
       for form in ("", "_")},
    # random factories: tests/minitorch2/test_factories.py compares their values with torch's, seeded
    "rand.*": "random factories", "randn.*": "random factories", "randint.*": "random factories",
    "rand_like.*": "random factories", "randn_like.*": "random factories", "randint_like.*": "random factories",
    "normal.float_float": "random factories",
    # tests/minitorch2/test_more_ops.py: multinomial's samples against torch's, seeded; log_sigmoid and the
    # upsampling ops through F.logsigmoid and F.interpolate, values and gradients
    "multinomial.*": "random ops", "log_sigmoid*": "nn ops", "upsample_*": "nn ops",
    # tests/nn/test_vision_kernels_s36.py: nearest-exact, the antialiased modes and 5-d grid sampling through
    # F.interpolate and F.grid_sample, values, gradients and traced ops against torch's
    "_upsample_*": "vision kernels", "grid_sampler_3d*": "vision kernels",
    "reflection_pad*": "vision kernels", "replication_pad*": "vision kernels",
    # tests/minitorch2/test_common_ops.py: the commonly used ops of table_more.py, values, errors, gradients,
    # traced ops and compiled results against torch
    **{f"{name}.*": "common ops" for name in (
        "frac", "erfinv", "lgamma", "digamma", "polygamma", "signbit", "logit", "logit_backward", "nan_to_num",
        "logaddexp", "hypot", "xlogy", "heaviside", "abs_", "log_", "logical_not_", "addmm_", "linalg_vector_norm",
        "nansum", "count_nonzero", "trace", "std_mean", "median", "kthvalue", "cummax", "cummin", "unfold",
        "unfold_backward", "rot90", "diagonal_copy", "diag_embed", "_cdist_forward", "_cdist_backward",
        "masked_select", "_unique2", "bincount", "repeat_interleave", "isin", "searchsorted", "bucketize",
        "tril_indices", "triu_indices")},
    # tests/minitorch2/test_nn_level_names.py: unique along a dim and unique_consecutive, values against torch's
    "unique_dim.*": "common ops", "unique_consecutive.*": "common ops",
    # a graph's torch._check: tests/frontend/test_float_inputs_and_checks.py runs it and compares its message
    "_assert_scalar.*": "runtime assertions",
    # F.one_hot's class checks in a traced graph: tests/nn/test_probe3_programs.py raises and compares with torch's
    "_assert_async.msg": "runtime assertions",
    # tests/nn/test_special_linalg_pool3d.py: torch.special's functions, torch.linalg's and the older LU forms, the
    # incomplete gammas and the 3-d pooling ops, through their functions and modules: values, gradients and traced
    # graphs against torch's
    **{f"special_{name}.*": "special, linalg, 3-d pooling" for name in (
        "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t",
        "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w", "erfcx", "hermite_polynomial_h",
        "hermite_polynomial_he", "i0e", "i1e", "laguerre_polynomial_l", "legendre_polynomial_p", "log_ndtr",
        "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
        "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "shifted_chebyshev_polynomial_t",
        "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w",
        "spherical_bessel_j0", "xlog1py", "zeta")},
    **{f"{name}.*": "special, linalg, 3-d pooling" for name in (
        "_adaptive_avg_pool3d", "_adaptive_avg_pool3d_backward", "_linalg_check_errors", "adaptive_max_pool3d",
        "adaptive_max_pool3d_backward", "avg_pool3d", "avg_pool3d_backward", "cholesky_inverse", "cholesky_solve",
        "fractional_max_pool3d", "fractional_max_pool3d_backward", "igamma", "igamma_", "igammac", "igammac_",
        "linalg_eig", "linalg_householder_product", "linalg_lu", "linalg_lu_factor_ex", "linalg_lu_solve",
        "linalg_solve_triangular", "lu_unpack", "max_pool3d_with_indices", "max_pool3d_with_indices_backward",
        "max_unpool3d", "mvlgamma", "mvlgamma_", "triangular_solve")},
}


def covered_elsewhere(name):
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in COVERED_ELSEWHERE)


# ---------------------------------------------------------------- argument recipes
class TensorArg:
    """Values (a numpy array in the final shape) and the layout to build them with."""

    def __init__(self, array, layout="contig"):
        self.array = array
        self.layout = layout

    @property
    def dtype(self):
        return _DTYPE_NAMES[self.array.dtype]

    @property
    def shape(self):
        return self.array.shape

    def base(self):
        """The contiguous array the layout's view is taken of."""
        a = self.array
        if self.layout == "contig":
            return a
        if self.layout == "T":
            return np.ascontiguousarray(np.swapaxes(a, -1, -2))
        if self.layout == "step":
            base = np.full(a.shape[:-1] + (2 * a.shape[-1],), _junk(a.dtype), a.dtype)
            base[..., ::2] = a
            return base
        if self.layout == "offset":
            junk = np.full((1,) + a.shape[1:], _junk(a.dtype), a.dtype)
            return np.concatenate([junk, a])
        if self.layout == "expand":
            return np.ascontiguousarray(a[:1])
        raise ValueError(self.layout)

    def apply_layout(self, t):
        if self.layout == "T":
            return t.transpose(-1, -2)
        if self.layout == "step":
            return t[..., ::2]
        if self.layout == "offset":
            return t[1:]
        if self.layout == "expand":
            return t.expand(*self.array.shape)
        return t

    def __repr__(self):
        layout = "" if self.layout == "contig" else f"/{self.layout}"
        return f"T{list(self.array.shape)}:{self.dtype}{layout}"


def _junk(np_dtype):
    return True if np_dtype == np.bool_ else 99


class DT:
    """A dtype argument, built as `getattr(lib, name)`."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


class MemoryFormat(DT):
    pass


_DTYPE_NAMES = {np.dtype(n): n for n in ("float32", "float64", "float16", "bfloat16", "int64", "int32", "bool")}


@dataclass
class Sample:
    args: tuple
    kwargs: dict = field(default_factory=dict)
    grad: bool = True  # False: left out of the gradient check (a known bug tested on its own)

    def __repr__(self):
        kw = "".join(f", {k}={v!r}" for k, v in self.kwargs.items())
        return f"({', '.join(map(repr, self.args))}{kw})"


def S(*args, **kwargs):
    return Sample(args, kwargs)


class Maker:
    """Builds recipes with the test's dtype and a seeded generator."""

    def __init__(self, dtype, seed):
        self.dtype = dtype
        self.rng = np.random.default_rng(seed)

    @property
    def is_float(self):
        return self.dtype in FLOAT_LIKE

    @property
    def is_bool(self):
        return self.dtype == "bool"

    def t(self, shape, layout="contig", *, dtype=None, low=-3.0, high=3.0, nonzero=False, special=False, values=None):
        dtype = dtype or self.dtype
        shape = tuple(shape)
        if values is not None:
            array = np.array(values, dtype=dtype).reshape(shape)
        elif layout == "expand":
            row = self._random((1,) + shape[1:], dtype, low, high, nonzero)
            array = np.ascontiguousarray(np.broadcast_to(row, shape))
        else:
            array = self._random(shape, dtype, low, high, nonzero)
        if special and dtype in FLOAT_LIKE and array.size >= 3:
            flat = array.reshape(-1)
            flat[:3] = [np.nan, np.inf, -np.inf]
            self.rng.shuffle(flat)
        return TensorArg(array, layout)

    def _random(self, shape, dtype, low, high, nonzero):
        if dtype == "bool":
            values = np.asarray(self.rng.random(shape) < 0.5)
            return np.ones(shape, bool) if nonzero else values
        if dtype in FLOAT_LIKE:
            values = self.rng.uniform(low, high, shape)
            if nonzero:
                magnitude = np.maximum(np.abs(values), 0.5)
                values = np.where(values < 0, -magnitude, magnitude)
            return values.astype(dtype)
        lo, hi = int(np.floor(low)), int(np.ceil(high))
        values = self.rng.integers(lo, hi + 1, shape)
        if nonzero:
            values = np.where(values == 0, 1, values)
        return values.astype(dtype)

    def index(self, shape, size, *, dtype="int64", unique=False, negative=False):
        """An index tensor with values in [0, size) (or [-size, size) when `negative`)."""
        n = int(np.prod(shape))
        if unique:
            values = self.rng.permutation(size)[:n]
        else:
            values = self.rng.integers(-size if negative else 0, size, n)
        return TensorArg(np.asarray(values, dtype=dtype).reshape(shape))

    def mask(self, shape, layout="contig"):
        return self.t(shape, layout, dtype="bool")

    def scalars(self):
        """Python scalars to pair with a tensor of this dtype, across promotion categories."""
        if self.is_float:
            return [2.5, -2, True]
        if self.is_bool:
            return [True, 2, 1.5]
        return [3, -2, 1.5]

    def dt(self, name=None):
        return DT(name or self.dtype)


# ---------------------------------------------------------------- OpInfo
@dataclass
class XFail:
    kind: str  # "values", "meta", "grad" or "grad_mixed"
    reason: str
    dtypes: tuple = ALL


@dataclass
class OpInfo:
    name: str
    samples: object
    dtypes: tuple = ALL
    grad: bool = True  # differentiable (tested in GRAD_DTYPES that are in `dtypes`)
    grad_dtypes: tuple = GRAD_DTYPES
    values: bool = True  # False: outputs are uninitialised memory (empty, new_empty)
    meta: bool = True
    factory: bool = False  # no tensor inputs: torch's meta run gets device="meta"
    xfails: list = field(default_factory=list)

    def make_samples(self, dtype):
        m = Maker(dtype, zlib.crc32(f"{self.name}-{dtype}".encode()))
        return list(self.samples(m))

    def xfail(self, kind, dtype):
        for x in self.xfails:
            if x.kind == kind and dtype in x.dtypes:
                return x.reason
        return None


# ---------------------------------------------------------------- sample generators
LAYOUT_SHAPES = [((3, 4), "contig"), ((), "contig"), ((0,), "contig"), ((2, 3, 4), "T"), ((3, 4), "step"),
                 ((3, 4), "offset"), ((2, 3), "expand"), ((1, 5), "contig"), ((2, 1, 3), "T"), ((3, 1), "T")]


def unary(low=-3.0, high=3.0, special=False):
    def gen(m):
        for shape, layout in LAYOUT_SHAPES:
            yield S(m.t(shape, layout, low=low, high=high))
        if special:
            yield S(m.t((4, 3), special=True, low=low, high=high))

    return gen


def _partners(dtype):
    return {"float32": ("float64", "int64"), "float64": ("float32", "int32"), "float16": ("float32", "bool"),
            "bfloat16": ("float16", "int32"),
            "int64": ("int32", "float32"), "int32": ("int64", "float16"), "bool": ("int32", "float64")}[dtype]


def binary(low=-3.0, high=3.0, rlow=None, rhigh=None, nonzero=False, scalar=False, mixed=True):
    rlow = low if rlow is None else rlow
    rhigh = high if rhigh is None else rhigh

    def gen(m):
        def a(shape, layout="contig", **kw):
            return m.t(shape, layout, low=low, high=high, **kw)

        def b(shape, layout="contig", **kw):
            return m.t(shape, layout, low=rlow, high=rhigh, nonzero=nonzero, **kw)

        yield S(a((3, 4)), b((3, 4)))
        yield S(a((2, 3, 4)), b((4,)))
        yield S(a((3, 1)), b((1, 4)))
        yield S(a(()), b((2, 3)))
        yield S(a((2, 3)), b(()))
        yield S(a(()), b(()))
        yield S(a((0, 3)), b((3,)))
        yield S(a((4, 3), "T"), b((4, 3)))
        yield S(a((3, 4), "step"), b((3, 4), "T"))
        yield S(a((2, 3, 4), "T"), b((2, 3, 4), "T"))
        yield S(a((3, 4), "offset"), b((4,), "step"))
        yield S(a((3, 4), "expand"), b((3, 4)))
        yield S(a((3, 4)), b((3, 4), "expand"))
        if mixed:
            p0, p1 = _partners(m.dtype)
            yield S(a((2, 3)), b((2, 3), dtype=p0))
            yield S(a((2, 3)), b((), dtype=p1))
            yield S(a((), dtype=p0), b((2, 3)))
        if scalar:
            for s in m.scalars():
                if not (nonzero and not s):
                    yield S(a((2, 3)), s)

    return gen


def binary_scalar(low=-3.0, high=3.0, nonzero=False, alpha=False):
    def gen(m):
        for i, s in enumerate(m.scalars()):
            if nonzero and s in (0, False):
                continue
            shape, layout = LAYOUT_SHAPES[i % len(LAYOUT_SHAPES)]
            yield S(m.t((3, 4), low=low, high=high), s)
            yield S(m.t(shape, layout, low=low, high=high), s)
            if alpha:
                yield S(m.t((2, 3), "T", low=low, high=high), s, 2 if not m.is_float else 0.5)

    return gen


def with_kwargs(gen, **kwargs):
    def wrapped(m):
        for s in gen(m):
            yield Sample(s.args, {**s.kwargs, **kwargs})

    return wrapped


def chain(*gens):
    def gen(m):
        for g in gens:
            yield from g(m)

    return gen


def alpha_samples(m, low=-3.0, high=3.0):
    alpha = 2 if not m.is_float else 0.5
    yield S(m.t((3, 4), low=low, high=high), m.t((4,), low=low, high=high), alpha=alpha)
    yield S(m.t((2, 3), "T", low=low, high=high), m.t((), low=low, high=high), alpha=-1)


def pow_tensor_tensor(m):
    if m.is_float:
        yield from binary(low=0.5, high=2.0, rlow=-2.0, rhigh=2.0, mixed=False)(m)
    else:
        yield from binary(low=-3, high=3, rlow=0, rhigh=3, mixed=False)(m)
    yield S(m.t((2, 3), low=1, high=3), m.t((2, 3), dtype="float32", low=-1, high=2))
    yield S(m.t((2, 3), low=1, high=3), m.t((), dtype="float64", low=0, high=2))


def pow_tensor_scalar(m):
    low = 0.5 if m.is_float else -3
    for exponent in (2, 3, 0, 1, 0.5, -1, 2.5, -2):
        if not m.is_float and isinstance(exponent, int) and exponent < 0:
            continue
        yield S(m.t((3, 4), low=max(low, 0.5) if not isinstance(exponent, int) else low, high=3), exponent)
    yield S(m.t((2, 3, 4), "T", low=low, high=3), 2)
    yield S(m.t((3, 1), "T", low=low, high=3), 2)
    yield S(m.t((), low=low, high=3), 3)
    yield S(m.t((0, 2), low=low, high=3), 2)


def pow_scalar(m):
    low = -2 if m.is_float else 0
    for base in (2, 0.5, 3.0, True):
        yield S(base, m.t((3, 4), low=low, high=2))
    yield S(2.5, m.t((2, 3), "T", low=low, high=2))
    yield S(2, m.t((), low=low, high=2))


def remainder_scalar_tensor(m):
    """`number % tensor`: the divisor is the tensor (kept nonzero), the dividend a Python number."""
    for i, value in enumerate((7, -3, 2.5, True)):
        shape, layout = LAYOUT_SHAPES[i % len(LAYOUT_SHAPES)]
        yield S(value, m.t(shape, layout, nonzero=True))
    yield S(5, m.t((2, 3, 4), "T", nonzero=True))


def lerp_samples(m):
    for weight in (0.25, 2, -0.5):
        yield S(m.t((3, 4)), m.t((3, 4)), weight)
    yield S(m.t((2, 3, 4), "T"), m.t((4,)), 0.5)
    yield S(m.t((3, 1)), m.t((1, 4)), 0.75)
    yield S(m.t(()), m.t(()), 0.3)
    yield S(m.t((3, 4), "step"), m.t((3, 4), "offset"), 0.3)


def lerp_tensor_samples(m):
    """A tensor weight: of the inputs' shape, broadcast, 0-d, permuted."""
    yield S(m.t((3, 4)), m.t((3, 4)), m.t((3, 4)))
    yield S(m.t((3, 4)), m.t((3, 4)), m.t((4,)))
    yield S(m.t((2, 3, 4), "T"), m.t((4,)), m.t(()))
    yield S(m.t((3, 4), "step"), m.t((3, 4), "offset"), m.t((3, 1)))


def addc_samples(nonzero):
    def gen(m):
        t2 = dict(nonzero=nonzero)
        yield S(m.t((3, 4)), m.t((3, 4)), m.t((3, 4), **t2))
        yield S(m.t((3, 4)), m.t((3, 1)), m.t((1, 4), **t2), value=0.5 if m.is_float else 2)
        yield S(m.t((2, 3), "T"), m.t(()), m.t((2, 3), "step", **t2), value=-2)
        yield S(m.t(()), m.t(()), m.t((), **t2))
        yield S(m.t((4,)), m.t((3, 4), "offset"), m.t((4,), **t2))

    return gen


def where_samples(m):
    yield S(m.mask((3, 4)), m.t((3, 4)), m.t((3, 4)))
    yield S(m.mask((3, 1)), m.t((1, 4)), m.t((3, 4), "T"))
    yield S(m.mask(()), m.t((2, 3)), m.t(()))
    yield S(m.mask((2, 3, 4)), m.t((2, 3, 4), "T"), m.t((4,), "step"))
    yield S(m.mask((0, 2)), m.t((0, 2)), m.t((2,)))
    p0, p1 = _partners(m.dtype)
    yield S(m.mask((2, 3)), m.t((2, 3)), m.t((2, 3), dtype=p0))
    yield S(m.mask((2, 3)), m.t((2, 3)), m.t((), dtype=p1))
    yield S(m.t((2, 3), dtype="int64", low=0, high=1), m.t((2, 3)), m.t((2, 3)))


def clamp_samples(m):
    lo, hi = (-1.5, 1.25) if m.is_float else (-1, 2)
    if m.is_bool:
        lo, hi = False, True
    yield S(m.t((3, 4)), lo, hi)
    yield S(m.t((3, 4), "T"), lo)
    yield S(m.t((2, 3, 4), "step"), None, hi)
    yield S(m.t(()), lo, hi)
    yield S(m.t((0, 3)), lo, hi)
    yield S(m.t((3, 4)), 0.5, 2.5)
    yield S(m.t((3, 4)), 2, 1)


def clamp_tensor_samples(m):
    yield S(m.t((3, 4)), m.t((3, 4), low=-3, high=0), m.t((3, 4), low=0, high=3))
    yield S(m.t((3, 4), "T"), m.t((4,), low=-3, high=0))
    yield S(m.t((2, 3, 4)), None, m.t((3, 1), low=-1, high=1))
    yield S(m.t(()), m.t((2, 3), low=-1, high=0), m.t((), low=0, high=1))
    p0, _ = _partners(m.dtype)
    yield S(m.t((2, 3)), m.t((2, 3), dtype=p0, low=-1, high=0), None)


def clamp_min_tensor_samples(m):
    yield S(m.t((3, 4)), m.t((3, 4), low=-1, high=1))
    yield S(m.t((3, 4), "T"), m.t((4,), low=-1, high=1))
    yield S(m.t((2, 3, 4), "step"), m.t((), low=-1, high=1))
    yield S(m.t(()), m.t((), low=-1, high=1))


def clamp_bound_samples(bound):
    def gen(m):
        values = (-1.5, 0.25, 2) if m.is_float else ((-1, 1, 2.5) if not m.is_bool else (False, True, 0.5))
        shapes = [((3, 4), "contig"), ((2, 3, 4), "T"), ((), "contig"), ((3, 4), "step")]
        for v, (shape, layout) in zip(values * 2, shapes):
            yield S(m.t(shape, layout), v)

    return gen


def masked_fill_samples(tensor_value):
    def gen(m):
        value = {"float32": -1.5, "float64": 2.25, "float16": 0.5, "bfloat16": 0.75, "int64": 7, "int32": -4, "bool": True}[m.dtype]
        def v(val, dtype=None):
            return m.t((), values=val, dtype=dtype) if tensor_value else val
        yield S(m.t((3, 4)), m.mask((3, 4)), v(value))
        yield S(m.t((3, 4), "T"), m.mask((4,)), v(value))
        yield S(m.t((2, 3, 4), "step"), m.mask((3, 1)), v(value))
        yield S(m.t(()), m.mask(()), v(value))
        yield S(m.t((0, 3)), m.mask((3,)), v(value))
        yield S(m.t((2, 3)), m.mask((2, 3)), v(1.5, "float64") if tensor_value else 1)
        yield S(m.t((2, 3)), m.mask((2, 3)), v(3, "int64") if tensor_value else True)

    return gen


def threshold_samples(m):
    yield S(m.t((3, 4)), 0.5, -2.0)
    yield S(m.t((2, 3, 4), "T"), 0, 0)
    yield S(m.t(()), -1, 3)
    yield S(m.t((3, 4), "step"), 1, 10)
    yield S(m.t((0, 2)), 0, 0)


def grad_and_input(extra=(), low=-3.0, high=3.0, kwargs_list=({},)):
    """(grad_output, x, *extra) samples, as the *_backward ops take."""

    def gen(m):
        shapes = [((3, 4), "contig", "contig"), ((2, 3, 4), "contig", "T"), ((), "contig", "contig"),
                  ((3, 4), "T", "step"), ((0, 2), "contig", "contig")]
        for i, (shape, lg, lx) in enumerate(shapes):
            yield Sample((m.t(shape, lg), m.t(shape, lx, low=low, high=high), *extra), dict(kwargs_list[i % len(kwargs_list)]))

    return gen


def prelu_samples(backward):
    """(x, weight) as F.prelu hands them to _prelu_kernel (the weight viewed over dim 1), a grad first for the
    backward op."""
    def gen(m):
        for shape, weight_shape, layout in [((3, 4), (1, 4), "contig"), ((2, 3, 4), (1, 3, 1), "T"), ((), (), "contig"),
                                            ((2, 5), (1, 1), "step"), ((0, 2), (1, 2), "contig")]:
            inputs = (m.t(shape, layout), m.t(weight_shape, "contig"))
            yield Sample((m.t(shape, "contig"), *inputs) if backward else inputs, {})

    return gen


def im2col_samples(m):
    """(input, kernel, dilation, padding, stride) as F.unfold passes them, batched and not."""
    yield S(m.t((2, 3, 5, 4)), [2, 2], [1, 1], [0, 0], [1, 1])
    yield S(m.t((2, 3, 9, 8), "T"), [3, 3], [2, 2], [1, 1], [2, 2])
    yield S(m.t((3, 5, 7)), [2, 3], [1, 1], [1, 0], [1, 2])


def col2im_samples(m):
    """(columns, output size, kernel, dilation, padding, stride) as F.fold passes them, batched and not."""
    yield S(m.t((2, 12, 12)), [5, 4], [2, 2], [1, 1], [0, 0], [1, 1])
    yield S(m.t((2, 27, 12), "step"), [9, 8], [3, 3], [2, 2], [1, 1], [2, 2])
    yield S(m.t((6, 18)), [5, 7], [2, 3], [1, 1], [1, 0], [1, 2])


def activation_samples(*extras, kwargs_list=({},)):
    def gen(m):
        for i, (shape, layout) in enumerate(LAYOUT_SHAPES):
            extra = extras[i % len(extras)] if extras else ()
            yield Sample((m.t(shape, layout), *extra), dict(kwargs_list[i % len(kwargs_list)]))

    return gen


def sigmoid_backward_samples(m):
    for shape, lg, lo in [((3, 4), "contig", "contig"), ((2, 3, 4), "T", "contig"), ((), "contig", "contig"),
                          ((3, 4), "step", "offset")]:
        yield S(m.t(shape, lg), m.t(shape, lo, low=0.05, high=0.95))


def tanh_backward_samples(m):
    for shape, lg, lo in [((3, 4), "contig", "contig"), ((2, 3, 4), "T", "contig"), ((), "contig", "contig"),
                          ((3, 4), "step", "offset")]:
        yield S(m.t(shape, lg), m.t(shape, lo, low=-0.95, high=0.95))


# ---------------------------------------------------------------- in-place
def inplace_binary(low=-3.0, high=3.0, nonzero=False, scalar_other=False, alpha=False):
    """Samples for `op_(self, other)`: `self` already has the broadcast shape."""

    def gen(m):
        def a(shape, layout="contig"):
            return m.t(shape, layout, low=low, high=high)

        def b(shape, layout="contig", **kw):
            return m.t(shape, layout, low=low, high=high, nonzero=nonzero, **kw)

        if scalar_other:
            for s in m.scalars():
                yield S(a((3, 4)), s)
                yield S(a((2, 3, 4), "T"), s)
            yield S(a(()), m.scalars()[0])
            if alpha:
                yield S(a((3, 4), "step"), m.scalars()[0], 2)
            return
        yield S(a((3, 4)), b((3, 4)))
        yield S(a((2, 3, 4), "T"), b((4,)))
        yield S(a((3, 4), "step"), b((3, 1), "contig"))
        yield S(a((3, 4), "offset"), b(()))
        yield S(a(()), b(()))
        yield S(a((0, 3)), b((3,)))
        yield S(a((3, 1)), b((3, 4)))  # does not fit self: an error in both
        p0, p1 = _partners(m.dtype)
        yield S(a((2, 3)), b((2, 3), dtype=p0))
        yield S(a((2, 3)), b((), dtype=p1))
        if alpha:
            yield S(a((3, 4)), b((4,)), alpha=2 if not m.is_float else 0.5)

    return gen


def inplace_unary(low=-3.0, high=3.0):
    def gen(m):
        for shape, layout in [((3, 4), "contig"), ((), "contig"), ((0,), "contig"), ((2, 3, 4), "T"), ((3, 4), "step"),
                              ((3, 4), "offset")]:
            yield S(m.t(shape, layout, low=low, high=high))

    return gen


def inplace_with(gen_fn):
    """In-place form of a generator whose first argument is `self` (drop samples that broadcast self)."""

    def gen(m):
        for s in gen_fn(m):
            if s.args[0].layout != "expand":
                yield s

    return gen


def copy_samples(m):
    yield S(m.t((3, 4)), m.t((3, 4), "T"))
    yield S(m.t((3, 4), "T"), m.t((4,)))
    yield S(m.t((2, 3, 4), "step"), m.t((3, 1), "offset"))
    yield S(m.t(()), m.t(()))
    yield S(m.t((0, 3)), m.t((3,)))
    p0, p1 = _partners(m.dtype)
    yield S(m.t((2, 3)), m.t((2, 3), dtype=p0))
    yield S(m.t((2, 3)), m.t((), dtype=p1))
    yield S(m.t((2, 3)), m.t((3, 3)))  # shape mismatch: an error in both


def fill_scalar_samples(m):
    for i, v in enumerate(m.scalars()):
        shape, layout = [((3, 4), "contig"), ((2, 3, 4), "T"), ((3, 4), "step")][i]
        yield S(m.t(shape, layout), v)
    yield S(m.t(()), m.scalars()[0])
    yield S(m.t((0, 2)), m.scalars()[0])


def fill_tensor_samples(m):
    p0, p1 = _partners(m.dtype)
    yield S(m.t((3, 4)), m.t(()))
    yield S(m.t((2, 3, 4), "T"), m.t((), dtype=p0))
    yield S(m.t((3, 4), "step"), m.t((), dtype=p1))
    yield S(m.t(()), m.t(()))
    yield S(m.t((2, 3)), m.t((3,)))  # a 1-d value: an error in both


# ---------------------------------------------------------------- reductions
def reduction_dim_samples(keepdim=True, allow_empty=True, dtype_kw=False):
    def gen(m):
        yield S(m.t((3, 4, 5)), [1])
        yield S(m.t((3, 4, 5)), [0, 2])
        yield S(m.t((3, 4, 5)), [-1], True)
        yield S(m.t((4, 3), "T"), [0], True)
        yield S(m.t((3, 4), "step"), [1])
        yield S(m.t((3, 4), "offset"), None)
        yield S(m.t(()), [0])
        yield S(m.t(()), None, True)
        yield S(m.t((2, 3), "expand"), [0])
        if allow_empty:
            yield S(m.t((0, 3)), [0])
            yield S(m.t((0, 3)), [1], True)
        if dtype_kw:
            yield S(m.t((3, 4)), [1], dtype=DT("float64"))
            yield S(m.t((3, 4)), [0], dtype=DT("int64") if not m.is_float else DT("float32"))

    return gen


def norm_scalar_samples(m):
    """Tensor.norm(p) of a whole tensor (aten.norm.Scalar, which weight_norm's composite calls)."""
    yield S(m.t((3, 4)))
    yield S(m.t((2, 3, 4), "T"), 2)
    yield S(m.t((3, 4), "step"), 1)
    yield S(m.t((2, 3), "expand"), 3)
    yield S(m.t(()), 2)


def norm_dims_samples(m):
    """Tensor.norm(p, dim) (aten.norm.ScalarOpt_dim, which pairwise_distance's composite calls)."""
    yield S(m.t((3, 4)), 2, [1])
    yield S(m.t((2, 3, 4), "T"), None, [0, 2], True)
    yield S(m.t((3, 4), "step"), 1, [-1])
    yield S(m.t((2, 3), "expand"), 3, [0], False)
    yield S(m.t(()), 2, [-1])


def reduction_full_samples(allow_empty=True, dtype_kw=False):
    def gen(m):
        yield S(m.t((3, 4)))
        yield S(m.t((2, 3, 4), "T"))
        yield S(m.t((3, 4), "step"))
        yield S(m.t(()))
        yield S(m.t((2, 3), "expand"))
        if allow_empty:
            yield S(m.t((0, 3)))
        if dtype_kw:
            yield S(m.t((3, 4)), dtype=DT("float64"))
            yield S(m.t((3, 4)), dtype=DT("int64") if not m.is_float else DT("float32"))

    return gen


def prod_samples(m):
    for s in reduction_full_samples(dtype_kw=True)(m):
        if s.args[0].shape != () and s.args[0].shape != (0, 3):
            s.args = (m.t(s.args[0].shape, s.args[0].layout, low=0.5, high=1.5) if m.is_float else
                      m.t(s.args[0].shape, s.args[0].layout, low=-2, high=2),)
        yield s


def amax_samples(m):
    yield S(m.t((3, 4, 5)), [1])
    yield S(m.t((3, 4, 5)), [0, 2], True)
    yield S(m.t((4, 3), "T"), [-1])
    yield S(m.t((3, 4), "step"))
    yield S(m.t((3, 4), "offset"), [0], True)
    yield S(m.t(()), [0])
    yield S(m.t(()))
    yield S(m.t((0, 3)), [1])
    yield S(m.t((0, 3)), [0])  # reducing an empty dim: an error in both
    if m.is_float:
        yield S(m.t((3, 4), special=True), [1])


def max_dim_samples(m):
    yield S(m.t((3, 4, 5)), 1)
    yield S(m.t((3, 4, 5)), -1, True)
    yield S(m.t((4, 3), "T"), 0)
    yield S(m.t((3, 4), "step"), 1, True)
    yield S(m.t(()), 0)
    yield S(m.t(()), -1, True)
    yield S(m.t((0, 3)), 1)
    if m.is_float:
        yield S(m.t((3, 4), special=True), 1)


def argmax_samples(m):
    yield S(m.t((3, 4, 5)))
    yield S(m.t((3, 4, 5)), 1)
    yield S(m.t((3, 4, 5)), -1, True)
    yield S(m.t((4, 3), "T"), 0)
    yield S(m.t((3, 4), "step"), None, True)
    yield S(m.t(()))
    yield S(m.t(()), 0, True)
    yield S(m.t((0, 3)), 1)
    if m.is_float:
        yield S(m.t((3, 4), special=True), 1)


def var_samples(m):
    yield S(m.t((3, 4, 5)))
    yield S(m.t((3, 4, 5)), [1])
    yield S(m.t((3, 4, 5)), [0, 2], correction=0)
    yield S(m.t((3, 4, 5)), [-1], correction=2, keepdim=True)
    yield S(m.t((4, 3), "T"), [0], keepdim=True)
    yield S(m.t((3, 4), "step"), None, correction=0.5)
    yield S(m.t((3, 4), "offset"), [1])
    yield S(m.t(()), None, correction=0)
    yield S(m.t((2, 3), "expand"), [0])


def logsumexp_samples(m):
    yield S(m.t((3, 4, 5)), [1])
    yield S(m.t((3, 4, 5)), [0, 2], True)
    yield S(m.t((4, 3), "T"), [-1])
    yield S(m.t((3, 4), "step"), [0], True)
    yield S(m.t(()), [0])
    yield S(m.t((0, 3)), [1])
    yield S(m.t((3, 4), low=50, high=80), [1])


def cumsum_samples(m):
    yield S(m.t((3, 4)), 1)
    yield S(m.t((3, 4)), 0)
    yield S(m.t((2, 3, 4), "T"), -1)
    yield S(m.t((3, 4), "step"), 0)
    yield S(m.t(()), 0)
    yield S(m.t((0, 3)), 0)
    yield S(m.t((3, 4)), 1, dtype=DT("float64"))
    if not m.is_float:
        yield S(m.t((3, 4)), 1, dtype=DT("int32"))


def any_all_full(m):
    yield S(m.t((3, 4), low=0, high=1))
    yield S(m.t((2, 3, 4), "T", low=0, high=1))
    yield S(m.t((3, 4), "step"))
    yield S(m.t(()))
    yield S(m.t((0, 3)))
    yield S(m.t((3, 4), values=np.ones((3, 4))))
    yield S(m.t((3, 4), values=np.zeros((3, 4))))


def any_all_dim(m):
    yield S(m.t((3, 4, 5), low=0, high=1), 1)
    yield S(m.t((3, 4, 5), low=0, high=1), -1, True)
    yield S(m.t((4, 3), "T", low=0, high=1), 0)
    yield S(m.t(()), 0)
    yield S(m.t((0, 3)), 1, True)


def pixel_shuffle_samples(m):
    yield S(m.t((2, 8, 3, 3)), 2)
    yield S(m.t((8, 2, 3)), 2)
    yield S(m.t((1, 2, 9, 2, 2)), 3)


def native_group_norm_samples(m):
    yield S(m.t((2, 6, 3, 4)), m.t((6,)), m.t((6,)), 2, 6, 12, 3, 1e-5)
    yield S(m.t((3, 4, 5), "T"), None, m.t((4,)), 3, 4, 5, 2, 1e-3)
    yield S(m.t((2, 4)), None, None, 2, 4, 1, 1, 1e-5)
    yield S(m.t((0, 4, 3)), m.t((4,)), None, 0, 4, 3, 2, 1e-5)


def native_group_norm_backward_samples(m):
    for x, w, n, c, hxw, group in (((2, 6, 3, 4), (6,), 2, 6, 12, 3), ((3, 4, 5), None, 3, 4, 5, 2)):
        yield S(m.t(x), m.t(x), m.t((n, group)), m.t((n, group), low=0.5, high=2), None if w is None else m.t(w),
                n, c, hxw, group, [True, w is not None, w is not None])


def pixel_unshuffle_samples(m):
    yield S(m.t((2, 2, 6, 6)), 2)
    yield S(m.t((2, 6, 3)), 3)


def any_all_dims(m):
    yield S(m.t((3, 4, 5), low=0, high=1), [1])
    yield S(m.t((3, 4, 5), low=0, high=1), [0, 2], True)
    yield S(m.t((4, 3), "T", low=0, high=1), [-1])
    yield S(m.t((3, 4), "step", low=0, high=1))
    yield S(m.t(()), [0])
    yield S(m.t((0, 3)), [0])
    yield S(m.t((0, 3)), [1], True)


# ---------------------------------------------------------------- matrix products
def mm_samples(m):
    yield S(m.t((3, 4)), m.t((4, 5)))
    yield S(m.t((3, 4), "T"), m.t((4, 5), "T"))
    yield S(m.t((3, 4), "step"), m.t((4, 2), "offset"))
    yield S(m.t((1, 4)), m.t((4, 1)))
    yield S(m.t((0, 4)), m.t((4, 5)))
    yield S(m.t((3, 0)), m.t((0, 5)))
    yield S(m.t((3, 4)), m.t((5, 2)))  # shape mismatch: an error in both
    yield S(m.t((3, 4)), m.t((4, 2), dtype=_partners(m.dtype)[0]))  # mixed dtypes: an error in both


def bmm_samples(m):
    yield S(m.t((2, 3, 4)), m.t((2, 4, 5)))
    yield S(m.t((2, 3, 4), "T"), m.t((2, 4, 5), "T"))
    yield S(m.t((2, 3, 4), "step"), m.t((2, 4, 2), "offset"))
    yield S(m.t((0, 3, 4)), m.t((0, 4, 5)))
    yield S(m.t((2, 3, 0)), m.t((2, 0, 5)))
    yield S(m.t((2, 3, 4)), m.t((3, 4, 5)))


def addmm_samples(m):
    yield S(m.t((3, 5)), m.t((3, 4)), m.t((4, 5)))
    yield S(m.t((5,)), m.t((3, 4), "T"), m.t((4, 5)))
    yield S(m.t((1, 5)), m.t((3, 4)), m.t((4, 5), "T"), beta=2 if not m.is_float else 0.5, alpha=3 if not m.is_float else 1.5)
    yield S(m.t((3, 1), "step"), m.t((3, 4), "offset"), m.t((4, 5)), alpha=2)
    yield S(m.t(()), m.t((3, 4)), m.t((4, 5)), beta=0)
    yield S(m.t((3, 5), "T"), m.t((3, 0)), m.t((0, 5)))


def baddbmm_samples(m):
    yield S(m.t((2, 3, 5)), m.t((2, 3, 4)), m.t((2, 4, 5)))
    yield S(m.t((5,)), m.t((2, 3, 4), "T"), m.t((2, 4, 5)))
    yield S(m.t((1, 3, 1)), m.t((2, 3, 4)), m.t((2, 4, 5), "T"), beta=2 if not m.is_float else 0.5, alpha=3 if not m.is_float else 1.5)
    yield S(m.t(()), m.t((2, 3, 4), "step"), m.t((2, 4, 5)), beta=0)


def dot_samples(m):
    yield S(m.t((5,)), m.t((5,)))
    yield S(m.t((5,), "step"), m.t((5,), "offset"))
    yield S(m.t((0,)), m.t((0,)))
    yield S(m.t((3,)), m.t((4,)))


def mv_samples(m):
    yield S(m.t((3, 4)), m.t((4,)))
    yield S(m.t((3, 4), "T"), m.t((4,), "step"))
    yield S(m.t((0, 4)), m.t((4,)))
    yield S(m.t((3, 0)), m.t((0,)))


# ---------------------------------------------------------------- views
def view_samples(m):
    yield S(m.t((2, 3, 4)), [6, 4])
    yield S(m.t((2, 3, 4)), [-1])
    yield S(m.t((2, 3, 4)), [4, -1, 1, 2])
    yield S(m.t((3, 4), "offset"), [2, 6])
    yield S(m.t((2, 3, 4), "T"), [6, 3])  # splits only the untransposed dims: a view
    yield S(m.t((3, 4), "step"), [3, 2, 2])
    yield S(m.t(()), [1])
    yield S(m.t(()), [])
    yield S(m.t((1,)), [])
    yield S(m.t((0, 3)), [3, 0])
    yield S(m.t((0, 3)), [-1, 6])
    yield S(m.t((4, 3), "T"), [12])  # not viewable: an error in both


def expand_samples(m):
    yield S(m.t((3, 1)), [3, 4])
    yield S(m.t((1,)), [2, 3, 4])
    yield S(m.t((3, 1)), [-1, 4])
    yield S(m.t(()), [2, 2])
    yield S(m.t((3, 1), "step"), [2, 3, 5])
    yield S(m.t((1, 3), "T"), [4, 3, 3])
    yield S(m.t((2, 3)), [2, 3])
    yield S(m.t((2, 3)), [0, 2, 3])
    yield S(m.t((2, 3)), [3, 3])  # an error in both


def permute_samples(m):
    yield S(m.t((2, 3, 4)), [2, 0, 1])
    yield S(m.t((2, 3, 4)), [-1, 0, 1])
    yield S(m.t((2, 3, 4), "T"), [1, 2, 0])
    yield S(m.t((3, 4), "offset"), [1, 0])
    yield S(m.t(()), [])
    yield S(m.t((2, 3)), [0, 0])  # duplicate dims: an error in both


def transpose_samples(m):
    yield S(m.t((2, 3, 4)), 0, 2)
    yield S(m.t((2, 3, 4)), -1, -2)
    yield S(m.t((3, 4), "step"), 0, 1)
    yield S(m.t((3, 4), "offset"), 1, 1)
    yield S(m.t(()), 0, -1)
    yield S(m.t((0, 3)), 0, 1)


def t_samples(m):
    yield S(m.t((3, 4)))
    yield S(m.t((3, 4), "T"))
    yield S(m.t((4,), "step"))
    yield S(m.t(()))
    yield S(m.t((2, 3, 4)))  # an error in both


def unsqueeze_samples(m):
    yield S(m.t((2, 3)), 0)
    yield S(m.t((2, 3)), -1)
    yield S(m.t((2, 3)), 1)
    yield S(m.t((3, 4), "T"), 1)
    yield S(m.t((3, 4), "step"), 2)
    yield S(m.t(()), 0)
    yield S(m.t(()), -1)
    yield S(m.t((0, 3)), 1)


def squeeze_samples(m):
    yield S(m.t((1, 3, 1, 2)))
    yield S(m.t((3, 1), "T"))
    yield S(m.t((1, 4), "step"))
    yield S(m.t(()))
    yield S(m.t((1, 1)))
    yield S(m.t((0, 1)))


def squeeze_dim_samples(m):
    yield S(m.t((1, 3, 1)), 0)
    yield S(m.t((1, 3, 1)), 1)
    yield S(m.t((1, 3, 1)), -1)
    yield S(m.t((3, 1), "T"), 0)
    yield S(m.t(()), 0)
    yield S(m.t((2, 1), "step"), 1)


def squeeze_dims_samples(m):
    yield S(m.t((1, 3, 1)), [0, 2])
    yield S(m.t((1, 3, 1)), [1])
    yield S(m.t((1, 3, 1, 1), "T"), [-1, 0])
    yield S(m.t(()), [0])
    yield S(m.t((2, 1, 1), "step"), [])


def select_samples(m):
    yield S(m.t((3, 4)), 0, 1)
    yield S(m.t((3, 4)), 1, -1)
    yield S(m.t((2, 3, 4), "T"), 2, 0)
    yield S(m.t((3, 4), "step"), 1, 2)
    yield S(m.t((3, 4), "offset"), 0, 2)
    yield S(m.t((3,)), 0, 2)
    yield S(m.t((3, 4)), 0, 3)  # out of range: an error in both


def slice_samples(m):
    big = 9223372036854775807
    yield S(m.t((5, 4)), 0, 1, 3)
    yield S(m.t((5, 4)), 1, 0, big, 2)
    yield S(m.t((5, 4)), 0, -3, -1)
    yield S(m.t((5, 4)), 0, 3, 1)
    yield S(m.t((5, 4)), 0, None, None, 3)
    yield S(m.t((2, 5, 4), "T"), 2, 1, big, 2)
    yield S(m.t((5, 4), "step"), 1, 1, 10)
    yield S(m.t((5, 4), "offset"), 0, 2)
    yield S(m.t((0, 3)), 0, 0, 2)


def as_strided_samples(m):
    yield S(m.t((3, 4)), [2, 2], [1, 2])
    yield S(m.t((3, 4)), [2, 2], [1, 2], 1)
    yield S(m.t((3, 4)), [3, 3], [1, 1])
    yield S(m.t((3, 4)), [2, 3], [0, 2], 2)
    yield S(m.t((3, 4), "T"), [4, 3], [1, 4])
    yield S(m.t((3, 4), "offset"), [2, 4], [4, 1])
    yield S(m.t((6,)), [], [], 3)


def diagonal_samples(m):
    yield S(m.t((3, 4)))
    yield S(m.t((3, 4)), 1)
    yield S(m.t((3, 4)), -1)
    yield S(m.t((2, 3, 4)), 0, 1, 2)
    yield S(m.t((2, 3, 4), "T"), 1, -1, 0)
    yield S(m.t((3, 4), "step"), 0, 1, 0)
    yield S(m.t((3, 4)), 5)
    yield S(m.t((0, 3)))


def sym_size_samples(m):
    yield S(m.t((3, 4)), 0)
    yield S(m.t((2, 3, 4), "T"), -1)
    yield S(m.t((0, 2)), 1)


def sym_stride_samples(m):
    yield S(m.t((3, 4)), 0)
    yield S(m.t((2, 3, 4), "T"), -1)
    yield S(m.t((3, 4), "step"), 1)


def sym_storage_offset_samples(m):
    yield S(m.t((3, 4)))
    yield S(m.t((3, 4), "step"))


def local_scalar_dense_samples(m):
    yield S(m.t(()))
    yield S(m.t((1, 1), "T"))


def alias_samples(m):
    yield S(m.t((3, 4)))
    yield S(m.t((2, 3, 4), "T"))
    yield S(m.t((3, 4), "step"))
    yield S(m.t((3, 4), "offset"))
    yield S(m.t(()))
    yield S(m.t((0, 2)))


def split_samples(m):
    yield S(m.t((5, 4)), 2)
    yield S(m.t((5, 4)), 3, 1)
    yield S(m.t((5, 4)), 5)
    yield S(m.t((5, 4)), 7)
    yield S(m.t((2, 5, 4), "T"), 2, -1)
    yield S(m.t((6, 4), "step"), 4, 0)
    yield S(m.t((0, 4)), 2)


def split_with_sizes_samples(m):
    yield S(m.t((5, 4)), [2, 3])
    yield S(m.t((5, 4)), [1, 0, 3], 1)
    yield S(m.t((2, 5, 4), "T"), [4, 1], -1)
    yield S(m.t((6, 4), "offset"), [6])
    yield S(m.t((5, 4)), [2, 2])  # wrong total: an error in both


def unbind_samples(m):
    yield S(m.t((3, 4)))
    yield S(m.t((3, 4)), 1)
    yield S(m.t((2, 3, 4), "T"), -1)
    yield S(m.t((3, 4), "step"), 0)
    yield S(m.t((0, 3)), 1)


# ---------------------------------------------------------------- copies
def clone_samples(m):
    for s in alias_samples(m):
        yield s
    yield S(m.t((2, 3, 4), "T"), memory_format=MemoryFormat("contiguous_format"))
    yield S(m.t((2, 3, 4), "T"), memory_format=MemoryFormat("preserve_format"))
    yield S(m.t((2, 3), "expand"))


def to_copy_samples(m):
    for i, name in enumerate(ALL):
        shape, layout = LAYOUT_SHAPES[i % len(LAYOUT_SHAPES)]
        yield S(m.t(shape, layout, low=-20, high=20), dtype=DT(name))
    yield S(m.t((2, 3, 4), "T"))
    yield S(m.t((2, 3, 4), "T"), dtype=DT("float64"), memory_format=MemoryFormat("contiguous_format"))


# ---------------------------------------------------------------- joining, indexing
def cat_samples(m):
    yield S([m.t((2, 3)), m.t((4, 3))])
    yield S([m.t((2, 3)), m.t((2, 1), "T"), m.t((2, 2), "step")], 1)
    yield S([m.t((2, 3, 4), "T"), m.t((2, 3, 1))], -1)
    yield S([m.t((2, 3)), m.t((0,))])
    yield S([m.t((0, 3)), m.t((2, 3), "offset")])
    yield S([m.t((3,))])
    p0, p1 = _partners(m.dtype)
    yield S([m.t((2, 3)), m.t((1, 3), dtype=p0), m.t((1, 3), dtype=p1)])
    yield S([m.t((2, 3)), m.t((2, 4))])  # an error in both


def stack_samples(m):
    yield S([m.t((2, 3)), m.t((2, 3))])
    yield S([m.t((2, 3)), m.t((2, 3), "T"), m.t((2, 3), "step")], 1)
    yield S([m.t((2, 3)), m.t((2, 3))], -1)
    yield S([m.t(()), m.t(())])
    yield S([m.t((0, 3)), m.t((0, 3))], 2)
    p0, _ = _partners(m.dtype)
    yield S([m.t((2, 3)), m.t((2, 3), dtype=p0)])
    yield S([m.t((2, 3)), m.t((3, 2))])  # an error in both


def index_samples(m):
    x = lambda layout="contig": m.t((5, 4, 3), layout)  # noqa: E731
    yield S(x(), [m.index((2,), 5)])
    yield S(x(), [None, m.index((3,), 4, negative=True)])
    yield S(x("T"), [m.index((2, 1), 5), m.index((3,), 3)])
    # (backward: autograd's saving of a Tensor?[] with None after a tensor fails; test_autograd.py has it)
    yield Sample((x(), [m.index((2,), 5), None, m.index((2,), 3)]), grad=False)
    yield S(x(), [m.mask((5,))])
    yield S(x("offset"), [m.mask((5, 4))])
    yield S(x(), [None, m.index((2,), 4, dtype="int32")])
    yield S(m.t((3, 4), "step"), [m.index((), 3)])
    yield S(m.t((3, 4)), [m.index((0,), 3)])
    yield S(m.t((3, 4)), [m.index((2,), 3, unique=True), m.index((2,), 4)])
    yield S(m.t((3, 4)), [TensorArg(np.array([3]))])  # out of range: an error in both


def index_put_samples(m):
    yield S(m.t((5, 4)), [m.index((3,), 5, unique=True)], m.t((3, 4)))
    yield S(m.t((5, 4)), [m.index((3,), 5, unique=True)], m.t((4,)))
    yield S(m.t((5, 4), "T"), [None, m.index((2,), 4, unique=True)], m.t(()))
    yield S(m.t((5, 4)), [m.index((2,), 5, unique=True), m.index((2,), 4)], m.t((2,)))
    yield S(m.t((5, 4)), [m.mask((5, 4))], m.t(()))
    yield S(m.t((5, 4), "step"), [m.index((6,), 5)], m.t((6, 4)), True)
    yield S(m.t((5, 4)), [None, m.index((5,), 4)], m.t((5, 5)), True)
    p0, _ = _partners(m.dtype)
    yield S(m.t((5, 4)), [m.index((3,), 5, unique=True)], m.t((3, 4), dtype=p0))  # dtype mismatch: an error in both


def masked_index_put_accumulate_samples(m):
    """self[indices] += where(mask, values, 0); a masked-out position's index may be anything."""
    yield S(m.t((5, 4)), m.mask((3, 1)), [m.index((3,), 5)], m.t((3, 4)))
    yield S(m.t((5, 4), "T"), m.mask((6, 4)), [m.index((6,), 5, negative=True)], m.t((6, 4)))
    keep = TensorArg(np.array([True, False, True, False]))
    yield S(m.t((5,)), keep, [TensorArg(np.array([0, 7, 0, -9]))], m.t((4,)))  # repeated and out of range
    every = TensorArg(np.array([True, True, True, True]))
    yield S(m.t((5,)), every, [TensorArg(np.array([0, 7, -1, -9]))], m.t((4,)))  # kept and out of range: clamped


def gather_samples(m):
    yield S(m.t((3, 4)), 1, m.index((3, 2), 4))
    yield S(m.t((3, 4)), 0, m.index((2, 4), 3))
    yield S(m.t((3, 4), "T"), 1, m.index((2, 3), 4))
    yield S(m.t((2, 3, 4), "step"), -1, m.index((2, 3, 5), 4))
    yield S(m.t((3, 4)), 1, m.index((3, 0), 4))
    yield S(m.t(()), 0, m.index((), 1))
    yield S(m.t((3, 4)), 1, m.index((3, 2), 4, dtype="int32"))  # int32 index: an error in both


def _unique_rows(m, shape, size, dim):
    """An index tensor whose entries along `dim` are distinct (scatter without collisions)."""
    shape = list(shape)
    n = shape[dim]
    moved = [s for i, s in enumerate(shape) if i != dim]
    rows = [m.rng.permutation(size)[:n] for _ in range(int(np.prod(moved)))]
    array = np.array(rows, dtype=np.int64).reshape(moved + [n])
    return TensorArg(np.ascontiguousarray(np.moveaxis(array, -1, dim)))


def scatter_src_samples(m):
    yield S(m.t((3, 5)), 1, _unique_rows(m, (3, 2), 5, 1), m.t((3, 2)))
    yield S(m.t((3, 5)), 0, _unique_rows(m, (2, 5), 3, 0), m.t((2, 5)))
    yield S(m.t((3, 5), "T"), 1, _unique_rows(m, (2, 3), 5, 1), m.t((3, 4)))
    yield S(m.t((2, 3, 4), "step"), -1, _unique_rows(m, (2, 3, 2), 4, 2), m.t((2, 3, 2), "T"))
    yield S(m.t((3, 4)), 1, _unique_rows(m, (3, 0), 4, 1), m.t((3, 0)))


def scatter_value_samples(m):
    value = m.scalars()[0]
    yield S(m.t((3, 5)), 1, m.index((3, 2), 5), value)
    yield S(m.t((3, 5), "T"), 0, m.index((2, 5), 3), m.scalars()[1])
    yield S(m.t((2, 3, 4), "step"), -1, m.index((2, 3, 3), 4), value)


def scatter_add_samples(m):
    yield S(m.t((3, 5)), 1, m.index((3, 4), 5), m.t((3, 4)))
    yield S(m.t((3, 5)), 0, m.index((4, 5), 3), m.t((4, 5)))
    yield S(m.t((3, 5), "T"), 1, m.index((2, 3), 5), m.t((3, 4)))
    yield S(m.t((2, 3, 4), "step"), -1, m.index((2, 3, 6), 4), m.t((2, 3, 6), "offset"))


def index_select_samples(m):
    yield S(m.t((5, 4)), 0, m.index((3,), 5))
    yield S(m.t((5, 4)), 1, m.index((6,), 4))
    yield S(m.t((5, 4), "T"), -1, m.index((2,), 4, dtype="int32"))
    yield S(m.t((5, 4), "step"), 0, m.index((0,), 5))
    yield S(m.t((5, 4)), 0, m.index((), 5))
    yield S(m.t((5, 4)), 0, TensorArg(np.array([5])))  # an error in both


def index_add_samples(m):
    yield S(m.t((5, 4)), 0, m.index((3,), 5), m.t((3, 4)))
    yield S(m.t((5, 4)), 1, m.index((6,), 4), m.t((5, 6)), alpha=2)
    yield S(m.t((5, 4), "T"), 0, m.index((2,), 5, dtype="int32"), m.t((2, 4), "T"))
    yield S(m.t((5, 4), "step"), -1, m.index((3,), 4), m.t((5, 3)))


def _shift_counts(m, shape, layout="contig", dtype=None):
    """Shift counts across the whole range that matters: negative, in range, the type's width and past it."""
    counts = np.array([-70, -1, 0, 1, 3, 7, 8, 15, 31, 32, 63, 64, 65], dtype=np.int64)
    values = m.rng.choice(counts, int(np.prod(shape)) if shape else 1).reshape(shape)
    return TensorArg(values.astype(dtype or m.dtype), layout) if layout == "contig" else \
        m.t(shape, layout, dtype=dtype, values=values.astype(dtype or m.dtype))


def _shift_values(m, shape, layout="contig"):
    """Values with the integer extremes among them (so bits shift out of the top and the sign matters)."""
    if m.dtype not in INT:
        return m.t(shape, layout)
    info = np.iinfo(m.dtype)
    pool = np.array([info.min, info.max, -1, 0, 1, 5, -8, 1 << 20], dtype=np.int64).astype(m.dtype)
    return m.t(shape, layout, values=m.rng.choice(pool, int(np.prod(shape)) if shape else 1).reshape(shape))


def shift_tensor_samples(m):
    yield S(_shift_values(m, (3, 4)), _shift_counts(m, (3, 4)))
    yield S(_shift_values(m, (2, 3, 4), "T"), _shift_counts(m, (4,)))
    yield S(_shift_values(m, ()), _shift_counts(m, (2, 3)))
    yield S(_shift_values(m, (0, 3)), _shift_counts(m, (3,)))
    yield S(_shift_values(m, (3, 4), "step"), _shift_counts(m, (3, 1)))
    if m.dtype == "int32":
        yield S(_shift_values(m, (2, 3)), _shift_counts(m, (2, 3), dtype="int64"))  # promotes to int64
    yield S(m.t((2, 3)), m.t((2, 3), dtype="float32"))  # float: an error in both


def shift_scalar_samples(m):
    for count in (-1, 0, 1, 3, 31, 32, 63, 64, 100):
        yield S(_shift_values(m, (3, 4)), count)
    yield S(_shift_values(m, (2, 3, 4), "T"), 2)
    yield S(_shift_values(m, ()), 5)
    yield S(m.t((2, 3)), 1.5)  # a float count: an error in both


def shift_scalar_tensor_samples(m):
    for value in (1, -3, 7):
        yield S(value, _shift_counts(m, (3, 4)))
    yield S(2, _shift_counts(m, (2, 3, 4), "T"))


def inplace_shift_samples(m):
    yield S(_shift_values(m, (3, 4)), _shift_counts(m, (3, 4)))
    yield S(_shift_values(m, (2, 3, 4), "T"), _shift_counts(m, (4,)))
    yield S(_shift_values(m, (3, 4), "offset"), _shift_counts(m, ()))
    yield S(_shift_values(m, ()), _shift_counts(m, ()))
    yield S(_shift_values(m, (3, 1)), _shift_counts(m, (3, 4)))  # does not fit self: an error in both


def inplace_shift_scalar_samples(m):
    for count in (-1, 3, 64):
        yield S(_shift_values(m, (3, 4)), count)
    yield S(_shift_values(m, (2, 3, 4), "T"), 2)


def elu_backward_samples(m):
    shapes = [((3, 4), "contig", "contig"), ((2, 3, 4), "contig", "T"), ((), "contig", "contig"),
              ((3, 4), "T", "step"), ((0, 2), "contig", "contig")]
    for i, (shape, lg, lx) in enumerate(shapes):
        yield S(m.t(shape, lg), 0.7, 1.5, 0.5, i % 2 == 1, m.t(shape, lx))
    yield S(m.t((3, 4)), -0.5, 1.0, 1.0, True, m.t((3, 4)))  # a negative slope from the result: an error in both


def prod_dim_samples(m):
    def values(shape, layout="contig"):
        return m.t(shape, layout, low=0.5, high=1.5) if m.is_float else m.t(shape, layout, low=-2, high=2)

    yield S(values((3, 4, 5)), 1)
    yield S(values((3, 4, 5)), -1, True)
    yield S(values((4, 3), "T"), 0)
    yield S(values((3, 4), "step"), 1, True)
    yield S(values(()), 0)
    yield S(values((0, 3)), 0)
    yield S(values((0, 3)), 1, True)
    yield S(values((3, 4)), 1, dtype=m.dt("float64"))
    if m.is_float:
        zeros = m.t((3, 4), values=[[0, 1, 2, 3], [0, 0, 1, 2], [1, 2, 3, 4]])
        yield S(zeros, 1)  # one zero, two zeros and none in a row: the backward's safe-zeros path
    yield S(values((3, 4)), 2)  # dim out of range: an error in both


def take_samples(m):
    yield S(m.t((3, 4)), m.index((5,), 12, negative=True))
    yield S(m.t((3, 4), "T"), m.index((2, 3), 12))
    yield S(m.t((2, 3, 4), "step"), m.index((6,), 24))
    yield S(m.t(()), m.index((3,), 1))
    yield S(m.t((3, 4)), m.index((0, 2), 12))
    yield S(m.t((3, 4)), TensorArg(np.array([3, 3, 3])))  # repeated: the gradient accumulates
    yield S(m.t((3, 4)), TensorArg(np.array([12])))  # out of range: an error in both
    yield S(m.t((0,)), m.index((1,), 1))  # from an empty tensor: an error in both
    yield S(m.t((3, 4)), m.index((2,), 12, dtype="int32"))  # an int32 index: an error in both


def scatter_reduce_samples(m):
    for i, reduce in enumerate(("sum", "prod", "mean", "amax", "amin")):
        include_self = i % 2 == 0
        yield S(m.t((3, 5)), 1, m.index((3, 4), 5), m.t((3, 4)), reduce, include_self=include_self)
        yield S(m.t((3, 5), "T"), 0, m.index((4, 5), 3), m.t((4, 5), "offset"), reduce, include_self=not include_self)
    yield S(m.t((2, 3, 4), "step"), -1, m.index((2, 3, 6), 4), m.t((2, 3, 6)), "amax")
    yield S(m.t((4,)), 0, m.index((0,), 4), m.t((0,)), "mean", include_self=False)
    yield S(m.t(()), 0, m.index((), 1), m.t(()), "prod")
    yield S(m.t((3, 5)), 1, m.index((3, 4), 5), m.t((3, 4)), "foo")  # an unknown reduction: an error in both
    yield S(m.t((3, 5)), 1, TensorArg(np.array([[5]])), m.t((3, 4)), "sum")  # out of range: an error in both
    yield S(m.t((3, 5)), 1, m.index((3, 6), 5), m.t((3, 4)), "sum")  # index larger than src: an error in both


def index_copy_samples(m):
    yield S(m.t((5, 4)), 0, m.index((3,), 5, unique=True), m.t((3, 4)))
    yield S(m.t((5, 4), "T"), 1, m.index((2,), 4, unique=True), m.t((5, 2), "T"))
    yield S(m.t((2, 5, 4), "step"), -2, m.index((3,), 5, unique=True), m.t((2, 3, 4), "offset"))
    yield S(m.t(()), 0, m.index((), 1), m.t(()))
    yield S(m.t((5, 4)), 0, m.index((0,), 5), m.t((0, 4)))
    yield S(m.t((5, 4)), 0, TensorArg(np.array([5])), m.t((1, 4)))  # out of range: an error in both
    yield S(m.t((5, 4)), 0, TensorArg(np.array([-1])), m.t((1, 4)))  # negative: an error in both
    yield S(m.t((5, 4)), 0, m.index((2,), 5, unique=True), m.t((3, 4)))  # count mismatch: an error in both


def index_fill_samples(value_tensor):
    def gen(m):
        def value(v, dtype=None):
            return m.t((), dtype=dtype, values=[v]) if value_tensor else v

        fill = m.scalars()[0]
        yield S(m.t((5, 4)), 0, m.index((3,), 5), value(fill))
        yield S(m.t((5, 4), "T"), 1, m.index((3,), 4, negative=True), value(fill))
        yield S(m.t((2, 5, 4), "step"), -1, m.index((2,), 4), value(fill))
        yield S(m.t(()), 0, m.index((), 1), value(fill))
        yield S(m.t((5, 4)), 1, m.index((0,), 4), value(fill))
        yield S(m.t((5, 4)), 1, TensorArg(np.array([4])), value(fill))  # out of range: an error in both
        yield S(m.t((5, 4)), 1, m.index((2, 2), 4), value(fill))  # a 2-d index: an error in both
        if value_tensor:
            p0, _ = _partners(m.dtype)
            yield S(m.t((5, 4)), 0, m.index((2,), 5), value(1, dtype=p0))  # cast to self's dtype
            yield S(m.t((5, 4)), 0, m.index((2,), 5), m.t((1,)))  # a 1-d value: an error in both

    return gen


def sort_samples(stable):
    """Sort along each kind of dim, both directions; the stable overload also takes ties (ints, bools)."""
    def gen(m):
        kw = {"stable": True} if stable else {}
        call = (lambda x, dim=-1, descending=False: S(x, dim=dim, descending=descending, **kw)) if stable else \
            (lambda x, dim=-1, descending=False: S(x, dim, descending))
        yield call(m.t((3, 4)))
        yield call(m.t((3, 4), "T"), 0, True)
        yield call(m.t((2, 3, 4), "step"), 1)
        yield call(m.t((4, 3), "offset"), -2, True)
        yield call(m.t(()))
        yield call(m.t((0, 3)), 0)
        yield call(m.t((3, 4)), 2)  # dim out of range: an error in both
    return gen


def topk_samples(m):
    yield S(m.t((3, 6)), 2)
    yield S(m.t((3, 6), "T"), 3, 0)
    yield S(m.t((3, 6)), 4, -1, False)
    yield S(m.t((2, 3, 4), "step"), 0, 1)
    yield S(m.t((3, 6)), 6, 1)
    yield S(m.t((3, 6)), 1, 1, True, False)  # sorted=False: torch's order is unspecified past one element
    yield S(m.t(()), 1)
    yield S(m.t((2, 0)), 0)
    yield S(m.t((3, 6)), 7)  # k out of range: an error in both


def round_decimals_samples(m):
    for decimals in (-2, 1, 3):
        for shape, layout in LAYOUT_SHAPES[:5]:
            yield S(m.t(shape, layout, low=-300.0, high=300.0), decimals=decimals)


def tri_samples(m):
    yield S(m.t((4, 5)))
    yield S(m.t((4, 5)), 1)
    yield S(m.t((4, 5)), -2)
    yield S(m.t((2, 3, 3), "T"), 0)
    yield S(m.t((4, 5), "step"), 10)
    yield S(m.t((0, 3)))
    yield S(m.t((3,)))  # 1-d: an error in both


def flip_samples(m):
    yield S(m.t((3, 4)), [0])
    yield S(m.t((3, 4)), [0, 1])
    yield S(m.t((2, 3, 4), "T"), [-1])
    yield S(m.t((3, 4), "step"), [1])
    yield S(m.t(()), [])
    yield S(m.t((0, 3)), [1])


def roll_samples(m):
    yield S(m.t((3, 4)), [1], [0])
    yield S(m.t((3, 4)), [2, -1], [0, 1])
    yield S(m.t((3, 4)), [5])
    yield S(m.t((2, 3, 4), "T"), [-7], [-1])
    yield S(m.t((3, 4), "step"), [1], [1])
    yield S(m.t((0, 3)), [1], [1])


def repeat_samples(m):
    yield S(m.t((2, 3)), [2, 1])
    yield S(m.t((2, 3)), [1, 2, 2])
    yield S(m.t((2, 3), "T"), [3, 1])
    yield S(m.t((2, 3), "step"), [1, 0])
    yield S(m.t(()), [3])
    yield S(m.t(()), [])
    yield S(m.t((2, 3)), [2])  # fewer repeats than dims: an error in both


def pad_samples(m):
    value = 1.5 if m.is_float else (2 if not m.is_bool else True)
    yield S(m.t((2, 3)), [1, 2])
    yield S(m.t((2, 3)), [1, 1, 2, 0], value)
    yield S(m.t((2, 3, 4), "T"), [0, 1])
    yield S(m.t((3, 4), "step"), [-1, 1])
    yield S(m.t((3, 4)), [1, -2, -1, 0])
    yield S(m.t((0, 3)), [1, 1])
    yield S(m.t((2, 3)), [1])  # odd length: an error in both


def nonzero_samples(m):
    yield S(m.t((3, 4), low=-1, high=1))
    yield S(m.t((2, 3, 4), "T", low=-1, high=1))
    yield S(m.t((3, 4), "step", low=-1, high=1))
    yield S(m.t((), values=1))
    yield S(m.t((), values=0))
    yield S(m.t((0, 3)))


def select_backward_samples(m):
    yield S(m.t((4,)), [3, 4], 0, 1)
    yield S(m.t((3,)), [3, 4], 1, -1)
    yield S(m.t((2, 4), "T"), [2, 3, 4], 1, 2)
    yield S(m.t(()), [3], 0, 0)


def slice_backward_samples(m):
    big = 9223372036854775807
    yield S(m.t((2, 4)), [5, 4], 0, 1, 3, 1)
    yield S(m.t((3, 2)), [3, 5], 1, 1, 5, 2)
    yield S(m.t((3, 2), "T"), [3, 4], -1, 2, big, 1)
    yield S(m.t((0, 4)), [5, 4], 0, 3, 3, 1)


def diagonal_backward_samples(m):
    yield S(m.t((3,)), [3, 4], 0, 0, 1)
    yield S(m.t((3,)), [3, 4], 1, 0, 1)
    yield S(m.t((2, 3), "step"), [2, 3, 4], -1, 2, 1)


def as_strided_scatter_samples(m):
    yield S(m.t((3, 4)), m.t((2, 2)), [2, 2], [4, 1], 1)
    yield S(m.t((3, 4)), m.t((3, 2), "T"), [3, 2], [1, 3])
    yield S(m.t((12,)), m.t((2, 3)), [2, 3], [6, 2], 0)
    yield S(m.t((3, 4), "step"), m.t((2,)), [2], [2])
    yield S(m.t((3, 4), "offset"), m.t((2, 2)), [2, 2], [1, 4])


def slice_scatter_samples(m):
    yield S(m.t((5, 4)), m.t((2, 4)), 0, 1, 3)
    yield S(m.t((5, 4)), m.t((5, 2)), 1, 0, 9223372036854775807, 2)
    yield S(m.t((5, 4), "T"), m.t((5, 3), "step"), -1, 1)
    yield S(m.t((5, 4)), m.t((2, 4)), 0, -2)
    yield S(m.t((5, 4)), m.t((0, 4)), 0, 3, 1)
    yield S(m.t((5, 4), "offset"), m.t((2, 2)), 1, 1, 4, 2)
    yield S(m.t((5, 4), "step"), m.t((2, 4)), 0, 0, 4, 2)
    yield S(m.t((2, 3), "expand"), m.t((2, 1)), 1, 2)
    yield S(m.t((5, 4)), m.t((3, 4)), 0, 1, 3)  # src of the wrong shape: an error in both


def select_scatter_samples(m):
    yield S(m.t((3, 4)), m.t((4,)), 0, 1)
    yield S(m.t((3, 4)), m.t((3,), "step"), 1, -1)
    yield S(m.t((2, 3, 4), "T"), m.t((2, 4)), 1, 2)
    yield S(m.t((3,)), m.t(()), 0, 2)
    yield S(m.t((3, 4), "step"), m.t((4,)), 0, 2)
    yield S(m.t((3, 4), "offset"), m.t((3,)), 1, 0)


def diagonal_scatter_samples(m):
    yield S(m.t((3, 4)), m.t((3,)))
    yield S(m.t((3, 4)), m.t((3,)), 1)
    yield S(m.t((3, 4), "T"), m.t((2,)), -1)
    yield S(m.t((2, 3, 4)), m.t((2, 3), "step"), 0, 1, 2)
    yield S(m.t((3, 4), "step"), m.t((3,)))


# ---------------------------------------------------------------- factories
def _dtype_kwargs(m):
    yield {"dtype": DT(m.dtype)}
    if m.dtype == "float32":
        yield {}


def sized_factory_samples(m):
    for kw in _dtype_kwargs(m):
        yield Sample(([2, 3],), kw)
        yield Sample(([],), kw)
        yield Sample(([0, 4],), kw)


def full_samples(m):
    value = {"float32": 1.5, "float64": -2.25, "float16": 0.5, "bfloat16": 0.75, "int64": 7, "int32": -3, "bool": True}[m.dtype]
    yield S([2, 3], value, dtype=DT(m.dtype))
    yield S([], value, dtype=DT(m.dtype))
    if m.dtype == "float32":
        for v in (1.5, 3, True):
            yield S([2, 2], v)


def scalar_tensor_samples(m):
    value = {"float32": 1.5, "float64": -2.25, "float16": 0.5, "bfloat16": 0.75, "int64": 7, "int32": -3, "bool": True}[m.dtype]
    yield S(value, dtype=DT(m.dtype))
    if m.dtype == "float32":
        for v in (1.5, 3, True):
            yield S(v)


def arange_samples(m):
    kw = {"dtype": DT(m.dtype)}
    if m.is_float:
        yield Sample((0, 10, 3), kw)
        yield Sample((1.0, 2.0, 0.25), kw)
        yield Sample((-1, 1, 0.3), kw)
    elif not m.is_bool:
        yield Sample((0, 10, 3), kw)
        yield Sample((10, 0, -2), kw)
    if m.dtype == "float32":
        yield S(0, 10, 3)
        yield S(0, 1, 0.1)
        yield S(0.5, 4)
        yield S(5, 5)


def arange_end_samples(m):
    for kw in _dtype_kwargs(m):
        if not m.is_bool:
            yield Sample((7,), kw)
            yield Sample((0,), kw)
    if m.dtype == "float32":
        yield S(2.5)


def arange_start_samples(m):
    for kw in _dtype_kwargs(m):
        if not m.is_bool:
            yield Sample((2, 9), kw)
            yield Sample((-3, -3), kw)
    if m.dtype == "float32":
        yield S(0.5, 4)


def eye_n_samples(m):
    for kw in _dtype_kwargs(m):
        yield Sample((3,), kw)
        yield Sample((0,), kw)


def linspace_samples(m):
    kw = {"dtype": DT(m.dtype)}
    if m.is_float:
        yield Sample((0, 1, 5), kw)
        yield Sample((-2, 3.5, 7), kw)
        yield Sample((1, 1, 1), kw)
        yield Sample((0, 1, 0), kw)
    elif not m.is_bool:
        yield Sample((0, 10, 5), kw)
        yield Sample((-3, 7, 4), kw)
    if m.dtype == "float32":
        yield S(0, 1, 11)


def eye_samples(m):
    for kw in _dtype_kwargs(m):
        yield Sample((3, 4), kw)
        yield Sample((2, 2), kw)
        yield Sample((0, 3), kw)


def like_samples(m):
    yield S(m.t((3, 4)))
    yield S(m.t((2, 3, 4), "T"))
    yield S(m.t((3, 4), "step"))
    yield S(m.t(()))
    yield S(m.t((2, 3), "expand"))
    yield S(m.t((3, 4)), dtype=DT("float64"))
    yield S(m.t((2, 3, 4), "T"), dtype=DT("int32"))


def full_like_samples(m):
    value = {"float32": 1.5, "float64": -2.25, "float16": 0.5, "bfloat16": 0.75, "int64": 7, "int32": -3, "bool": True}[m.dtype]
    for s in like_samples(m):
        yield Sample((s.args[0], value), s.kwargs)


def new_factory_samples(m):
    yield S(m.t((3, 4)), [2, 3])
    yield S(m.t((2, 3, 4), "T"), [4])
    yield S(m.t(()), [])
    yield S(m.t((3, 4)), [2, 0], dtype=DT("float64"))
    yield S(m.t((3, 4)), [3], dtype=DT("int64"))


def new_empty_strided_samples(m):
    yield S(m.t((3, 4)), [2, 3], [3, 1])
    yield S(m.t((3, 4)), [3, 4], [1, 3])  # column-major
    yield S(m.t((2, 3)), [2, 0], [1, 1], dtype=DT("float64"))
    yield S(m.t(()), [], [])


def new_full_samples(m):
    yield S(m.t((3, 4)), [2, 3], 2)
    yield S(m.t(()), [], 1)
    yield S(m.t((3, 4)), [2], 1.5, dtype=DT("float64"))
    yield S(m.t((3, 4)), [3], 4, dtype=DT("int64"))


# ---------------------------------------------------------------- table_extra.py: special functions, selections
def logit_inplace_samples(m):
    yield from inplace_unary(0.05, 0.95)(m)
    yield S(m.t((3, 4), low=-0.5, high=1.5), 0.1)


def clamp_tensor_inplace_samples(m):
    for s in clamp_tensor_samples(m):
        if s.args[0].shape in ((3, 4), (2, 3, 4), (2, 3)):
            yield s


def masked_scatter_samples(inplace):
    def gen(m):
        yield S(m.t((3, 4)), m.mask((3, 4)), m.t((12,)))
        yield S(m.t((3, 4), "T"), m.mask((4,)), m.t((2, 7)))
        yield S(m.t((2, 3, 4), "step"), m.mask((3, 1)), m.t((24,), "offset"))
        yield S(m.t(()), m.mask(()), m.t((2,)))
        yield S(m.t((3, 4)), m.mask((3, 4), "T"), m.t((2,)))  # too few source values: an error in both
        if not inplace:
            yield S(m.t((4,)), m.mask((3, 4)), m.t((12,)))

    return gen


def nanmedian_samples(m):
    yield from reduction_full_samples()(m)
    if m.is_float:
        yield S(m.t((3, 4), special=True))
        yield S(m.t((4,), values=[np.nan] * 4))


def nanmedian_dim_samples(m):
    yield from max_dim_samples(m)
    if m.is_float:
        yield S(m.t((3, 4), values=[np.nan, 1, 2, np.nan] * 3), 1)


def mode_samples(m):
    low, high = (0, 2) if not m.is_bool else (0, 1)
    yield S(m.t((3, 6), low=low, high=high))
    yield S(m.t((3, 6), low=low, high=high), 0, True)
    yield S(m.t((2, 3, 5), "T", low=low, high=high), 1)
    yield S(m.t((3, 4), "step", low=low, high=high), -1, True)
    yield S(m.t(()), 0)
    yield S(m.t((4, 5)), 1)


def aminmax_samples(m):
    yield S(m.t((3, 4)))
    yield S(m.t((3, 4, 5)), dim=1)
    yield S(m.t((4, 3), "T"), dim=-1, keepdim=True)
    yield S(m.t((3, 4), "step"), dim=0)
    yield S(m.t(()))
    yield S(m.t(()), dim=0, keepdim=True)
    yield S(m.t((0, 3)), dim=1)
    yield S(m.t((0, 3)))  # an empty input without a dim: an error in both
    if m.is_float:
        yield S(m.t((3, 4), special=True), dim=1)


def logcumsumexp_samples(m):
    yield S(m.t((3, 4)), 1)
    yield S(m.t((3, 4)), 0)
    yield S(m.t((2, 3, 4), "T"), -1)
    yield S(m.t((3, 4), "step"), 0)
    yield S(m.t(()), 0)
    yield S(m.t((0, 3)), 0)
    yield S(m.t((3, 4), low=50, high=80), 1)
    if m.is_float:
        yield S(m.t((3, 4), special=True), 1)


def block_diag_samples(m):
    yield S([m.t((2, 3)), m.t((3, 2))])
    yield S([m.t((2, 3), "T"), m.t((4,)), m.t(())])
    yield S([m.t((3, 4), "step")])
    yield S([m.t((2, 2)), m.t((0, 3)), m.t((1, 1))])
    p0, _ = _partners(m.dtype)
    yield S([m.t((2, 2)), m.t((1, 2), dtype=p0)])


# ---------------------------------------------------------------- table_extra.py: linalg
def _matrix(m, shape, layout="contig", *, spd=False, diagonal=0.0):
    """A well-conditioned square (or rectangular) matrix batch: A @ A^T + n*I when `spd`, else A + diagonal*I."""
    a = m.rng.uniform(-1, 1, shape)
    if spd:
        a = a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])
    elif diagonal:
        a = a + diagonal * np.eye(shape[-2], shape[-1])
    return TensorArg(np.ascontiguousarray(a.astype(m.dtype)), layout)


def square_samples(m):
    yield S(_matrix(m, (3, 3), diagonal=3))
    yield S(_matrix(m, (2, 4, 4), "T", diagonal=4))
    yield S(_matrix(m, (1, 1), diagonal=2))
    yield S(_matrix(m, (0, 0)))
    yield S(_matrix(m, (3, 3), "offset", diagonal=-3))
    yield S(m.t((3, 4)))  # not square: an error in both


def inv_ex_samples(m):
    yield from square_samples(m)
    yield S(m.t((3, 3), values=np.ones((3, 3))))
    yield S(m.t((3, 3), values=np.ones((3, 3))), check_errors=True)  # singular: an error in both


def solve_ex_samples(m):
    yield S(_matrix(m, (3, 3), diagonal=3), m.t((3, 2)))
    yield S(_matrix(m, (3, 3), "T", diagonal=3), m.t((3,)))
    yield S(_matrix(m, (2, 3, 3), diagonal=3), m.t((3, 4), "T"))
    yield S(_matrix(m, (3, 3), diagonal=3), m.t((2, 3)), left=False)
    yield S(_matrix(m, (3, 3), diagonal=3), m.t((4, 2)))  # mismatched rows: an error in both


def cholesky_ex_samples(m):
    yield S(_matrix(m, (3, 3), spd=True))
    yield S(_matrix(m, (2, 4, 4), "T", spd=True), upper=True)
    yield S(_matrix(m, (1, 1), spd=True))
    yield S(m.t((3, 3), values=-np.eye(3)))
    yield S(m.t((3, 3), values=-np.eye(3)), check_errors=True)  # not positive definite: an error in both


def qr_samples(m):
    yield S(_matrix(m, (4, 3), diagonal=2))
    yield S(_matrix(m, (3, 4), "T", diagonal=2))
    yield S(_matrix(m, (2, 3, 3), diagonal=2), "complete")
    yield S(_matrix(m, (4, 3), diagonal=2), "complete")
    yield S(_matrix(m, (4, 3), diagonal=2), "r")
    yield S(_matrix(m, (3, 3), diagonal=2), "bad")  # an unknown mode: an error in both


def _distinct_diagonal(m, shape, layout="contig"):
    """Diagonal matrices with distinct magnitudes and mixed signs. A general matrix's singular and eigen vectors
    are LAPACK's, their signs differ between builds (numpy's and torch's); a diagonal matrix's are signed
    permutations that every build picks alike, so vectors and their gradients compare exactly."""
    k = min(shape[-2:])
    batch = int(np.prod(shape[:-2]))
    values = [m.rng.permutation(np.arange(1, k + 1)) * m.rng.choice([-1.0, 1.0], k) for _ in range(batch)]
    array = np.zeros((batch,) + tuple(shape[-2:]))
    for b, v in enumerate(values):
        array[b, range(k), range(k)] = v
    return TensorArg(np.ascontiguousarray(array.reshape(shape).astype(m.dtype)), layout)


def svd_samples(m):
    # general matrices: singular values only (no gradient: torch's formula needs U and Vh)
    yield Sample((_matrix(m, (4, 3), diagonal=2), False, False), grad=False)
    yield Sample((_matrix(m, (2, 3, 5), "T", diagonal=2), True, False), grad=False)
    yield S(_distinct_diagonal(m, (4, 3)))
    yield S(_distinct_diagonal(m, (3, 4), "T"), True)
    yield S(_distinct_diagonal(m, (2, 3, 3)))


def eigh_samples(m):
    # general matrices: eigenvalues only (no gradient: torch's formula needs the eigenvectors)
    yield Sample((_matrix(m, (3, 3), spd=True), "L", False), grad=False)
    yield Sample((_matrix(m, (2, 4, 4), "T", spd=True), "U", False), grad=False)
    yield S(_distinct_diagonal(m, (3, 3)))
    yield S(_distinct_diagonal(m, (2, 4, 4), "T"), "U")
    yield S(m.t((3, 4)))  # not square: an error in both


def pinv_samples(m):
    yield S(_matrix(m, (4, 3), diagonal=2))
    yield S(_matrix(m, (3, 4), "T", diagonal=2))
    yield S(_matrix(m, (2, 3, 3), diagonal=2), atol=m.t((), low=0.01, high=0.1))
    yield S(_matrix(m, (3, 3), diagonal=2), rtol=m.t((2, 1), low=0.01, high=0.1))
    yield S(_matrix(m, (3, 3), spd=True), hermitian=True)


def cross_samples(m):
    yield S(m.t((4, 3)), m.t((4, 3)))
    yield S(m.t((3, 4), "T"), m.t((1, 3)))
    yield S(m.t((3, 4)), m.t((3, 4), "step"), dim=0)
    yield S(m.t((2, 3, 2)), m.t((2, 3, 2)), dim=-2)
    yield S(m.t((3, 4)), m.t((3, 4)))  # size 4 along dim -1: an error in both


def euclidean_dist_samples(m):
    yield S(m.t((5, 3)), m.t((4, 3)))
    yield S(m.t((2, 5, 3)), m.t((2, 4, 3), "T"))
    yield S(m.t((3, 2)), m.t((3, 2)))


def lstsq_samples(m):
    yield S(_matrix(m, (5, 3), diagonal=2), m.t((5, 2)))
    yield S(_matrix(m, (3, 3), "T", diagonal=2), m.t((3, 1)))
    yield S(_matrix(m, (2, 5, 3), diagonal=2), m.t((5, 2)), driver="gelsd")
    yield S(_matrix(m, (5, 3), diagonal=2), m.t((5, 2)), driver="gels")
    yield S(_matrix(m, (3, 5), diagonal=2), m.t((3, 2)), 1e-3, driver="gelss")



# ---------------------------------------------------------------- the table
def _x(kind, reason, dtypes=ALL):
    return XFail(kind, reason, tuple(dtypes))


TORCH_META_DIFFERS = "torch's own meta kernel disagrees with its CPU kernel, which minitorch2 follows "
NOT_ATEN = "not an ATen overload: torch.ops.aten has no maximum_ (minitorch2 registers it in table.py)"
NOT_IN_ATEN = {"maximum_.default"}  # registered in minitorch2 although ATen has no such overload


def _unary_float_ops():
    domains = {"log": (0.1, 3), "log2": (0.1, 3), "log10": (0.1, 3), "log1p": (-0.9, 3), "sqrt": (0.1, 3),
               "rsqrt": (0.1, 3), "asin": (-0.95, 0.95), "acos": (-0.95, 0.95), "reciprocal": (0.5, 3),
               "tan": (-1.3, 1.3)}
    names = ("exp exp2 expm1 log log2 log10 log1p sin cos tan asin acos atan sinh cosh sqrt rsqrt reciprocal tanh "
             "sigmoid erf").split()
    ops = []
    for name in names:
        low, high = domains.get(name, (-3, 3))
        ops.append(OpInfo(f"{name}.default", unary(low, high)))
    return ops


def _compare_ops():
    ops = []
    for name in ("eq", "ne", "lt", "le", "gt", "ge"):
        ops.append(OpInfo(f"{name}.Tensor", binary(low=-2, high=2), grad=False))
        ops.append(OpInfo(f"{name}.Scalar", binary_scalar(low=-2, high=2), grad=False))
    for name in ("logical_and", "logical_or", "logical_xor"):
        ops.append(OpInfo(f"{name}.default", binary(low=-1, high=1), grad=False))
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        ops.append(OpInfo(f"{name}.Tensor", binary(low=-5, high=5), grad=False))
    return ops


def _shift_ops():
    """<< and >>: torch's named overloads, the operator ones (x << y) and the in-place forms."""
    ops = []
    for name, dunder in (("bitwise_left_shift", "__lshift__"), ("bitwise_right_shift", "__rshift__")):
        inplace_dunder = dunder.replace("__", "__i", 1)
        for op_name, samples in ((f"{name}.Tensor", shift_tensor_samples), (f"{dunder}.Tensor", shift_tensor_samples),
                                 (f"{name}.Tensor_Scalar", shift_scalar_samples),
                                 (f"{dunder}.Scalar", shift_scalar_samples),
                                 (f"{name}.Scalar_Tensor", shift_scalar_tensor_samples),
                                 (f"{name}_.Tensor", inplace_shift_samples),
                                 (f"{inplace_dunder}.Tensor", inplace_shift_samples),
                                 (f"{name}_.Tensor_Scalar", inplace_shift_scalar_samples),
                                 (f"{inplace_dunder}.Scalar", inplace_shift_scalar_samples)):
            ops.append(OpInfo(op_name, samples, dtypes=INT, grad=False))
    return ops


def _issue20_ops():
    """The in-place forms and new ops of issue 20 (table_more.py, more_ops2.py)."""
    ops = [OpInfo(f"{name}_.default", inplace_unary(low, high), dtypes=FLOAT) for name, low, high in (
        ("acos", -0.9, 0.9), ("asin", -0.9, 0.9), ("atan", -3, 3), ("cos", -3, 3), ("cosh", -3, 3), ("sin", -3, 3),
        ("sinh", -3, 3), ("tan", -1.2, 1.2), ("log10", 0.1, 3), ("log2", 0.1, 3), ("rsqrt", 0.1, 3),
        ("reciprocal", 0.5, 3), ("frac", -3, 3), ("deg2rad", -90, 90), ("rad2deg", -3, 3))]
    # torch's backward of these in-place forms is not implemented (test_names_more.py checks both raise)
    ops += [OpInfo(f"{name}_.default", inplace_unary(low, high), dtypes=FLOAT, grad=False) for name, low, high in (
        ("acosh", 1.1, 4), ("asinh", -3, 3), ("atanh", -0.9, 0.9))]
    ops += [OpInfo(f"{name}.default", unary(low, high), dtypes=FLOAT) for name, low, high in (
        ("acosh", 1.1, 4), ("asinh", -3, 3), ("atanh", -0.9, 0.9))]
    ops += [OpInfo(f"{name}.default", unary(), dtypes=NUMERIC) for name in ("deg2rad", "rad2deg")]
    ops += [OpInfo(f"{name}_.default", inplace_unary(), dtypes=NUMERIC) for name in ("ceil", "floor", "trunc", "sign",
                                                                                       "sgn")]
    ops += [OpInfo(f"{name}_.{overload}", inplace_binary(low=-2, high=2, scalar_other=overload == "Scalar"),
                   dtypes=NUMERIC, grad=False)
            for name in ("eq", "ne", "lt", "le", "gt", "ge") for overload in ("Tensor", "Scalar")]
    ops += [OpInfo(f"{name}_.Tensor", inplace_binary(low=-5, high=5), dtypes=INT + ("bool",), grad=False)
            for name in ("bitwise_and", "bitwise_or", "bitwise_xor")]
    ops += [OpInfo(f"{name}_.default", inplace_binary(low=-1, high=1), grad=False)
            for name in ("logical_or", "logical_xor")]
    ops += [
        OpInfo("bitwise_not_.default", inplace_unary(-5, 5), dtypes=INT + ("bool",), grad=False),
        OpInfo("heaviside_.default", inplace_binary(low=-1, high=1), dtypes=NUMERIC, grad=False),
        OpInfo("nan_to_num_.default", inplace_unary(), dtypes=FLOAT),
        OpInfo("hypot_.default", inplace_binary(), dtypes=FLOAT),
        OpInfo("atan2_.default", inplace_binary(), dtypes=FLOAT),
        OpInfo("fmod_.Tensor", inplace_binary(nonzero=True), dtypes=FLOAT),
        OpInfo("fmod_.Scalar", inplace_binary(nonzero=True, scalar_other=True), dtypes=FLOAT),
        OpInfo("remainder_.Tensor", inplace_binary(nonzero=True), dtypes=FLOAT),
        OpInfo("remainder_.Scalar", inplace_binary(nonzero=True, scalar_other=True), dtypes=FLOAT),
        OpInfo("clamp_max_.default", inplace_with(clamp_bound_samples("max")), dtypes=NUMERIC),
        OpInfo("cumsum_.default", inplace_with(cumsum_samples), dtypes=FLOAT),
        OpInfo("cumprod_.default", inplace_with(cumsum_samples), dtypes=FLOAT),
        OpInfo("index_add_.default", inplace_with(index_add_samples)),
        OpInfo("tril_.default", inplace_with(tri_samples)),
        OpInfo("triu_.default", inplace_with(tri_samples)),
    ]
    ops += [OpInfo(f"{name}.default", binary(), dtypes=FLOAT) for name in ("fmax", "fmin", "logaddexp2", "nextafter")]
    ops += [OpInfo("nextafter_.default", inplace_binary(), dtypes=FLOAT)]
    ops += [OpInfo(f"{name}.default", binary(low=-20, high=20), dtypes=INT, grad=False) for name in ("gcd", "lcm")]
    ops += [OpInfo(f"{name}_.default", inplace_binary(low=-20, high=20), dtypes=INT, grad=False)
            for name in ("gcd", "lcm")]
    return ops


OP_DB = [
    # ------------------------------------------------------------ arithmetic
    OpInfo("add.Tensor", chain(binary(scalar=True), alpha_samples)),
    OpInfo("add.Scalar", binary_scalar(alpha=True)),
    OpInfo("sub.Tensor", chain(binary(scalar=True), alpha_samples)),
    OpInfo("sub.Scalar", binary_scalar(alpha=True)),
    OpInfo("rsub.Tensor", chain(binary(), alpha_samples)),
    OpInfo("rsub.Scalar", binary_scalar(alpha=True)),
    OpInfo("mul.Tensor", binary(scalar=True)),
    OpInfo("mul.Scalar", binary_scalar()),
    OpInfo("div.Tensor", binary(nonzero=True, scalar=True)),
    OpInfo("div.Scalar", binary_scalar(nonzero=True)),
    OpInfo("true_divide.Tensor", binary(nonzero=True, scalar=True)),
    OpInfo("div.Tensor_mode", chain(with_kwargs(binary(nonzero=True), rounding_mode="trunc"),
                                    with_kwargs(binary(nonzero=True), rounding_mode="floor")),
           xfails=[_x("meta", TORCH_META_DIFFERS + "(div floor on a transposed input: CPU keeps the layout, meta is "
                      "contiguous)", FLOAT)]),
    OpInfo("floor_divide.default", binary(nonzero=True), grad=False,  # (no derivative in torch either)
           xfails=[_x("meta", TORCH_META_DIFFERS + "(floor_divide on a transposed input: CPU keeps the layout, meta is "
                      "contiguous)", FLOAT)]),
    OpInfo("remainder.Tensor", binary(nonzero=True)),
    OpInfo("remainder.Scalar", binary_scalar(nonzero=True)),
    OpInfo("remainder.Scalar_Tensor", remainder_scalar_tensor, grad=False),  # (no derivative in torch either)
    OpInfo("fmod.Tensor", binary(nonzero=True)),
    OpInfo("fmod.Scalar", binary_scalar(nonzero=True)),
    OpInfo("neg.default", unary()),
    OpInfo("pow.Tensor_Scalar", pow_tensor_scalar),
    OpInfo("pow.Tensor_Tensor", pow_tensor_tensor),
    OpInfo("pow.Scalar", pow_scalar,
           xfails=[_x("meta", TORCH_META_DIFFERS + "(pow(Scalar, Tensor): CPU allocates contiguous, meta follows the "
                      "exponent's layout)")]),
    OpInfo("maximum.default", binary()),
    OpInfo("minimum.default", binary()),
    OpInfo("atan2.default", binary()),
    OpInfo("lerp.Scalar", lerp_samples, dtypes=FLOAT),
    OpInfo("lerp.Tensor", lerp_tensor_samples, dtypes=FLOAT),
    OpInfo("addcmul.default", addc_samples(nonzero=False)),
    OpInfo("addcdiv.default", addc_samples(nonzero=True), dtypes=FLOAT),
    # ------------------------------------------------------------ comparisons and logic
    *_compare_ops(),
    OpInfo("logical_not.default", unary(), grad=False),
    OpInfo("bitwise_not.default", unary(), grad=False),
    OpInfo("isnan.default", unary(special=True), grad=False),
    OpInfo("isinf.default", unary(special=True), grad=False,
           xfails=[_x("meta", TORCH_META_DIFFERS + "(integer input: CPU answers zeros_like(self), keeping a size-1 "
                      "dim's stride; meta is contiguous)", INT + ("bool",))]),
    OpInfo("isfinite.default", unary(special=True), grad=False,
           xfails=[_x("meta", TORCH_META_DIFFERS + "(integer input: CPU answers ones_like(self), keeping a size-1 "
                      "dim's stride; meta is contiguous)", INT + ("bool",))]),
    OpInfo("sign.default", unary()),
    OpInfo("sgn.default", unary()),
    OpInfo("floor.default", unary()),
    OpInfo("ceil.default", unary()),
    OpInfo("trunc.default", unary()),
    OpInfo("round.default", unary()),
    OpInfo("round.decimals", round_decimals_samples, dtypes=("float32", "float64")),
    # ------------------------------------------------------------ unary math
    OpInfo("abs.default", unary()),
    *_unary_float_ops(),
    # ------------------------------------------------------------ activations
    OpInfo("relu.default", unary(),
           xfails=[_x("meta", TORCH_META_DIFFERS + "(a size-1 dim's stride: CPU's clamp_min TensorIterator makes it "
                      "contiguous, meta keeps the input's)", NUMERIC)]),
    OpInfo("threshold.default", threshold_samples, dtypes=NUMERIC),
    OpInfo("threshold_backward.default", grad_and_input(extra=(0.5,)), dtypes=NUMERIC),
    OpInfo("gelu.default", activation_samples(kwargs_list=({}, {"approximate": "tanh"})), dtypes=FLOAT),
    OpInfo("gelu_backward.default", grad_and_input(kwargs_list=({}, {"approximate": "tanh"})), dtypes=FLOAT),
    OpInfo("silu.default", activation_samples(), dtypes=FLOAT),
    OpInfo("silu_backward.default", grad_and_input(), dtypes=FLOAT, grad=False),  # torch: no double backward
    OpInfo("sigmoid_backward.default", sigmoid_backward_samples, dtypes=FLOAT),
    OpInfo("tanh_backward.default", tanh_backward_samples, dtypes=FLOAT),
    OpInfo("leaky_relu.default", activation_samples((), (0.2,), (-0.5,)), dtypes=FLOAT),
    OpInfo("leaky_relu_backward.default", grad_and_input(extra=(0.2, False)), dtypes=FLOAT),
    OpInfo("elu.default", activation_samples((), (0.5,), (1.2, 2.0, 0.5)), dtypes=FLOAT),
    OpInfo("elu_backward.default", elu_backward_samples, dtypes=FLOAT,
           xfails=[_x("meta", TORCH_META_DIFFERS + "(CPU: grad_output leads the layout; meta, torch's where "
                      "decomposition: self_or_result)", FLOAT)]),
    OpInfo("hardtanh.default", activation_samples((), (-0.5, 0.75), (0, 2)), dtypes=NUMERIC,
           xfails=[_x("meta", TORCH_META_DIFFERS + "(a size-1 dim's stride: CPU writes into empty_like(self), meta "
                      "is contiguous)", NUMERIC)]),
    OpInfo("hardtanh_backward.default", grad_and_input(extra=(-0.5, 0.75)), dtypes=FLOAT,
           xfails=[_x("meta", TORCH_META_DIFFERS + "(CPU: grad_output leads the layout; meta: self)", FLOAT)]),
    OpInfo("softplus_backward.default", grad_and_input(extra=(2, 3)), dtypes=FLOAT,
           xfails=[_x("meta", TORCH_META_DIFFERS + "(CPU: grad_output leads the layout; meta: self)", FLOAT)]),
    OpInfo("softplus.default", activation_samples((), (2, 3), (0.5, 1)), dtypes=FLOAT),
    OpInfo("im2col.default", im2col_samples, dtypes=FLOAT),
    OpInfo("col2im.default", col2im_samples, dtypes=FLOAT,
           xfails=[_x("meta", TORCH_META_DIFFERS + "(an unbatched (1, 5, 7) result's size-1 dim: stride 49 in torch's "
                      "meta, 35 on the CPU)", FLOAT)]),
    OpInfo("softshrink.default", activation_samples((), (0.3,), (1.0,)), dtypes=FLOAT),
    OpInfo("hardshrink.default", activation_samples((), (0.3,), (1.0,)), dtypes=FLOAT,
           xfails=[_x("meta", TORCH_META_DIFFERS + "(its meta is the decomposition's where(abs(x) <= lambd, 0, x): a "
                      "transposed (3, 1) input gives stride (1, 3); the CPU kernel keeps (1, 1))", FLOAT)]),
    OpInfo("softshrink_backward.default", grad_and_input(extra=(0.3,)), dtypes=FLOAT),
    OpInfo("hardshrink_backward.default", grad_and_input(extra=(0.5,)), dtypes=FLOAT),
    OpInfo("hardsigmoid.default", activation_samples(), dtypes=FLOAT),
    OpInfo("hardsigmoid_backward.default", grad_and_input(low=-5.0, high=5.0), dtypes=FLOAT, grad=False,
           xfails=[_x("meta", TORCH_META_DIFFERS + "(CPU: grad_output leads the layout; meta: self)", FLOAT)]),
    OpInfo("mish.default", activation_samples(), dtypes=FLOAT),
    OpInfo("hardsigmoid_.default", inplace_with(activation_samples()), dtypes=FLOAT),
    OpInfo("mish_.default", inplace_with(activation_samples()), dtypes=FLOAT),
    OpInfo("mish_backward.default", grad_and_input(), dtypes=FLOAT, grad=False),  # (no derivative in torch either)
    OpInfo("_prelu_kernel.default", prelu_samples(backward=False), dtypes=FLOAT),
    OpInfo("_prelu_kernel_backward.default", prelu_samples(backward=True), dtypes=FLOAT),
    OpInfo("where.self", where_samples),
    OpInfo("clamp.default", clamp_samples, dtypes=NUMERIC),
    OpInfo("clamp.Tensor", clamp_tensor_samples, dtypes=NUMERIC),
    OpInfo("clamp_min.default", clamp_bound_samples("min"), dtypes=NUMERIC),
    OpInfo("clamp_max.default", clamp_bound_samples("max"), dtypes=NUMERIC),
    OpInfo("masked_fill.Scalar", masked_fill_samples(False)),
    OpInfo("masked_fill.Tensor", masked_fill_samples(True)),
    # ------------------------------------------------------------ in-place forms
    OpInfo("add_.Tensor", inplace_binary(alpha=True)),
    OpInfo("add_.Scalar", inplace_binary(scalar_other=True, alpha=True)),
    OpInfo("sub_.Tensor", inplace_binary(alpha=True), dtypes=NUMERIC),
    OpInfo("mul_.Tensor", inplace_binary()),
    OpInfo("mul_.Scalar", inplace_binary(scalar_other=True)),
    OpInfo("div_.Tensor", inplace_binary(nonzero=True)),
    OpInfo("div_.Scalar", inplace_binary(scalar_other=True, nonzero=True)),
    OpInfo("div_.Tensor_mode", chain(with_kwargs(inplace_binary(nonzero=True), rounding_mode="trunc"),
                                     with_kwargs(inplace_binary(nonzero=True), rounding_mode="floor"))),
    OpInfo("pow_.Scalar", inplace_with(pow_tensor_scalar)),
    OpInfo("neg_.default", inplace_unary(), dtypes=NUMERIC),
    OpInfo("relu_.default", inplace_unary(), dtypes=NUMERIC),
    OpInfo("sigmoid_.default", inplace_unary(), dtypes=FLOAT),
    OpInfo("tanh_.default", inplace_unary(), dtypes=FLOAT),
    OpInfo("exp_.default", inplace_unary(), dtypes=FLOAT),
    OpInfo("sqrt_.default", inplace_unary(0.1, 3), dtypes=FLOAT),
    OpInfo("clamp_.default", inplace_with(clamp_samples), dtypes=NUMERIC),
    OpInfo("clamp_min_.default", inplace_with(clamp_bound_samples("min")), dtypes=NUMERIC),
    OpInfo("clamp_min.Tensor", clamp_min_tensor_samples, dtypes=NUMERIC),
    OpInfo("clamp_min_.Tensor", inplace_with(clamp_min_tensor_samples), dtypes=NUMERIC),
    OpInfo("leaky_relu_.default", inplace_with(activation_samples((), (0.2,), (-0.5,))), dtypes=FLOAT),
    OpInfo("elu_.default", inplace_with(activation_samples((), (0.5,), (1.2, 2.0, 0.5))), dtypes=FLOAT),
    OpInfo("hardtanh_.default", inplace_with(activation_samples((), (-0.5, 0.75), (0, 2))), dtypes=NUMERIC),
    OpInfo("masked_fill_.Scalar", inplace_with(masked_fill_samples(False))),
    OpInfo("addcmul_.default", inplace_with(addc_samples(nonzero=False))),
    OpInfo("addcdiv_.default", inplace_with(addc_samples(nonzero=True)), dtypes=FLOAT),
    OpInfo("lerp_.Scalar", inplace_with(lerp_samples), dtypes=FLOAT),
    OpInfo("lerp_.Tensor", inplace_with(lerp_tensor_samples), dtypes=FLOAT),
    OpInfo("logical_and_.default", inplace_binary(low=-1, high=1), grad=False),
    OpInfo("maximum_.default", inplace_binary(), meta=False, grad=False,
           xfails=[_x("values", NOT_ATEN)]),
    OpInfo("copy_.default", copy_samples),
    OpInfo("fill_.Scalar", fill_scalar_samples),
    OpInfo("fill_.Tensor", fill_tensor_samples),
    OpInfo("zero_.default", inplace_unary()),
    OpInfo("index_put_.default", index_put_samples),
    OpInfo("index_copy_.default", index_copy_samples),
    OpInfo("index_fill_.int_Scalar", index_fill_samples(value_tensor=False)),
    OpInfo("index_fill_.int_Tensor", index_fill_samples(value_tensor=True)),
    OpInfo("scatter_reduce_.two", scatter_reduce_samples, dtypes=NUMERIC),
    *_shift_ops(),
    OpInfo("copy.default", copy_samples, grad=False),  # torch: aten::copy has no derivative (minitorch2's has one)
    OpInfo("fill.Scalar", fill_scalar_samples),
    OpInfo("fill.Tensor", fill_tensor_samples),
    OpInfo("zero.default", inplace_unary()),
    # ------------------------------------------------------------ reductions
    OpInfo("sum.default", reduction_full_samples(dtype_kw=True)),
    OpInfo("sum.dim_IntList", reduction_dim_samples(dtype_kw=True)),
    OpInfo("mean.default", reduction_full_samples(dtype_kw=True)),
    OpInfo("mean.dim", reduction_dim_samples(dtype_kw=True)),
    OpInfo("prod.default", prod_samples),
    OpInfo("norm.Scalar", norm_scalar_samples, dtypes=FLOAT),
    OpInfo("norm.ScalarOpt_dim", norm_dims_samples, dtypes=FLOAT),
    OpInfo("prod.dim_int", prod_dim_samples),
    OpInfo("amax.default", amax_samples),
    OpInfo("amin.default", amax_samples),
    OpInfo("max.default", reduction_full_samples()),
    OpInfo("min.default", reduction_full_samples()),
    OpInfo("max.dim", max_dim_samples),
    # random floats have no ties, so torch's unstable sort and topk order them as the stable sort does
    OpInfo("sort.default", sort_samples(stable=False), dtypes=("float32", "float64")),
    OpInfo("sort.stable", sort_samples(stable=True), dtypes=("float32", "float64", "int64", "int32", "bool")),
    OpInfo("topk.default", topk_samples, dtypes=("float32", "float64")),
    OpInfo("min.dim", max_dim_samples),
    OpInfo("argmax.default", argmax_samples, grad=False),
    OpInfo("argmin.default", argmax_samples, grad=False),
    OpInfo("var.correction", var_samples),
    OpInfo("std.correction", var_samples),
    OpInfo("var_mean.correction", var_samples),
    OpInfo("logsumexp.default", logsumexp_samples),
    OpInfo("cumsum.default", cumsum_samples),
    OpInfo("cumprod.default", cumsum_samples),
    OpInfo("any.default", any_all_full, grad=False),
    OpInfo("any.dims", any_all_dims, grad=False),
    OpInfo("all.default", any_all_full, grad=False),
    OpInfo("all.dims", any_all_dims, grad=False),
    OpInfo("any.dim", any_all_dim, grad=False),
    OpInfo("all.dim", any_all_dim, grad=False),
    OpInfo("pixel_shuffle.default", pixel_shuffle_samples),
    OpInfo("native_group_norm.default", native_group_norm_samples, FLOAT),
    OpInfo("native_group_norm_backward.default", native_group_norm_backward_samples, FLOAT, grad=False),
    OpInfo("pixel_unshuffle.default", pixel_unshuffle_samples),
    # ------------------------------------------------------------ matrix products
    OpInfo("mm.default", mm_samples),
    OpInfo("bmm.default", bmm_samples),
    OpInfo("addmm.default", addmm_samples),
    OpInfo("baddbmm.default", baddbmm_samples),
    OpInfo("dot.default", dot_samples),
    OpInfo("mv.default", mv_samples),
    # ------------------------------------------------------------ views
    OpInfo("view.default", view_samples),
    OpInfo("_unsafe_view.default", view_samples),
    OpInfo("expand.default", expand_samples),
    OpInfo("permute.default", permute_samples),
    OpInfo("transpose.int", transpose_samples),
    OpInfo("t.default", t_samples),
    OpInfo("unsqueeze.default", unsqueeze_samples),
    OpInfo("squeeze.default", squeeze_samples),
    OpInfo("squeeze.dim", squeeze_dim_samples),
    OpInfo("squeeze.dims", squeeze_dims_samples),
    OpInfo("select.int", select_samples),
    OpInfo("slice.Tensor", slice_samples),
    OpInfo("as_strided.default", as_strided_samples),
    OpInfo("diagonal.default", diagonal_samples),
    OpInfo("alias.default", alias_samples),
    OpInfo("detach.default", alias_samples, grad=False),
    OpInfo("split.Tensor", split_samples),
    OpInfo("split_with_sizes.default", split_with_sizes_samples),
    OpInfo("unbind.int", unbind_samples),
    # ------------------------------------------------------------ copies and conversions
    OpInfo("clone.default", clone_samples),
    OpInfo("_to_copy.default", to_copy_samples),
    OpInfo("lift_fresh.default", alias_samples, grad=False),
    OpInfo("lift_fresh_copy.default", alias_samples, grad=False),
    OpInfo("sym_size.int", sym_size_samples, grad=False),
    OpInfo("sym_stride.int", sym_stride_samples, grad=False),
    OpInfo("sym_storage_offset.default", sym_storage_offset_samples, grad=False),
    # (its meta: torch's raises on data it does not have, ours makes the unbacked float an AOT trace reads)
    OpInfo("_local_scalar_dense.default", local_scalar_dense_samples, grad=False, meta=False),
    # ------------------------------------------------------------ joining, indexing, scatter/gather
    OpInfo("cat.default", cat_samples),
    OpInfo("stack.default", stack_samples),
    OpInfo("index.Tensor", index_samples),
    OpInfo("index_put.default", index_put_samples),
    OpInfo("_unsafe_index.Tensor", index_samples),  # (traced nearest upsampling; on CPU ATen's index itself)
    OpInfo("_unsafe_index_put.default", index_put_samples),
    OpInfo("_unsafe_masked_index_put_accumulate.default", masked_index_put_accumulate_samples, grad=False),
    OpInfo("gather.default", gather_samples),
    OpInfo("scatter.src", scatter_src_samples),
    OpInfo("scatter.value", scatter_value_samples),
    OpInfo("scatter_add.default", scatter_add_samples),
    OpInfo("index_select.default", index_select_samples),
    OpInfo("index_add.default", index_add_samples),
    OpInfo("take.default", take_samples),
    OpInfo("scatter_reduce.two", scatter_reduce_samples, dtypes=NUMERIC),
    OpInfo("index_copy.default", index_copy_samples),
    OpInfo("index_fill.int_Scalar", index_fill_samples(value_tensor=False)),
    OpInfo("index_fill.int_Tensor", index_fill_samples(value_tensor=True)),
    OpInfo("tril.default", tri_samples),
    OpInfo("triu.default", tri_samples),
    OpInfo("flip.default", flip_samples),
    OpInfo("roll.default", roll_samples),
    OpInfo("repeat.default", repeat_samples),
    OpInfo("constant_pad_nd.default", pad_samples),
    OpInfo("nonzero.default", nonzero_samples, grad=False, meta=False),
    OpInfo("select_backward.default", select_backward_samples),
    OpInfo("slice_backward.default", slice_backward_samples),
    OpInfo("diagonal_backward.default", diagonal_backward_samples),
    OpInfo("slice_scatter.default", slice_scatter_samples),
    OpInfo("select_scatter.default", select_scatter_samples),
    OpInfo("diagonal_scatter.default", diagonal_scatter_samples),
    OpInfo("as_strided_scatter.default", as_strided_scatter_samples,
           xfails=[_x("grad", "torch's as_strided_scatter_backward puts self's gradient inside the scattered window "
                      "(its note: only contiguous inputs are supported); mathematically it belongs outside, which is "
                      "what minitorch2 returns")]),
    # ------------------------------------------------------------ factories
    OpInfo("empty.memory_format", sized_factory_samples, values=False, factory=True, grad=False),
    OpInfo("zeros.default", sized_factory_samples, factory=True, grad=False),
    OpInfo("ones.default", sized_factory_samples, factory=True, grad=False),
    OpInfo("full.default", full_samples, factory=True, grad=False),
    OpInfo("scalar_tensor.default", scalar_tensor_samples, factory=True, grad=False),
    OpInfo("arange.start_step", arange_samples, factory=True, grad=False),
    OpInfo("arange.default", arange_end_samples, factory=True, grad=False),
    OpInfo("arange.start", arange_start_samples, factory=True, grad=False),
    OpInfo("linspace.default", linspace_samples, factory=True, grad=False),
    OpInfo("eye.m", eye_samples, factory=True, grad=False),
    OpInfo("eye.default", eye_n_samples, factory=True, grad=False),
    OpInfo("empty_like.default", like_samples, values=False, grad=False),
    OpInfo("zeros_like.default", like_samples, grad=False),
    OpInfo("ones_like.default", like_samples, grad=False),
    OpInfo("full_like.default", full_like_samples, grad=False),
    OpInfo("new_zeros.default", new_factory_samples, grad=False),
    OpInfo("new_empty.default", new_factory_samples, values=False, grad=False),
    OpInfo("new_empty_strided.default", new_empty_strided_samples, values=False, grad=False),
    OpInfo("new_ones.default", new_factory_samples, grad=False),
    OpInfo("new_full.default", new_full_samples, grad=False),

    # ------------------------------------------------------------ table_extra.py
    OpInfo("linalg_inv_ex.default", inv_ex_samples, dtypes=LINALG_DTYPES),
    OpInfo("_linalg_det.default", square_samples, dtypes=LINALG_DTYPES),
    OpInfo("linalg_matrix_exp.default", square_samples, dtypes=LINALG_DTYPES),
    OpInfo("_linalg_slogdet.default", square_samples, dtypes=LINALG_DTYPES),
    OpInfo("_linalg_solve_ex.default", solve_ex_samples, dtypes=LINALG_DTYPES),
    OpInfo("linalg_cholesky_ex.default", cholesky_ex_samples, dtypes=LINALG_DTYPES),
    OpInfo("linalg_qr.default", qr_samples, dtypes=LINALG_DTYPES),
    OpInfo("_linalg_svd.default", svd_samples, dtypes=LINALG_DTYPES,
           xfails=[_x("meta", TORCH_META_DIFFERS + "(Vh: CPU leaves it column-major as LAPACK writes it, meta is "
                      "contiguous)", LINALG_DTYPES)]),
    OpInfo("_linalg_eigh.default", eigh_samples, dtypes=LINALG_DTYPES),
    OpInfo("linalg_pinv.atol_rtol_tensor", pinv_samples, dtypes=LINALG_DTYPES),
    OpInfo("linalg_cross.default", cross_samples, dtypes=NUMERIC),
    OpInfo("_euclidean_dist.default", euclidean_dist_samples, dtypes=("float32", "float64")),
    OpInfo("linalg_lstsq.default", lstsq_samples, dtypes=LINALG_DTYPES, meta=False),  # torch has no meta kernel
    OpInfo("erfc.default", unary(special=True)),
    OpInfo("i0.default", unary(special=True)),
    OpInfo("special_i1.default", unary(special=True)),
    OpInfo("sinc.default", unary(special=True)),
    OpInfo("special_entr.default", unary(special=True)),
    OpInfo("special_ndtri.default", unary(-0.2, 1.2)),
    OpInfo("copysign.Tensor", binary(),
           xfails=[_x("meta", TORCH_META_DIFFERS + "(a transposed input: CPU keeps its layout, meta is contiguous)"),
                   _x("grad_mixed", "a 0-d float64 self with a float32 other: self's gradient is a float32 sum of "
                      "six values (the ratio is exactly ±1) that torch adds in another order; one ulp apart, over "
                      "float64's tolerance", ("float32",))]),
    OpInfo("copysign.Scalar", binary_scalar()),
    *[OpInfo(f"{name}_.default", inplace_unary(low, high), dtypes=FLOAT) for name, low, high in (
        ("erf", -3, 3), ("erfc", -3, 3), ("erfinv", -0.95, 0.95), ("lgamma", 0.1, 4), ("digamma", 0.1, 4),
        ("log1p", -0.9, 3), ("expm1", -3, 3), ("exp2", -3, 3), ("i0", -3, 3), ("sinc", -3, 3))],
    OpInfo("logit_.default", logit_inplace_samples, dtypes=FLOAT),
    OpInfo("round_.default", inplace_unary(), dtypes=NUMERIC),
    OpInfo("round_.decimals", inplace_with(round_decimals_samples), dtypes=("float32", "float64")),
    OpInfo("xlogy_.Tensor", inplace_binary(low=0, high=3), dtypes=FLOAT),
    OpInfo("xlogy_.Scalar_Other", inplace_binary(low=0, high=3, scalar_other=True), dtypes=FLOAT),
    OpInfo("copysign_.Tensor", inplace_binary(), dtypes=FLOAT),
    OpInfo("copysign_.Scalar", inplace_binary(scalar_other=True), dtypes=FLOAT),
    OpInfo("clamp_.Tensor", clamp_tensor_inplace_samples, dtypes=NUMERIC),
    OpInfo("nanmedian.default", nanmedian_samples, dtypes=NUMERIC),
    OpInfo("nanmedian.dim", nanmedian_dim_samples, dtypes=NUMERIC),
    OpInfo("mode.default", mode_samples),
    OpInfo("aminmax.default", aminmax_samples),
    OpInfo("logcumsumexp.default", logcumsumexp_samples, dtypes=FLOAT),
    OpInfo("masked_scatter.default", masked_scatter_samples(inplace=False)),
    OpInfo("masked_scatter_.default", masked_scatter_samples(inplace=True)),
    OpInfo("scatter_.src", inplace_with(scatter_src_samples)),
    OpInfo("scatter_.value", inplace_with(scatter_value_samples)),
    OpInfo("scatter_add_.default", inplace_with(scatter_add_samples)),
    OpInfo("block_diag.default", block_diag_samples),
    # ---- issue 20 (table_more.py's _more_in_place_rows and more_ops2.py's rows): keep this block last
    *_issue20_ops(),
]

OPS_BY_NAME = {op.name: op for op in OP_DB}
assert len(OPS_BY_NAME) == len(OP_DB), "an op is listed twice in OP_DB"
