"""torch.linalg and torch.special (and torch.det, torch.svd and their older kin) against torch.

One table of cases: each runs on minitorch2 and on torch with the same inputs; values (float32 tolerance), dtypes,
shapes and return types must agree, and for the differentiable ones the float64 input gradients of a fixed
weighted sum of the outputs. Singular and eigen vectors are compared through sign-free quantities (u_i v_iᵀ,
|U|, reconstructions): LAPACK builds may pick either sign. Then a table of bad inputs (torch's exception class
and the first words of its message) and a few cases compiled with the aot_eager and inductor backends.
"""
import math
import re
import warnings

import numpy as np
import pytest
import torch

import minitorch2 as mt

pytestmark = pytest.mark.runtime

RNG = np.random.default_rng(20)
SQUARE = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
BATCH = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
TALL, WIDE = RNG.standard_normal((5, 3)), RNG.standard_normal((3, 5))
SPD = SQUARE @ SQUARE.T + np.eye(3)
SPD_BATCH = BATCH @ BATCH.transpose(0, 2, 1) + np.eye(3)
NEGATIVE_DET = SQUARE[[1, 0, 2]]
SINGULAR = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
RANK_TWO = TALL[:, [0, 1, 1]] * np.array([1.0, 1.0, 2.0])
VECTORS = RNG.standard_normal((4, 3))
RHS, RHS_VECTOR = RNG.standard_normal((3, 2)), RNG.standard_normal(3)
POINTS = np.linspace(-2.5, 2.5, 11)
UNIT = np.linspace(0.05, 0.95, 7)
WITH_ZERO = np.array([-1.5, -0.5, 0.0, 0.25, 1.0, 3.0])
INTS = np.array([0, 1, 2, -3])


def sign_free_svd(U, S, Vh):
    """S, Σ u_i v_iᵀ (each term keeps its value when u_i and v_i both flip), |U|, |Vh| and U diag(S) Vh, over the
    first k = len(S) vectors."""
    k = S.shape[-1]
    U, Vh = U[..., :k], Vh[..., :k, :]
    return S, U @ Vh, U.abs(), Vh.abs(), (U * S.unsqueeze(-2)) @ Vh


def sign_free_eigh(result):
    """The eigenvalues, each eigenvector's projector v vᵀ, the reconstruction and |V|."""
    values, vectors = result
    rows = vectors.mT
    return values, rows.unsqueeze(-1) * rows.unsqueeze(-2), (vectors * values.unsqueeze(-2)) @ vectors.mT, vectors.abs()


