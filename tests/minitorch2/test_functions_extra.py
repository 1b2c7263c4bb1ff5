"""The torch-level functions and Tensor methods of _functions_extra.py (and the rows behind them) against torch.

One table of cases, each run on minitorch2 and on torch with the same inputs: values (float32 tolerance), dtypes,
shapes and named tuples agree, and for the differentiable ones the float64 input gradients of a fixed weighted sum
of the outputs. Then the random in-place fills (torch's samples for the same seed), the in-place view and storage
methods (geometry, versions, sharing), a table of bad inputs (torch's exception class and first words) and a few
cases compiled with the aot_eager and inductor backends.
"""
import math
import warnings

import numpy as np
import pytest
import torch

import minitorch2 as mt

pytestmark = pytest.mark.runtime

RNG = np.random.default_rng(21)
X = RNG.standard_normal((4, 6))
CUBE = RNG.standard_normal((2, 3, 4))
V3, V4 = RNG.standard_normal(3), RNG.standard_normal(4)
M34 = RNG.standard_normal((3, 4))
DISTINCT = RNG.permutation(24).reshape(4, 6).astype(np.float64) / 3
SOME_NAN = np.array([[1.0, np.nan, 3.0, 0.5], [np.nan, 4.0, np.nan, -2.0], [2.0, -1.0, 6.0, 7.0]])
WITH_NAN = np.array([[1.0, np.nan, 3.0, 0.5], [np.nan, np.nan, np.nan, np.nan], [2.0, -1.0, 2.0, 7.0]])
MODES = np.array([[1.0, 2.0, 2.0, 3.0, 3.0, 1.0], [5.0, 5.0, 4.0, 4.0, 4.0, 0.0]])
INTS = np.array([[3, 1, 3, 2], [0, 0, 5, 5]])
HIST = np.concatenate([RNG.uniform(-2, 3, 50), [-2.0, 3.0, 0.5]])


