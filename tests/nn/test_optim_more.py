"""Adamax, NAdam, RAdam, ASGD, Rprop, SparseAdam and LBFGS against torch.optim.

The step comparisons feed both libraries the same gradients (a numpy function of the current
weights), so only the optimizers' arithmetic is compared. Rprop's arithmetic (products with
signs, clamps) rounds the same in both and is compared bit for bit. The others follow torch's
single-tensor formulas op for op, but torch's vectorized CPU kernels fuse multiply-adds (lerp,
add with alpha, addcmul) and its vector sqrt is not always correctly rounded, while numpy
rounds every operation: the last bit can differ, so they are compared within float32 rounding.
LBFGS also sums (dot products, norms) in another order than torch's BLAS; its logic is checked
in float64, where that rounding is far below every threshold it tests, call for call.
"""
import re

import numpy as np
import pytest
import torch
from torch.optim.lbfgs import _cubic_interpolate as torch_cubic_interpolate, _strong_wolfe as torch_strong_wolfe

import minitorch2
from minitorch2.optim.lbfgs import _cubic_minimizer, _keep_off_the_ends, _strong_wolfe

CONFIGS = [
    ("Adamax", dict()),
    ("Adamax", dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)),
    ("Adamax", dict(maximize=True, foreach=False)),
    ("NAdam", dict()),
    ("NAdam", dict(lr=0.01, weight_decay=0.1, momentum_decay=0.01)),
    ("NAdam", dict(weight_decay=0.1, decoupled_weight_decay=True)),
    ("NAdam", dict(maximize=True, foreach=False)),
    ("RAdam", dict()),
    ("RAdam", dict(lr=0.01, weight_decay=0.1, betas=(0.8, 0.9))),
    ("RAdam", dict(weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", dict(maximize=True, foreach=False)),
    ("ASGD", dict()),
    ("ASGD", dict(lr=0.05, lambd=0.01, alpha=0.5, t0=5, weight_decay=0.1)),
    ("ASGD", dict(t0=0, maximize=True, foreach=False)),
    ("Rprop", dict()),
    ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2))),
    ("Rprop", dict(maximize=True, foreach=False)),
]
EXACT = {"Rprop"}

RNG = np.random.default_rng(0)
WEIGHTS = [RNG.standard_normal(shape).astype(np.float32) for shape in [(8, 4), (8,), (1, 8), (1,)]]
X, Y = RNG.standard_normal((16, 4)).astype(np.float32), RNG.standard_normal((16, 1)).astype(np.float32)


def _params(lib, dtype=np.float32):
    return [lib.nn.Parameter(lib.from_numpy(w.astype(dtype))) for w in WEIGHTS]


def _loss(lib, params):
    w1, b1, w2, b2 = params
    x, y = lib.from_numpy(X), lib.from_numpy(Y)
    return ((lib.tanh(x @ w1.t() + b1) @ w2.t() + b2 - y) ** 2).mean()


def _numpy_grad(weight, step):
    """A gradient both libraries receive bit for bit: float32 numpy arithmetic on the weight."""
    return (weight * np.float32(0.3) + np.float32(0.1 * (step % 3 - 1))).astype(np.float32)


def _set_grads(lib, params, step):
    for p in params:
        p.grad = lib.from_numpy(_numpy_grad(p.detach().numpy(), step))


def _train(lib, name, kwargs, steps=20, params=None):
    params = _params(lib) if params is None else params
    optimizer = getattr(lib.optim, name)(params, **kwargs)
    for step in range(steps):
        optimizer.zero_grad()
        _set_grads(lib, params, step)
        optimizer.step()
    return params, optimizer


def _assert_params(ours, theirs, exact):
    for p, q in zip(ours, theirs):
        if exact:
            np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())
        else:
            np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-6, atol=1e-7)


def _assert_state_value(ours, theirs, exact=False, rtol=1e-6, atol=1e-6):
    if isinstance(theirs, (torch.Tensor, minitorch2.Tensor)):
        assert isinstance(ours, minitorch2.Tensor) and str(ours.dtype) == str(theirs.dtype)
        compare = np.testing.assert_array_equal if exact else (
            lambda a, b: np.testing.assert_allclose(a, b, rtol=rtol, atol=atol))
        compare(ours.numpy(), theirs.numpy())
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _assert_state_value(a, b, exact, rtol, atol)
    elif isinstance(theirs, float) and not exact:
        assert ours == pytest.approx(theirs, rel=rtol, abs=atol)
    else:
        assert ours == theirs


