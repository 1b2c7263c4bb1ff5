"""More ops third-party programs reach (nanoGPT's generate, minGPT, makemore, VAEs, pytorch/examples), against torch.

sort / argsort / topk (NaN, ties, empty dims, k=0, return types), multinomial
(torch's samples for the same seed, its checks), round(decimals=),
leaky_relu_, logsigmoid, binary_cross_entropy, cosine_similarity,
interpolate (nearest, linear, bilinear), one_hot's range checks and
cross_entropy with class-probability targets: eager values, the error class
and words torch raises, gradients against torch.autograd, and each op
compiled by the inductor backend (LLVM code generator) against eager.
"""
import numpy as np
import pytest
import torch

import minitorch2 as mt
from tests.backend.codegens import codegen_fixture
from tests.minitorch2.test_new_ops import assert_same, check, check_error, compiled_matches_eager, functional, grads_match

pytestmark = pytest.mark.runtime

NAN = np.nan
WITH_TIES = np.array([[3.0, 1.0, 3.0, NAN, -0.0, 0.0], [2.0, 2.0, NAN, 2.0, -1.0, NAN]], np.float32)
DISTINCT = np.array([[0.3, -1.2, 2.5, 0.7], [1.1, 0.2, -0.4, 3.3], [-2.0, 0.9, 0.05, -0.6]])


# ---------------------------------------------------------------- sort, argsort, topk
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("descending", [False, True])
def test_stable_sort_with_nan_and_ties(dim, descending):
    check(lambda lib, a: lib.sort(a, dim=dim, descending=descending, stable=True), WITH_TIES)
    check(lambda lib, a: lib.argsort(a, dim=dim, descending=descending, stable=True), WITH_TIES)


@pytest.mark.parametrize("descending", [False, True])
def test_default_sort_values_and_consistent_indices(descending):
    """torch's default (unstable) sort orders ties its own way: values must match and indices point at them."""
    ours, theirs = (lib.sort(lib.tensor(WITH_TIES), descending=descending) for lib in (mt, torch))
    np.testing.assert_array_equal(ours.values.numpy(), theirs.values.numpy())
    np.testing.assert_array_equal(np.take_along_axis(WITH_TIES, ours.indices.numpy(), 1), ours.values.numpy())
    check(lambda lib, a: lib.sort(a, descending=descending), DISTINCT)  # distinct values: torch's indices


def test_sort_of_0d_empty_integers_and_bools():
    check(lambda lib, a: lib.sort(a), np.array(2.5))
    check(lambda lib, a: lib.sort(a, 0, True), np.zeros((0, 3)))
    check(lambda lib, a: lib.sort(a, stable=True), np.array([[5, -3, 5, 0]], np.int64))
    check(lambda lib, a: lib.sort(a, stable=True), np.array([True, False, True]))


def test_sort_keeps_the_layout_of_its_input():
    for lib in (mt, torch):
        out = lib.sort(lib.tensor(DISTINCT).t()).values
        assert out.stride() == (1, 4)


@pytest.mark.parametrize("k", [0, 1, 3, 6])
@pytest.mark.parametrize("largest", [True, False])
def test_topk_values_with_nan(k, largest):
    ours, theirs = (lib.topk(lib.tensor(WITH_TIES), k, largest=largest) for lib in (mt, torch))
    np.testing.assert_array_equal(ours.values.numpy(), theirs.values.numpy())
    np.testing.assert_array_equal(np.take_along_axis(WITH_TIES, ours.indices.numpy(), 1), ours.values.numpy())
    check(lambda lib, a: lib.topk(a, min(k, 3), dim=0, largest=largest), DISTINCT)


def test_topk_of_0d_empty_and_integers():
    check(lambda lib, a: lib.topk(a, 1), np.array(1.5))
    check(lambda lib, a: lib.topk(a, 0), np.ones((2, 0)))
    check(lambda lib, a: a.topk(2), np.array([1, 3, 2], np.int64))