# (id, fn(lib, *tensors), inputs, differentiable)
CASES = [
    # norms
    ("norm_default", lambda lib, a: lib.linalg.norm(a), [BATCH], True),
    ("norm_vector_ord", lambda lib, a: lib.linalg.norm(a[0], 3), [SQUARE], True),
    ("norm_matrix_ord", lambda lib, a: (lib.linalg.norm(a, math.inf), lib.linalg.norm(a, "fro"),
                                        lib.linalg.norm(a, "nuc"), lib.linalg.norm(a, -2)), [SQUARE], True),
    ("norm_dims", lambda lib, a: (lib.linalg.norm(a, dim=1), lib.linalg.norm(a, 1, dim=(0, 2), keepdim=True)),
     [BATCH], True),
    ("vector_norm", lambda lib, a: tuple(lib.linalg.vector_norm(a, o) for o in (0, 1, 2, 3.5, math.inf, -math.inf))
     + (lib.linalg.vector_norm(a, 2, dim=(0, 1), keepdim=True),), [BATCH], True),
    ("vector_norm_dtype", lambda lib, a: lib.linalg.vector_norm(a.float(), dtype=lib.float64), [SQUARE], False),
    ("matrix_norm", lambda lib, a: tuple(lib.linalg.matrix_norm(a, o) for o in ("fro", "nuc", 1, -1, 2, -2, math.inf,
                                                                                 -math.inf)), [BATCH], True),
    ("matrix_norm_dims", lambda lib, a: (lib.linalg.matrix_norm(a, 1, dim=(2, 0), keepdim=True),
                                         lib.linalg.matrix_norm(a, "nuc", dim=(0, 2), keepdim=True)), [BATCH], True),
    # inverse, determinants, solve
    ("inv", lambda lib, a: lib.linalg.inv(a), [BATCH], True),
    ("inv_ex", lambda lib, a: lib.linalg.inv_ex(a), [SQUARE], True),
    ("det", lambda lib, a: lib.linalg.det(a), [BATCH], True),
    ("det_singular", lambda lib, a: lib.linalg.det(a), [SINGULAR], True),
    ("det_negative", lambda lib, a: lib.det(a), [NEGATIVE_DET], True),
    ("slogdet", lambda lib, a: lib.linalg.slogdet(a), [NEGATIVE_DET], True),
    ("slogdet_batch", lambda lib, a: lib.linalg.slogdet(a), [BATCH], True),
    ("logdet", lambda lib, a: (lib.logdet(a), a.logdet()), [np.stack([SPD, NEGATIVE_DET])], False),
    ("slogdet_legacy", lambda lib, a: (lib.slogdet(a), a.slogdet()), [SQUARE], False),
    ("solve_matrix", lambda lib, a, b: lib.linalg.solve(a, b), [SQUARE, RHS], True),
    ("solve_vector", lambda lib, a, b: lib.linalg.solve(a, b), [SQUARE, RHS_VECTOR], True),
    ("solve_batch_broadcast", lambda lib, a, b: lib.linalg.solve(a, b), [BATCH, RHS], True),
    ("solve_batch_vectors", lambda lib, a, b: lib.linalg.solve(a, b), [BATCH, BATCH[:, 0]], True),
    ("solve_left_false", lambda lib, a, b: lib.linalg.solve(a, b, left=False), [SQUARE, RHS.T], True),
    ("inverse_methods", lambda lib, a: (lib.inverse(a), a.inverse(), a.det()), [SQUARE], True),
    # factorizations
    ("cholesky", lambda lib, a: lib.linalg.cholesky(a), [SPD_BATCH], True),
    ("cholesky_upper", lambda lib, a: lib.linalg.cholesky(a, upper=True), [SPD], True),
    ("cholesky_ex", lambda lib, a: lib.linalg.cholesky_ex(a), [SPD], False),
    ("qr_reduced", lambda lib, a: lib.linalg.qr(a), [TALL], True),
    ("qr_square_batch", lambda lib, a: lib.linalg.qr(a), [BATCH], True),
    ("qr_complete", lambda lib, a: lib.linalg.qr(a, mode="complete"), [TALL], False),
    ("qr_r", lambda lib, a: lib.linalg.qr(a, mode="r"), [TALL], False),
    ("qr_wide", lambda lib, a: lib.linalg.qr(a), [WIDE], True),
    ("qr_legacy", lambda lib, a: (lib.qr(a), a.qr(some=False)), [TALL], False),
    ("svd_reduced", lambda lib, a: sign_free_svd(*lib.linalg.svd(a, full_matrices=False)), [TALL], True),
    ("svd_wide_batch", lambda lib, a: sign_free_svd(*lib.linalg.svd(a, full_matrices=False)),
     [np.stack([WIDE, WIDE[::-1]])], True),
    ("svd_full", lambda lib, a: sign_free_svd(*lib.linalg.svd(a)), [TALL], True),
    ("svd_shapes", lambda lib, a: tuple(t.shape for t in lib.linalg.svd(a)) + (type(lib.linalg.svd(a)).__name__,),
     [WIDE], False),
    ("svdvals", lambda lib, a: lib.linalg.svdvals(a), [BATCH], True),
    ("svd_legacy", lambda lib, a: (lib.svd(a).S, lib.svd(a).V.abs(), lib.svd(a, compute_uv=False).V,
                                   a.svd(some=False).U.shape), [TALL], False),
    ("eigh", lambda lib, a: sign_free_eigh(lib.linalg.eigh(a)), [SPD_BATCH], True),
    ("eigh_upper", lambda lib, a: sign_free_eigh(lib.linalg.eigh(a + a.mT * 0.5, UPLO="U")), [SQUARE], True),
    ("eigvalsh", lambda lib, a: lib.linalg.eigvalsh(a), [SPD], True),
    ("pinv_tall", lambda lib, a: lib.linalg.pinv(a), [TALL], True),
    ("pinv_wide_batch", lambda lib, a: lib.linalg.pinv(a), [np.stack([WIDE, 2 * WIDE])], True),
    ("pinv_rank_deficient", lambda lib, a: lib.linalg.pinv(a), [RANK_TWO], True),
    ("pinv_tolerances", lambda lib, a: (lib.linalg.pinv(a, atol=0.5), lib.linalg.pinv(a, rtol=0.3),
                                        lib.linalg.pinv(a, hermitian=True), lib.pinverse(a)), [SPD], False),
    ("matrix_rank", lambda lib, a, b: (lib.linalg.matrix_rank(a), lib.linalg.matrix_rank(b),
                                       lib.linalg.matrix_rank(b, hermitian=True),
                                       lib.linalg.matrix_rank(a, atol=1.0, rtol=0.0),
                                       lib.linalg.matrix_rank(a, tol=0.5)), [RANK_TWO, SPD_BATCH], False),
    # products
    ("cross", lambda lib, a, b: lib.linalg.cross(a, b), [VECTORS, VECTORS[::-1].copy()], True),
    ("cross_dim_broadcast", lambda lib, a, b: lib.linalg.cross(a, b, dim=0), [VECTORS[:3], VECTORS[:3, :1]], True),
    ("cross_legacy", lambda lib, a, b: (lib.cross(a, b), a.cross(b, dim=1)), [VECTORS[:3], SQUARE], False),
    ("cross_ints", lambda lib, a, b: lib.linalg.cross(a, b), [np.array([1, 2, 3]), np.array([-1, 0, 4])], False),
    ("lstsq", lambda lib, a, b: lib.linalg.lstsq(a, b), [TALL, RNG.standard_normal((5, 2))], True),
    ("lstsq_vector", lambda lib, a, b: lib.linalg.lstsq(a, b).solution, [TALL, RNG.standard_normal(5)], True),
    ("lstsq_residuals", lambda lib, a, b: lib.linalg.lstsq(a, b, driver="gelsd")[:2],
     [TALL, RNG.standard_normal((5, 2))], True),
    ("lstsq_residuals_vector", lambda lib, a, b: lib.linalg.lstsq(a, b, driver="gelss")[:2],
     [TALL, RNG.standard_normal(5)], True),
    ("lstsq_drivers", lambda lib, a, b: tuple(lib.linalg.lstsq(a, b, driver=d) for d in ("gels", "gelsd", "gelss")),
     [TALL, RNG.standard_normal((5, 2))], False),
    ("lstsq_rank_deficient", lambda lib, a, b: tuple(lib.linalg.lstsq(a, b, driver=d)[2:] for d in ("gelsy", "gelsd")),
     [RANK_TWO, RNG.standard_normal((5, 2))], False),
    ("lstsq_wide_batch", lambda lib, a, b: lib.linalg.lstsq(a, b).solution, [np.stack([WIDE, WIDE * 2]),
                                                                             RNG.standard_normal((2, 3, 2))], True),
    ("multi_dot", lambda lib, a, b, c: lib.linalg.multi_dot([a, b, c, b]), [TALL, WIDE, TALL], True),
    ("multi_dot_vectors", lambda lib, a, b, c: lib.linalg.multi_dot([a[0], b, c, b[:, 0]]), [TALL, WIDE, TALL], True),
    ("multi_dot_two", lambda lib, a, b: lib.linalg.multi_dot([a, b]), [TALL, WIDE], True),
    # torch.special
    ("erf_family", lambda lib, x: (lib.special.erf(x), lib.special.erfc(x), lib.erfc(x), x.erfc()), [POINTS], True),
    ("erfinv", lambda lib, x: lib.special.erfinv(x * 2 - 1), [UNIT], True),
    ("expit_logit", lambda lib, x: (lib.special.expit(x), lib.special.logit(x), lib.special.logit(x, eps=0.2)),
     [UNIT], True),
    ("xlogy", lambda lib, x, y: (lib.special.xlogy(x, y), lib.special.xlogy(2.0, y), lib.special.xlogy(x, 3.0)),
     [WITH_ZERO, UNIT[:6]], True),
    ("log1p_expm1_exp2", lambda lib, x: (lib.special.log1p(x), lib.special.expm1(x), lib.special.exp2(x)), [UNIT],
     True),
    ("gamma_family", lambda lib, x: (lib.special.gammaln(x), lib.special.digamma(x), lib.special.psi(x)),
     [POINTS + 0.3], True),
    ("i0", lambda lib, x: (lib.special.i0(x), lib.i0(x), x.i0()), [POINTS], True),
    ("sinc", lambda lib, x: (lib.special.sinc(x), lib.sinc(x)), [np.append(POINTS, [0.0, 1.0, -2.0])], True),
    ("entr", lambda lib, x: lib.special.entr(x), [WITH_ZERO], True),
    ("ndtr", lambda lib, x: lib.special.ndtr(x), [POINTS], True),
    ("ndtri", lambda lib, x: lib.special.ndtri(x), [np.append(UNIT, [0.0, 1.0])], True),
    ("softmaxes", lambda lib, x: (lib.special.softmax(x, 1), lib.special.log_softmax(x, 0),
                                  lib.special.softmax(x.float(), -1, dtype=lib.float64),
                                  lib.special.logsumexp(x, 1), lib.special.logsumexp(x, (0, 1), keepdim=True)),
     [SQUARE], True),
    ("special_round", lambda lib, x: (lib.special.round(x * 10), lib.special.round(x, decimals=2)), [POINTS], False),
    ("special_of_integers", lambda lib, x: tuple(fn(x) for fn in (lib.special.erfc, lib.special.i0, lib.special.sinc,
                                                                   lib.special.entr, lib.special.ndtr,
                                                                   lib.special.expit, lib.special.gammaln)), [INTS],
     False),
    ("special_float32", lambda lib, x: tuple(fn(x.float()) for fn in (lib.special.erfc, lib.special.i0,
                                                                       lib.special.sinc, lib.special.entr,
                                                                       lib.special.ndtr)), [POINTS], False),
    ("in_place_special", lambda lib, x: (x.clone().erfc_(), x.clone().i0_(), x.clone().sinc_()), [POINTS], False),
    ("in_place_methods", lambda lib, x: tuple(getattr(x * 1, name)() for name in (
        "erfc_", "i0_", "sinc_", "erf_", "erfinv_", "logit_", "log1p_", "expm1_", "exp2_", "lgamma_", "digamma_",
        "round_")) + ((x * 1).xlogy_(x), (x * 1).xlogy_(2.0), (x * 1).round_(decimals=1), (x * 1).logit_(0.3)),
     [UNIT], True),
]


