"""Issue 20's nn names compared with torch: F.rrelu (its training draws from the generator), channel_shuffle,
feature_alpha_dropout, multilabel_margin_loss, triplet_margin_with_distance_loss, their layers and reprs,
SyncBatchNorm, the lazy norms and transposed convolutions, nn.utils' fusions, skip_init and functional_call."""
import numpy as np
import pytest
import torch

import minitorch2 as mt


def pair(*shape, dtype=np.float32, grad=True, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return mt.tensor(a, requires_grad=grad), torch.tensor(a, requires_grad=grad)


def close(mine, theirs, rtol=1e-5, atol=1e-6):
    assert str(mine.dtype) == str(theirs.dtype) and tuple(mine.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=rtol, atol=atol)


def backward_close(pairs, out, tout):
    """Gradients of a weighted sum of the outputs (random weights: a plain sum's gradient through a norm is
    rounding noise)."""
    w = np.random.default_rng(9).standard_normal(tuple(tout.shape)).astype(str(tout.dtype).split(".")[1])
    (out * mt.tensor(w)).sum().backward(), (tout * torch.tensor(w)).sum().backward()
    for m, t in pairs:
        close(m.grad, t.grad)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("training", [False, True])
def test_rrelu_values_gradients_and_draws(dtype, training):
    x, tx = pair(4, 37, dtype=dtype)
    mt.manual_seed(3), torch.manual_seed(3)
    out, tout = mt.nn.functional.rrelu(x, 0.1, 0.4, training), torch.nn.functional.rrelu(tx, 0.1, 0.4, training)
    close(out, tout)
    backward_close([(x, tx)], out, tout)
    # the generator moved as far as torch's: the next draws agree
    close(mt.rand(3, dtype=out.dtype), torch.rand(3, dtype=tout.dtype))
    mt.manual_seed(5), torch.manual_seed(5)
    y, ty = x.detach().clone(), tx.detach().clone()
    close(mt.rrelu_(y, training=training), torch.rrelu_(ty, training=training))
    close(y, ty)
    m, tm = mt.nn.RReLU(0.2, 0.3, inplace=True), torch.nn.RReLU(0.2, 0.3, inplace=True)
    assert repr(m) == repr(tm) and repr(mt.nn.RReLU()) == repr(torch.nn.RReLU())
    with pytest.raises(RuntimeError, match="Lower bound should be less than or equal"):
        mt.nn.functional.rrelu(x, 0.5, 0.1, True)
    with pytest.raises(RuntimeError, match="Lower bound should be less than or equal"):
        torch.nn.functional.rrelu(tx, 0.5, 0.1, True)


def test_channel_shuffle():
    x, tx = pair(2, 6, 3, 2)
    out, tout = mt.nn.functional.channel_shuffle(x, 3), torch.nn.functional.channel_shuffle(tx, 3)
    close(out, tout)
    backward_close([(x, tx)], out, tout)
    close(mt.nn.ChannelShuffle(2)(x), torch.nn.ChannelShuffle(2)(tx))
    close(mt.native_channel_shuffle(x, 2), torch.native_channel_shuffle(tx, 2))
    assert repr(mt.nn.ChannelShuffle(2)) == repr(torch.nn.ChannelShuffle(2))
    for index, groups in (((), 4), ((), 0), ((0, 0), 2)):
        with pytest.raises(RuntimeError) as mine:
            mt.nn.functional.channel_shuffle(x[index], groups)
        with pytest.raises(RuntimeError) as theirs:
            torch.nn.functional.channel_shuffle(tx[index], groups)
        assert str(mine.value) == str(theirs.value)


def test_feature_alpha_dropout_draws_as_torch():
    x, tx = pair(3, 5, 4)
    mt.manual_seed(0), torch.manual_seed(0)
    out = mt.nn.functional.feature_alpha_dropout(x, 0.3, True)
    tout = torch.nn.functional.feature_alpha_dropout(tx, 0.3, True)
    close(out, tout)
    backward_close([(x, tx)], out, tout)
    close(mt.nn.functional.feature_alpha_dropout(x, 0.3, False), torch.nn.functional.feature_alpha_dropout(tx, 0.3))
    m, tm = mt.nn.FeatureAlphaDropout(0.2), torch.nn.FeatureAlphaDropout(0.2)
    assert repr(m) == repr(tm)
    mt.manual_seed(1), torch.manual_seed(1)
    close(m(x), tm(tx))
    with pytest.raises(ValueError, match="between 0 and 1"):
        mt.nn.functional.feature_alpha_dropout(x, 1.5, True)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_multilabel_margin_loss(reduction):
    x, tx = pair(3, 5)
    target = np.array([[3, 0, -1, 1, 2], [1, 2, 4, 0, 3], [-1, 1, 1, 1, 1]])
    out = mt.nn.functional.multilabel_margin_loss(x, mt.tensor(target), reduction=reduction)
    tout = torch.nn.functional.multilabel_margin_loss(tx, torch.tensor(target), reduction=reduction)
    close(out, tout)
    backward_close([(x, tx)], out, tout)
    v, tv = pair(4, seed=2)
    close(mt.nn.MultiLabelMarginLoss(reduction=reduction)(v, mt.tensor([2, 0, -1, 3])),
          torch.nn.MultiLabelMarginLoss(reduction=reduction)(tv, torch.tensor([2, 0, -1, 3])))
    assert repr(mt.nn.MultiLabelMarginLoss()) == repr(torch.nn.MultiLabelMarginLoss())


@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_triplet_margin_with_distance_loss(swap, reduction):
    (a, ta), (p, tp), (n, tn) = pair(4, 6), pair(4, 6, seed=1), pair(4, 6, seed=2)
    for distance in (None, lambda u, v: (u - v).abs().sum(-1)):
        out = mt.nn.functional.triplet_margin_with_distance_loss(a, p, n, distance_function=distance, margin=1.5,
                                                                 swap=swap, reduction=reduction)
        tout = torch.nn.functional.triplet_margin_with_distance_loss(ta, tp, tn, distance_function=distance,
                                                                     margin=1.5, swap=swap, reduction=reduction)
        close(out, tout)
    module, tmodule = mt.nn.TripletMarginWithDistanceLoss(swap=swap), torch.nn.TripletMarginWithDistanceLoss(swap=swap)
    assert repr(module) == repr(tmodule)
    out, tout = module(a, p, n), tmodule(ta, tp, tn)
    close(out, tout)
    backward_close([(a, ta), (p, tp), (n, tn)], out, tout)
    with pytest.raises(ValueError, match="margin must be greater than 0"):
        mt.nn.functional.triplet_margin_with_distance_loss(a, p, n, margin=0)


def test_sync_batch_norm_is_batch_norm_in_one_process():
    x, tx = pair(4, 3, 5)
    m, tm = mt.nn.SyncBatchNorm(3), torch.nn.SyncBatchNorm(3)
    assert repr(m) == repr(tm)
    close(m(x), tm(tx))
    close(m.running_mean, tm.running_mean), close(m.running_var, tm.running_var)
    m.eval(), tm.eval()
    close(m(x), tm(tx))
    with pytest.raises(ValueError, match=r"expected at least 2D input \(got 1D input\)"):
        m(x[0, 0])
    mt.manual_seed(0)
    net = mt.nn.Sequential(mt.nn.Conv2d(2, 3, 1), mt.nn.BatchNorm2d(3), mt.nn.Sequential(mt.nn.BatchNorm1d(3)),
                           mt.nn.InstanceNorm1d(3))
    torch.manual_seed(0)
    tnet = torch.nn.Sequential(torch.nn.Conv2d(2, 3, 1), torch.nn.BatchNorm2d(3),
                               torch.nn.Sequential(torch.nn.BatchNorm1d(3)), torch.nn.InstanceNorm1d(3))
    weight = net[1].weight
    converted, tconverted = (mt.nn.SyncBatchNorm.convert_sync_batchnorm(net),
                             torch.nn.SyncBatchNorm.convert_sync_batchnorm(tnet))
    assert repr(converted) == repr(tconverted) and converted[1].weight is weight


@pytest.mark.parametrize("name,args,shape", [
    ("LazyBatchNorm1d", (), (4, 3)), ("LazyBatchNorm2d", (), (2, 3, 4, 4)), ("LazyBatchNorm3d", (), (2, 3, 2, 2, 2)),
    ("LazyInstanceNorm1d", (), (2, 3, 5)), ("LazyInstanceNorm2d", (), (2, 3, 4, 4)),
    ("LazyInstanceNorm3d", (), (2, 3, 2, 2, 2)), ("LazyConvTranspose1d", (4, 3), (2, 3, 5)),
    ("LazyConvTranspose2d", (4, 3), (2, 3, 4, 4)), ("LazyConvTranspose3d", (2, 2), (1, 3, 2, 2, 2))])
def test_lazy_layers(name, args, shape):
    kwargs = {"affine": True, "track_running_stats": True} if "Instance" in name else {}
    m, tm = getattr(mt.nn, name)(*args, **kwargs), getattr(torch.nn, name)(*args, **kwargs)
    assert repr(m) == repr(tm)
    x, tx = pair(*shape)
    mt.manual_seed(0), torch.manual_seed(0)
    out, tout = m(x), tm(tx)
    close(out, tout, atol=1e-5)
    assert repr(m) == repr(tm) and type(m).__name__ == type(tm).__name__
    assert sorted(m.state_dict()) == sorted(tm.state_dict())
    backward_close([(x, tx)] + list(zip(m.parameters(), tm.parameters())), out, tout)


def test_uninitialized_parameter_and_buffer():
    assert repr(mt.nn.UninitializedBuffer()) == repr(torch.nn.UninitializedBuffer())
    assert repr(mt.nn.UninitializedParameter()) == repr(torch.nn.UninitializedParameter())
    b = mt.nn.UninitializedBuffer()
    b.materialize((2, 3))
    assert type(b) is mt.Tensor and tuple(b.shape) == (2, 3) and not b.requires_grad


def test_fusions_match_torch():
    mt.manual_seed(0), torch.manual_seed(0)
    conv, bn = mt.nn.Conv2d(3, 4, 3), mt.nn.BatchNorm2d(4)
    tconv, tbn = torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)
    x, tx = pair(2, 3, 5, 5)
    bn(conv(x)), tbn(tconv(tx))  # running statistics of one training step
    for m in (conv, bn, tconv, tbn):
        m.eval()
    close(mt.nn.utils.fuse_conv_bn_eval(conv, bn)(x), torch.nn.utils.fuse_conv_bn_eval(tconv, tbn)(tx), atol=1e-5)
    lin, bn1 = mt.nn.Linear(5, 4), mt.nn.BatchNorm1d(4)
    tlin, tbn1 = torch.nn.Linear(5, 4), torch.nn.BatchNorm1d(4)
    (v, tv), = [pair(3, 5, seed=1)]
    bn1(lin(v)), tbn1(tlin(tv))
    for m in (lin, bn1, tlin, tbn1):
        m.eval()
    close(mt.nn.utils.fuse_linear_bn_eval(lin, bn1)(v), torch.nn.utils.fuse_linear_bn_eval(tlin, tbn1)(tv))
    args = (bn1.running_mean, bn1.running_var, bn1.eps, bn1.weight, bn1.bias)
    targs = (tbn1.running_mean, tbn1.running_var, tbn1.eps, tbn1.weight, tbn1.bias)
    for m, t in zip(mt.nn.utils.fuse_linear_bn_weights(lin.weight, None, *args),
                    torch.nn.utils.fuse_linear_bn_weights(tlin.weight, None, *targs)):
        close(m, t)
        assert type(m).__name__ == type(t).__name__ == "Parameter"
    for m, t in zip(mt.nn.utils.fuse_conv_bn_weights(conv.weight, conv.bias, *(bn.running_mean, bn.running_var,
                                                                              bn.eps, bn.weight, bn.bias)),
                    torch.nn.utils.fuse_conv_bn_weights(tconv.weight, tconv.bias, *(tbn.running_mean,
                                                                                    tbn.running_var, tbn.eps,
                                                                                    tbn.weight, tbn.bias))):
        close(m, t)


