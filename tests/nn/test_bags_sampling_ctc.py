"""nn.EmbeddingBag / F.embedding_bag, F.grid_sample, F.affine_grid and nn.CTCLoss / F.ctc_loss against torch 2.13:
values, dtypes, grad_fn names, gradients (weights and per-sample weights; input and grid; theta; log_probs), module
reprs, and torch's error classes and messages."""
import warnings

import numpy as np
import pytest
import torch

import minitorch2

RNG = np.random.default_rng(0)
WEIGHT = RNG.standard_normal((10, 3)).astype(np.float32)
INDICES = np.array([1, 2, 4, 5, 4, 3, 2, 9])
IMAGE = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
GRID = (RNG.uniform(-1.3, 1.3, (2, 3, 4, 2))).astype(np.float32)
GRID[0, 0, 0] = [1.0, -1.0]  # exactly on the corners and edges
GRID[0, 0, 1] = [0.0, 0.5]
THETA = RNG.standard_normal((2, 2, 3)).astype(np.float32)
LOG_PROBS = np.log(np.random.default_rng(1).dirichlet(np.ones(5), (7, 3))).astype(np.float32)


def _leaf(lib, array):
    return lib.tensor(array).requires_grad_()


def _check(expected, got, grads):
    assert str(got.dtype) == str(expected.dtype)
    assert tuple(got.shape) == tuple(expected.shape)
    assert type(got.grad_fn).__name__ == type(expected.grad_fn).__name__
    np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-5)
    for e, g in zip(*grads):
        assert (g is None) == (e is None)
        if e is not None:
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-4, atol=1e-5)


def _compare(run):
    """run(lib) -> (output, leaves): the output and, after a backward of a fixed weighting, the leaves' gradients."""
    results = []
    for lib in (torch, minitorch2):
        out, leaves = run(lib)
        cotangent = lib.tensor(np.linspace(-1, 2, out.numel()).reshape(tuple(out.shape)).astype(np.float32))
        (out * cotangent.to(out.dtype)).sum().backward()
        results.append((out, [t.grad for t in leaves]))
    _check(results[0][0], results[1][0], (results[0][1], results[1][1]))


def _same_error(run):
    errors = []
    for lib in (torch, minitorch2):
        with pytest.raises(Exception) as info, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            run(lib)
        errors.append(info.value)
    assert type(errors[1]) is type(errors[0])
    assert str(errors[1]).replace("minitorch2", "torch") == str(errors[0])


# ---------------------------------------------------------------- embedding bags
BAG_CASES = {
    "sum": dict(offsets=[0, 3, 3, 6], mode="sum"),
    "mean_padding": dict(offsets=[0, 4, 4], mode="mean", padding_idx=2),
    "max": dict(offsets=[0, 4, 4], mode="max"),
    "max_padding_last_offset": dict(offsets=[0, 3, 8], mode="max", padding_idx=-1, include_last_offset=True),
    "sum_weights_padding": dict(offsets=[0, 5], mode="sum", per_sample_weights=True, padding_idx=4),
    "mean_freq": dict(offsets=[0, 2, 5], mode="mean", scale_grad_by_freq=True),
    # an include_last_offset whose last offset is short of the end: the last bag runs to the end (not on sum's path)
    "mean_short_last_offset": dict(offsets=[0, 3, 5], mode="mean", include_last_offset=True),
    "max_short_last_offset_all_padding": dict(offsets=[0, 1, 1, 5], mode="max", include_last_offset=True,
                                              padding_idx=1),
    "sum_padding_short_last_offset": dict(offsets=[0, 3, 5], mode="sum", include_last_offset=True, padding_idx=4),
}


@pytest.mark.parametrize("case", list(BAG_CASES))
def test_embedding_bag(case):
    def run(lib):
        weight = _leaf(lib, WEIGHT)
        leaves = [weight]
        kwargs = dict(BAG_CASES[case])
        offsets = lib.tensor(kwargs.pop("offsets"))
        if kwargs.get("per_sample_weights"):
            kwargs["per_sample_weights"] = _leaf(lib, np.linspace(0.5, 2, len(INDICES)).astype(np.float32))
            leaves.append(kwargs["per_sample_weights"])
        return lib.nn.functional.embedding_bag(lib.tensor(INDICES), weight, offsets, **kwargs), leaves

    _compare(run)


@pytest.mark.parametrize("mode,padding_idx,include_last_offset,dtype", [
    (0, -1, False, "float32"), (0, -1, True, "float64"), (0, 2, True, "float32"), (1, -1, True, "float32"),
    (1, 2, False, "float32"), (2, -1, True, "float32"), (2, 2, False, "float64")])
