"""The nn layers beyond the core set against torch.nn: built under the same manual_seed, each case has the same
parameters (bit for bit), repr, forward values and input/parameter gradients; bad inputs raise torch's error class
with torch's message; the functional forms agree for arguments the modules do not reach."""
import warnings

import numpy as np
import pytest
import torch

import minitorch2

from .helpers import assert_same, assert_same_state

# name: (constructor taking the library's nn, input shapes, input kind)
MODULES = {
    "conv_transpose2d": (lambda nn: nn.ConvTranspose2d(3, 4, 3), [(2, 3, 5, 5)], "float"),
    "conv_transpose2d_strided": (lambda nn: nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=1, output_padding=1,
                                                               groups=2, dilation=(1, 2)), [(2, 4, 4, 5)], "float"),
    "conv_transpose2d_nobias": (lambda nn: nn.ConvTranspose2d(3, 2, 4, 2, 1, bias=False), [(1, 3, 4, 4)], "float"),
    "conv_transpose2d_unbatched": (lambda nn: nn.ConvTranspose2d(3, 2, 3), [(3, 4, 4)], "float"),
    "conv_transpose1d": (lambda nn: nn.ConvTranspose1d(3, 4, 3, stride=2, output_padding=1, dilation=2),
                         [(2, 3, 7)], "float"),
    "conv_transpose3d": (lambda nn: nn.ConvTranspose3d(2, 3, 2, stride=2), [(1, 2, 2, 3, 2)], "float"),
    "conv3d": (lambda nn: nn.Conv3d(2, 4, 3, padding=1, groups=2), [(2, 2, 4, 5, 3)], "float"),
    "batchnorm3d": (lambda nn: nn.BatchNorm3d(3), [(2, 3, 2, 3, 4)], "float"),
    "instancenorm1d": (lambda nn: nn.InstanceNorm1d(3), [(2, 3, 6)], "float"),
    "instancenorm1d_unbatched": (lambda nn: nn.InstanceNorm1d(3, affine=True), [(3, 6)], "float"),
    "instancenorm2d_affine": (lambda nn: nn.InstanceNorm2d(4, affine=True), [(2, 4, 5, 3)], "float"),
    "instancenorm2d_stats": (lambda nn: nn.InstanceNorm2d(3, affine=True, track_running_stats=True, momentum=0.3),
                             [(2, 3, 4, 4)], "float"),
    "instancenorm3d": (lambda nn: nn.InstanceNorm3d(2, track_running_stats=True, momentum=None),
                       [(2, 2, 3, 2, 3)], "float"),
    "groupnorm": (lambda nn: nn.GroupNorm(2, 6), [(3, 6, 5)], "float"),
    "groupnorm_4d": (lambda nn: nn.GroupNorm(3, 6, eps=1e-3), [(2, 6, 3, 4)], "float"),
    "groupnorm_noaffine": (lambda nn: nn.GroupNorm(1, 4, affine=False), [(2, 4, 3, 3)], "float"),
    "localresponsenorm": (lambda nn: nn.LocalResponseNorm(3), [(2, 5, 7)], "float"),
    "localresponsenorm_4d": (lambda nn: nn.LocalResponseNorm(2, alpha=0.1, beta=0.5, k=2.0), [(2, 6, 3, 4)], "float"),
    "rmsnorm": (lambda nn: nn.RMSNorm(6), [(3, 4, 6)], "float"),
    "rmsnorm_2d_eps": (lambda nn: nn.RMSNorm([4, 6], eps=1e-5), [(3, 4, 6)], "float"),
    "rmsnorm_noaffine": (lambda nn: nn.RMSNorm(5, elementwise_affine=False), [(2, 5)], "float"),
    "pixelshuffle": (lambda nn: nn.PixelShuffle(2), [(2, 8, 3, 4)], "float"),
    "pixelshuffle_5d": (lambda nn: nn.PixelShuffle(3), [(2, 1, 9, 2, 2)], "float"),
    "pixelunshuffle": (lambda nn: nn.PixelUnshuffle(2), [(2, 3, 4, 6)], "float"),
    "reflectionpad1d": (lambda nn: nn.ReflectionPad1d((2, 3)), [(2, 3, 5)], "float"),
    "reflectionpad2d": (lambda nn: nn.ReflectionPad2d(2), [(2, 3, 4, 5)], "float"),
    "reflectionpad2d_asym": (lambda nn: nn.ReflectionPad2d((1, 0, 3, 2)), [(3, 4, 5)], "float"),
    "reflectionpad3d": (lambda nn: nn.ReflectionPad3d(1), [(1, 2, 3, 3, 4)], "float"),
    "replicationpad1d": (lambda nn: nn.ReplicationPad1d((3, 1)), [(2, 3, 4)], "float"),
    "replicationpad2d": (lambda nn: nn.ReplicationPad2d((1, 2, 3, 0)), [(2, 3, 4, 5)], "float"),
    "replicationpad3d": (lambda nn: nn.ReplicationPad3d(2), [(1, 2, 2, 3, 2)], "float"),
    "circularpad2d": (lambda nn: nn.CircularPad2d((1, 2, 2, 1)), [(2, 3, 4, 5)], "float"),
    "zeropad1d": (lambda nn: nn.ZeroPad1d(2), [(2, 3, 4)], "float"),
    "zeropad2d": (lambda nn: nn.ZeroPad2d((1, 2, 0, 3)), [(2, 3, 4, 5)], "float"),
    "constantpad1d": (lambda nn: nn.ConstantPad1d((1, 2), 3.5), [(2, 3, 4)], "float"),
    "constantpad2d": (lambda nn: nn.ConstantPad2d(1, -1.0), [(2, 3, 4, 5)], "float"),
    "constantpad3d": (lambda nn: nn.ConstantPad3d((1, 0, 0, 1, 2, 0), 0.5), [(1, 2, 2, 3, 2)], "float"),
    "prelu": (lambda nn: nn.PReLU(), [(3, 4, 5)], "float"),
    "prelu_channels": (lambda nn: nn.PReLU(4, init=0.1), [(2, 4, 3, 3)], "float"),
    "hardtanh": (lambda nn: nn.Hardtanh(), [(3, 4)], "wide"),
    "hardtanh_range": (lambda nn: nn.Hardtanh(-2.0, 0.5), [(3, 4)], "wide"),
    "hardswish": (lambda nn: nn.Hardswish(), [(4, 5)], "wide"),
    "hardsigmoid": (lambda nn: nn.Hardsigmoid(), [(4, 5)], "wide"),
    "mish": (lambda nn: nn.Mish(), [(4, 5)], "wide"),
    "softplus": (lambda nn: nn.Softplus(beta=2.0, threshold=3.0), [(4, 5)], "wide"),
    "selu": (lambda nn: nn.SELU(), [(4, 5)], "wide"),
    "celu": (lambda nn: nn.CELU(1.5), [(4, 5)], "wide"),
    "glu": (lambda nn: nn.GLU(), [(3, 6)], "float"),
    "glu_dim1": (lambda nn: nn.GLU(1), [(2, 4, 3)], "float"),
    "softsign": (lambda nn: nn.Softsign(), [(4, 5)], "wide"),
    "tanhshrink": (lambda nn: nn.Tanhshrink(), [(4, 5)], "wide"),
    "threshold": (lambda nn: nn.Threshold(0.1, 20.0), [(4, 5)], "float"),
    "softmin": (lambda nn: nn.Softmin(dim=1), [(3, 5)], "float"),
    "softmax2d": (lambda nn: nn.Softmax2d(), [(2, 3, 4, 5)], "float"),
    "maxpool1d": (lambda nn: nn.MaxPool1d(3, stride=2, padding=1), [(2, 3, 9)], "float"),
    "maxpool1d_dilated_ceil": (lambda nn: nn.MaxPool1d(2, dilation=2, ceil_mode=True), [(2, 3, 8)], "float"),
    "avgpool1d": (lambda nn: nn.AvgPool1d(3, stride=2, padding=1, count_include_pad=False), [(2, 3, 9)], "float"),
    "avgpool1d_ceil": (lambda nn: nn.AvgPool1d(2, ceil_mode=True), [(3, 7)], "float"),
    "adaptiveavgpool1d": (lambda nn: nn.AdaptiveAvgPool1d(4), [(2, 3, 10)], "float"),
    "adaptivemaxpool1d": (lambda nn: nn.AdaptiveMaxPool1d(3), [(2, 3, 10)], "float"),
    "adaptivemaxpool2d": (lambda nn: nn.AdaptiveMaxPool2d((3, 4)), [(2, 3, 7, 9)], "float"),
    "adaptivemaxpool2d_none": (lambda nn: nn.AdaptiveMaxPool2d((2, None)), [(3, 5, 4)], "float"),
    "unflatten": (lambda nn: nn.Unflatten(1, (2, 3)), [(4, 6, 5)], "float"),
    "unflatten_list": (lambda nn: nn.Unflatten(-1, [2, -1]), [(4, 6)], "float"),
    "unfold": (lambda nn: nn.Unfold(2), [(2, 3, 4, 5)], "float"),
    "unfold_args": (lambda nn: nn.Unfold((2, 3), dilation=(2, 1), padding=1, stride=(2, 1)), [(2, 2, 6, 5)], "float"),
    "fold": (lambda nn: nn.Fold((4, 5), 2), [(2, 12, 12)], "float"),
    "fold_args": (lambda nn: nn.Fold((6, 5), (2, 3), dilation=(2, 1), padding=1, stride=(2, 1)), [(2, 12, 15)],
                  "float"),
    "bilinear": (lambda nn: nn.Bilinear(3, 4, 5), [(6, 3), (6, 4)], "float"),
    "bilinear_3d_nobias": (lambda nn: nn.Bilinear(2, 3, 4, bias=False), [(2, 5, 2), (2, 5, 3)], "float"),
    "pairwisedistance": (lambda nn: nn.PairwiseDistance(), [(4, 5), (4, 5)], "float"),
    "pairwisedistance_p1_keepdim": (lambda nn: nn.PairwiseDistance(p=1.0, keepdim=True), [(4, 5), (5,)], "float"),
}


