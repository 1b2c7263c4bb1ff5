"""The losses beyond the core set against torch.nn: for every reduction, the module's repr, value and gradients
with respect to every floating-point input; bad arguments raise torch's error class with torch's message."""
import warnings

import numpy as np
import pytest
import torch

import minitorch2

from .helpers import assert_same


def _normal(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _signs(shape, seed):
    return np.where(np.random.default_rng(seed).random(shape) < 0.5, -1.0, 1.0).astype(np.float32)


def _classes(shape, seed, n=5):
    return np.random.default_rng(seed).integers(0, n, shape)


def _positive(shape, seed):
    return np.abs(_normal(shape, seed)) + 0.1


def _probabilities(shape, seed):
    x = np.exp(_normal(shape, seed))
    return (x / x.sum(-1, keepdims=True)).astype(np.float32)


def _log_probabilities(shape, seed):
    return np.log(_probabilities(shape, seed))


def _bits(shape, seed):
    return (np.random.default_rng(seed).random(shape) < 0.5).astype(np.float32)


def _minus_one(shape, seed):
    return np.float32(-1.0)


def _counts(shape, seed):
    return np.random.default_rng(seed).poisson(2.0, shape).astype(np.float32)


# name: (constructor taking the library's nn, [(input maker, shape, differentiable)])
LOSSES = {
    "smooth_l1": (lambda nn, r: nn.SmoothL1Loss(reduction=r), [(_normal, (4, 5), True), (_normal, (4, 5), True)]),
    "smooth_l1_beta": (lambda nn, r: nn.SmoothL1Loss(reduction=r, beta=0.3), [(_normal, (4, 5), True),
                                                                              (_normal, (4, 5), False)]),
    "smooth_l1_beta0": (lambda nn, r: nn.SmoothL1Loss(reduction=r, beta=0.0), [(_normal, (6,), True),
                                                                               (_normal, (6,), False)]),
    "huber": (lambda nn, r: nn.HuberLoss(reduction=r, delta=0.7), [(_normal, (4, 5), True), (_normal, (4, 5), True)]),
    "kl_div": (lambda nn, r: nn.KLDivLoss(reduction=r), [(_log_probabilities, (3, 4), True),
                                                          (_probabilities, (3, 4), True)]),
    "kl_div_log_target": (lambda nn, r: nn.KLDivLoss(reduction=r, log_target=True),
                          [(_log_probabilities, (3, 4), True), (_log_probabilities, (3, 4), True)]),
    "soft_margin": (lambda nn, r: nn.SoftMarginLoss(reduction=r), [(_normal, (4, 5), True), (_signs, (4, 5), False)]),
    "margin_ranking": (lambda nn, r: nn.MarginRankingLoss(0.3, reduction=r),
                       [(_normal, (6,), True), (_normal, (6,), True), (_signs, (6,), False)]),
    "hinge_embedding": (lambda nn, r: nn.HingeEmbeddingLoss(0.8, reduction=r),
                        [(_normal, (4, 5), True), (_signs, (4, 5), False)]),
    "cosine_embedding": (lambda nn, r: nn.CosineEmbeddingLoss(0.1, reduction=r),
                         [(_normal, (4, 5), True), (_normal, (4, 5), True), (_signs, (4,), False)]),
    "cosine_embedding_1d": (lambda nn, r: nn.CosineEmbeddingLoss(reduction=r),
                            [(_normal, (5,), True), (_normal, (5,), True), (_minus_one, (), False)]),
    "poisson_nll": (lambda nn, r: nn.PoissonNLLLoss(reduction=r), [(_normal, (4, 5), True), (_counts, (4, 5), False)]),
    "poisson_nll_full": (lambda nn, r: nn.PoissonNLLLoss(log_input=False, full=True, reduction=r),
                         [(_positive, (4, 5), True), (_counts, (4, 5), False)]),
    "gaussian_nll": (lambda nn, r: nn.GaussianNLLLoss(reduction=r), [(_normal, (4, 3), True), (_normal, (4, 3), True),
                                                                    (_positive, (4, 3), True)]),
    "gaussian_nll_shared_var": (lambda nn, r: nn.GaussianNLLLoss(full=True, reduction=r),
                                [(_normal, (4, 3), True), (_normal, (4, 3), False), (_positive, (4,), True)]),
    "gaussian_nll_var_dim1": (lambda nn, r: nn.GaussianNLLLoss(eps=0.5, reduction=r),
                              [(_normal, (4, 3), True), (_normal, (4, 3), False), (_positive, (4, 1), True)]),
    "triplet_margin": (lambda nn, r: nn.TripletMarginLoss(reduction=r),
                       [(_normal, (4, 5), True), (_normal, (4, 5), True), (_normal, (4, 5), True)]),
    "triplet_margin_swap_p1": (lambda nn, r: nn.TripletMarginLoss(margin=2.0, p=1, swap=True, reduction=r),
                               [(_normal, (4, 5), True), (_normal, (4, 5), True), (_normal, (4, 5), True)]),
    "multi_margin": (lambda nn, r: nn.MultiMarginLoss(reduction=r), [(_normal, (4, 5), True), (_classes, (4,), False)]),
    "multi_margin_p2": (lambda nn, r: nn.MultiMarginLoss(p=2, margin=0.5, reduction=r),
                        [(_normal, (4, 5), True), (_classes, (4,), False)]),
    "multi_margin_1d": (lambda nn, r: nn.MultiMarginLoss(reduction=r), [(_normal, (5,), True),
                                                                        (_classes, (1,), False)]),
    "multilabel_soft_margin": (lambda nn, r: nn.MultiLabelSoftMarginLoss(reduction=r),
                               [(_normal, (4, 5), True), (_bits, (4, 5), False)]),
}
WEIGHTED = {  # losses with a per-class weight buffer
    "multi_margin_weight": (lambda nn, r, w: nn.MultiMarginLoss(weight=w, reduction=r),
                            [(_normal, (4, 5), True), (_classes, (4,), False)]),
    "multilabel_soft_margin_weight": (lambda nn, r, w: nn.MultiLabelSoftMarginLoss(weight=w, reduction=r),
                                      [(_normal, (4, 5), True), (_bits, (4, 5), False)]),
}


def _inputs(specs):
    arrays = [np.asarray(make(shape, seed)) for seed, (make, shape, _) in enumerate(specs, 1)]
    ours = [minitorch2.from_numpy(a.copy()) for a in arrays]
    theirs = [torch.from_numpy(a.copy()) for a in arrays]
    for (_, _, differentiable), a, b in zip(specs, ours, theirs):
        if differentiable:
            a.requires_grad_()
            b.requires_grad_()
    return ours, theirs


def _compare(ours_module, theirs_module, specs):
    assert repr(ours_module) == repr(theirs_module)
    xs_ours, xs_theirs = _inputs(specs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out_ours, out_theirs = ours_module(*xs_ours), theirs_module(*xs_theirs)
    assert_same(out_ours, out_theirs, rtol=1e-5, atol=1e-6)
    grad = _normal(tuple(out_theirs.shape), 9)
    out_ours.backward(minitorch2.from_numpy(grad.copy()))
    out_theirs.backward(torch.from_numpy(grad.copy()))
    for x_ours, x_theirs in zip(xs_ours, xs_theirs):
        if x_theirs.requires_grad:
            assert_same(x_ours.grad, x_theirs.grad, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss_values_and_gradients(name, reduction):
    make, specs = LOSSES[name]
    _compare(make(minitorch2.nn, reduction), make(torch.nn, reduction), specs)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
@pytest.mark.parametrize("reduction", ["mean", "none"])
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_compiled_loss_matches_eager(name, reduction, backend):
    make, specs = LOSSES[name]
    results = []
    for compiled in (False, True):
        module = make(minitorch2.nn, reduction)
        xs, _ = _inputs(specs)
        out = (minitorch2.compile(module, backend=backend) if compiled else module)(*xs)
        (out * out).sum().backward()
        results.append([out, *(x.grad for x in xs if x.requires_grad)])
    for ours, eager in zip(*results):
        assert_same(ours, eager, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", sorted(WEIGHTED))
def test_weighted_loss_values_and_gradients(name, reduction):
    make, specs = WEIGHTED[name]
    weight = np.abs(_normal((5,), 7))
    ours = make(minitorch2.nn, reduction, minitorch2.from_numpy(weight.copy()))
    theirs = make(torch.nn, reduction, torch.from_numpy(weight.copy()))
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()] == ["weight"]
    _compare(ours, theirs, specs)


@pytest.mark.parametrize("name", ["kl_div", "kl_div_log_target"])
def test_kl_div_batchmean(name):
    make, specs = LOSSES[name]
    _compare(make(minitorch2.nn, "batchmean"), make(torch.nn, "batchmean"), specs)


@pytest.mark.parametrize("legacy", [dict(size_average=False), dict(reduce=False), dict(size_average=True, reduce=True)])
def test_legacy_reduction_arguments(legacy):
    specs = [(_normal, (4, 5), True), (_normal, (4, 5), False)]
    _compare(minitorch2.nn.SmoothL1Loss(**legacy), torch.nn.SmoothL1Loss(**legacy), specs)
    _compare(minitorch2.nn.SoftMarginLoss(**legacy), torch.nn.SoftMarginLoss(**legacy), specs)


def test_functional_forms_with_arguments_the_modules_do_not_take():
    specs = [(_normal, (4, 5), True), (_normal, (4, 5), False), (_positive, (4, 5), False)]
    for call in [lambda F, x, y, w: F.huber_loss(x, y, weight=w),
                 lambda F, x, y, w: F.gaussian_nll_loss(x, y, 0.5, reduction="sum"),
                 lambda F, x, y, w: F.smooth_l1_loss(x, y[0], beta=2.0)]:
        xs_ours, xs_theirs = _inputs(specs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out_ours = call(minitorch2.nn.functional, *xs_ours)
            out_theirs = call(torch.nn.functional, *xs_theirs)
        assert_same(out_ours, out_theirs, rtol=1e-5, atol=1e-6)
        out_ours.backward()
        out_theirs.backward()
        assert_same(xs_ours[0].grad, xs_theirs[0].grad, rtol=1e-4, atol=1e-6)


def test_warnings_match_torch():
    for call in [lambda t: t.nn.functional.kl_div(t.zeros(2), t.zeros(2)),
                 lambda t: t.nn.functional.smooth_l1_loss(t.zeros(2, 3), t.zeros(3))]:
        with pytest.warns(UserWarning) as theirs:
            call(torch)
        with pytest.warns(UserWarning) as ours:
            call(minitorch2)
        assert [str(w.message).replace("torch.Size", "") for w in ours] == \
            [str(w.message).replace("torch.Size", "") for w in theirs]


BAD_ARGUMENTS = {
    "reduction": lambda t: t.nn.SmoothL1Loss(reduction="avg")(t.zeros(2), t.zeros(2)),
    "reduction legacy": lambda t: t.nn.L1Loss(reduction="avg")(t.zeros(2), t.zeros(2)),
    "smooth_l1 beta": lambda t: t.nn.functional.smooth_l1_loss(t.zeros(2), t.zeros(2), beta=-1.0),
    "huber delta": lambda t: t.nn.functional.huber_loss(t.zeros(2), t.zeros(2), delta=0.0),
    "huber weight": lambda t: t.nn.functional.huber_loss(t.zeros(2), t.zeros(2), weight=t.ones(3)),
    "kl_div reduction": lambda t: t.nn.functional.kl_div(t.zeros(2), t.zeros(2), reduction="avg"),
    "margin_ranking dims": lambda t: t.nn.MarginRankingLoss()(t.zeros(2), t.zeros(2, 1), t.ones(2)),
    "cosine_embedding target": lambda t: t.nn.CosineEmbeddingLoss()(t.zeros(2, 3), t.zeros(2, 3), t.ones(2, 1)),
    "cosine_embedding inputs": lambda t: t.nn.CosineEmbeddingLoss()(t.zeros(2, 3), t.zeros(3), t.ones(2)),
    "cosine_embedding inputs 0d": lambda t: t.nn.CosineEmbeddingLoss()(t.zeros(2, 3), t.zeros(3), t.ones(())),
    "poisson reduction": lambda t: t.nn.functional.poisson_nll_loss(t.zeros(2), t.zeros(2), reduction="avg"),
    "gaussian negative var": lambda t: t.nn.GaussianNLLLoss()(t.zeros(2), t.zeros(2), -t.ones(2)),
    "gaussian negative float var": lambda t: t.nn.functional.gaussian_nll_loss(t.zeros(2), t.zeros(2), -1.0),
    "gaussian var size": lambda t: t.nn.GaussianNLLLoss()(t.zeros(2, 3), t.zeros(2, 3), t.ones(3, 2)),
    "gaussian reduction": lambda t: t.nn.GaussianNLLLoss(reduction="avg")(t.zeros(2), t.zeros(2), t.ones(2)),
    "triplet margin": lambda t: t.nn.TripletMarginLoss(margin=0.0),
    "triplet functional margin": lambda t: t.nn.functional.triplet_margin_loss(t.zeros(2), t.zeros(2), t.zeros(2),
                                                                               margin=-1.0),
    "triplet dims": lambda t: t.nn.TripletMarginLoss()(t.zeros(2, 3), t.zeros(2, 3), t.zeros(3)),
    "multi_margin p": lambda t: t.nn.MultiMarginLoss(p=3),
    "multi_margin weight dims": lambda t: t.nn.MultiMarginLoss(weight=t.ones(2, 2)),
    "multi_margin functional p": lambda t: t.nn.functional.multi_margin_loss(t.zeros(2, 3), t.zeros(2).long(), p=3),
    "multi_margin target size": lambda t: t.nn.MultiMarginLoss()(t.zeros(2, 3), t.zeros(3).long()),
    "multi_margin target range": lambda t: t.nn.MultiMarginLoss()(t.zeros(2, 3), t.tensor([0, 3])),
    "multi_margin weight size": lambda t: t.nn.MultiMarginLoss(weight=t.ones(4))(t.zeros(2, 3), t.zeros(2).long()),
    "multi_margin rank": lambda t: t.nn.MultiMarginLoss()(t.zeros(2, 3, 4), t.zeros(2).long()),
    "multilabel reduction": lambda t: t.nn.MultiLabelSoftMarginLoss(reduction="avg")(t.zeros(2, 3), t.zeros(2, 3)),
}


@pytest.mark.parametrize("name", sorted(BAD_ARGUMENTS))
def test_bad_arguments_raise_torch_error(name):
    with pytest.raises(Exception) as theirs, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        BAD_ARGUMENTS[name](torch)
    with pytest.raises(Exception) as ours, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        BAD_ARGUMENTS[name](minitorch2)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)
    assert str(ours.value) == str(theirs.value)
