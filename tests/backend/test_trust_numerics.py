"""Numerics and checks of compiled code against real torch: exact integer arithmetic at the int64
extremes, integer division by zero, bounds checks of the indexing lowerings, sign(nan), and
compiling over empty (size-0) dimensions.

Each case is a function `fn(lib, *inputs)` written once for both libraries: run by torch eager
(the oracle) on torch tensors, and by `backend.compile_fx` (aot + lowering + scheduling +
codegen + wrapper) on equal minitorch2 tensors, under each code generator: the numpy reference,
the LLVM one and Triton (interpreted without a GPU). Values must be equal exactly for integers
(no float detour may round 2**62 + 7), within float32 ulps for floats; where torch raises, the
compiled call must raise the same class with torch's words.
"""
import importlib.util

import numpy as np
import pytest
import torch

import backend
import minitorch2 as mt
import minitorch2.nn as nn
from tests.backend.codegens import codegen_fixture

CODEGENS = ["numpy_ref", "llvm"] + (["triton"] if importlib.util.find_spec("triton") else [])
codegen = codegen_fixture(CODEGENS, autouse=True)

I64_MIN, I64_MAX = -2**63, 2**63 - 1
EXTREMES = [2**62 + 7, -2**62 - 5, I64_MAX, I64_MIN, I64_MIN + 1, 3, -3, 0, 1, -1]
DIVISORS = [3, 7, -2, 3, -1, 2**62 + 1, I64_MIN, 5, 2**31, 13]  # never I64_MIN / -1: torch's own kernels trap


class Fn(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *inputs):
        return self.fn(mt, *inputs)


def as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def to_mt(x):
    return mt.from_numpy(x.numpy().copy()) if isinstance(x, torch.Tensor) else x


def run_compiled(fn, *inputs):
    inputs = [to_mt(x) for x in inputs]
    return as_tuple(backend.compile_fx.compile_fx(Fn(fn), inputs)(*inputs))


def check(fn, *inputs):
    """fn compiled equals fn in torch eager: dtypes, shapes and values (integers exactly)."""
    expected = as_tuple(fn(torch, *inputs))
    outputs = run_compiled(fn, *inputs)
    assert len(outputs) == len(expected)
    for i, (ours, theirs) in enumerate(zip(outputs, expected)):
        theirs = theirs.detach().numpy()
        ours = ours.detach().numpy()
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, (i, ours.dtype, theirs.dtype, ours.shape)
        if theirs.dtype.kind == "f":
            np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=0, err_msg=f"output {i}")
        else:
            np.testing.assert_array_equal(ours, theirs, err_msg=f"output {i}")
    return outputs


def check_raises(fn, *inputs):
    """torch eager raises; the compiled call (tracing or running) raises the same class, with torch's words."""
    with pytest.raises(Exception) as theirs:
        fn(torch, *inputs)
    words = str(theirs.value).splitlines()[0]
    with pytest.raises(type(theirs.value)) as ours:
        run_compiled(fn, *inputs)
    assert words in str(ours.value), (words, str(ours.value))


def i64(values):
    return torch.tensor(values, dtype=torch.int64)


# ---- item 4: integer ops stay exact at the int64 extremes -----------------------------------------------