def test_skip_init_stateless_and_memory_format():
    mt.manual_seed(0), torch.manual_seed(0)
    m, tm = mt.nn.utils.skip_init(mt.nn.Linear, 3, 4), torch.nn.utils.skip_init(torch.nn.Linear, 3, 4)
    assert repr(m) == repr(tm)
    close(mt.rand(4), torch.rand(4))  # neither drew from the generator
    for mod, cls in ((mt, mt.nn.Sequential), (torch, torch.nn.Sequential)):
        with pytest.raises(RuntimeError, match="Module must support a 'device' arg to skip initialization"):
            mod.nn.utils.skip_init(cls)
    lin, tlin = mt.nn.Linear(3, 2), torch.nn.Linear(3, 2)
    (w, tw), (x, tx) = pair(2, 3), pair(5, 3, seed=1)
    with pytest.warns(FutureWarning, match="stateless.functional_call` is deprecated"):
        out = mt.nn.utils.stateless.functional_call(lin, {"weight": w}, (x,))
    with pytest.warns(FutureWarning):
        tout = torch.nn.utils.stateless.functional_call(tlin, {"weight": tw, "bias": torch.tensor(
            lin.bias.detach().numpy())}, (tx,))
    close(out, tout)
    assert lin.weight is not w
    conv = mt.nn.Sequential(mt.nn.Conv2d(3, 4, 3), mt.nn.Sequential(mt.nn.ConvTranspose2d(4, 2, 2)))
    tconv = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.Sequential(torch.nn.ConvTranspose2d(4, 2, 2)))
    weight = conv[0].weight
    mt.nn.utils.convert_conv2d_weight_memory_format(conv, mt.channels_last)
    torch.nn.utils.convert_conv2d_weight_memory_format(tconv, torch.channels_last)
    assert conv[0].weight is weight
    assert (conv[0].weight.stride(), conv[1][0].weight.stride()) == (tconv[0].weight.stride(),
                                                                    tconv[1][0].weight.stride())