def test_embedding_bag_op_outputs(mode, padding_idx, include_last_offset, dtype):
    """aten._embedding_bag's extra outputs as ATen's (offset2bag empty on the float sums' fast path, bag sizes for
    mean and max only, max_indices a copy of bag_size unless max)."""
    outputs = []
    for lib in (torch, minitorch2):
        weight = lib.tensor(WEIGHT, dtype=getattr(lib, dtype))
        outputs.append(lib.ops.aten._embedding_bag.default(weight, lib.tensor(INDICES), lib.tensor([0, 3, 3, 6]), False,
                                                           mode, False, None, include_last_offset, padding_idx))
    for expected, got in zip(*outputs):
        assert str(got.dtype) == str(expected.dtype) and tuple(got.shape) == tuple(expected.shape)
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)


def test_embedding_bag_module_2d_input_and_repr():
    def run(lib):
        lib.manual_seed(0)
        bag = lib.nn.EmbeddingBag(10, 3, mode="sum", padding_idx=-2)
        assert repr(bag) == "EmbeddingBag(10, 3, mode='sum', padding_idx=8)"
        return bag(lib.tensor(INDICES.reshape(2, 4)), per_sample_weights=lib.ones(2, 4)), [bag.weight]

    _compare(run)
    assert repr(minitorch2.nn.EmbeddingBag.from_pretrained(minitorch2.ones(3, 2), mode="max")) == \
        repr(torch.nn.EmbeddingBag.from_pretrained(torch.ones(3, 2), mode="max"))


@pytest.mark.parametrize("call", [
    lambda lib, w, i: lib.nn.functional.embedding_bag(i, w, lib.tensor([1, 4])),
    lambda lib, w, i: lib.nn.functional.embedding_bag(i, w, lib.tensor([0, 9])),
    lambda lib, w, i: lib.nn.functional.embedding_bag(lib.tensor([1, 12]), w, lib.tensor([0])),
    lambda lib, w, i: lib.nn.functional.embedding_bag(i, w, lib.tensor([0]), padding_idx=12),
    lambda lib, w, i: lib.nn.functional.embedding_bag(i.float(), w, lib.tensor([0.0])),
    lambda lib, w, i: lib.nn.functional.embedding_bag(i, w, lib.tensor([0]), mode="median"),
    lambda lib, w, i: lib.nn.functional.embedding_bag(i, w, lib.tensor([0]), mode="max", scale_grad_by_freq=True),
    lambda lib, w, i: lib.nn.functional.embedding_bag(i, w, lib.tensor([0]), mode="mean",
                                                      per_sample_weights=lib.ones(8)),
    lambda lib, w, i: lib.nn.functional.embedding_bag(i, w),
    lambda lib, w, i: lib.nn.functional.embedding_bag(i.reshape(2, 2, 2), w),
    lambda lib, w, i: lib.nn.functional.embedding_bag(i, w[0], lib.tensor([0])),
    lambda lib, w, i: lib.nn.functional.embedding_bag(i, w.double(), lib.tensor([0]), mode="sum",
                                                      per_sample_weights=lib.ones(8)),
])
def test_embedding_bag_errors(call):
    _same_error(lambda lib: call(lib, lib.tensor(WEIGHT), lib.tensor(INDICES)))


# ---------------------------------------------------------------- grid sampling and affine grids
@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample(mode, padding_mode, align_corners):
    def run(lib):
        image, grid = _leaf(lib, IMAGE), _leaf(lib, GRID)
        out = lib.nn.functional.grid_sample(image, grid, mode, padding_mode, align_corners)
        return out, [image, grid]

    _compare(run)