INTEGER_OPS = {
    "div_trunc": lambda L, a, b: L.div(a, b, rounding_mode="trunc"),
    "div_floor": lambda L, a, b: L.div(a, b, rounding_mode="floor"),
    "floordiv": lambda L, a, b: a // b,
    "remainder": lambda L, a, b: a % b,
    "fmod": lambda L, a, b: L.fmod(a, b),
    "scalar_divisors": lambda L, a, b: (L.div(a, 7, rounding_mode="trunc"), L.fmod(a, 3), a % -3, a // 5,
                                        L.div(a, -7, rounding_mode="floor")),
    "add_sub_mul_wrap": lambda L, a, b: (a + b, a - b, a * b, a * 3, a + 2**62, a * 2**62),
    "neg_abs_sign": lambda L, a, b: (-a, a.abs(), a.sign()),
    "pow": lambda L, a, b: (a ** 2, a ** 3, a ** (b.abs() % 64)),
    "clamp": lambda L, a, b: (a.clamp(-2**62, 2**62 + 3), a.clamp(min=2**62 + 5), a.clamp(max=b)),
    "maximum_minimum": lambda L, a, b: (L.maximum(a, b), L.minimum(a, b)),
    "comparisons": lambda L, a, b: (a < b, a <= b, a == b, a != b, a > 2**62 + 6, a >= I64_MAX, a == I64_MIN),
    "where": lambda L, a, b: (L.where(a > b, a, b), L.where(a > 0, a, 2**62 + 1)),
    "bitwise": lambda L, a, b: (a & b, a | b, a ^ b, ~a),
    "casts": lambda L, a, b: (a.to(L.int32), a.to(L.int16), a.to(L.int8), a.to(L.uint8), a.to(L.bool),
                              a.to(L.float64), a.to(L.float32)),
    "reductions": lambda L, a, b: (a.sum(), a[:3].prod(), a.max(), a.min(), a.amax(0), a.argmax(), a.argmin(),
                                   a.reshape(2, 5).sum(1), a[:2].sum()),
    "cumsum": lambda L, a, b: a.cumsum(0),
}


@pytest.mark.parametrize("name", list(INTEGER_OPS))
def test_int64_ops_are_exact_at_the_extremes(name):
    check(INTEGER_OPS[name], i64(EXTREMES), i64(DIVISORS))


def test_trunc_division_of_2_to_62_plus_7_is_exact():
    """The Trust issue's example: a float quotient loses the last digits (1537228672809129216)."""
    out, = check(lambda L, a, b: L.div(a, b, rounding_mode="trunc"), i64([2**62 + 7]), i64([3]))
    assert out.tolist() == [1537228672809129303]