def _run(lib, fn, arrays, dtype=None, requires_grad=False):
    tensors = [lib.tensor(a, dtype=dtype if a.dtype.kind == "f" else None) for a in arrays]
    if requires_grad:
        for t in tensors:
            t.requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(lib, *tensors), tensors


def _leaves(value):
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def _compare(ours, theirs, rtol=2e-4, atol=2e-5):
    if isinstance(theirs, tuple) and hasattr(type(theirs), "n_fields"):
        assert type(ours).__name__ == type(theirs).__name__
        assert repr(ours).split("(")[0] == repr(theirs).split("(")[0]
    ours, theirs = _leaves(ours), _leaves(theirs)
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        if not isinstance(t, torch.Tensor):
            assert o == t
            continue
        assert str(o.dtype) == str(t.dtype), (o.dtype, t.dtype)
        assert tuple(o.shape) == tuple(t.shape), (o.shape, t.shape)
        assert o.stride() == t.stride() or o.numel() <= 1, (o.stride(), t.stride())
        np.testing.assert_allclose(o.detach().numpy().astype(np.float64), t.detach().numpy().astype(np.float64),
                                   rtol=rtol, atol=atol, equal_nan=True)


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
        weights = np.random.default_rng(7)
        loss = sum((o * lib.tensor(weights.standard_normal(tuple(o.shape)))).sum() for o in outputs)
        grads.append([g.numpy() for g in lib.autograd.grad(loss, leaves)])
        assert outputs
    for ours, theirs in zip(*grads):
        np.testing.assert_allclose(ours, theirs, rtol=1e-7, atol=1e-9)