# (id, fn(lib, *tensors), inputs, differentiable)
CASES = [
    # splitting
    ("tensor_split_sections", lambda lib, a: lib.tensor_split(a, 4, dim=1), [X], True),
    ("tensor_split_indices", lambda lib, a: lib.tensor_split(a, [1, 4, 2, 9], 1), [X], True),
    ("tensor_split_tensor", lambda lib, a: (lib.tensor_split(a, lib.tensor([1, 3])),
                                            lib.tensor_split(a, lib.tensor(3))), [X], True),
    ("tensor_split_method", lambda lib, a: a.tensor_split(3, -1), [CUBE], True),
    ("tensor_split_unordered_negative", lambda lib, a: (lib.tensor_split(a, [4, 2, 9, -1], 1),
                                                        lib.tensor_split(a, (-2, 5), dim=1), lib.tensor_split(a, 9)),
     [X], True),
    ("hsplit_vsplit_dsplit", lambda lib, a: (lib.hsplit(a, 3), lib.vsplit(a, [1]), lib.dsplit(a, 2), a.hsplit([1]),
                                             lib.hsplit(a[0, 0], 2)), [CUBE], True),
    # building matrices
    ("cartesian_prod", lambda lib, a, b: (lib.cartesian_prod(a, b), lib.cartesian_prod(a, b, a), lib.cartesian_prod(a)),
     [V3, V4], True),
    ("combinations", lambda lib, a: (lib.combinations(a), lib.combinations(a, 3), lib.combinations(a, 1),
                                     lib.combinations(a, with_replacement=True), lib.combinations(a, 0)), [V4], True),
    ("combinations_ints", lambda lib, a: (lib.combinations(a), lib.combinations(a, 5)), [np.array([4, 2, 7])], False),
    ("block_diag", lambda lib, a, b, c: lib.block_diag(a, b, c, a[0, 0]), [M34, V3, X], True),
    ("block_diag_mixed", lambda lib, a: (lib.block_diag(a, lib.tensor([[1, 2]])), lib.block_diag()), [M34], False),
    ("kron", lambda lib, a, b: (lib.kron(a, b), lib.kron(a[0], b), a.kron(b[0, 0]), lib.kron(b, a[0, :2])), [M34, CUBE],
     True),
    ("kron_ints", lambda lib, a: lib.kron(a, a), [INTS], False),
    ("vander", lambda lib, a: (lib.vander(a), lib.vander(a, 5), lib.vander(a, 2, increasing=True), lib.vander(a, 0)),
     [V3], False),  # (torch's own backward refuses: vander writes into its cumprod's saved output)
    ("vander_ints_bools", lambda lib, a: (lib.vander(a), lib.vander(a > 1, 3)), [np.array([1, 2, 3])], False),
    # statistics
    ("histc", lambda lib, a: (lib.histc(a), lib.histc(a, bins=7, min=-1, max=2), a.histc(4, 0, 0),
                              lib.histc(a.float(), 13, -2, 3)), [HIST], False),
    ("histc_one_value", lambda lib, a: (lib.histc(a[:1], 4), lib.histc(a[:0], 3)), [HIST], False),
    ("cov", lambda lib, a: (lib.cov(a), lib.cov(a[0]), lib.cov(a, correction=0), a.cov()), [X], True),
    ("cov_weights", lambda lib, a, w: (lib.cov(a, fweights=lib.tensor([1, 2, 1, 3, 1, 1])),
                                       lib.cov(a, aweights=w), lib.cov(a, fweights=lib.tensor([2, 1, 1, 1, 3, 1]),
                                                                       aweights=w)), [X, RNG.uniform(0.5, 2, 6)], True),
    ("cov_ints", lambda lib, a: lib.cov(a), [INTS], False),
    ("corrcoef", lambda lib, a: (lib.corrcoef(a), a.corrcoef(), lib.corrcoef(a[0])), [X], True),
    ("quantile", lambda lib, a: (lib.quantile(a, 0.3), lib.quantile(a, 0.3, dim=1), a.quantile(0.75, 0, keepdim=True),
                                 lib.quantile(a, lib.tensor([0.1, 0.5, 1.0], dtype=a.dtype), dim=1, keepdim=True),
                                 lib.quantile(a, lib.tensor(0.2, dtype=a.dtype))), [DISTINCT], True),
    ("quantile_interpolations", lambda lib, a: tuple(lib.quantile(a, lib.tensor([0.0, 0.3, 0.5, 0.9], dtype=a.dtype),
                                                                  dim=0, interpolation=i)
                                                     for i in ("linear", "lower", "higher", "midpoint", "nearest")),
     [DISTINCT], True),
    ("quantile_0d", lambda lib, a: (lib.quantile(a[0, 0], 0.5), lib.quantile(a[0, 0], 0.5, dim=0, keepdim=True),
                                    lib.nanquantile(a[0, 0], lib.tensor([0.1, 0.9], dtype=a.dtype))), [DISTINCT], True),
    ("quantile_nan", lambda lib, a: (lib.quantile(a, 0.5, dim=1), lib.nanquantile(a, 0.5, dim=1),
                                     a.nanquantile(0.25), lib.nanquantile(a, 0.4, dim=0, interpolation="nearest")),
     [WITH_NAN], False),
    ("trapezoid", lambda lib, a, x: (lib.trapezoid(a), lib.trapezoid(a, dx=0.5, dim=0), lib.trapezoid(a, x),
                                     lib.trapz(a, x[:4], dim=0), lib.trapz(a, dx=2.0), lib.trapezoid(a, a)),
     [X, np.cumsum(RNG.uniform(0.1, 1, 6))], True),
    ("trapezoid_edges", lambda lib, a: (lib.trapezoid(a[:, :0]), lib.trapezoid(a[:, :1]), lib.trapezoid(a.long())),
     [X], False),
    # selections
    ("nanmedian", lambda lib, a: (lib.nanmedian(a), lib.nanmedian(a, 1), a.nanmedian(0, keepdim=True),
                                  lib.nanmedian(a[0]), lib.nanmedian(a[:2, :2])), [SOME_NAN], True),
    ("nanmedian_all_nan", lambda lib, a: (lib.nanmedian(a).isnan(), lib.nanmedian(a, 1).values), [WITH_NAN], False),
    ("nanmedian_plain", lambda lib, a: (lib.nanmedian(a), lib.nanmedian(a, 1)), [DISTINCT], True),
    ("nanmedian_ints", lambda lib, a: (lib.nanmedian(a), lib.nanmedian(a, 0)), [np.array([[5, 1], [3, 9], [7, 2]])],
     False),
    ("mode", lambda lib, a: (lib.mode(a), lib.mode(a, 0), a.mode(1, keepdim=True), lib.mode(a[0, 0])), [MODES], True),
    ("mode_ints", lambda lib, a: lib.mode(a), [INTS], False),
    ("aminmax", lambda lib, a: (lib.aminmax(a), lib.aminmax(a, dim=1), a.aminmax(dim=0, keepdim=True),
                                lib.aminmax(a[0, 0], dim=0)), [DISTINCT], True),
    ("aminmax_ties", lambda lib, a: lib.aminmax(a, dim=1), [MODES], True),
    ("aminmax_ints_nan", lambda lib, a, b: (lib.aminmax(a), lib.aminmax(a > 1), lib.aminmax(b, dim=1)),
     [INTS, WITH_NAN], False),
    ("logcumsumexp", lambda lib, a: (lib.logcumsumexp(a, 0), a.logcumsumexp(-1), lib.logcumsumexp(a[0, 0], 0)), [X],
     True),
    ("logcumsumexp_infinities", lambda lib, a: lib.logcumsumexp(a, 0),
     [np.array([-np.inf, -np.inf, 1.0, np.inf, 2.0, np.nan])], False),
    # products and pointwise
    ("addmv", lambda lib, b, m, v: (lib.addmv(b, m, v), lib.addmv(b, m, v, beta=0.5, alpha=2), b.addmv(m, v, beta=0),
                                    lib.addmv(b[:1], m, v)), [V3, M34, V4], True),
    ("addr", lambda lib, m, a, b: (lib.addr(m, a, b), lib.addr(m, a, b, beta=2, alpha=-1), m.addr(a, b, beta=0),
                                   lib.addr(m[:1], a, b)), [M34, V3, V4], True),
    ("addr_ints_bools", lambda lib, a: (lib.addr(a, a[0], a[0], alpha=2), lib.addr(a > 0, a[0] > 1, a[0] > 2)),
     [np.array([[1, 2, 3]] * 3)], False),
    ("chain_matmul", lambda lib, a, b: (lib.chain_matmul(a, b, a), lib.chain_matmul(a)), [M34, M34.T.copy()], True),
    ("copysign", lambda lib, a, b: (lib.copysign(a, b), lib.copysign(a, -1.0), a.copysign(b[0]), lib.copysign(a, 0.0)),
     [X, -X], True),
    ("copysign_ints", lambda lib, a: (lib.copysign(a, -1), lib.copysign(a, a - 2)), [INTS], False),
    ("erfc_i0_sinc", lambda lib, a: (lib.erfc(a), lib.i0(a), lib.sinc(a), a.erfc(), a.sinc()), [X], True),
    # in-place and metadata methods
    ("copysign_", lambda lib, a, b: (a.clone().copysign_(b), a.clone().copysign_(-2)), [X, -X], True),
    ("addmv_addr_", lambda lib, b, m, v: (b.clone().addmv_(m, v, alpha=3), m.clone().addr_(b, v, beta=2)),
     [V3, M34, V4], True),
    ("clamp_", lambda lib, a: (lib.clamp_(a.clone(), -0.5, 0.5), lib.clamp_(a.clone(), min=a[0] * 0),
                               a.clone().clamp_(max=0.1)), [X], True),
    ("t_transpose_squeeze_unsqueeze_", lambda lib, a: ((a * 1).t_(), (a * 1).transpose_(0, 1),
                                                       (a * 1).unsqueeze_(1).squeeze_(1), (a * 1)[:1].squeeze_(),
                                                       (a * 1).unsqueeze_(-1).squeeze_(2)), [X], True),
    ("fill_diagonal_", lambda lib, a: ((a * 1).fill_diagonal_(2.5), (a.t() * 1).fill_diagonal_(-1, wrap=True),
                                       lib.zeros(7, 3).fill_diagonal_(5, wrap=True),
                                       lib.zeros(3, 3, 3).fill_diagonal_(1), lib.zeros(7, 3).fill_diagonal_(4)),
     [X], True),
    ("scatter_", lambda lib, a: ((a * 1).scatter_(1, lib.tensor([[0, 2], [1, 5]]), a[:2, :2] * 3),
                                 (a * 1).scatter_(0, lib.tensor([[3, 1, 0]]), 7.5),
                                 (a * 1).scatter_add_(1, lib.tensor([[0, 0], [5, 5]]), a[:2, 2:4])), [X], True),
    ("scatter_reduce_arg", lambda lib, a: ((a * 1).scatter_(1, lib.tensor([[0, 0]]), a[:1, :2], reduce="add"),
                                           (a * 1).scatter_(1, lib.tensor([[1, 1]]), 2.0, reduce="multiply")), [X],
     False),
    ("masked_scatter", lambda lib, a, b: (a.masked_scatter(a > 0, b), (a * 1).masked_scatter_(a < 0, b),
                                          a.masked_scatter(lib.tensor([True, False, True, False, False, True]), b)),
     [X, RNG.standard_normal((5, 6))], True),
    ("resize_", lambda lib, a: (a.clone().resize_(2, 3), a.clone().resize_([5]), a.clone().resize_(3, 10)[:2],
                                a.clone().resize_as_(a[:2, :3]), a.t().resize_(6, 4).stride()), [X], False),
    ("adjoints", lambda lib, a, b: (a.H, a.mH, b.mH, a.adjoint(), a.H.stride(), lib.adjoint(b), a[0, 0].H,
                                    a[0, 0].adjoint()), [X, CUBE], True),
    ("dim_order", lambda lib, a: (a.dim_order(), a.permute(2, 0, 1).dim_order(), a.transpose(0, 1).dim_order(),
                                  a[:, :1].dim_order(), a.expand(2, 2, 3, 4)[0].dim_order(), a[0, 0].dim_order(),
                                  a[:, :, :1].transpose(1, 2).dim_order()), [CUBE], False),
    ("storage_methods", lambda lib, a: (a.share_memory_() is a, a.is_pinned(), a.pin_memory is not None), [X], False),
    # older torch-level linear algebra on methods
    ("det_inverse_methods", lambda lib, a: (a.det(), a.logdet(), a.inverse(), a.slogdet(), a.pinverse(),
                                            a.cholesky(), a.qr().R.abs(), a.svd().S, a.cross(a, dim=0)),
     [np.eye(3) * 2 + 0.1], True),
]