@pytest.mark.parametrize("n", [1, 2, 3])
def test_nn_grad_convolution_gradients(n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal((2, 4) + (6,) * n).astype(np.float32)
    w = rng.standard_normal((6, 2) + (3,) * n).astype(np.float32)
    tout = getattr(torch.nn.functional, f"conv{n}d")(torch.tensor(x), torch.tensor(w), stride=2, padding=1, groups=2)
    go = rng.standard_normal(tuple(tout.shape)).astype(np.float32)
    assert mt.nn.functional.grad is mt.nn.grad
    close(getattr(mt.nn.functional.grad, f"conv{n}d_input")(x.shape, mt.tensor(w), mt.tensor(go), 2, 1, 1, 2),
          getattr(torch.nn.grad, f"conv{n}d_input")(x.shape, torch.tensor(w), torch.tensor(go), 2, 1, 1, 2))
    close(getattr(mt.nn.grad, f"conv{n}d_weight")(mt.tensor(x), w.shape, mt.tensor(go), 2, 1, 1, 2),
          getattr(torch.nn.grad, f"conv{n}d_weight")(torch.tensor(x), w.shape, torch.tensor(go), 2, 1, 1, 2),
          atol=2e-5)


@pytest.mark.parametrize("kwargs", [{}, dict(lr=0.05, weight_decay=0.1, maximize=True, d=1.5),
                                    dict(eps=(1e-30, 1e-3), beta2_decay=-0.5)])
def test_adafactor_steps_as_torch(kwargs):
    rng = np.random.default_rng(0)
    shapes = [(4, 3), (5,), (2, 3, 4)]
    init = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    params = [mt.tensor(a, requires_grad=True) for a in init]
    tparams = [torch.tensor(a, requires_grad=True) for a in init]
    opt, topt = mt.optim.Adafactor(params, **kwargs), torch.optim.Adafactor(tparams, **kwargs)
    assert repr(opt) == repr(topt)
    for _ in range(4):
        for p, tp, s in zip(params, tparams, shapes):
            g = rng.standard_normal(s).astype(np.float32)
            p.grad, tp.grad = mt.tensor(g), torch.tensor(g)
        opt.step(), topt.step()
    for p, tp in zip(params, tparams):
        close(p, tp)
    assert sorted(opt.state[params[0]]) == sorted(topt.state[tparams[0]])
    close(opt.state[params[2]]["col_var"], topt.state[tparams[2]]["col_var"])


@pytest.mark.parametrize("kwargs", [dict(lr=-1.0), dict(beta2_decay=0.5), dict(eps=(-1.0, 1e-3)), dict(d=0.5),
                                    dict(weight_decay=-0.1)])
def test_adafactor_refusals(kwargs):
    with pytest.raises(ValueError) as mine:
        mt.optim.Adafactor([mt.zeros(2, requires_grad=True)], **kwargs)
    with pytest.raises(ValueError) as theirs:
        torch.optim.Adafactor([torch.zeros(2, requires_grad=True)], **kwargs)
    assert str(mine.value) == str(theirs.value)


@pytest.mark.parametrize("head_bias", [False, True])
def test_adaptive_log_softmax_with_loss(head_bias):
    mt.manual_seed(0), torch.manual_seed(0)
    m = mt.nn.AdaptiveLogSoftmaxWithLoss(16, 20, [4, 10, 15], div_value=2.0, head_bias=head_bias)
    tm = torch.nn.AdaptiveLogSoftmaxWithLoss(16, 20, [4, 10, 15], div_value=2.0, head_bias=head_bias)
    assert repr(m) == repr(tm)
    for p, tp in zip(m.parameters(), tm.parameters()):
        close(p, tp)
    x, tx = pair(7, 16)
    target = [0, 3, 5, 12, 19, 9, 16]
    out, tout = m(x, mt.tensor(target)), tm(tx, torch.tensor(target))
    assert type(out).__name__ == type(tout).__name__ == "_ASMoutput"
    close(out.output, tout.output), close(out.loss, tout.loss)
    out.loss.backward(), tout.loss.backward()
    close(x.grad, tx.grad)
    for p, tp in zip(m.parameters(), tm.parameters()):
        close(p.grad, tp.grad)
    close(m.log_prob(x), tm.log_prob(tx))
    close(m.predict(x), tm.predict(tx))
    single, tsingle = m(x[0], mt.tensor(12)), tm(tx[0], torch.tensor(12))
    close(single.output, tsingle.output), close(single.loss, tsingle.loss)
    for mod, module, data in ((mt, m, x), (torch, tm, tx)):
        with pytest.raises(RuntimeError, match=r"Target values should be in \[0, 19\], but values in range \[0, 20\]"):
            module(data[:2], mod.tensor([0, 20]))
        with pytest.raises(ValueError, match="cutoffs should be a sequence of unique"):
            mod.nn.AdaptiveLogSoftmaxWithLoss(16, 20, [4, 4])


def test_rrelu_training_compiled_as_torch():
    """(rrelu_with_noise_functional, decomposed for the inductor as torch's: an eager uniform for every element)"""
    import frontend  # reason: the compiler, only this test compiles

    x, tx = pair(4, 8, grad=False)
    frontend.reset(), torch._dynamo.reset()
    mt.manual_seed(0), torch.manual_seed(0)
    out = mt.compile(lambda t: mt.nn.functional.rrelu(t, training=True))(x)
    tout = torch.compile(lambda t: torch.nn.functional.rrelu(t, training=True))(tx)
    close(out, tout)