@pytest.mark.parametrize("size,align_corners", [([2, 1, 3, 4], False), ([2, 3, 1, 5], True), ([2, 1, 2, 3, 2], False)])
def test_affine_grid(size, align_corners):
    def run(lib):
        theta = _leaf(lib, THETA if len(size) == 4 else np.ones((2, 3, 4), np.float32) / 3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return lib.nn.functional.affine_grid(theta, size, align_corners), [theta]

    _compare(run)


def test_affine_grid_then_grid_sample_and_warning():
    def run(lib):
        theta, image = _leaf(lib, THETA), _leaf(lib, IMAGE)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            grid = lib.nn.functional.affine_grid(theta, [2, 3, 3, 2])
            out = lib.nn.functional.grid_sample(image, grid)
        assert [str(w.message) for w in caught] == [str(w.message) for w in caught[:1]] * 2
        return out, [theta, image]

    _compare(run)


@pytest.mark.parametrize("call", [
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g, mode="area", align_corners=False),
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g, padding_mode="wrap", align_corners=False),
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g[..., :1], align_corners=False),
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g[:1], align_corners=False),
    lambda lib, x, g: lib.nn.functional.grid_sample(x, g.double(), align_corners=False),
    lambda lib, x, g: lib.nn.functional.grid_sample(x[0], g, align_corners=False),
    lambda lib, x, g: lib.nn.functional.affine_grid(lib.ones(2, 2, 3, dtype=lib.int64), [2, 1, 3, 3], False),
    lambda lib, x, g: lib.nn.functional.affine_grid(lib.ones(2, 3, 3), [2, 1, 3, 3], False),
    lambda lib, x, g: lib.nn.functional.affine_grid(lib.ones(2, 2, 3), [2, 1, 3], False),
    lambda lib, x, g: lib.nn.functional.affine_grid(lib.ones(2, 2, 3), [2, 0, 3, 3], False),
])
def test_grid_errors(call):
    _same_error(lambda lib: call(lib, lib.tensor(IMAGE), lib.tensor(GRID)))


# ---------------------------------------------------------------- CTC loss
CTC_CASES = {
    "padded_mean": dict(targets=[[1, 2, 2], [3, 1, 0], [4, 4, 4]], input_lengths=[7, 6, 7], target_lengths=[3, 2, 3]),
    "concatenated_sum": dict(targets=[1, 2, 2, 3, 1, 4], input_lengths=[7, 5, 4], target_lengths=[3, 2, 1],
                             reduction="sum", blank=0),
    "blank_none_tensors": dict(targets=[[0, 2], [3, 0], [1, 1]], input_lengths=(7, 7, 3), target_lengths=(2, 1, 2),
                               reduction="none", blank=4, as_tensors=True),
    "infinite_zeroed": dict(targets=[[1, 1, 1], [2, 3, 0], [1, 2, 3]], input_lengths=[2, 7, 3],
                            target_lengths=[3, 2, 3], reduction="mean", zero_infinity=True),
    "infinite_none": dict(targets=[[1, 1, 1], [2, 3, 0], [1, 2, 3]], input_lengths=[4, 7, 7],
                          target_lengths=[3, 2, 3], reduction="none"),
}


@pytest.mark.parametrize("case", list(CTC_CASES))
def test_ctc_loss(case):
    options = dict(CTC_CASES[case])

    def run(lib):
        log_probs = _leaf(lib, LOG_PROBS)
        kwargs = {k: v for k, v in options.items() if k not in ("targets", "input_lengths", "target_lengths",
                                                                 "as_tensors")}
        lengths = [options["input_lengths"], options["target_lengths"]]
        if options.get("as_tensors"):
            lengths = [lib.tensor(length) for length in lengths]
        loss = lib.nn.functional.ctc_loss(log_probs, lib.tensor(options["targets"]), *lengths, **kwargs)
        return (loss.masked_fill(loss.isinf(), 0) if case == "infinite_none" else loss), [log_probs]

    _compare(run)


def test_ctc_loss_module_unbatched():
    def run(lib):
        log_probs = _leaf(lib, LOG_PROBS[:, 0])
        criterion = lib.nn.CTCLoss(blank=1, reduction="none")
        assert repr(criterion) == "CTCLoss()"
        return criterion(log_probs, lib.tensor([2, 3, 3]), lib.tensor(7), lib.tensor(3)), [log_probs]

    _compare(run)


@pytest.mark.parametrize("call", [
    lambda lib, lp, t: lib.nn.functional.ctc_loss(lp, t, [7, 7, 7], [2, 4, 2]),
    lambda lib, lp, t: lib.nn.functional.ctc_loss(lp, t, [7, 7, 7], [2, 2, 2], blank=5),
    lambda lib, lp, t: lib.nn.functional.ctc_loss(lp, t, [7, 8, 7], [2, 2, 2]),
    lambda lib, lp, t: lib.nn.functional.ctc_loss(lp, t, [7], [2, 2, 2]),
    lambda lib, lp, t: lib.nn.functional.ctc_loss(lp, t, lib.tensor([7.0, 7, 7]), lib.tensor([2, 2, 2])),
    lambda lib, lp, t: lib.nn.functional.ctc_loss(lp, t, lib.tensor([7, 7, 7]), lib.tensor([2.0, 2, 2])),
    lambda lib, lp, t: lib.nn.functional.ctc_loss(lp, t, [7, 7, 7], [2, 2, 2], reduction="avg"),
])
def test_ctc_loss_errors(call):
    _same_error(lambda lib: call(lib, lib.tensor(LOG_PROBS), lib.tensor([[1, 2], [2, 3], [3, 4]])))