def _run(lib, fn, arrays, dtype=None, requires_grad=False):
    tensors = [lib.tensor(a, dtype=dtype if a.dtype.kind == "f" else None) for a in arrays]
    if requires_grad:
        for t in tensors:
            if t.dtype.is_floating_point:
                t.requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(lib, *tensors), tensors


def _leaves(value):
    if isinstance(value, (tuple, list)) and not isinstance(value, torch.Size) and not isinstance(value, mt.Size):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def _compare(ours, theirs):
    if isinstance(theirs, tuple) and hasattr(type(theirs), "n_fields"):
        assert repr(ours).split("(")[0] == repr(theirs).split("(")[0]
    ours, theirs = _leaves(ours), _leaves(theirs)
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        if not isinstance(t, torch.Tensor):
            assert o == t, (o, t)
            continue
        assert str(o.dtype) == str(t.dtype), (o.dtype, t.dtype)
        assert tuple(o.shape) == tuple(t.shape), (o.shape, t.shape)
        assert o.stride() == t.stride() or o.numel() <= 1, (o.stride(), t.stride())
        np.testing.assert_allclose(o.detach().numpy().astype(np.float64), t.detach().numpy().astype(np.float64),
                                   rtol=2e-5, atol=2e-6, equal_nan=True)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_values_against_torch(case):
    _, fn, arrays, _ = case
    _compare(_run(mt, fn, arrays, mt.float32)[0], _run(torch, fn, arrays, torch.float32)[0])