def test_grad_fn_names_match_torch():
    names = []
    for lib in (mt, torch):
        a = lib.tensor(SPD, requires_grad=True)
        outputs = [lib.linalg.inv(a), lib.linalg.det(a), lib.linalg.slogdet(a).logabsdet, lib.linalg.solve(a, a),
                   lib.linalg.cholesky(a), lib.linalg.qr(a).Q, lib.linalg.svd(a).S, lib.linalg.eigh(a).eigenvalues,
                   lib.linalg.pinv(a), lib.linalg.cross(a, a), lib.linalg.lstsq(a, a).solution,
                   lib.special.erfc(a), lib.special.i0(a), lib.special.sinc(a), lib.special.entr(a),
                   lib.special.ndtri(a / 20), lib.linalg.svdvals(a), lib.linalg.eigvalsh(a)]
        outputs += [getattr(a / 20, name)() for name in ("erfc_", "i0_", "sinc_", "erf_", "erfinv_", "logit_", "log1p_",
                                                          "expm1_", "exp2_", "lgamma_", "digamma_", "round_")]
        outputs += [(a * 1).xlogy_(a), (a * 1).xlogy_(2.0), (a * 1).round_(decimals=1)]
        names.append([o.grad_fn.name() for o in outputs])
    assert names[0] == names[1]