def test_int32_ops_at_the_extremes():
    a = torch.tensor([2**31 - 1, -2**31, 7, -7, 2**30 + 3], dtype=torch.int32)
    b = torch.tensor([3, -3, -2, 2**31 - 1, 5], dtype=torch.int32)
    check(lambda L, a, b, wide: (L.div(a, b, rounding_mode="trunc"), a // b, a % b, L.fmod(a, b), a * b, a + b,
                                 -a, a.abs(), a.sum(), a ** 2, a + wide, a // wide), a, b, i64([2**62, 3, -3, 5, 7]))


def test_narrow_integer_division():
    check(lambda L, a, b: (L.fmod(a, b), L.div(a, b, rounding_mode="trunc"), a // b, a % b),
          torch.tensor([-128, 7, 127], dtype=torch.int8), torch.tensor([7, -3, -1], dtype=torch.int8))
    check(lambda L, a, b: (L.fmod(a, b), L.div(a, b, rounding_mode="trunc"), a // b, a % b),
          torch.tensor([250, 7, 0], dtype=torch.uint8), torch.tensor([7, 3, 255], dtype=torch.uint8))


def test_float_fmod_and_trunc_division():
    """fmod is C's fmod (exact), not x - trunc(x / y) * y, which is off for large quotients. (Not a % b: torch's
    compiled remainder is a - (a // b) * b; test_probes_s29 compares it with torch.compile's.)"""
    check(lambda L, a: (L.fmod(a, 3.0), L.fmod(a, 0.1), L.div(a, 3.0, rounding_mode="trunc")),
          torch.tensor([1e20, -1e17, 5.5], dtype=torch.float64))
    check(lambda L, a, b: L.fmod(a, b), torch.tensor([100.5, -17.25, 5.5], dtype=torch.float16),
          torch.tensor([3.0, 0.7, -2.0], dtype=torch.float16))
    check(lambda L, a: (L.fmod(a, 2.5), L.div(a, 2.5, rounding_mode="trunc")), i64([2**62 + 7, -9]))


@pytest.mark.parametrize("source", [torch.float64, torch.float32, torch.float16])
def test_float_to_integer_casts_out_of_range_match_torch(source):
    """torch's CPU conversion (x86's): NaN and out-of-range values give the minimum of the int64 or int32
    conversion, narrower types wrap from int32."""
    values = [9.3e18, -9.3e18, float("nan"), float("inf"), -float("inf"), 3e9, -3e9, 1e5, -1e5, 300.5, -300.5,
              2.0**63, -2.0**63, 65504.0]
    x = torch.tensor(values, dtype=torch.float64).to(source)
    check(lambda L, a: tuple(a.to(getattr(L, name)) for name in ("int64", "int32", "int16", "uint8")), x)
    # to int8, torch's compiled kernels (vector loops) saturate a float32/float16 source, unlike eager
    expected = (torch.compile(lambda a: a.to(torch.int8)) if source is not torch.float64 else
                (lambda a: a.to(torch.int8)))(x)
    np.testing.assert_array_equal(run_compiled(lambda L, a: a.to(L.int8), x)[0].numpy(), expected.numpy())


# ---- item 5: integer division by zero raises as torch does -----------------------------------------------

ZERO_DIVISIONS = {
    "remainder_scalar": lambda L, a, b: a % 0,
    "floordiv_scalar": lambda L, a, b: a // 0,
    "fmod_scalar": lambda L, a, b: L.fmod(a, 0),
    "div_trunc_scalar": lambda L, a, b: L.div(a, 0, rounding_mode="trunc"),
    "div_floor_scalar": lambda L, a, b: L.div(a, 0, rounding_mode="floor"),
    "remainder_tensor": lambda L, a, b: a % b,
    "floordiv_tensor": lambda L, a, b: a // b,
    "fmod_tensor": lambda L, a, b: L.fmod(a, b),
    "div_trunc_tensor": lambda L, a, b: L.div(a, b, rounding_mode="trunc"),
    "masked_floordiv": lambda L, a, b: L.where(b != 0, a // b, 0),  # torch divides every element first
}


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.uint8])
@pytest.mark.parametrize("name", list(ZERO_DIVISIONS))
def test_integer_division_by_zero_raises(name, dtype):
    check_raises(ZERO_DIVISIONS[name], torch.tensor([5, 7], dtype=dtype), torch.tensor([0, 1], dtype=dtype))


def test_integer_division_by_zero_of_an_empty_tensor_is_empty():
    check(lambda L, a: (a % 0, a // 0, L.fmod(a, 0), L.div(a, 0, rounding_mode="trunc")), i64([]))


def test_float_division_by_zero_does_not_raise():
    check(lambda L, a: (a.float() % 0, a.float() // 0, L.fmod(a.float(), 0), a / 0), i64([5, -7]))


@pytest.mark.parametrize("name", ["div_trunc_tensor", "div_floor_scalar", "remainder_tensor", "fmod_tensor"])
def test_bool_integer_division_is_refused(name):
    check_raises(ZERO_DIVISIONS[name], torch.tensor([True, False]), torch.tensor([True, True]))


# ---- item 6: every indexing lowering checks its indices as torch does ----------------------------------

ROWS = torch.arange(12.).reshape(4, 3)


def functional(L):
    import minitorch2.nn.functional as mtF

    return torch.nn.functional if L is torch else mtF


def index(*values):
    return torch.tensor(values, dtype=torch.int64)


INDEX_ERRORS = {
    # one index per slice: lowered to where(index == position, src, self), the index read through a checked Indirect
    "scatter_src_one_per_slice": (lambda L, x, i, s: x.scatter(1, i, s), (ROWS, index([7], [0], [1], [2]),
                                                                          torch.ones(4, 1))),
    "scatter_src_negative": (lambda L, x, i, s: x.scatter(1, i, s), (ROWS, index([-1], [0], [1], [2]),
                                                                     torch.ones(4, 1))),
    "scatter_src_0d": (lambda L, x, i, s: x.scatter(0, i, s), (torch.tensor(1.), torch.tensor(3), torch.tensor(5.))),
    "scatter_value": (lambda L, x, i: x.scatter(1, i, 2.0), (ROWS, index([7], [0], [1], [2]))),
    "scatter_add": (lambda L, x, i, s: x.scatter_add(1, i, s), (ROWS, index([7], [0], [1], [2]), torch.ones(4, 1))),
    "gather": (lambda L, x, i: x.gather(1, i), (ROWS, index([7], [0], [1], [2]))),
    "index_select": (lambda L, x, i: x.index_select(0, i), (ROWS, index(0, 4))),
    "index_select_dim1": (lambda L, x, i: x.index_select(1, i), (ROWS, index(0, 3))),
    "index": (lambda L, x, i: x[i], (ROWS, index(0, -5))),
    "index_put": (lambda L, x, i, v: x.index_put((i,), v), (ROWS, index(0, 4), torch.ones(2, 3))),
    "index_add": (lambda L, x, i, v: x.index_add(0, i, v), (ROWS, index(0, 4), torch.ones(2, 3))),
    "index_add_negative": (lambda L, x, i, v: x.index_add(1, i, v), (ROWS, index(0, -1), torch.ones(4, 2))),
    "embedding": (lambda L, w, i: functional(L).embedding(i, w), (ROWS, index(0, 4))),
    "nll_loss_target": (lambda L, x, t: functional(L).nll_loss(x, t), (ROWS, index(0, 3, 1, 2))),
    "nll_loss_negative_target": (lambda L, x, t: functional(L).nll_loss(x, t), (ROWS, index(0, -2, 1, 2))),
    "cross_entropy_target": (lambda L, x, t: functional(L).cross_entropy(x, t, reduction="none"),
                             (ROWS, index(0, 3, 1, 2))),
}


@pytest.mark.parametrize("name", list(INDEX_ERRORS))
def test_index_out_of_range_raises_torchs_error(name):
    fn, inputs = INDEX_ERRORS[name]
    check_raises(fn, *inputs)


def zeros(*shape, dtype=torch.int64):
    return torch.zeros(*shape, dtype=dtype)


ARGUMENT_ERRORS = {  # caught when traced, by the op's meta (the compiled kernels would read out of bounds)
    "gather_float_index": (lambda L, x, i: x.gather(1, i), (ROWS, zeros(4, 1, dtype=torch.float32))),
    "gather_index_dims": (lambda L, x, i: x.gather(1, i), (ROWS, zeros(4, 1, 1))),
    "gather_index_too_large": (lambda L, x, i: x.gather(1, i), (ROWS, zeros(5, 1))),
    "scatter_float_index": (lambda L, x, i: x.scatter(1, i, 1.0), (ROWS, zeros(4, 1, dtype=torch.float32))),
    "scatter_index_too_large": (lambda L, x, i: x.scatter(1, i, 1.0), (ROWS, zeros(5, 1))),
    "scatter_src_too_small": (lambda L, x, i, s: x.scatter(1, i, s), (ROWS, zeros(4, 2), torch.ones(4, 1))),
    "scatter_add_src_too_small": (lambda L, x, i, s: x.scatter_add(1, i, s), (ROWS, zeros(4, 2), torch.ones(4, 1))),
    "scatter_src_dtype": (lambda L, x, i, s: x.scatter(1, i, s), (ROWS, zeros(4, 1), torch.ones(4, 1).double())),
    "index_select_float_index": (lambda L, x, i: x.index_select(0, i), (ROWS, zeros(2, dtype=torch.float32))),
    "index_select_matrix_index": (lambda L, x, i: x.index_select(0, i), (ROWS, zeros(2, 1))),
    "index_add_float_index": (lambda L, x, i, s: x.index_add(0, i, s), (ROWS, zeros(2, dtype=torch.float32),
                                                                        torch.ones(2, 3))),
    "index_add_count": (lambda L, x, i, s: x.index_add(0, i, s), (ROWS, zeros(2), torch.ones(3, 3))),
    "index_add_source_shape": (lambda L, x, i, s: x.index_add(0, i, s), (ROWS, zeros(2), torch.ones(2, 2))),
    "index_put_float_index": (lambda L, x, i: x.index_put((i,), x[:2]), (ROWS, zeros(2, dtype=torch.float32))),
    "nll_loss_int32_target": (lambda L, x, t: functional(L).nll_loss(x, t), (ROWS, zeros(4, dtype=torch.int32))),
    "mv_size": (lambda L, a, b: L.mv(a, b), (ROWS, torch.ones(4))),
    "dot_size": (lambda L, a, b: L.dot(a, b), (torch.ones(3), torch.ones(4))),
    "matmul_size": (lambda L, a, b: a @ b, (ROWS, torch.ones(4, 2))),
    "addmm_bias": (lambda L, c, a, b: L.addmm(c, a, b), (torch.ones(3, 2), ROWS, torch.ones(3, 2))),
    "baddbmm_bias": (lambda L, c, a, b: L.baddbmm(c, a, b), (torch.ones(3, 2), torch.ones(2, 4, 3),
                                                             torch.ones(2, 3, 2))),
}


@pytest.mark.parametrize("name", list(ARGUMENT_ERRORS))
def test_bad_index_arguments_raise_torchs_error(name):
    fn, inputs = ARGUMENT_ERRORS[name]
    check_raises(fn, *inputs)


def test_in_range_indexing_is_compiled_without_fallbacks():
    """The checks cost nothing where the indices are good: the same ops compile to kernels."""
    check(lambda L, x, i, s: (x.scatter(1, i, s), x.gather(1, i), x.index_add(0, i[:, 0], x),
                              functional(L).nll_loss(x, i[:, 0]), functional(L).cross_entropy(x, i[:, 0])),
          ROWS, index([2], [0], [1], [2]), torch.ones(4, 1))
    assert all(g.fallbacks == [] for g in backend.metrics.graphs), [g.fallbacks for g in backend.metrics.graphs]
    check(lambda L, x, i, s: x.scatter(0, i, s), torch.tensor(1.), torch.tensor(0), torch.tensor(5.))
    check(lambda L, x, t: functional(L).nll_loss(x, t), ROWS, torch.tensor([0, 2, 1, 2], dtype=torch.uint8))
    check(lambda L, x, i: x.gather(0, i), torch.tensor(3.), zeros(2))


# ---- item 8: sign(nan) is 0 --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
def test_sign_of_nan_is_zero_eager_and_compiled(dtype):
    x = torch.tensor([float("nan"), -0.0, 0.0, 2.0, -3.0, float("inf"), -float("inf")], dtype=dtype)
    eager = to_mt(x).sign().numpy()
    np.testing.assert_array_equal(eager, torch.sign(x).numpy())
    np.testing.assert_array_equal(np.signbit(eager), np.signbit(torch.sign(x).numpy()))  # sign(-0.0) is +0.0
    out = check(lambda L, a: (a.sign(), L.sgn(a)), x)
    assert not np.isnan(out[0].numpy()).any()


# ---- item 11: compiling over a size-0 dimension --------------------------------------------------------

EMPTY_ROWS, EMPTY_COLUMNS = torch.zeros(0, 3), torch.zeros(3, 0)
EMPTY_RESULTS = {
    "softmax_over_empty_dim": (lambda L, a: (a.softmax(0), a.log_softmax(0), a.softmax(1)), (EMPTY_ROWS,)),
    "softmax_of_empty_rows": (lambda L, a: (a.softmax(1), a.log_softmax(1)), (EMPTY_COLUMNS,)),
    "reductions_over_empty": (lambda L, a: (a.sum(0), a.sum(), a.mean(0), a.prod(0), a.prod(), a.logsumexp(0),
                                            a.amax(1), a.argmax(1), *a.min(1), a.var(0), a.any(), a.all()),
                              (EMPTY_ROWS,)),
    "integer_reductions_over_empty": (lambda L, a: (a.sum(0), a.prod(0), a.cumsum(0), a.amax(1)),
                                      (torch.zeros(0, 3, dtype=torch.int64),)),
    "cat_with_empty_pieces": (lambda L, a, b, c: (L.cat([a, b]), L.cat([c, b]), L.cat([a, a], 1)),
                              (EMPTY_ROWS, torch.ones(2, 3), torch.zeros(0))),
    "matmul_with_empty_inner_dim": (lambda L, a, b: (a @ b, (a @ b).softmax(1), L.bmm(a[None], b[None])),
                                    (EMPTY_COLUMNS, torch.zeros(0, 4))),
    "matmul_with_empty_outer_dim": (lambda L, a, b: (a @ b, L.nn.functional.linear(a, b.t())),
                                    (EMPTY_ROWS, torch.ones(3, 4))),
    "extern_ops_reading_an_empty_computed_buffer": (
        lambda L, a, w: ((a + 1).cumsum(-1), (a + 1) @ w.t(),
                         L.nn.functional.conv2d((a + 1)[:, None, None], w[:, None, None])),
        (EMPTY_ROWS, torch.ones(2, 3))),
    "losses_and_norms_of_empty_batches": (lambda L, a, t: (functional(L).cross_entropy(a, t, reduction="sum"),
                                                           functional(L).layer_norm(a, (3,))),
                                          (EMPTY_ROWS, torch.zeros(0, dtype=torch.int64))),
}


@pytest.mark.parametrize("name", list(EMPTY_RESULTS))
def test_size_zero_dims_compile_to_torchs_result(name):
    fn, inputs = EMPTY_RESULTS[name]
    check(fn, *inputs)


# (an extremum over an empty dim: torch.compile's fake tensors and inductor lowering refuse it, not eager's kernel;
# test_trust_adversarial_inputs.py's test_extremum_of_nothing compares that with torch.compile)


# ---------------------------------------------------------------- saturation
def test_tanh_saturates_to_exactly_one_as_torch():
    """Past 9.0108 torch's float32 tanh is exactly +-1 (printed `1.`); eager numpy and the fitted rational
    were one ulp short up to about 9.7, which printed as `1.0000`."""
    x = torch.tensor([-12., -9.5, -9.02, 9.0109, 9.02, 9.5, 12., 1e30, float("inf"), float("nan")])
    expected = x.tanh().numpy()
    eager = mt.from_numpy(x.numpy().copy()).tanh().numpy()
    compiled = run_compiled(lambda lib, t: t.tanh(), x)[0].numpy()
    np.testing.assert_array_equal(eager, expected)
    np.testing.assert_array_equal(compiled, expected)


@pytest.mark.parametrize("value", ["number", "tensor"])
def test_masked_fill_of_a_transposed_input_is_contiguous_as_torchs(value):
    """masked_fill's result is always contiguous (its decomposition ends with a clone, as torch's), so a
    compiled output has eager's strides (backend fuzz, seed 20: it kept the transposed input's)."""
    def f(lib, x):
        v = x.permute(1, 0, 2)
        return v.masked_fill(v < -1, -1.0 if value == "number" else lib.tensor(-1.0))

    data = np.arange(12, dtype=np.float32).reshape(3, 4, 1) - 5.5
    expected = torch.compile(lambda x: f(torch, x))(torch.from_numpy(data))
    ours = mt.compile(lambda x: f(mt, x))(mt.from_numpy(data))
    assert ours.stride() == expected.stride() == f(torch, torch.from_numpy(data)).stride()
    np.testing.assert_array_equal(ours.numpy(), expected.numpy())


def test_non_finite_scalars_reach_fallback_calls_as_python():
    """An in-place masked_fill_ of a fresh tensor with -inf (torch's F._canonical_mask), and nan/inf scalars in
    other ops, compile: the wrapper passes them to a fallback call as float('-inf'), not as `-inf`, which is no
    Python (a transformer with a padding mask stopped with NameError: name 'inf' is not defined)."""
    def f(lib, x):
        m = x > 0
        mask = lib.zeros_like(m, dtype=lib.float32).masked_fill_(m, float("-inf"))
        return (mask + x, x.masked_fill(m, float("nan")), lib.full_like(x, float("inf")).clamp(max=float("inf")),
                lib.where(m, x, float("-inf")))

    expected = as_tuple(f(torch, torch.linspace(-1, 1, 12).reshape(3, 4)))
    outputs = run_compiled(f, torch.linspace(-1, 1, 12).reshape(3, 4))
    for ours, theirs in zip(outputs, expected):
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