@pytest.mark.parametrize("case", [c for c in CASES if c[3]], ids=[c[0] for c in CASES if c[3]])
def test_gradients_against_torch(case):
    """The float64 gradients of Σ w·outputs, w the same fixed weights in both libraries."""
    _, fn, arrays, _ = case
    grads = []
    for lib in (mt, torch):
        outputs, leaves = _run(lib, fn, arrays, lib.float64, requires_grad=True)
        outputs = [o for o in _leaves(outputs) if isinstance(o, lib.Tensor) and o.requires_grad]
        weights = np.random.default_rng(8)
        loss = sum((o * lib.tensor(weights.standard_normal(tuple(o.shape)))).sum() for o in outputs)
        leaves = [t for t in leaves if t.requires_grad]
        grads.append([None if g is None else g.numpy() for g in lib.autograd.grad(loss, leaves, allow_unused=True)])
        assert outputs
    for ours, theirs in zip(*grads):
        assert (ours is None) == (theirs is None)
        if theirs is not None:
            np.testing.assert_allclose(ours, theirs, rtol=1e-7, atol=1e-9)


def test_grad_fn_names_match_torch():
    names = []
    for lib in (mt, torch):
        a = lib.tensor(MODES, requires_grad=True)
        outputs = [lib.nanmedian(a), lib.nanmedian(a, 1).values, lib.mode(a, 0).values, lib.aminmax(a).max,
                   lib.logcumsumexp(a, 0), lib.copysign(a, a), lib.copysign(a, -1.0), a.masked_scatter(a > 2, a),
                   lib.block_diag(a, a), lib.tensor_split(a, 2)[0], lib.cartesian_prod(a[0], a[1]),
                   (a * 1).exponential_(), (a * 1).geometric_(0.5), (a * 1).log_normal_(), (a * 1).cauchy_(),
                   (a * 1).scatter_(0, lib.tensor([[0, 1]]), a), (a * 1).scatter_(0, lib.tensor([[0, 1]]), 1.0)]
        names.append([o.grad_fn.name() for o in outputs])
    assert names[0] == names[1]