def test_return_types_and_namespaces():
    named = [lambda lib, a: lib.linalg.svd(a), lambda lib, a: lib.linalg.eigh(a), lambda lib, a: lib.linalg.qr(a),
             lambda lib, a: lib.linalg.slogdet(a), lambda lib, a: lib.linalg.lstsq(a, a),
             lambda lib, a: lib.linalg.inv_ex(a), lambda lib, a: lib.linalg.cholesky_ex(a), lambda lib, a: lib.svd(a),
             lambda lib, a: lib.slogdet(a), lambda lib, a: lib.qr(a)]
    for fn in named:
        ours, theirs = (fn(lib, lib.tensor(SPD)) for lib in (mt, torch))
        assert re.findall(r"\n(\w+)=", repr(ours)) == re.findall(r"\n(\w+)=", repr(theirs))
        assert type(ours) is getattr(mt.return_types, type(theirs).__name__)
        assert getattr(ours, ours._fields[-1]) is ours[-1]
    assert issubclass(mt.linalg.LinAlgError, RuntimeError)
    assert set(mt.linalg.__all__) <= set(dir(torch.linalg))
    assert set(mt.special.__all__) <= set(dir(torch.special))


def test_strides_as_lapack_leaves_them():
    checks = [lambda lib, a: lib.linalg.inv(a), lambda lib, a: lib.linalg.cholesky(a @ a.mT + lib.eye(3)),
              lambda lib, a: lib.linalg.qr(a[:, :2]).Q, lambda lib, a: lib.linalg.svd(a).U,
              lambda lib, a: lib.linalg.eigh(a @ a.mT).eigenvectors, lambda lib, a: lib.linalg.solve(a, a[..., :2]),
              lambda lib, a: lib.linalg.lstsq(a, a[..., :2]).solution, lambda lib, a: lib.linalg.pinv(a[:2]),
              lambda lib, a: lib.linalg.solve(a, a, left=False), lambda lib, a: lib.linalg.qr(a, mode="complete").R,
              lambda lib, a: lib.linalg.svd(a).Vh, lambda lib, a: lib.linalg.lstsq(a.mT[..., :2, :], a[:, :2]).solution]
    for check in checks:
        ours, theirs = (check(lib, lib.tensor(BATCH)) for lib in (mt, torch))
        assert ours.stride() == theirs.stride()