def test_return_types_print_and_unpack_as_torch():
    for name in ("sort", "topk"):
        ours = getattr(mt, name)(mt.tensor([[3.0, 1.0, 2.0]]), *([2] if name == "topk" else []))
        theirs = getattr(torch, name)(torch.tensor([[3.0, 1.0, 2.0]]), *([2] if name == "topk" else []))
        assert type(ours).__name__ == type(theirs).__name__ == name
        assert type(ours) is getattr(mt.return_types, name)
        assert repr(ours) == repr(theirs)
        values, indices = ours
        assert values is ours.values and indices is ours.indices


@pytest.mark.parametrize("fn, match", [
    (lambda lib, a: lib.topk(a, 7), "selected index k out of range"),
    (lambda lib, a: lib.topk(a, -1), "selected index k out of range"),
    (lambda lib, a: lib.sort(a, dim=2), "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda lib, a: lib.topk(a > 0, 1), "topk does not support bool dtypes on CPU"),
])
def test_sort_and_topk_errors(fn, match):
    check_error(fn, WITH_TIES, match=match)


def test_sort_and_topk_gradients():
    grads_match(lambda lib, a: lib.sort(a, dim=0, descending=True).values, DISTINCT)
    grads_match(lambda lib, a: lib.sort(a, stable=True).values, DISTINCT)
    grads_match(lambda lib, a: a.topk(2, dim=1).values, DISTINCT)
    grads_match(lambda lib, a: a.topk(2, dim=0, largest=False).values, DISTINCT)


# ---------------------------------------------------------------- multinomial
@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, samples", [((7,), 1), ((7,), 5), ((3, 7), 1), ((3, 7), 6), ((2, 50), 20)])
def test_multinomial_draws_torchs_samples(replacement, dtype, shape, samples):
    probs = np.random.default_rng(sum(shape) + samples).random(shape).astype(dtype)
    probs[..., 1] = 0  # a category that can never be drawn with replacement
    results = []
    for lib in (mt, torch):
        lib.manual_seed(1234)
        first = lib.multinomial(lib.tensor(probs), samples, replacement)
        results.append((first.numpy(), lib.tensor(probs).multinomial(samples, replacement).numpy(), lib.rand(3).numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)  # the samples, the next call's, and the generator's state


def test_multinomial_with_a_generator_and_nanogpt_style_sampling():
    logits = np.random.default_rng(0).standard_normal((2, 65)).astype(np.float32)
    results = []
    for lib in (mt, torch):
        generator = lib.Generator().manual_seed(42)
        probs = lib.nn.functional.softmax(lib.tensor(logits), dim=-1)
        v, _ = lib.topk(lib.tensor(logits), 10)
        masked = lib.tensor(logits).masked_fill(lib.tensor(logits) < v[:, [-1]], -float("inf"))
        top_probs = lib.nn.functional.softmax(masked, dim=-1)
        results.append([lib.multinomial(probs, 1, generator=generator).numpy(),
                        lib.multinomial(top_probs, 1, generator=generator).numpy()])
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("probs, samples, replacement, match", [
    ([0.0, 0.0], 1, False, "invalid multinomial distribution (sum of probabilities <= 0)"),
    ([0.0, -1.0], 1, False, "probability tensor contains either `inf`, `nan` or element < 0"),
    ([0.0, NAN], 1, False, "probability tensor contains either `inf`, `nan` or element < 0"),
    ([0.0, -1.0], 2, True, "invalid multinomial distribution (encountering probability entry < 0)"),
    ([0.0, np.inf], 2, True, "invalid multinomial distribution (encountering probability entry = infinity or NaN)"),
    ([0.0, NAN], 2, True, "invalid multinomial distribution (encountering probability entry < 0)"),
    ([0.0, 0.0], 2, True, "invalid multinomial distribution (sum of probabilities <= 0)"),
    ([1.0, 2.0], 3, False, "cannot sample n_sample > prob_dist.size(-1) samples without replacement"),
    ([1.0, 2.0], 0, True, "cannot sample n_sample <= 0 samples"),
    ([1, 2], 1, False, "multinomial only supports floating-point dtypes for input, got: Long"),
    (np.ones((2, 2, 2)), 1, False, "prob_dist must be 1 or 2 dim"),
    (1.0, 1, False, "prob_dist must be 1 or 2 dim"),
])
def test_multinomial_errors(probs, samples, replacement, match):
    check_error(lambda lib, p: lib.multinomial(p, samples, replacement), np.array(probs), match=match)


# ---------------------------------------------------------------- round(decimals=), leaky_relu_
ROUNDING = np.array([1.2345, 2.5, -0.5, 1234.5, 0.125, -7.77, NAN, np.inf], np.float32)


@pytest.mark.parametrize("decimals", [-2, -1, 0, 1, 2, 3])
def test_round_decimals(decimals):
    check(lambda lib, a: lib.round(a, decimals=decimals), ROUNDING)
    check(lambda lib, a: a.round(decimals=decimals), ROUNDING.astype(np.float64))


def test_round_decimals_refuses_integers_and_has_no_gradient():
    check_error(lambda lib, a: lib.round(a, decimals=1), np.array([1, 2]), match='"round_cpu" not implemented for')
    grads_match(lambda lib, a: lib.round(a, decimals=1) * a, DISTINCT)


def test_leaky_relu_in_place():
    def fn(lib, a):
        b = a.clone()
        out = functional(lib).leaky_relu(b, 0.2, inplace=True)
        assert out is b
        return b, functional(lib).leaky_relu_(a.clone(), 0.1), lib.nn.LeakyReLU(0.3, inplace=True)(a.clone())

    check(fn, DISTINCT)
    grads_match(lambda lib, a: functional(lib).leaky_relu(a * 1, 0.2, inplace=True), DISTINCT)


def test_leaky_relu_in_place_with_a_negative_slope_cannot_backpropagate():
    def fn(lib, a):
        out = functional(lib).leaky_relu(a.requires_grad_() * 1, -0.5, inplace=True)
        out.sum().backward()

    check_error(fn, DISTINCT, match="In-place leakyReLu backward calculation is triggered with a negative slope")


# ---------------------------------------------------------------- logsigmoid, binary_cross_entropy
EXTREME_LOGITS = np.array([[-100.0, -20.0, -1.0, 0.0], [0.5, 20.0, 100.0, -0.0]])
PROBS = np.array([[0.0, 0.2, 0.5, 1.0], [0.9, 1e-7, 0.3, 0.75]])
TARGETS = np.array([[0.0, 1.0, 0.5, 1.0], [1.0, 0.0, 0.25, 0.0]])


def test_logsigmoid_values_and_gradients():
    check(lambda lib, a: (functional(lib).logsigmoid(a), lib.nn.LogSigmoid()(a)), EXTREME_LOGITS)
    check(lambda lib, a: functional(lib).logsigmoid(a), EXTREME_LOGITS.astype(np.float32))
    grads_match(lambda lib, a: functional(lib).logsigmoid(a), EXTREME_LOGITS)

    def double(lib, a):
        (g,) = lib.autograd.grad([functional(lib).logsigmoid(a).sum()], [a], create_graph=True)
        return g * a

    grads_match(double, DISTINCT)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_binary_cross_entropy(reduction):
    weight = np.array([0.5, 2.0, 1.0, 0.0])
    check(lambda lib, p, t: functional(lib).binary_cross_entropy(p, t, reduction=reduction), PROBS, TARGETS)
    check(lambda lib, p, t, w: functional(lib).binary_cross_entropy(p, t, w, reduction=reduction), PROBS, TARGETS,
          weight)
    check(lambda lib, p, t, w: lib.nn.BCELoss(w, reduction=reduction)(p, t), PROBS, TARGETS, weight)
    inside = np.clip(PROBS, 0.05, 0.95)
    grads_match(lambda lib, p, t: functional(lib).binary_cross_entropy(p, t, reduction=reduction), inside, TARGETS)
    grads_match(lambda lib, p, t: functional(lib).binary_cross_entropy(p, t, lib.tensor(weight), reduction=reduction),
                inside, TARGETS)


@pytest.mark.parametrize("probs, targets, match, cls", [
    ([0.5, 1.5], [0.0, 1.0], "all elements of input should be between 0 and 1", RuntimeError),
    ([-0.1, 0.5], [0.0, 1.0], "all elements of input should be between 0 and 1", RuntimeError),
    ([0.5, NAN], [0.0, 1.0], "all elements of input should be between 0 and 1", RuntimeError),
    ([0.5, 0.5], [0.0, 1.0, 1.0], "that is different to the input size", ValueError),
])
def test_binary_cross_entropy_errors(probs, targets, match, cls):
    check_error(lambda lib, p, t: functional(lib).binary_cross_entropy(p, t), np.array(probs), np.array(targets),
                match=match)


# ---------------------------------------------------------------- cosine_similarity
def test_cosine_similarity_values_broadcast_and_eps():
    a, b = DISTINCT, DISTINCT[::-1] * 2
    check(lambda lib, x, y: functional(lib).cosine_similarity(x, y), a, b)
    check(lambda lib, x, y: functional(lib).cosine_similarity(x, y, dim=0), a, b)
    check(lambda lib, x, y: lib.nn.CosineSimilarity(dim=-1)(x, y), a, b[:1])  # broadcast
    small = np.array([[1e-5, 0.0], [0.0, 0.0], [3.0, 4.0]])
    for eps in (1e-8, 1e-4, 1.0):  # each norm clamped to eps on its own (torch 2.x), not their product
        check(lambda lib, x, y: functional(lib).cosine_similarity(x, y, dim=1, eps=eps), small, small[::-1] + 1e-6)
    grads_match(lambda lib, x, y: functional(lib).cosine_similarity(x, y), a, b)
    grads_match(lambda lib, x, y: functional(lib).cosine_similarity(x, y, eps=10.0), a * 0.1, b)


def test_cosine_similarity_errors():
    check_error(lambda lib, x, y: functional(lib).cosine_similarity(x, y), np.ones((2, 3)), np.ones((2, 4)),
                match="The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1")
    check_error(lambda lib, x, y: functional(lib).cosine_similarity(x, y), np.ones((2, 3), np.int64),
                np.ones((2, 3), np.int64), match="expected common dtype to be floating point")


# ---------------------------------------------------------------- interpolate
IMAGE = np.random.default_rng(3).standard_normal((2, 3, 4, 5))
SIGNAL = np.random.default_rng(4).standard_normal((2, 3, 6))
INTERPOLATIONS = {
    "nearest_x2": lambda lib, a: functional(lib).interpolate(a, scale_factor=2),
    "nearest_x2.5": lambda lib, a: functional(lib).interpolate(a, scale_factor=2.5),
    "nearest_size": lambda lib, a: functional(lib).interpolate(a, size=(3, 7)),
    "nearest_down": lambda lib, a: functional(lib).interpolate(a, size=(2, 3)),
    "bilinear": lambda lib, a: functional(lib).interpolate(a, size=(7, 9), mode="bilinear"),
    "bilinear_corners": lambda lib, a: functional(lib).interpolate(a, size=(7, 9), mode="bilinear", align_corners=True),
    "bilinear_scales": lambda lib, a: functional(lib).interpolate(a, scale_factor=(2, 1.5), mode="bilinear"),
    "bilinear_recomputed": lambda lib, a: functional(lib).interpolate(a, scale_factor=1.7, mode="bilinear",
                                                                      recompute_scale_factor=True),
    "bilinear_down": lambda lib, a: functional(lib).interpolate(a, size=(3, 2), mode="bilinear"),
    "bilinear_to_1": lambda lib, a: functional(lib).interpolate(a, size=(1, 1), mode="bilinear", align_corners=True),
    "upsample_module": lambda lib, a: lib.nn.Upsample(scale_factor=2, mode="bilinear")(a),
}
SIGNAL_INTERPOLATIONS = {
    "nearest_1d": lambda lib, a: functional(lib).interpolate(a, scale_factor=1.5),
    "linear": lambda lib, a: functional(lib).interpolate(a, size=11, mode="linear"),
    "linear_corners": lambda lib, a: functional(lib).interpolate(a, scale_factor=1.7, mode="linear",
                                                                  align_corners=True),
}


@pytest.mark.parametrize("name", sorted(INTERPOLATIONS))
def test_interpolate_2d(name):
    check(INTERPOLATIONS[name], IMAGE)
    check(INTERPOLATIONS[name], IMAGE.astype(np.float32))
    grads_match(INTERPOLATIONS[name], IMAGE)


@pytest.mark.parametrize("name", sorted(SIGNAL_INTERPOLATIONS))
def test_interpolate_1d(name):
    check(SIGNAL_INTERPOLATIONS[name], SIGNAL)
    grads_match(SIGNAL_INTERPOLATIONS[name], SIGNAL)


def test_nearest_interpolation_of_bytes_and_refusal_of_other_integers():
    check(lambda lib, a: functional(lib).interpolate(a, scale_factor=2), np.arange(12, dtype=np.uint8).reshape(1, 1, 3, 4))
    check_error(lambda lib, a: functional(lib).interpolate(a, scale_factor=2), np.arange(12).reshape(1, 1, 3, 4),
                match="\"upsample_nearest2d_channels_last\" not implemented for 'Long'")
    check_error(lambda lib, a: functional(lib).interpolate(a, size=3, mode="bilinear"),
                np.arange(12).reshape(1, 1, 3, 4), match="not implemented for 'Long'")


@pytest.mark.parametrize("fn, match, array", [
    (lambda lib, a: functional(lib).interpolate(a), "either size or scale_factor should be defined", IMAGE),
    (lambda lib, a: functional(lib).interpolate(a, size=3, scale_factor=2), "only one of size or scale_factor", IMAGE),
    (lambda lib, a: functional(lib).interpolate(a, size=3, align_corners=True),
     "align_corners option can only be set with the interpolating modes", IMAGE),
    (lambda lib, a: functional(lib).interpolate(a, size=(3, 4, 5)),
     "Input and output must have the same number of spatial dimensions", IMAGE),
    (lambda lib, a: functional(lib).interpolate(a, size=3, mode="bilinear"), "Got 3D input, but bilinear mode needs 4D",
     SIGNAL),
    (lambda lib, a: functional(lib).interpolate(a, size=3, mode="linear"), "Got 4D input, but linear mode needs 3D",
     IMAGE),
    (lambda lib, a: functional(lib).interpolate(a, size=(0, 3)), "Input and output sizes should be greater than 0",
     IMAGE),
])
def test_interpolate_errors(fn, match, array):
    check_error(fn, array, match=match)


# ---------------------------------------------------------------- one_hot, cross_entropy with probabilities
@pytest.mark.parametrize("values, classes, match", [
    ([0, 3], 3, "Class values must be smaller than num_classes."),
    ([0, 1], 1, "Class values must be smaller than num_classes."),
    ([0, -1], 3, "Class values must be non-negative."),
    ([0, -1], -1, "Class values must be non-negative."),
    (np.zeros(0, np.int64), -1, "Can not infer total number of classes from empty tensor."),
])
def test_one_hot_errors(values, classes, match):
    check_error(lambda lib, t: functional(lib).one_hot(t, classes), np.array(values, np.int64), match=match)


def test_one_hot_values():
    check(lambda lib, t: functional(lib).one_hot(t), np.array([[0, 2], [1, 4]]))
    check(lambda lib, t: functional(lib).one_hot(t, 6), np.array([[0, 2], [1, 4]]))
    check(lambda lib, t: functional(lib).one_hot(t, 3), np.zeros((0, 2), np.int64))


LOGITS = np.random.default_rng(5).standard_normal((4, 5))
SOFT = np.random.default_rng(6).dirichlet(np.ones(5), 4)
CLASS_WEIGHT = np.array([0.5, 1.0, 2.0, 0.0, 1.5])


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("smoothing", [0.0, 0.2])
def test_cross_entropy_with_class_probabilities(reduction, smoothing):
    def fn(lib, x, t, w=None):
        return functional(lib).cross_entropy(x, t, w, reduction=reduction, label_smoothing=smoothing)

    check(fn, LOGITS, SOFT)
    check(fn, LOGITS, SOFT, CLASS_WEIGHT)
    check(fn, LOGITS[0], SOFT[0])  # one row, classes on dim 0
    image_logits = np.random.default_rng(7).standard_normal((2, 5, 3, 3))
    check(fn, image_logits, np.random.default_rng(8).dirichlet(np.ones(5), (2, 3, 3)).transpose(0, 3, 1, 2).copy())
    check(lambda lib, x, t: lib.nn.CrossEntropyLoss(reduction=reduction, label_smoothing=smoothing)(x, t), LOGITS, SOFT)
    grads_match(lambda lib, x, t: fn(lib, x, t), LOGITS, SOFT)
    grads_match(lambda lib, x, t, w: fn(lib, x, t, w), LOGITS, SOFT, CLASS_WEIGHT)


@pytest.mark.parametrize("fn, target, match", [
    (lambda lib, x, t: functional(lib).cross_entropy(x, t), np.random.default_rng(0).random(4),
     "expected target dtype to be Long or Byte, but got Float"),
    (lambda lib, x, t: functional(lib).cross_entropy(x, t), np.ones((4, 5), np.int64),
     "Expected floating point type for target with class probabilities, got Long"),
    (lambda lib, x, t: functional(lib).cross_entropy(x, t, ignore_index=1), SOFT,
     "ignore_index is not supported for floating point target"),
    (lambda lib, x, t: functional(lib).cross_entropy(x, t, lib.ones(3)), SOFT,
     "cross_entropy: weight tensor should be defined either for all 5 classes or no classes"),
])
def test_cross_entropy_target_errors(fn, target, match):
    check_error(fn, LOGITS.astype(np.float32), target.astype(np.float32) if target.dtype == np.float64 else target,
                match=match)


# ---------------------------------------------------------------- under minitorch2.compile (LLVM code generator)
codegen = codegen_fixture(names=["llvm"])

COMPILED = {
    # torch's CPU inductor runs sort and topk as their ATen kernels (ir.Sort is GPU-only)
    "sort_topk": (lambda a: (mt.sort(a, 1, True).values * 2, a.argsort(dim=0), a.topk(2).indices,
                             mt.sort(a, stable=True).indices),
                  lambda: [mt.tensor(DISTINCT)], ("aten.sort.default", "aten.sort.stable", "aten.topk.default")),
    "round_decimals": (lambda a: (mt.round(a * 100, decimals=-1), a.round(decimals=2)), lambda: [mt.tensor(DISTINCT)],
                       ()),
    "leaky_relu_in_place": (lambda a: mt.nn.functional.leaky_relu(a.clone(), 0.2, inplace=True) + 1,
                            lambda: [mt.tensor(DISTINCT)], ()),
    "logsigmoid": (lambda a: mt.nn.functional.logsigmoid(a * 30), lambda: [mt.tensor(DISTINCT)], ()),
    "binary_cross_entropy": (lambda p, t: (mt.nn.functional.binary_cross_entropy(p, t),
                                           mt.nn.functional.binary_cross_entropy(p, t, reduction="none")),
                             lambda: [mt.tensor(PROBS), mt.tensor(TARGETS)], ()),
    "cosine_similarity": (lambda x, y: mt.nn.functional.cosine_similarity(x, y), lambda: [mt.tensor(DISTINCT)] * 2, ()),
    "interpolate": (lambda a: (mt.nn.functional.interpolate(a, scale_factor=2),
                               mt.nn.functional.interpolate(a, size=(7, 9), mode="bilinear"),
                               mt.nn.functional.interpolate(a, size=(7, 9), mode="bilinear", align_corners=True),
                               mt.nn.functional.interpolate(a[0], size=11, mode="linear")),
                    lambda: [mt.tensor(IMAGE)], ()),
    "cross_entropy_probabilities": (lambda x, t: mt.nn.functional.cross_entropy(x, t, label_smoothing=0.1),
                                    lambda: [mt.tensor(LOGITS), mt.tensor(SOFT)], ()),
    "one_hot": (lambda t: mt.nn.functional.one_hot(t, 5) * 2, lambda: [mt.tensor([0, 4, 2])], ()),
}


@pytest.mark.parametrize("name", sorted(COMPILED))
def test_compiled_matches_eager(name, codegen):
    fn, make_inputs, fallbacks = COMPILED[name]
    compiled_matches_eager(fn, make_inputs(), fallbacks)


def test_multinomial_under_compile_draws_eagers_samples(codegen):
    """multinomial runs its eager kernel (torch's inductor falls back too), consuming the same random words."""
    probs = mt.tensor(np.random.default_rng(9).random((3, 8)))

    def sample(p):
        return mt.multinomial(p, 4), mt.multinomial(p * 2, 6, True)

    mt.manual_seed(7)
    expected = sample(probs)
    mt.manual_seed(7)
    got = mt.compile(sample, backend="inductor")(probs)
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g.numpy(), e.numpy())


def test_compiled_gradients_of_interpolate_and_losses(codegen):
    def loss(x, p, t):
        up = mt.nn.functional.interpolate(x, scale_factor=2, mode="bilinear")
        near = mt.nn.functional.interpolate(x, size=(5, 7))
        bce = mt.nn.functional.binary_cross_entropy(p.sigmoid(), t)
        return up.sum() + (near * near).sum() + bce + mt.nn.functional.logsigmoid(x).sum()

    inputs = [mt.tensor(IMAGE), mt.tensor(LOGITS), mt.tensor(SOFT)]
    grads = []
    for fn in (loss, mt.compile(loss, backend="inductor")):
        leaves = [t.clone().requires_grad_() for t in inputs[:2]]
        fn(*leaves, inputs[2]).backward()
        grads.append([leaf.grad.numpy() for leaf in leaves])
    for ours, eager in zip(grads[1], grads[0]):
        np.testing.assert_allclose(ours, eager, rtol=1e-5, atol=1e-6)


def test_compiled_one_hot_refuses_classes_out_of_range(codegen):
    compiled = mt.compile(lambda t: mt.nn.functional.one_hot(t, 3) * 2, backend="inductor")
    np.testing.assert_array_equal(compiled(mt.tensor([0, 2])).numpy(), [[2, 0, 0], [0, 0, 2]])
    with pytest.raises(RuntimeError, match="Class values must be smaller than num_classes."):
        compiled(mt.tensor([0, 5]))
    with pytest.raises(RuntimeError, match="Class values must be non-negative."):
        compiled(mt.tensor([0, -1]))


def test_compiled_sort_returns_torchs_named_pair(codegen):
    def fn(x):
        r = mt.sort(x, 1)
        return r.values * 2, r, x.topk(2).indices

    doubled, pair, indices = mt.compile(fn, backend="inductor")(mt.tensor(DISTINCT))
    assert type(pair) is mt.return_types.sort
    np.testing.assert_array_equal(doubled.numpy(), np.sort(DISTINCT, 1) * 2)
    np.testing.assert_array_equal(pair.indices.numpy(), np.argsort(DISTINCT, 1))
    np.testing.assert_array_equal(indices.numpy(), np.argsort(-DISTINCT, 1)[:, :2])