# ---------------------------------------------------------------- random in-place fills
FILLS = [
    ("exponential_", lambda t: t.exponential_()),
    ("exponential_lambda", lambda t: t.exponential_(2.5)),
    ("geometric_", lambda t: t.geometric_(0.3)),
    ("log_normal_", lambda t: t.log_normal_()),
    ("log_normal_args", lambda t: t.log_normal_(0.5, 0.25)),
    ("cauchy_", lambda t: t.cauchy_()),
    ("cauchy_args", lambda t: t.cauchy_(-1.0, 3.0)),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("shape", [(5,), (3, 7), (40, 33)])
@pytest.mark.parametrize("fill", FILLS, ids=[f[0] for f in FILLS])
def test_random_fills_draw_torchs_samples(fill, shape, dtype):
    """The same samples for the same seed, bit for bit, and the generator left where torch leaves it (the next
    draw agrees too: log_normal_'s odd counts keep a spare normal in the generator)."""
    results = []
    for lib in (mt, torch):
        lib.manual_seed(2024)
        first = fill[1](lib.empty(shape, dtype=getattr(lib, dtype)))
        second = fill[1](lib.empty(shape, dtype=getattr(lib, dtype)))
        results.append([first.numpy(), second.numpy(), lib.rand(3).numpy()])
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


def test_random_fills_of_integers_views_and_generators():
    results = []
    for lib in (mt, torch):
        lib.manual_seed(7)
        generator = lib.Generator().manual_seed(99)
        ints = lib.zeros(4, 5, dtype=lib.int64).geometric_(0.2)
        view = lib.zeros(4, 6)
        view[:, 1:4].exponential_(generator=generator)
        transposed = lib.zeros(3, 4).t().cauchy_(generator=generator)
        results.append([ints.numpy(), view.numpy(), transposed.numpy(), lib.rand(2).numpy()])
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


def test_random_fills_statistics():
    """The distributions themselves, over many samples: means and medians as the formulas give them."""
    mt.manual_seed(0)
    assert abs(mt.empty(200_000).exponential_(2.0).mean().item() - 0.5) < 0.01
    assert abs(mt.empty(200_000).geometric_(0.25).mean().item() - 4.0) < 0.05
    log_normal = mt.empty(200_000, dtype=mt.float64).log_normal_(0.5, 0.5)
    assert abs(log_normal.log().mean().item() - 0.5) < 0.01 and abs(log_normal.log().std().item() - 0.5) < 0.01
    assert abs(mt.empty(200_001).cauchy_(1.0, 2.0).median().item() - 1.0) < 0.05


def test_random_fills_record_functional_forms_when_compiled():
    def fn(x):
        return (x * 1).exponential_(3.0) + (x * 1).cauchy_() + (x * 1).log_normal_() + (x * 1).geometric_(0.5)

    x = mt.zeros(4, 5)
    mt.manual_seed(3)
    expected = fn(x)
    for backend in ("aot_eager", "inductor"):
        mt.manual_seed(3)
        np.testing.assert_array_equal(mt.compile(fn, backend=backend)(x).numpy(), expected.numpy())


# ---------------------------------------------------------------- in-place geometry and storage
def test_in_place_views_change_the_tensor_itself():
    for lib in (mt, torch):
        base = lib.arange(6.0).reshape(2, 3)
        version = base._version
        same = base.t_()
        assert same is base and tuple(base.shape) == (3, 2) and base.stride() == (1, 3) and base._version > version
        view = base[0]
        view.unsqueeze_(0)
        assert tuple(view.shape) == (1, 2) and view._base is not None
        view[0, 1] = 10.0
        assert base[0, 1].item() == 10.0


def test_in_place_view_of_a_leaf_that_requires_grad():
    for lib in (mt, torch):
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
            lib.ones(2, 3, requires_grad=True).t_()
        with lib.no_grad():
            assert tuple(lib.ones(2, 3, requires_grad=True).t_().shape) == (3, 2)


def test_resize_grows_and_keeps_values():
    for lib in (mt, torch):
        x = lib.arange(6.0)
        x.resize_(2, 2)
        assert x.tolist() == [[0.0, 1.0], [2.0, 3.0]] and x.stride() == (2, 1)
        x.resize_(3, 3)
        assert x.flatten()[:6].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and tuple(x.shape) == (3, 3)


def test_frombuffer_shares_memory():
    buffers = [bytearray(np.arange(6, dtype=np.float32).tobytes()) for _ in range(2)]
    results = []
    for lib, buffer in zip((mt, torch), buffers):
        whole = lib.frombuffer(buffer, dtype=lib.float32)
        part = lib.frombuffer(buffer, dtype=lib.float32, count=2, offset=8)
        part[0] = 100.0
        results.append((whole.tolist(), part.tolist(), str(whole.dtype), lib.frombuffer(buffer, dtype=lib.int16).shape))
        with pytest.warns(UserWarning, match="The given buffer is not writable"):
            lib.frombuffer(b"abcd", dtype=lib.uint8)
    assert results[0][:2] == results[1][:2] and tuple(results[0][3]) == tuple(results[1][3])


def test_windows_against_torch():
    for name in ("hann_window", "hamming_window", "bartlett_window", "blackman_window"):
        for length in (0, 1, 2, 5, 8):
            for periodic in (True, False):
                ours, theirs = (getattr(lib, name)(length, periodic) for lib in (mt, torch))
                _compare(ours, theirs)
        _compare(getattr(mt, name)(6, dtype=mt.float64), getattr(torch, name)(6, dtype=torch.float64))
        assert getattr(mt, name)(3, requires_grad=True).requires_grad
    _compare(mt.hamming_window(7, False, 0.3, 0.2), torch.hamming_window(7, False, 0.3, 0.2))
    _compare(mt.hamming_window(7, True, alpha=0.6), torch.hamming_window(7, True, alpha=0.6))


def test_typename_is_nonzero_and_chain_matmul_warning():
    for lib in (mt, torch):
        assert lib.typename(lib.ones(2)) == "torch.FloatTensor"
        assert lib.typename(lib.ones(2, dtype=lib.int64)) == "torch.LongTensor"
        assert lib.typename(lib.nn.Linear(1, 1)) == "torch.nn.modules.linear.Linear"
        assert lib.typename(lib.nn.Linear) == "torch.nn.modules.linear.Linear"
        assert lib.typename(3) == "int" and lib.typename(int) == "int"
        assert lib.is_nonzero(lib.tensor([1.5])) and not lib.is_nonzero(lib.tensor(0))
        assert lib.tensor([[True]]).is_nonzero()
    with pytest.warns(UserWarning, match="torch.chain_matmul is deprecated"):  # (torch warns once a process)
        mt.chain_matmul(mt.ones(2, 2), mt.ones(2, 2))


# ---------------------------------------------------------------- bad inputs
ERRORS = [
    ("tensor_split_0d", lambda lib, a: lib.tensor_split(a[0, 0], 2), [X]),
    ("tensor_split_zero", lambda lib, a: lib.tensor_split(a, 0), [X]),
    ("tensor_split_float_tensor", lambda lib, a: lib.tensor_split(a, a[0, :2]), [X]),
    ("hsplit_0d", lambda lib, a: lib.hsplit(a[0, 0], 2), [X]),
    ("hsplit_indivisible", lambda lib, a: lib.hsplit(a, 4), [X]),
    ("vsplit_1d", lambda lib, a: lib.vsplit(a[0], 2), [X]),
    ("dsplit_2d", lambda lib, a: lib.dsplit(a, 2), [X]),
    ("combinations_2d", lambda lib, a: lib.combinations(a), [X]),
    ("combinations_negative", lambda lib, a: lib.combinations(a[0], -1), [X]),
    ("block_diag_3d", lambda lib, a, b: lib.block_diag(a, b), [X, CUBE]),
    ("vander_2d", lambda lib, a: lib.vander(a), [X]),
    ("vander_negative", lambda lib, a: lib.vander(a[0], -1), [X]),
    ("histc_long", lambda lib, a: lib.histc(a), [INTS]),
    ("histc_bins", lambda lib, a: lib.histc(a, bins=0), [X]),
    ("histc_range", lambda lib, a: lib.histc(a, min=3, max=1), [X]),
    ("histc_infinite", lambda lib, a: lib.histc(a), [np.array([1.0, np.inf])]),
    ("cov_3d", lambda lib, a: lib.cov(a), [CUBE]),
    ("cov_bool", lambda lib, a: lib.cov(a > 0), [X]),
    ("cov_float_fweights", lambda lib, a: lib.cov(a, fweights=a[0]), [X]),
    ("cov_int_aweights", lambda lib, a: lib.cov(a, aweights=lib.ones(6, dtype=lib.int64)), [X]),
    ("cov_negative_fweights", lambda lib, a: lib.cov(a, fweights=lib.tensor([1, -1, 1, 1, 1, 1])), [X]),
    ("cov_weights_numel", lambda lib, a: lib.cov(a, aweights=a[0, :3]), [X]),
    ("cov_zero_weights", lambda lib, a: lib.cov(a, aweights=a[0] * 0), [X]),
    ("quantile_long", lambda lib, a: lib.quantile(a, 0.5), [INTS]),
    ("quantile_q_range", lambda lib, a: lib.quantile(a, 1.5), [X]),
    ("quantile_q_tensor_range", lambda lib, a: lib.quantile(a, lib.tensor([0.5, 2.0], dtype=a.dtype)), [X]),
    ("quantile_q_dtype", lambda lib, a: lib.quantile(a, lib.tensor([0.5], dtype=lib.float32)), [X]),
    ("quantile_q_2d", lambda lib, a: lib.quantile(a, lib.tensor([[0.5]], dtype=a.dtype)), [X]),
    ("quantile_interpolation", lambda lib, a: lib.quantile(a, 0.5, interpolation="cubic"), [X]),
    ("quantile_empty", lambda lib, a: lib.quantile(a[:0], 0.5), [X]),
    ("trapezoid_0d", lambda lib, a: lib.trapezoid(a[0, 0]), [X]),
    ("trapezoid_x_length", lambda lib, a: lib.trapezoid(a, a[0, :3]), [X]),
    ("nanmedian_empty_dim", lambda lib, a: lib.nanmedian(a[:, :0], 1), [X]),
    ("mode_empty_dim", lambda lib, a: lib.mode(a[:, :0], 1), [X]),
    ("aminmax_empty", lambda lib, a: lib.aminmax(a[:0]), [X]),
    ("aminmax_empty_dim", lambda lib, a: lib.aminmax(a[:, :0], dim=1), [X]),
    ("logcumsumexp_long", lambda lib, a: lib.logcumsumexp(a, 0), [INTS]),
    ("addmv_sizes", lambda lib, a, b: lib.addmv(b, a[:3, :4], a[0, :4]), [X, V4]),
    ("addmv_dtypes", lambda lib, a, b: lib.addmv(b.float(), a[:3, :4], a[0, :4]), [X, V3]),
    ("addr_expand", lambda lib, a: lib.addr(a[:3, :3], a[0, :2], a[0, :3]), [X]),
    ("chain_matmul_vector", lambda lib, a: lib.chain_matmul(a[0]), [X]),
    ("is_nonzero_many", lambda lib, a: lib.is_nonzero(a), [X]),
    ("is_nonzero_empty", lambda lib, a: lib.is_nonzero(a[:0]), [X]),
    ("window_negative", lambda lib: lib.hann_window(-1), []),
    ("window_long", lambda lib: lib.bartlett_window(4, dtype=lib.int64), []),
    ("frombuffer_empty", lambda lib: lib.frombuffer(bytearray(), dtype=lib.float32), []),
    ("frombuffer_offset", lambda lib: lib.frombuffer(bytearray(8), dtype=lib.float32, offset=10), []),
    ("frombuffer_count", lambda lib: lib.frombuffer(bytearray(8), dtype=lib.float32, count=3), []),
    ("frombuffer_multiple", lambda lib: lib.frombuffer(bytearray(8), dtype=lib.float32, offset=2), []),
    ("copysign_bool_out", lambda lib, a: lib.copysign(a, a, out=lib.empty(6, 6, dtype=lib.int64)), [X]),
    ("t_3d", lambda lib, a: a.t_(), [CUBE]),
    ("transpose_dim", lambda lib, a: a.transpose_(0, 2), [X]),
    ("resize_requires_grad", lambda lib, a: a.requires_grad_().resize_(2), [X]),
    ("fill_diagonal_1d", lambda lib, a: a[0].fill_diagonal_(1), [X]),
    ("fill_diagonal_unequal", lambda lib, a: a.fill_diagonal_(1), [CUBE]),
    ("masked_scatter_long_mask", lambda lib, a: a.masked_scatter(a.long(), a), [X]),
    ("masked_scatter_dtypes", lambda lib, a: a.masked_scatter(a > 0, a.float()), [X]),
    ("masked_scatter_too_few", lambda lib, a: a.masked_scatter(a > -100, a[0]), [X]),
    ("cartesian_prod_dtypes", lambda lib, a: lib.cartesian_prod(a[0], a[0].long()), [X]),
    ("pin_memory", lambda lib, a: a.pin_memory(), [X]),
    ("H_3d", lambda lib, a: a.H, [CUBE]),
    ("H_1d", lambda lib, a: a[0, 0].H, [CUBE]),
    ("mH_1d", lambda lib, a: a[0].mH, [X]),
    ("adjoint_1d", lambda lib, a: a[0].adjoint(), [X]),
    ("dim_order_ambiguous", lambda lib, a: a[:, :1].dim_order(ambiguity_check=True), [X]),
    ("exponential_lambda", lambda lib, a: a.exponential_(0), [X]),
    ("exponential_long", lambda lib, a: a.exponential_(), [INTS]),
    ("geometric_p", lambda lib, a: a.geometric_(1.0), [X]),
    ("geometric_bool", lambda lib, a: (a > 0).geometric_(0.5), [X]),
    ("log_normal_std", lambda lib, a: a.log_normal_(1.0, -1.0), [X]),
    ("log_normal_long", lambda lib, a: a.log_normal_(), [INTS]),
    ("cauchy_sigma", lambda lib, a: a.cauchy_(0.0, 0.0), [X]),
    ("cauchy_long", lambda lib, a: a.cauchy_(), [INTS]),
]


def _error(lib, fn, arrays):
    tensors = [lib.tensor(a) for a in arrays]
    with pytest.raises(Exception) as info, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn(lib, *tensors)
    return info.value


@pytest.mark.parametrize("case", ERRORS, ids=[c[0] for c in ERRORS])
def test_errors_against_torch(case):
    _, fn, arrays = case
    theirs, ours = _error(torch, fn, arrays), _error(mt, fn, arrays)
    builtin = next(c for c in type(theirs).__mro__ if c.__module__ == "builtins")
    assert isinstance(ours, builtin), (type(ours), type(theirs), ours)
    assert str(ours).split()[:8] == str(theirs).split()[:8], (str(ours), str(theirs))


# ---------------------------------------------------------------- compiled
COMPILED = [
    ("split_kron_cartesian", lambda a, b: (*mt.tensor_split(a, 3, 1), mt.kron(a, b), mt.cartesian_prod(b[0], b[1]),
                                           mt.block_diag(a, b), mt.vander(b[0], 3)), [X, M34]),
    ("statistics", lambda a: (mt.cov(a), mt.corrcoef(a), mt.quantile(a, 0.3, dim=1), mt.trapezoid(a),
                              mt.logcumsumexp(a, 1), *mt.aminmax(a, dim=0), mt.nanmedian(a, 1).values,
                              mt.mode(a, 1).values), [DISTINCT]),
    ("products_and_pointwise", lambda b, m, v: (mt.addmv(b, m, v), mt.addr(m, b, v, beta=2), mt.copysign(m, -1.0),
                                                mt.erfc(m), (m * 1).fill_diagonal_(3.0),
                                                m.masked_scatter(m > 0, m * 2)), [V3, M34, V4]),
]


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
@pytest.mark.parametrize("case", COMPILED, ids=[c[0] for c in COMPILED])
def test_compiled_equals_eager(case, backend):
    _, fn, arrays = case
    inputs = [mt.tensor(a, dtype=mt.float32) for a in arrays]
    expected = fn(*inputs)
    got = mt.compile(fn, backend=backend)(*inputs)
    for e, g in zip(_leaves(expected), _leaves(got)):
        assert e.dtype == g.dtype and tuple(e.shape) == tuple(g.shape)
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-5, equal_nan=True)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compiled_in_place_geometry_runs_eagerly(backend):
    """t_, unsqueeze_ and resize_ change a tensor's geometry, which a traced graph cannot follow: the frontend
    leaves them to eager (a graph break), and the program computes eager's values."""
    def fn(x):
        y = x * 2
        y.t_()
        y.unsqueeze_(0)
        return y + 1, (x * 1).resize_(9) * 2, (x * 1).fill_diagonal_(0.0), x.mH

    x = mt.tensor(M34[:, :3], dtype=mt.float32)
    for e, g in zip(fn(x), mt.compile(fn, backend=backend)(x)):
        assert tuple(e.shape) == tuple(g.shape)
        np.testing.assert_array_equal(g.numpy(), e.numpy())


def test_compiled_gradients_equal_eager():
    def fn(a, b):
        return (mt.kron(a, b).sum() + mt.cov(a).sum() + mt.quantile(a, 0.4) + mt.logcumsumexp(a, 0).sum()
                + mt.aminmax(a).max + mt.trapezoid(a).sum())

    a, b = mt.tensor(DISTINCT, requires_grad=True), mt.tensor(M34, requires_grad=True)
    expected = mt.autograd.grad(fn(a, b), [a, b])
    got = mt.autograd.grad(mt.compile(fn, backend="aot_eager")(a, b), [a, b])
    for e, g in zip(expected, got):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-6, atol=1e-8)
    assert not math.isnan(expected[0].sum().item())