# ---------------------------------------------------------------- bad inputs
LONG, HALF = np.ones((2, 2), np.int64), np.ones((2, 2), np.float16)
ERRORS = [
    ("inv_long", lambda lib, a: lib.linalg.inv(a), [LONG]),
    ("inv_vector", lambda lib, a: lib.linalg.inv(a), [np.ones(3)]),
    ("inv_not_square", lambda lib, a: lib.linalg.inv(a), [TALL]),
    ("inv_half", lambda lib, a: lib.linalg.inv(a), [HALF]),
    ("inv_singular", lambda lib, a: lib.linalg.inv(a), [SINGULAR]),
    ("inv_singular_batch", lambda lib, a: lib.linalg.inv(a), [np.stack([SQUARE, SINGULAR])]),
    ("det_half", lambda lib, a: lib.linalg.det(a), [HALF]),
    ("det_not_square", lambda lib, a: lib.linalg.det(a), [TALL]),
    ("slogdet_long", lambda lib, a: lib.linalg.slogdet(a), [LONG]),
    ("cholesky_not_pd", lambda lib, a: lib.linalg.cholesky(a), [-SPD]),
    ("cholesky_not_pd_batch", lambda lib, a: lib.linalg.cholesky(a), [np.stack([SPD, np.ones((3, 3))])]),
    ("cholesky_half", lambda lib, a: lib.linalg.cholesky(a), [HALF]),
    ("solve_singular", lambda lib, a, b: lib.linalg.solve(a, b), [SINGULAR, RHS]),
    ("solve_shapes", lambda lib, a, b: lib.linalg.solve(a, b), [SQUARE, np.ones(4)]),
    ("solve_dtypes", lambda lib, a, b: lib.linalg.solve(a.float(), b), [SQUARE, RHS]),
    ("qr_mode", lambda lib, a: lib.linalg.qr(a, mode="x"), [TALL]),
    ("qr_half", lambda lib, a: lib.linalg.qr(a), [HALF]),
    ("qr_r_backward", lambda lib, a: lib.linalg.qr(a.requires_grad_(), mode="r")[1].sum().backward(), [TALL]),
    ("svd_long", lambda lib, a: lib.linalg.svd(a), [LONG]),
    ("svd_driver", lambda lib, a: lib.linalg.svd(a, driver="gesvd"), [TALL]),
    ("eigh_long", lambda lib, a: lib.linalg.eigh(a), [LONG]),
    ("eigh_uplo", lambda lib, a: lib.linalg.eigh(a, UPLO="X"), [SPD]),
    ("eigvalsh_not_square", lambda lib, a: lib.linalg.eigvalsh(a), [TALL]),
    ("pinv_long", lambda lib, a: lib.linalg.pinv(a), [LONG]),
    ("matrix_rank_vector", lambda lib, a: lib.linalg.matrix_rank(a), [np.ones(3)]),
    ("matrix_rank_long", lambda lib, a: lib.linalg.matrix_rank(a), [LONG]),
    ("matrix_norm_order", lambda lib, a: lib.linalg.matrix_norm(a, 3), [SQUARE]),
    ("matrix_norm_string", lambda lib, a: lib.linalg.matrix_norm(a, "foo"), [SQUARE]),
    ("matrix_norm_long", lambda lib, a: lib.linalg.matrix_norm(a), [LONG]),
    ("norm_3d_ord", lambda lib, a: lib.linalg.norm(a, "fro"), [BATCH]),
    ("vector_norm_long", lambda lib, a: lib.linalg.vector_norm(a), [LONG]),
    ("cross_length", lambda lib, a: lib.linalg.cross(a[:, :2], a[:, :2]), [VECTORS]),
    ("cross_dtypes", lambda lib, a: lib.linalg.cross(a.float(), a), [VECTORS]),
    ("cross_ndim", lambda lib, a: lib.linalg.cross(a, a[0]), [VECTORS]),
    ("lstsq_driver", lambda lib, a, b: lib.linalg.lstsq(a, b, driver="foo"), [TALL, np.ones(5)]),
    ("lstsq_rows", lambda lib, a, b: lib.linalg.lstsq(a, b), [TALL, np.ones(3)]),
    ("lstsq_long", lambda lib, a: lib.linalg.lstsq(a, a), [LONG]),
    ("multi_dot_one", lambda lib, a: lib.linalg.multi_dot([a]), [SQUARE]),
    ("multi_dot_empty", lambda lib: lib.linalg.multi_dot([]), []),
    ("multi_dot_shapes", lambda lib, a: lib.linalg.multi_dot([a, a]), [TALL]),
    ("multi_dot_3d", lambda lib, a: lib.linalg.multi_dot([a, a]), [BATCH]),
    ("multi_dot_middle", lambda lib, a: lib.linalg.multi_dot([a, a[0], a]), [SQUARE]),
    ("multi_dot_dtypes", lambda lib, a: lib.linalg.multi_dot([a, a.float()]), [SQUARE]),
    ("matrix_norm_same_dims", lambda lib, a: lib.linalg.matrix_norm(a, dim=(1, 1)), [BATCH]),
    ("norm_string_one_dim", lambda lib, a: lib.linalg.norm(a, "fro", dim=1), [SQUARE]),
    ("special_round_long", lambda lib, a: lib.special.round(a), [INTS]),
    ("special_round_decimals_long", lambda lib, a: lib.special.round(a, decimals=1), [INTS]),
    ("ndtri_half", lambda lib, a: lib.special.ndtri(a.half()), [UNIT]),
]