def _data(shape, kind, seed):
    rng = np.random.default_rng(seed)
    data = rng.standard_normal(shape).astype(np.float32)
    return data * 4 if kind == "wide" else data


def _inputs(shapes, kind):
    arrays = [_data(shape, kind, seed) for seed, shape in enumerate(shapes, 1)]
    return ([minitorch2.from_numpy(a.copy()).requires_grad_() for a in arrays],
            [torch.from_numpy(a.copy()).requires_grad_() for a in arrays])


def _build(make):
    minitorch2.manual_seed(0)
    ours = make(minitorch2.nn)
    torch.manual_seed(0)
    theirs = make(torch.nn)
    return ours, theirs


@pytest.mark.parametrize("name", sorted(MODULES))
def test_same_parameters_and_repr(name):
    ours, theirs = _build(MODULES[name][0])
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert_same_state(ours, theirs, exact=True)
    assert repr(ours) == repr(theirs)


def _compare_backward(out_ours, out_theirs, xs_ours, xs_theirs, ours, theirs):
    grad = np.random.default_rng(9).standard_normal(tuple(out_theirs.shape)).astype(np.float32)
    out_ours.backward(minitorch2.from_numpy(grad.copy()))
    out_theirs.backward(torch.from_numpy(grad.copy()))
    for x_ours, x_theirs in zip(xs_ours, xs_theirs):
        assert (x_ours.grad is None) == (x_theirs.grad is None)
        if x_theirs.grad is not None:
            assert_same(x_ours.grad, x_theirs.grad, rtol=1e-4, atol=1e-5)
    for (n, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert (p.grad is None) == (q.grad is None), n
        if q.grad is not None:
            assert_same(p.grad, q.grad, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("name", sorted(MODULES))
def test_forward_and_gradients(name, train):
    make, shapes, kind = MODULES[name]
    ours, theirs = _build(make)
    ours.train(train)
    theirs.train(train)
    xs_ours, xs_theirs = _inputs(shapes, kind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out_ours, out_theirs = ours(*xs_ours), theirs(*xs_theirs)
    assert_same(out_ours, out_theirs, rtol=1e-5, atol=1e-5)
    _compare_backward(out_ours, out_theirs, xs_ours, xs_theirs, ours, theirs)
    assert_same_state(ours, theirs, exact=False)  # running statistics after the step


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
@pytest.mark.parametrize("name", sorted(MODULES))
def test_compiles_like_eager(name, backend):
    """Compiled, each layer gives eager's output, gradients and buffers (the composites need nothing of their own
    from the compiler; ops the backend does not lower run their eager kernels)."""
    make, shapes, kind = MODULES[name]
    results = []
    for compiled in (False, True):
        minitorch2.manual_seed(0)
        module = make(minitorch2.nn)
        xs, _ = _inputs(shapes, kind)
        out = (minitorch2.compile(module, backend=backend) if compiled else module)(*xs)
        (out * out).sum().backward()
        results.append([out, *(x.grad for x in xs), *(p.grad for p in module.parameters()), *module.buffers()])
    for ours, eager in zip(*results):
        assert_same(ours, eager, rtol=1e-4, atol=1e-4)


def test_conv_transpose_output_size_argument():
    ours, theirs = _build(lambda nn: nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1))
    xs_ours, xs_theirs = _inputs([(1, 3, 4, 5)], "float")
    for size in [(8, 10), (1, 2, 7, 9), [8, 9]]:
        assert_same(ours(xs_ours[0], output_size=size), theirs(xs_theirs[0], output_size=size))



def _pad(F):
    """F.pad with every mode. nn/functional.py's own `pad` (not this task's file) still knows only 'constant'; the
    padding modules call _functional_more.pad, which is what it should become."""
    return minitorch2.nn._functional_more.pad if F is minitorch2.nn.functional else F.pad


# name: (call taking the library's nn.functional, input shapes), for arguments the modules above do not reach
FUNCTIONAL = {
    "pad_reflect_3d": (lambda F, x: _pad(F)(x, (1, 2, 0, 1, 2, 1), mode="reflect"), [(1, 2, 3, 4, 5)]),
    "pad_replicate_negative": (lambda F, x: _pad(F)(x, (-1, 2, 1, -2), mode="replicate"), [(2, 3, 4, 5)]),
    "pad_circular_1d": (lambda F, x: _pad(F)(x, (3, 2), mode="circular"), [(2, 3, 4)]),
    "pad_reflect_negative": (lambda F, x: _pad(F)(x, (-1, 2), mode="reflect"), [(2, 3, 5)]),
    "pad_constant_value": (lambda F, x: _pad(F)(x, (1, 2, -1, 1), value=2.5), [(2, 3, 4)]),
    "max_pool1d_indices": (lambda F, x: F.max_pool1d(x, 3, 2, return_indices=True)[0], [(2, 3, 9)]),
    "adaptive_max_pool2d_indices": (lambda F, x: F.adaptive_max_pool2d(x, 3, return_indices=True)[0], [(2, 5, 7)]),
    "adaptive_max_pool1d_bigger": (lambda F, x: F.adaptive_max_pool1d(x, 7), [(2, 3, 5)]),
    "softmin_dtype": (lambda F, x: F.softmin(x, 0, dtype=minitorch2.float64 if F is minitorch2.nn.functional
                                             else torch.float64), [(4, 3)]),
    "glu_neg_dim": (lambda F, x: F.glu(x, -2), [(2, 6, 3)]),
    "pairwise_distance_inf": (lambda F, x, y: F.pairwise_distance(x, y, float("inf")), [(3, 4), (3, 4)]),
    "pairwise_distance_1d": (lambda F, x, y: F.pairwise_distance(x, y, 3.0), [(4,), (4,)]),
    "conv_transpose1d_groups": (lambda F, x, w: F.conv_transpose1d(x, w, None, 2, 1, 1, 2, 1), [(2, 4, 5), (4, 3, 3)]),
    "conv3d_strided": (lambda F, x, w: F.conv3d(x, w, stride=(1, 2, 1), dilation=(2, 1, 1)), [(1, 2, 5, 5, 3),
                                                                                               (3, 2, 2, 2, 2)]),
    "instance_norm_eval_stats": (lambda F, x, m, v: F.instance_norm(x, m.detach(), v.detach().abs(),
                                                                     use_input_stats=False), [(2, 3, 4), (3,), (3,)]),
    "group_norm_weight_only": (lambda F, x, w: F.group_norm(x, 2, w), [(2, 4, 3), (4,)]),
    "rms_norm_default_eps": (lambda F, x, w: F.rms_norm(x, [3], w), [(2, 3), (3,)]),
    "local_response_norm_5d": (lambda F, x: F.local_response_norm(x, 4), [(2, 6, 2, 3, 2)]),
    "unfold_unbatched": (lambda F, x: F.unfold(x, 2, padding=1), [(2, 3, 3)]),
    "fold_unbatched": (lambda F, x: F.fold(x, 3, 2), [(8, 4)]),
    "bilinear_1d": (lambda F, x, y, w: F.bilinear(x, y, w), [(3,), (2,), (4, 3, 2)]),
    "hardswish_inplace": (lambda F, x: F.hardswish(x * 1, inplace=True), [(3, 4)]),
    "mish_inplace": (lambda F, x: F.mish(x * 1, inplace=True), [(3, 4)]),
    "threshold_inplace": (lambda F, x: F.threshold(x * 1, 0.2, -1.0, inplace=True), [(3, 4)]),
    "selu_inplace": (lambda F, x: F.selu(x * 1, inplace=True), [(3, 4)]),
    "celu_inplace": (lambda F, x: F.celu(x * 1, 0.5, inplace=True), [(3, 4)]),
    "prelu_0d": (lambda F, x, w: F.prelu(x, w), [(), (1,)]),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONAL))
def test_functional_forms(name):
    call, shapes = FUNCTIONAL[name]
    xs_ours, xs_theirs = _inputs(shapes, "float")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out_ours, out_theirs = call(minitorch2.nn.functional, *xs_ours), call(torch.nn.functional, *xs_theirs)
    assert_same(out_ours, out_theirs, rtol=1e-5, atol=1e-5)
    _compare_backward(out_ours, out_theirs, xs_ours, xs_theirs, minitorch2.nn.Module(), torch.nn.Module())


@pytest.mark.parametrize("call", [
    lambda F, x: F.max_pool1d(x, 3, 2, return_indices=True)[1],
    lambda F, x: F.adaptive_max_pool1d(x, 4, return_indices=True)[1],
    lambda F, x: F.adaptive_max_pool2d(x.reshape(2, 3, 3), (2, 2), return_indices=True)[1],
], ids=["max_pool1d", "adaptive_max_pool1d", "adaptive_max_pool2d"])
def test_pooling_indices(call):
    xs_ours, xs_theirs = _inputs([(2, 9)], "float")
    ours, theirs = call(minitorch2.nn.functional, xs_ours[0]), call(torch.nn.functional, xs_theirs[0])
    assert np.array_equal(ours.numpy(), theirs.numpy())


def test_instance_norm_running_stats_follow_torch_over_steps():
    ours, theirs = _build(lambda nn: nn.InstanceNorm1d(3, track_running_stats=True))
    for seed in range(3):
        data = _data((4, 3, 5), "float", seed)
        ours(minitorch2.from_numpy(data.copy()))
        theirs(torch.from_numpy(data.copy()))
    assert_same_state(ours, theirs, exact=False)
    data = _data((4, 3, 5), "float", 3)
    assert_same(ours.eval()(minitorch2.from_numpy(data.copy())), theirs.eval()(torch.from_numpy(data.copy())))


@pytest.mark.parametrize("module", ["Dropout1d", "Dropout2d", "Dropout3d"])
def test_channel_dropout_masks_match_torch(module):
    shape = {"Dropout1d": (4, 8, 5), "Dropout2d": (4, 8, 3, 3), "Dropout3d": (8, 2, 2, 2)}[module]
    minitorch2.manual_seed(5)
    torch.manual_seed(5)
    ours = getattr(minitorch2.nn, module)(0.4)(minitorch2.ones(*shape))
    theirs = getattr(torch.nn, module)(0.4)(torch.ones(*shape))
    assert np.array_equal(ours.numpy(), theirs.numpy())
    x = minitorch2.randn(*shape)
    assert np.array_equal(getattr(minitorch2.nn, module)(0.4).eval()(x).numpy(), x.numpy())
    assert repr(getattr(minitorch2.nn, module)(0.4, True)) == repr(getattr(torch.nn, module)(0.4, True))


def _raises_like_torch(call):
    with pytest.raises(Exception) as theirs, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call(torch)
    with pytest.raises(Exception) as ours, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call(minitorch2)
    assert type(ours.value) is type(theirs.value), (ours.value, theirs.value)
    assert str(ours.value) == str(theirs.value)


BAD_INPUTS = {
    "conv_transpose2d rank": lambda t: t.nn.functional.conv_transpose2d(t.randn(5, 8), t.randn(3, 4, 3, 3)),
    "conv_transpose1d rank": lambda t: t.nn.functional.conv_transpose1d(t.randn(5, 8, 2, 2), t.randn(3, 4, 3)),
    "conv_transpose channels": lambda t: t.nn.ConvTranspose2d(3, 4, 3)(t.randn(1, 5, 8, 8)),
    "conv_transpose output_padding": lambda t: t.nn.functional.conv_transpose2d(t.randn(1, 3, 8, 8),
                                                                                t.randn(3, 4, 3, 3), output_padding=1),
    "conv_transpose output_size": lambda t: t.nn.ConvTranspose2d(3, 4, 3, stride=2)(t.randn(1, 3, 5, 5),
                                                                                     output_size=(20, 20)),
    "conv_transpose output_size length": lambda t: t.nn.ConvTranspose2d(3, 4, 3, stride=2)(t.randn(1, 3, 5, 5),
                                                                                            output_size=(20,)),
    "conv_transpose padding_mode": lambda t: t.nn.ConvTranspose2d(3, 4, 3, padding_mode="reflect"),
    "conv_transpose groups": lambda t: t.nn.ConvTranspose2d(3, 4, 3, groups=2),
    "conv3d rank": lambda t: t.nn.Conv3d(2, 3, 3)(t.randn(3, 4)),
    "batchnorm3d rank": lambda t: t.nn.BatchNorm3d(3)(t.randn(2, 3, 4, 4)),
    "group_norm groups": lambda t: t.nn.functional.group_norm(t.randn(2, 6, 4), 4),
    "group_norm rank": lambda t: t.nn.functional.group_norm(t.randn(6), 2),
    "group_norm one value": lambda t: t.nn.functional.group_norm(t.randn(1, 2, 1), 2),
    "group_norm weight": lambda t: t.nn.functional.group_norm(t.randn(2, 6, 4), 3, t.ones(5)),
    "groupnorm module": lambda t: t.nn.GroupNorm(4, 6),
    "instance_norm one element": lambda t: t.nn.functional.instance_norm(t.randn(2, 3, 1)),
    "instancenorm rank": lambda t: t.nn.InstanceNorm2d(3)(t.randn(2, 3)),
    "instancenorm features": lambda t: t.nn.InstanceNorm1d(3, affine=True)(t.randn(2, 4, 5)),
    "local_response_norm rank": lambda t: t.nn.LocalResponseNorm(2)(t.randn(2, 3)),
    "rms_norm shape": lambda t: t.nn.functional.rms_norm(t.randn(2, 3), [4]),
    "rms_norm shape 2d": lambda t: t.nn.RMSNorm([2, 3])(t.randn(4, 3, 3)),
    "pixel_shuffle rank": lambda t: t.nn.PixelShuffle(2)(t.randn(4, 4)),
    "pixel_shuffle channels": lambda t: t.nn.PixelShuffle(2)(t.randn(1, 5, 2, 2)),
    "pixel_unshuffle height": lambda t: t.nn.PixelUnshuffle(2)(t.randn(1, 1, 5, 4)),
    "pixel_unshuffle width": lambda t: t.nn.PixelUnshuffle(2)(t.randn(1, 1, 4, 5)),
    "pad odd length": lambda t: _pad(t.nn.functional)(t.randn(2, 3, 4), (1,), mode="reflect"),
    "pad too long": lambda t: _pad(t.nn.functional)(t.randn(3), (1, 1, 1, 1)),
    "pad mode": lambda t: _pad(t.nn.functional)(t.randn(1, 2, 3), (1, 1), mode="foo"),
    "pad value": lambda t: _pad(t.nn.functional)(t.randn(1, 2, 3), (1, 1), mode="reflect", value=1.0),
    "reflect too big": lambda t: t.nn.ReflectionPad1d(3)(t.randn(1, 2, 3)),
    "reflect too big 2d": lambda t: t.nn.ReflectionPad2d((1, 1, 3, 3))(t.randn(1, 2, 3, 3)),
    "reflect too big 2d width": lambda t: t.nn.ReflectionPad2d((3, 3, 1, 1))(t.randn(1, 2, 3, 3)),
    "reflect rank": lambda t: t.nn.ReflectionPad1d(1)(t.randn(3)),
    "reflect rank 5d": lambda t: t.nn.ReflectionPad1d(1)(t.randn(1, 1, 1, 3, 3)),
    "replicate empty": lambda t: t.nn.ReplicationPad1d(1)(t.randn(1, 0, 3)),
    "circular wraps twice": lambda t: t.nn.CircularPad1d(4)(t.randn(1, 2, 3)),
    "circular rank": lambda t: t.nn.CircularPad2d(1)(t.randn(3, 3)),
    "prelu channels": lambda t: t.nn.PReLU(4)(t.randn(2, 3)),
    "hardtanh range": lambda t: t.nn.Hardtanh(2, 1),
    "glu odd": lambda t: t.nn.GLU(1)(t.randn(2, 3)),
    "glu scalar": lambda t: t.nn.GLU()(t.randn(())),
    "softmax2d rank": lambda t: t.nn.Softmax2d()(t.randn(2, 3)),
    "max_pool1d rank": lambda t: t.nn.MaxPool1d(2)(t.randn(2, 3, 4, 5)),
    "max_pool1d kernel": lambda t: t.nn.functional.max_pool1d(t.randn(2, 3, 4), (2, 2)),
    "max_pool1d too small": lambda t: t.nn.MaxPool1d(2)(t.randn(2, 3, 1)),
    "max_pool1d padding": lambda t: t.nn.MaxPool1d(3, padding=2)(t.randn(2, 3, 8)),
    "avg_pool1d rank": lambda t: t.nn.AvgPool1d(2)(t.randn(2, 3, 4, 5)),
    "avg_pool1d kernel": lambda t: t.nn.functional.avg_pool1d(t.randn(2, 3, 4), (2, 2)),
    "avg_pool1d too small": lambda t: t.nn.AvgPool1d(2)(t.randn(2, 3, 1)),
    "adaptive_avg_pool1d rank": lambda t: t.nn.AdaptiveAvgPool1d(2)(t.randn(2, 3, 4, 5)),
    "adaptive_max_pool1d rank": lambda t: t.nn.AdaptiveMaxPool1d(2)(t.randn(2, 3, 4, 5)),
    "adaptive_max_pool2d rank": lambda t: t.nn.AdaptiveMaxPool2d(2)(t.randn(2, 3)),
    "adaptive_max_pool2d size": lambda t: t.nn.functional.adaptive_max_pool2d(t.randn(2, 3, 4, 4), (2, 2, 2)),
    "unflatten type": lambda t: t.nn.Unflatten(1, 5),
    "unflatten element": lambda t: t.nn.Unflatten(1, (2, 3.0)),
    "unfold kernel too big": lambda t: t.nn.Unfold(4)(t.randn(1, 2, 3, 3)),
    "fold rank": lambda t: t.nn.Fold((4, 4), 2)(t.randn(2, 3, 4, 5)),
    "fold channels": lambda t: t.nn.Fold((4, 4), 2)(t.randn(1, 5, 9)),
    "fold blocks": lambda t: t.nn.Fold((4, 4), 2)(t.randn(1, 4, 8)),
    "bilinear rank": lambda t: t.nn.Bilinear(3, 4, 5)(t.randn(2, 3), t.randn(2, 3, 4)),
    "bilinear batch": lambda t: t.nn.Bilinear(3, 4, 5)(t.randn(2, 3), t.randn(3, 4)),
    "bilinear input1": lambda t: t.nn.Bilinear(2, 4, 5)(t.randn(2, 3), t.randn(2, 4)),
    "bilinear input2": lambda t: t.nn.Bilinear(3, 5, 5)(t.randn(2, 3), t.randn(2, 4)),
    "pairwise shapes": lambda t: t.nn.PairwiseDistance()(t.randn(2, 3), t.randn(2, 4)),
    "dropout2d p": lambda t: t.nn.Dropout2d(1.5),
    "dropout1d rank": lambda t: t.nn.functional.dropout1d(t.randn(2, 3, 4, 5)),
    "parameterlist extend": lambda t: t.nn.ParameterList().extend(t.randn(2)),
    "parameterlist call": lambda t: t.nn.ParameterList()(t.randn(2)),
    "parameterlist index": lambda t: t.nn.ParameterList([t.randn(2)])[3],
    "parameterdict key": lambda t: t.nn.ParameterDict()[1],
    "parameterdict update": lambda t: t.nn.ParameterDict().update(3),
    "parameterdict pair": lambda t: t.nn.ParameterDict([("a", t.randn(2), 1)]),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_raises_torch_error(name):
    _raises_like_torch(BAD_INPUTS[name])


def test_unflatten_sizes_error():
    _raises_like_torch(lambda t: t.nn.Unflatten(1, (2, 3))(t.randn(2, 5)))


def _parameter_list(lib):
    lib.manual_seed(0)
    params = lib.nn.ParameterList([lib.nn.Parameter(lib.randn(2, 3)), lib.randn(4)])
    params.append(lib.zeros(1, dtype=lib.float64))
    params.extend([lib.ones(2)])
    params += ["not a tensor"]
    params[0] = lib.full((3,), 2.0)
    return params


def test_parameter_list_behaves_as_torch():
    ours, theirs = _parameter_list(minitorch2), _parameter_list(torch)
    assert repr(ours) == repr(theirs)
    assert len(ours) == len(theirs) == 5
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert all(isinstance(p, minitorch2.nn.Parameter) for p in list(ours)[:4])
    assert ours[-1] == "not a tensor" and isinstance(ours[1:3], minitorch2.nn.ParameterList)
    assert repr(ours[1:3]) == repr(theirs[1:3])
    assert [k for k in dir(ours) if k.isdigit()] == []
    assert_same_state(ours, theirs)


def _parameter_dict(lib):
    lib.manual_seed(0)
    params = lib.nn.ParameterDict({"b": lib.nn.Parameter(lib.randn(2)), "a": lib.randn(3, 1)})
    params["c"] = lib.zeros(2, dtype=lib.float64)
    params.update([("d", lib.ones(1)), ("e", 7)])
    params.setdefault("f", lib.ones(2))
    popped = params.pop("a")
    return params, popped


def test_parameter_dict_behaves_as_torch():
    (ours, popped_ours), (theirs, popped_theirs) = _parameter_dict(minitorch2), _parameter_dict(torch)
    assert repr(ours) == repr(theirs)
    assert list(ours) == list(theirs) and list(ours.keys()) == list(theirs.keys())
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert_same(popped_ours, popped_theirs)
    assert "c" in ours and "a" not in ours and ours.get("a", 3) == 3 and ours["e"] == 7
    assert list(reversed(ours)) == list(reversed(theirs))
    assert ours.popitem()[0] == theirs.popitem()[0]
    merged_ours = ours | minitorch2.nn.ParameterDict({"z": minitorch2.ones(1)})
    merged_theirs = theirs | torch.nn.ParameterDict({"z": torch.ones(1)})
    assert repr(merged_ours) == repr(merged_theirs)
    assert repr(ours.fromkeys(["x", "y"])) == repr(theirs.fromkeys(["x", "y"]))
    ours.clear()
    assert len(ours) == 0 and repr(ours) == "ParameterDict()"


def test_parameter_containers_train_inside_a_module():
    def run(lib):
        class Net(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.scales = lib.nn.ParameterList([lib.randn(3) for _ in range(2)])
                self.shifts = lib.nn.ParameterDict({"x": lib.randn(3)})

            def forward(self, x):
                return (x * self.scales[0] * self.scales[1] + self.shifts["x"]).sum()

        lib.manual_seed(1)
        net = Net()
        net(lib.ones(3)).backward()
        return net

    ours, theirs = run(minitorch2), run(torch)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["scales.0", "scales.1", "shifts.x"]
    for p, q in zip(ours.parameters(), theirs.parameters()):
        assert_same(p.grad, q.grad)


def _dcgan_generator(nn):
    return nn.Sequential(nn.ConvTranspose2d(8, 16, 4, 1, 0, bias=False), nn.BatchNorm2d(16), nn.ReLU(True),
                         nn.ConvTranspose2d(16, 8, 4, 2, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU(True),
                         nn.ConvTranspose2d(8, 3, 4, 2, 1, bias=False), nn.Tanh())


def _style_block(nn):
    """fast_neural_style's pieces: reflection-padded convolutions, instance norms (one tracking statistics), a
    nearest upsample, a residual connection."""
    return nn.ModuleDict({
        "conv_in": nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(3, 4, 3)),
        "norm_in": nn.InstanceNorm2d(4, affine=True),
        "residual": nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(4, 4, 3),
                                  nn.InstanceNorm2d(4, affine=True, track_running_stats=True)),
        "up": nn.Upsample(scale_factor=2),
        "conv_out": nn.Sequential(nn.ReflectionPad2d(2), nn.Conv2d(4, 3, 5)),
    })


def _run_style_block(blocks, x):
    y = blocks["norm_in"](blocks["conv_in"](x)).relu()
    y = y + blocks["residual"](y)
    return blocks["conv_out"](blocks["up"](y))


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
@pytest.mark.parametrize("model", ["dcgan_generator", "style_block"])
def test_compiled_models_match_eager(model, backend):
    make, run, shape = {"dcgan_generator": (_dcgan_generator, lambda m, x: m(x), (2, 8, 1, 1)),
                        "style_block": (_style_block, _run_style_block, (2, 3, 6, 6))}[model]

    def step(compiled):
        minitorch2.manual_seed(0)
        module = make(minitorch2.nn)
        x = minitorch2.randn(*shape, requires_grad=True)
        forward = minitorch2.compile(lambda x: run(module, x), backend=backend) if compiled else (
            lambda x: run(module, x))
        out = forward(x)
        (out * out).sum().backward()
        return module, x, out

    (ours, x, out), (eager, x_eager, out_eager) = step(True), step(False)
    assert_same(out, out_eager, rtol=1e-4, atol=1e-5)
    assert_same(x.grad, x_eager.grad, rtol=1e-4, atol=1e-4)
    for (n, p), (_, q) in zip(ours.named_parameters(), eager.named_parameters()):
        assert_same(p.grad, q.grad, rtol=1e-4, atol=1e-4)
    assert_same_state(ours, eager, exact=False)  # the running statistics the step moved


@pytest.mark.parametrize("fn, args, shape", [
    ("orthogonal_", (), (6, 4)), ("orthogonal_", (2.0,), (3, 8)), ("orthogonal_", (), (4, 2, 3, 3)),
    ("sparse_", (0.3,), (10, 6)), ("sparse_", (0.5, 0.1), (3, 4)),
    ("dirac_", (), (4, 3, 3, 3)), ("dirac_", (2,), (6, 3, 3)), ("dirac_", (), (2, 2, 3, 3, 3)), ("eye_", (), (3, 5)),
])
def test_init_matches_torch(fn, args, shape):
    minitorch2.manual_seed(7)
    torch.manual_seed(7)
    ours = getattr(minitorch2.nn.init, fn)(minitorch2.empty(*shape), *args)
    theirs = getattr(torch.nn.init, fn)(torch.empty(*shape), *args)
    assert_same(ours, theirs, rtol=1e-5, atol=1e-6)  # orthogonal_'s QR is LAPACK's in both, rounded differently
    if fn != "orthogonal_":
        assert np.array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("call", [
    lambda t: t.nn.init.orthogonal_(t.empty(3)),
    lambda t: t.nn.init.sparse_(t.empty(3, 3, 3), 0.1),
    lambda t: t.nn.init.dirac_(t.empty(3, 3)),
    lambda t: t.nn.init.dirac_(t.empty(3, 3, 3), groups=2),
], ids=["orthogonal rank", "sparse rank", "dirac rank", "dirac groups"])
def test_init_errors(call):
    _raises_like_torch(call)


@pytest.mark.parametrize("kwargs", [{}, dict(batch_first=True, padding_value=-1.0), dict(padding_side="left")])
def test_pad_sequence(kwargs):
    shapes = [(2, 3), (4, 3), (1, 1)]
    xs_ours, xs_theirs = _inputs(shapes, "float")
    ours = minitorch2.nn.utils.rnn.pad_sequence(xs_ours, **kwargs)
    theirs = torch.nn.utils.rnn.pad_sequence(xs_theirs, **kwargs)
    assert_same(ours, theirs)
    _compare_backward(ours, theirs, xs_ours, xs_theirs, minitorch2.nn.Module(), torch.nn.Module())


@pytest.mark.parametrize("call", [
    lambda t: t.nn.utils.rnn.pad_sequence([t.ones(2)], padding_side="up"),
    lambda t: t.nn.utils.rnn.pad_sequence([]),
    lambda t: t.nn.utils.rnn.pad_sequence([t.ones(2, 3), t.ones(2, 4)]),
    lambda t: t.nn.utils.vector_to_parameters([1.0], []),
], ids=["padding_side", "empty", "trailing", "vector type"])
def test_utils_errors(call):
    _raises_like_torch(call)


def test_parameters_as_a_vector_and_clip_grad_value():
    def run(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Linear(4, 2))
        vec = lib.nn.utils.parameters_to_vector(model.parameters())
        (vec * vec).sum().backward()
        lib.nn.utils.clip_grad_value_(model.parameters(), 0.3)
        lib.nn.utils.vector_to_parameters(vec.detach() * 2, model.parameters())
        return model, vec

    (ours, vec_ours), (theirs, vec_theirs) = run(minitorch2), run(torch)
    assert_same(vec_ours, vec_theirs)
    assert_same_state(ours, theirs)
    for p, q in zip(ours.parameters(), theirs.parameters()):
        assert_same(p.grad, q.grad)


@pytest.mark.parametrize("parametrized", [False, True])
@pytest.mark.parametrize("make, dim, shape", [
    (lambda nn: nn.Linear(3, 4), 0, (2, 3)), (lambda nn: nn.Conv2d(2, 3, 3), 1, (1, 2, 5, 5)),
    (lambda nn: nn.ConvTranspose1d(2, 3, 3), None, (2, 2, 4)),
], ids=["linear", "conv2d_dim1", "conv_transpose_whole"])
def test_weight_norm(make, dim, shape, parametrized):
    def build(nn):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = make(nn)
            if parametrized:
                return nn.utils.parametrizations.weight_norm(module, dim=dim)
            return nn.utils.weight_norm(module, dim=dim)

    ours, theirs = _build(build)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert repr(ours) == repr(theirs) and type(ours).__name__ == type(theirs).__name__
    assert_same_state(ours, theirs, exact=False)
    xs_ours, xs_theirs = _inputs([shape], "float")
    out_ours, out_theirs = ours(xs_ours[0]), theirs(xs_theirs[0])
    assert_same(out_ours, out_theirs, rtol=1e-5, atol=1e-5)
    _compare_backward(out_ours, out_theirs, xs_ours, xs_theirs, ours, theirs)
    remove = ((lambda m: minitorch2.nn.utils.parametrize.remove_parametrizations(m, "weight"),
               lambda m: torch.nn.utils.parametrize.remove_parametrizations(m, "weight")) if parametrized else
              (minitorch2.nn.utils.remove_weight_norm, torch.nn.utils.remove_weight_norm))
    ours, theirs = remove[0](ours), remove[1](theirs)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert repr(ours) == repr(theirs)
    assert_same_state(ours, theirs, exact=False)


def test_parametrize_with_a_user_parametrization():
    def build(lib):
        class Symmetric(lib.nn.Module):
            def forward(self, x):
                return x.triu() + x.triu(1).transpose(-1, -2)

        lib.manual_seed(0)
        layer = lib.nn.Linear(3, 3)
        lib.nn.utils.parametrize.register_parametrization(layer, "weight", Symmetric())
        return layer

    ours, theirs = build(minitorch2), build(torch)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert repr(ours) == repr(theirs)
    assert_same(ours.weight, theirs.weight)
    with minitorch2.nn.utils.parametrize.cached():
        assert ours.weight is ours.weight
    assert minitorch2.nn.utils.parametrize.is_parametrized(ours, "weight")
    assert not minitorch2.nn.utils.parametrize.is_parametrized(ours, "bias")