def _assert_same_state_dict(ours, theirs, exact=False, rtol=1e-6, atol=1e-6):
    """Same param_groups entries (keys, values, order) and per-parameter state (keys in order, values)."""
    assert ours["param_groups"] == theirs["param_groups"]
    assert list(ours["state"]) == list(theirs["state"])
    for index, their_state in theirs["state"].items():
        assert list(ours["state"][index]) == list(their_state)
        for key, value in their_state.items():
            _assert_state_value(ours["state"][index][key], value, exact, rtol, atol)


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=[f"{n}-{sorted(k.items())}" for n, k in CONFIGS])
def test_twenty_steps_match_torch(name, kwargs):
    ours, our_opt = _train(minitorch2, name, kwargs)
    theirs, their_opt = _train(torch, name, kwargs)
    _assert_params(ours, theirs, exact=name in EXACT)
    # atol for state: a moment can pass near zero, where 1 ulp of its earlier magnitude is a large rtol
    _assert_same_state_dict(our_opt.state_dict(), their_opt.state_dict(), exact=name in EXACT)


@pytest.mark.parametrize("name,kwargs", CONFIGS[::2], ids=[n for n, _ in CONFIGS[::2]])
def test_autograd_training_loop_tracks_torch(name, kwargs):
    """Gradients differ from torch's in the last bit here (matmul order), so the tolerance is looser."""
    results = []
    for lib in (minitorch2, torch):
        params = _params(lib)
        optimizer = getattr(lib.optim, name)(params, **kwargs)
        losses = []
        for _ in range(20):
            optimizer.zero_grad()
            loss = _loss(lib, params)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        results.append((params, losses))
    (ours, our_losses), (theirs, their_losses) = results
    np.testing.assert_allclose(our_losses, their_losses, rtol=1e-5)
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-5, atol=1e-6)