def _error(lib, fn, arrays):
    tensors = [lib.tensor(a) for a in arrays]
    with pytest.raises(Exception) as info:
        fn(lib, *tensors)
    return info.value


@pytest.mark.parametrize("case", ERRORS, ids=[c[0] for c in ERRORS])
def test_errors_against_torch(case):
    _, fn, arrays = case
    theirs, ours = _error(torch, fn, arrays), _error(mt, fn, arrays)
    builtin = next(c for c in type(theirs).__mro__ if c.__module__ == "builtins")
    assert isinstance(ours, builtin), (type(ours), type(theirs), ours)
    assert str(ours).split()[:8] == str(theirs).split()[:8], (str(ours), str(theirs))
    if "LinAlgError" in type(theirs).__name__:
        assert isinstance(ours, mt.linalg.LinAlgError)


# ---------------------------------------------------------------- compiled
def _linalg_program(a, b):
    solved = mt.linalg.solve(a, b)
    return (mt.linalg.inv(a) @ b + solved, mt.linalg.det(a), mt.linalg.svdvals(a), mt.linalg.norm(a, "nuc"),
            mt.linalg.cholesky(a @ a.mT + mt.eye(3)), mt.linalg.eigvalsh(a + a.mT))


def _special_program(x):
    return (mt.special.erfc(x), mt.special.i0(x), mt.special.sinc(x), mt.special.entr(x.abs()),
            mt.special.ndtr(x), mt.special.ndtri(mt.sigmoid(x)), mt.special.log_softmax(x, 0), mt.special.xlogy(x, 2.0))


COMPILED = [
    ("linalg", _linalg_program, [SQUARE, RHS]),
    ("special", _special_program, [POINTS]),
    ("in_place_special", lambda x: (x * 1).erfc_() + (x.sigmoid() * 0.5).erfinv_() + (x * 1).round_(decimals=1)
     + (x.abs() + 1).lgamma_() + (x * 1).xlogy_(2.0) + x.sigmoid().logit_(), [POINTS]),
    ("cross_lstsq_pinv", lambda a, b: (mt.linalg.cross(a, b), mt.linalg.lstsq(a, b).solution, mt.linalg.pinv(a)),
     [SQUARE, SQUARE[::-1].copy()]),
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


def test_compiled_gradients_equal_eager():
    a, b = (mt.tensor(x, requires_grad=True) for x in (SPD, RHS))
    grads = []
    for fn in (lambda a, b: (mt.linalg.solve(a, b).sum() + mt.linalg.det(a) + mt.linalg.eigvalsh(a).sum()),
               mt.compile(lambda a, b: (mt.linalg.solve(a, b).sum() + mt.linalg.det(a)
                                        + mt.linalg.eigvalsh(a).sum()), backend="aot_eager")):
        grads.append(mt.autograd.grad(fn(a, b), [a, b]))
    for e, g in zip(*grads):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-6)