def _to_ours(value):
    if isinstance(value, torch.Tensor):
        return minitorch2.from_numpy(value.detach().numpy().copy())
    if isinstance(value, list):
        return [_to_ours(v) for v in value]
    if isinstance(value, dict):
        return {k: _to_ours(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("name,kwargs", CONFIGS[1::3], ids=[n for n, _ in CONFIGS[1::3]])
def test_torch_state_dict_loads_and_training_continues_alike(name, kwargs):
    """torch's state dict, tensors carried over as numpy, resumes our optimizer where torch's stands."""
    theirs, their_opt = _train(torch, name, kwargs, steps=5)
    ours = [minitorch2.nn.Parameter(minitorch2.from_numpy(p.detach().numpy().copy())) for p in theirs]
    our_opt = getattr(minitorch2.optim, name)(ours, lr=0.5)
    our_opt.load_state_dict(_to_ours(their_opt.state_dict()))
    assert our_opt.param_groups[0]["lr"] == their_opt.param_groups[0]["lr"]
    for step in range(5, 15):
        for lib, params, opt in ((minitorch2, ours, our_opt), (torch, theirs, their_opt)):
            opt.zero_grad()
            _set_grads(lib, params, step)
            opt.step()
    _assert_params(ours, theirs, exact=name in EXACT)
    _assert_same_state_dict(our_opt.state_dict(), their_opt.state_dict(), exact=name in EXACT)


@pytest.mark.parametrize("name", ["Adamax", "NAdam", "RAdam", "ASGD", "Rprop"])
def test_state_dict_round_trip_resumes_identically(name):
    params, optimizer = _train(minitorch2, name, {}, steps=3)
    copies = [minitorch2.nn.Parameter(p.detach().clone()) for p in params]
    resumed = getattr(minitorch2.optim, name)(copies, lr=0.5)
    resumed.load_state_dict(optimizer.state_dict())
    for step in range(3, 8):
        for opt, ps in ((optimizer, params), (resumed, copies)):
            opt.zero_grad()
            _set_grads(minitorch2, ps, step)
            opt.step()
    _assert_params(copies, params, exact=True)
    _assert_same_state_dict(resumed.state_dict(), optimizer.state_dict(), exact=True)


def test_params_without_grad_are_skipped_and_get_no_state():
    for name in ("Adamax", "NAdam", "RAdam", "ASGD", "Rprop"):
        for lib in (minitorch2, torch):
            params = _params(lib)
            optimizer = getattr(lib.optim, name)(params)
            params[1].grad = lib.ones_like(params[1])
            before = params[0].detach().numpy().copy()
            optimizer.step()
            np.testing.assert_array_equal(params[0].detach().numpy(), before)
            assert list(optimizer.state_dict()["state"]) == [1]


def test_state_keys_follow_torch():
    for name in ("Adamax", "NAdam", "RAdam", "ASGD", "Rprop", "SparseAdam", "LBFGS"):
        ours, theirs = (getattr(lib.optim, name)(_params(lib)) for lib in (minitorch2, torch))
        assert ours.defaults == theirs.defaults, name
        assert ours.state_dict()["param_groups"] == theirs.state_dict()["param_groups"], name
        assert repr(ours) == repr(theirs), name


BAD = [
    ("Adamax", dict(lr=-1)), ("Adamax", dict(eps=-1)), ("Adamax", dict(betas=(1.0, 0.9))),
    ("Adamax", dict(betas=(0.9, -0.1))), ("Adamax", dict(weight_decay=-1)),
    ("NAdam", dict(lr=-0.1)), ("NAdam", dict(eps=-1e-8)), ("NAdam", dict(betas=(-0.5, 0.9))),
    ("NAdam", dict(betas=(0.9, 1.0))), ("NAdam", dict(weight_decay=-2)), ("NAdam", dict(momentum_decay=-1)),
    ("RAdam", dict(lr=-1)), ("RAdam", dict(eps=-1)), ("RAdam", dict(betas=(1.5, 0.9))),
    ("RAdam", dict(betas=(0.9, 1.5))), ("RAdam", dict(weight_decay=-1)),
    ("ASGD", dict(lr=-1)), ("ASGD", dict(weight_decay=-0.5)),
    ("Rprop", dict(lr=-1)), ("Rprop", dict(etas=(1.5, 1.2))), ("Rprop", dict(etas=(0.5, 0.9))),
    ("Rprop", dict(etas=(0.0, 1.2))),
    ("SparseAdam", dict(lr=0)), ("SparseAdam", dict(eps=0)), ("SparseAdam", dict(betas=(1.0, 0.9))),
    ("SparseAdam", dict(betas=(0.9, -1.0))),
    ("LBFGS", dict(lr=-1)),
]


@pytest.mark.parametrize("name,kwargs", BAD, ids=[f"{n}-{sorted(k.items())}" for n, k in BAD])
def test_bad_hyperparameters_raise_torchs_error(name, kwargs):
    with pytest.raises(ValueError) as theirs:
        getattr(torch.optim, name)(_params(torch), **kwargs)
    with pytest.raises(ValueError, match="^" + re.escape(str(theirs.value)) + "$"):
        getattr(minitorch2.optim, name)(_params(minitorch2), **kwargs)


@pytest.mark.parametrize("name", ["Adamax", "NAdam", "RAdam", "ASGD", "Rprop", "SparseAdam", "LBFGS"])
def test_empty_parameter_list_raises(name):
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        getattr(minitorch2.optim, name)([])


# SparseAdam: minitorch2 has no sparse tensors, so every gradient is dense, which torch's SparseAdam refuses.

def test_sparse_adam_refuses_dense_gradients_as_torch_does():
    messages = []
    for lib in (minitorch2, torch):
        params = _params(lib)
        optimizer = lib.optim.SparseAdam(params, lr=0.01)
        assert optimizer.step() is None  # no gradients yet: nothing to refuse
        _loss(lib, params).backward()
        with pytest.raises(RuntimeError) as error:
            optimizer.step()
        messages.append(str(error.value))
    assert messages[0] == messages[1] == "SparseAdam does not support dense gradients, please consider Adam instead"


def test_sparse_adam_groups_match_torch():
    ours = minitorch2.optim.SparseAdam(_params(minitorch2), betas=(0.8, 0.9), maximize=True)
    theirs = torch.optim.SparseAdam(_params(torch), betas=(0.8, 0.9), maximize=True)
    assert ours.state_dict() == theirs.state_dict()


# LBFGS: the closure hands both libraries the same loss and gradient (numpy on the current weights).

H_RNG = np.random.default_rng(1)
_A = H_RNG.standard_normal((6, 6))
HESSIAN = _A @ _A.T / 6 + np.eye(6)
LINEAR = H_RNG.standard_normal(6)
START = [H_RNG.standard_normal(4), H_RNG.standard_normal(2)]


def _quartic(flat):
    """A convex quartic and its gradient, in the dtype of `flat`."""
    hessian, linear = HESSIAN.astype(flat.dtype), LINEAR.astype(flat.dtype)
    grad = hessian @ flat - linear + flat.dtype.type(0.4) * flat**3
    loss = flat.dtype.type(0.5) * flat @ (hessian @ flat) - linear @ flat + flat.dtype.type(0.1) * np.sum(flat**4)
    return float(loss), grad.astype(flat.dtype)


def _lbfgs(lib, dtype, steps, **kwargs):
    params = [lib.nn.Parameter(lib.from_numpy(w.astype(dtype))) for w in START]
    optimizer = lib.optim.LBFGS(params, **kwargs)
    evaluated = []

    def closure():
        optimizer.zero_grad()
        assert lib.is_grad_enabled()
        loss, grad = _quartic(np.concatenate([p.detach().numpy().reshape(-1) for p in params]))
        params[0].grad, params[1].grad = lib.from_numpy(grad[:4].copy()), lib.from_numpy(grad[4:].copy())
        evaluated.append(loss)
        return lib.tensor(loss, dtype=getattr(lib, np.dtype(dtype).name))

    returned = [float(optimizer.step(closure)) for _ in range(steps)]
    return params, optimizer, returned, evaluated


LBFGS_CONFIGS = [
    dict(),
    dict(lr=0.5, max_iter=5, history_size=3),
    dict(line_search_fn="strong_wolfe"),
    dict(line_search_fn="strong_wolfe", lr=3.0, history_size=4, max_iter=3),
    dict(line_search_fn="strong_wolfe", max_iter=7, max_eval=9, history_size=2, tolerance_change=1e-5),
]


@pytest.mark.parametrize("kwargs", LBFGS_CONFIGS, ids=[str(sorted(k.items())) for k in LBFGS_CONFIGS])
def test_lbfgs_follows_torch_call_for_call_in_float64(kwargs):
    """In float64 the summation-order rounding (~1e-16) never flips a test: the same closure calls, the same path."""
    ours, our_opt, our_returned, our_calls = _lbfgs(minitorch2, np.float64, 3, **kwargs)
    theirs, their_opt, their_returned, their_calls = _lbfgs(torch, np.float64, 3, **kwargs)
    assert len(our_calls) == len(their_calls)
    np.testing.assert_allclose(our_calls, their_calls, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(our_returned, their_returned, rtol=1e-12, atol=1e-12)
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-10, atol=1e-12)
    # atol: near the minimum the history holds differences of nearly equal gradients, where cancellation
    # turns the 1e-16 summation-order rounding into relative errors far above it
    _assert_same_state_dict(our_opt.state_dict(), their_opt.state_dict(), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("kwargs", [dict(max_iter=3), dict(max_iter=3, line_search_fn="strong_wolfe")],
                         ids=["fixed-step", "strong_wolfe"])
def test_lbfgs_float32_early_iterations_track_torch(kwargs):
    """float32, stopped before convergence (where a last-bit difference can end the loop one call apart).

    The state's tolerance is the loosest: its history holds differences of gradients (y = g - g_prev)
    and their inverse products (ro = 1 / y.s), where float32 cancellation magnifies the last-bit
    differences of the dot products to ~1e-4 relative.
    """
    ours, our_opt, our_returned, our_calls = _lbfgs(minitorch2, np.float32, 2, **kwargs)
    theirs, their_opt, their_returned, their_calls = _lbfgs(torch, np.float32, 2, **kwargs)
    assert len(our_calls) == len(their_calls)
    np.testing.assert_allclose(our_calls, their_calls, rtol=1e-5)
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-5, atol=1e-6)
    _assert_same_state_dict(our_opt.state_dict(), their_opt.state_dict(), rtol=5e-4, atol=1e-5)


def _objective(kind, a):
    """1-D objectives (loss, slope) that drive the line search through its branches."""
    if kind == "kink":  # a unit descent until a steep quadratic wall at x = a
        return lambda x: (-x + 200 * max(0.0, x - a) ** 2, -1 + 400 * max(0.0, x - a))
    return lambda x: (abs(x - a) ** 1.2, 1.2 * np.sign(x - a) * abs(x - a) ** 0.2)


def _line_search(lib, kind, a, t, max_ls=25, tolerance_change=1e-9):
    objective = _objective(kind, a)
    d, g = lib.tensor([1.0], dtype=lib.float64), lib.tensor([objective(0.0)[1]], dtype=lib.float64)
    trials = []

    def evaluate(step):
        trials.append(float(step))
        f, slope = objective(float(step))
        return float(f), lib.tensor([slope], dtype=lib.float64)

    if lib is torch:  # torch's own line search, a private function, is the oracle
        f, g_new, t, evaluations = torch_strong_wolfe(
            lambda x, step, d: evaluate(step), None, t, d, objective(0.0)[0], g, g.dot(d), max_ls=max_ls,
            tolerance_change=tolerance_change)
    else:
        f, g_new, t, evaluations = _strong_wolfe(
            evaluate, t, d, objective(0.0)[0], g, g.dot(d), max_ls=max_ls, tolerance_change=tolerance_change)
    return trials, f, float(t), float(g_new[0]), evaluations


# (objective, wall or kink position, first trial step, max_ls, tolerance_change): together they take every branch
# of the bracketing and zoom phases (extrapolation, a bracket found by a rise or by a positive slope, the
# evaluation budget running out, the bracket shrinking below tolerance, trials pushed off the bracket's ends)
LINE_SEARCHES = [("kink", 0.1, 0.01, 25, 1e-9), ("kink", 0.1, 0.5, 25, 1e-9), ("kink", 0.1, 2.0, 25, 1e-9),
                 ("kink", 0.3, 2.0, 25, 1e-2), ("kink", 0.3, 4.0, 25, 1e-9), ("kink", 1.0, 0.01, 3, 1e-9),
                 ("abs", 0.3, 0.5, 25, 1e-9)]


@pytest.mark.parametrize("case", LINE_SEARCHES, ids=[str(c) for c in LINE_SEARCHES])
def test_strong_wolfe_line_search_takes_torchs_trials(case):
    """float64; rtol: torch's sqrt (in the cubic interpolation) is not always correctly rounded, numpy's is."""
    ours, theirs = _line_search(minitorch2, *case), _line_search(torch, *case)
    assert len(ours[0]) == len(theirs[0]) and ours[4] == theirs[4]
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12)
    np.testing.assert_allclose(ours[1:4], theirs[1:4], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("dtype,rtol", [("float32", 1e-6), ("float64", 1e-12)])
def test_cubic_interpolation_matches_torchs(dtype, rtol):
    """rtol: torch's sqrt is not always correctly rounded (one ulp off), numpy's is; the rest rounds alike."""
    rng = np.random.default_rng(2)
    for _ in range(200):
        x1, f1, f2 = rng.uniform(0, 3), rng.normal(), rng.normal()
        x2, g1, g2 = rng.uniform(0, 3), rng.normal(), rng.normal()
        bounds = None if rng.uniform() < 0.5 else (0.5, 2.5)
        ours, theirs = (lambda v, lib=lib: lib.tensor(v, dtype=getattr(lib, dtype)) for lib in (minitorch2, torch))
        ours = _cubic_minimizer(x1, f1, ours(g1), ours(x2), f2, ours(g2), bounds)
        theirs = torch_cubic_interpolate(x1, f1, theirs(g1), theirs(x2), f2, theirs(g2), bounds)
        assert float(ours) == pytest.approx(float(theirs), rel=rtol)


def test_trials_near_the_brackets_ends_move_a_tenth_in():
    keep = _keep_off_the_ends
    assert keep(0.5, [0.0, 1.0], False) == (0.5, False)
    assert keep(0.95, [0.0, 1.0], False) == (0.95, True)  # the first time near an end: kept, progress noted as poor
    assert keep(0.95, [1.0, 0.0], True) == (0.9, False)
    assert keep(0.02, [0.0, 1.0], True) == (0.1, False)
    assert keep(1.0, [0.0, 1.0], False) == (0.9, False)  # at an end: moved at once


def test_lbfgs_trains_a_model_like_torch():
    results = []
    for lib in (minitorch2, torch):
        params = _params(lib)
        optimizer = lib.optim.LBFGS(params, lr=0.5, max_iter=5, history_size=4, line_search_fn="strong_wolfe")

        def closure():
            optimizer.zero_grad()
            loss = _loss(lib, params)
            loss.backward()
            return loss

        results.append(([optimizer.step(closure).item() for _ in range(3)], _loss(lib, params).item()))
    (our_losses, our_final), (their_losses, their_final) = results
    np.testing.assert_allclose(our_losses, their_losses, rtol=1e-4)
    assert our_final == pytest.approx(their_final, rel=1e-3)
    assert our_final < our_losses[0] / 2


def test_lbfgs_state_dict_round_trip_copies_the_history():
    params, optimizer, _, _ = _lbfgs(minitorch2, np.float64, 2, history_size=3)
    saved = optimizer.state_dict()
    copies = [minitorch2.nn.Parameter(p.detach().clone()) for p in params]
    resumed = minitorch2.optim.LBFGS(copies, history_size=3)
    resumed.load_state_dict(saved)
    history = [d.numpy().copy() for d in optimizer.state[params[0]]["old_dirs"]]
    for opt, ps in ((resumed, copies), (optimizer, params)):
        def closure(opt=opt, ps=ps):
            opt.zero_grad()
            loss, grad = _quartic(np.concatenate([p.detach().numpy().reshape(-1) for p in ps]))
            ps[0].grad, ps[1].grad = minitorch2.from_numpy(grad[:4].copy()), minitorch2.from_numpy(grad[4:].copy())
            return minitorch2.tensor(loss, dtype=minitorch2.float64)

        if opt is resumed:
            opt.step(closure)
            # the resumed optimizer's history lists are its own: the saved one is unchanged
            assert [d.numpy().tolist() for d in optimizer.state[params[0]]["old_dirs"]] == [h.tolist() for h in history]
        else:
            opt.step(closure)
    _assert_params(copies, params, exact=True)
    _assert_same_state_dict(resumed.state_dict(), optimizer.state_dict(), exact=True)


def test_lbfgs_stops_at_once_on_a_zero_gradient():
    for lib in (minitorch2, torch):
        params = [lib.nn.Parameter(lib.zeros(3))]
        optimizer = lib.optim.LBFGS(params)

        def closure():
            params[0].grad = lib.zeros(3)
            return lib.tensor(1.5)

        assert optimizer.step(closure).item() == 1.5
        assert dict(optimizer.state[params[0]]) == {"func_evals": 1, "n_iter": 0}


def test_lbfgs_refuses_groups_and_unknown_line_searches():
    for lib in (minitorch2, torch):
        params = _params(lib)
        with pytest.raises(ValueError, match=r"^LBFGS doesn't support per-parameter options \(parameter groups\)$"):
            lib.optim.LBFGS([{"params": params[:2]}, {"params": params[2:]}])
        optimizer = lib.optim.LBFGS(params, line_search_fn="backtracking")

        def closure():
            optimizer.zero_grad()
            loss = _loss(lib, params)
            loss.backward()
            return loss

        with pytest.raises(RuntimeError, match="^only 'strong_wolfe' is supported$"):
            optimizer.step(closure)


# Compiled training: the optimizer steps the parameters of a model whose forward runs through the compiler.

def _compiled_training(lib, name, compile_backend=None, steps=8):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.Tanh(), lib.nn.Linear(8, 1))
    for p, w in zip(model.parameters(), [WEIGHTS[0], WEIGHTS[1], WEIGHTS[2], WEIGHTS[3]]):
        with lib.no_grad():
            p.copy_(lib.from_numpy(w.copy()))
    forward = model if compile_backend is None else minitorch2.compile(model, backend=compile_backend)
    optimizer = getattr(lib.optim, name)(model.parameters(), lr=0.01)
    x, y = lib.from_numpy(X), lib.from_numpy(Y)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = ((forward(x) - y) ** 2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, [p.detach().numpy().copy() for p in model.parameters()]


@pytest.mark.parametrize("name", ["NAdam", "RAdam", "Adamax"])
def test_optimizer_steps_a_model_compiled_with_aot_eager(name):
    compiled_losses, compiled_params = _compiled_training(minitorch2, name, "aot_eager")
    eager_losses, eager_params = _compiled_training(minitorch2, name)
    their_losses, their_params = _compiled_training(torch, name)
    # aot_eager runs the same kernels as eager on the traced graph: our eager run is the close reference
    np.testing.assert_allclose(compiled_losses, eager_losses, rtol=1e-6)
    np.testing.assert_allclose(compiled_losses, their_losses, rtol=1e-5)
    for ours, eager, theirs in zip(compiled_params, eager_params, their_params):
        np.testing.assert_allclose(ours, eager, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    assert compiled_losses[-1] < compiled_losses[0]
