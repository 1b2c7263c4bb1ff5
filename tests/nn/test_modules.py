"""nn modules against torch.nn: same parameters after the same seed, same forward and gradients,
same state-dict keys, same repr, same errors."""
import numpy as np
import pytest
import torch

import minitorch2

from .helpers import assert_same, assert_same_state, to_ours, to_theirs

# (constructor as a function of the library, input shape, input kind)
MODULES = {
    "linear": (lambda nn: nn.Linear(5, 7), (4, 5), "float"),
    "linear_nobias": (lambda nn: nn.Linear(5, 7, bias=False), (2, 3, 5), "float"),
    "linear_3d": (lambda nn: nn.Linear(5, 7), (2, 3, 5), "float"),
    "conv2d": (lambda nn: nn.Conv2d(3, 4, 3), (2, 3, 8, 8), "float"),
    "conv2d_strided": (lambda nn: nn.Conv2d(4, 6, 3, stride=2, padding=1, dilation=1, groups=2), (2, 4, 9, 9), "float"),
    "conv2d_dilated": (lambda nn: nn.Conv2d(3, 2, (3, 2), padding=(2, 1), dilation=2, bias=False), (1, 3, 7, 6), "float"),
    "batchnorm2d": (lambda nn: nn.BatchNorm2d(3), (4, 3, 5, 5), "float"),
    "batchnorm1d": (lambda nn: nn.BatchNorm1d(6), (8, 6), "float"),
    "batchnorm1d_3d": (lambda nn: nn.BatchNorm1d(3, momentum=None), (4, 3, 5), "float"),
    "layernorm": (lambda nn: nn.LayerNorm(6), (3, 4, 6), "float"),
    "layernorm_2d_shape": (lambda nn: nn.LayerNorm([4, 6], eps=1e-3), (3, 4, 6), "float"),
    "embedding": (lambda nn: nn.Embedding(10, 4), (3, 5), "index10"),
    "embedding_pad": (lambda nn: nn.Embedding(10, 4, padding_idx=0), (3, 5), "index10"),
    "relu": (lambda nn: nn.ReLU(), (3, 4), "float"),
    "gelu": (lambda nn: nn.GELU(), (3, 4), "float"),
    "gelu_tanh": (lambda nn: nn.GELU(approximate="tanh"), (3, 4), "float"),
    "silu": (lambda nn: nn.SiLU(), (3, 4), "float"),
    "sigmoid": (lambda nn: nn.Sigmoid(), (3, 4), "float"),
    "tanh": (lambda nn: nn.Tanh(), (3, 4), "float"),
    "softmax": (lambda nn: nn.Softmax(dim=1), (3, 4), "float"),
    "flatten": (lambda nn: nn.Flatten(), (2, 3, 4, 5), "float"),
    "maxpool": (lambda nn: nn.MaxPool2d(2), (2, 3, 8, 8), "float"),
    "maxpool_pad": (lambda nn: nn.MaxPool2d(3, stride=2, padding=1), (2, 3, 9, 9), "float"),
    "avgpool": (lambda nn: nn.AvgPool2d(2, stride=1), (2, 3, 6, 6), "float"),
    "adaptive_1": (lambda nn: nn.AdaptiveAvgPool2d(1), (2, 3, 6, 6), "float"),
    "adaptive_3": (lambda nn: nn.AdaptiveAvgPool2d((3, 2)), (2, 3, 7, 6), "float"),
    "identity": (lambda nn: nn.Identity(), (2, 3), "float"),
    "sequential": (lambda nn: nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 2)), (4, 5), "float"),
    "modulelist": (lambda nn: nn.ModuleList([nn.Linear(5, 5) for _ in range(3)]), None, None),
    "moduledict": (lambda nn: nn.ModuleDict({"a": nn.Linear(2, 3), "b": nn.Conv2d(1, 1, 1)}), None, None),
}


def _inputs(shape, kind, seed=1):
    rng = np.random.default_rng(seed)
    if kind == "index10":
        data = rng.integers(0, 10, shape)
        return minitorch2.from_numpy(data.copy()), torch.from_numpy(data.copy())
    data = rng.standard_normal(shape).astype(np.float32)
    return minitorch2.from_numpy(data.copy()).requires_grad_(), torch.from_numpy(data.copy()).requires_grad_()


def _build(name):
    make = MODULES[name][0]
    minitorch2.manual_seed(0)
    ours = make(minitorch2.nn)
    torch.manual_seed(0)
    theirs = make(torch.nn)
    return ours, theirs


@pytest.mark.parametrize("name", sorted(MODULES))
def test_same_parameters_after_same_seed(name):
    ours, theirs = _build(name)
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert_same_state(ours, theirs, exact=True)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("train", [True, False])
@pytest.mark.parametrize("name", sorted(n for n in MODULES if MODULES[n][1] is not None))
def test_forward_and_gradients(name, train):
    ours, theirs = _build(name)
    ours.train(train)
    theirs.train(train)
    _, shape, kind = MODULES[name]
    x_ours, x_theirs = _inputs(shape, kind)
    out_ours, out_theirs = ours(x_ours), theirs(x_theirs)
    assert_same(out_ours, out_theirs, rtol=1e-5, atol=1e-5)
    grad = np.random.default_rng(2).standard_normal(tuple(out_theirs.shape)).astype(np.float32)
    out_ours.backward(minitorch2.from_numpy(grad.copy()))
    out_theirs.backward(torch.from_numpy(grad.copy()))
    if kind == "float":
        assert_same(x_ours.grad, x_theirs.grad, rtol=1e-4, atol=1e-5)
    for (n, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert (p.grad is None) == (q.grad is None), n
        if q.grad is not None:
            assert_same(p.grad, q.grad, rtol=1e-4, atol=1e-5)
    assert_same_state(ours, theirs, exact=False)  # running statistics after a training step


def test_state_dict_round_trip_between_libraries():
    torch.manual_seed(3)
    theirs = torch.nn.Sequential(torch.nn.Conv2d(2, 3, 3), torch.nn.BatchNorm2d(3), torch.nn.Flatten(), torch.nn.Linear(12, 2))
    theirs(torch.randn(4, 2, 4, 4))  # move the BatchNorm running statistics
    ours = minitorch2.nn.Sequential(minitorch2.nn.Conv2d(2, 3, 3), minitorch2.nn.BatchNorm2d(3), minitorch2.nn.Flatten(),
                                    minitorch2.nn.Linear(12, 2))
    result = ours.load_state_dict({k: to_ours(v) for k, v in theirs.state_dict().items()})
    assert repr(result) == "<All keys matched successfully>"
    assert_same_state(ours, theirs)
    back = torch.nn.Sequential(torch.nn.Conv2d(2, 3, 3), torch.nn.BatchNorm2d(3), torch.nn.Flatten(), torch.nn.Linear(12, 2))
    back.load_state_dict({k: to_theirs(v) for k, v in ours.state_dict().items()})
    assert_same_state(ours, back)


def test_load_state_dict_errors_list_missing_and_unexpected_keys():
    def attempt(lib, state):
        with pytest.raises(RuntimeError) as info:
            lib.nn.Linear(2, 3).load_state_dict(state)
        return str(info.value)

    ours = attempt(minitorch2, {"weight": minitorch2.zeros(3, 2), "foo": minitorch2.zeros(1)})
    theirs = attempt(torch, {"weight": torch.zeros(3, 2), "foo": torch.zeros(1)})
    assert ours == theirs
    ours = attempt(minitorch2, {"weight": minitorch2.zeros(3, 3), "bias": minitorch2.zeros(3)})
    theirs = attempt(torch, {"weight": torch.zeros(3, 3), "bias": torch.zeros(3)})
    assert ours == theirs
    missing = minitorch2.nn.Linear(2, 3).load_state_dict({"weight": minitorch2.zeros(3, 2)}, strict=False)
    assert missing.missing_keys == ["bias"] and missing.unexpected_keys == []


BAD_INPUTS = [
    ("linear features", lambda nn: nn.Linear(3, 4), lambda lib: lib.randn(2, 5)),
    ("conv channels", lambda nn: nn.Conv2d(3, 4, 3), lambda lib: lib.randn(2, 5, 8, 8)),
    ("conv rank", lambda nn: nn.Conv2d(3, 4, 3), lambda lib: lib.randn(5, 8)),
    ("batchnorm2d rank", lambda nn: nn.BatchNorm2d(3), lambda lib: lib.randn(2, 3)),
    ("batchnorm1d rank", lambda nn: nn.BatchNorm1d(3), lambda lib: lib.randn(2, 3, 4, 5)),
    ("batchnorm channels", lambda nn: nn.BatchNorm2d(3), lambda lib: lib.randn(2, 4, 3, 3)),
    ("layernorm shape", lambda nn: nn.LayerNorm(4), lambda lib: lib.randn(2, 5)),
]


@pytest.mark.parametrize("case", BAD_INPUTS, ids=[c[0] for c in BAD_INPUTS])
def test_bad_input_raises_torch_error_class(case):
    _, make, data = case
    with pytest.raises(Exception) as theirs:
        make(torch.nn)(data(torch))
    with pytest.raises(Exception) as ours:
        make(minitorch2.nn)(data(minitorch2))
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value) or type(ours.value) is ValueError


@pytest.mark.parametrize("target", [[0, 3], [0, -1]])
def test_cross_entropy_target_out_of_range(target):
    with pytest.raises(Exception) as theirs:
        torch.nn.functional.cross_entropy(torch.randn(2, 3), torch.tensor(target))
    with pytest.raises(Exception) as ours:
        minitorch2.nn.functional.cross_entropy(minitorch2.randn(2, 3), minitorch2.tensor(target))
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value)


def test_module_api_matches_torch():
    def build(nn):
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
                self.head = nn.Linear(4, 2)
                self.register_buffer("scale", None)
                self.register_buffer("steps", (nn.Linear(1, 1).weight * 0).detach(), persistent=False)

            def forward(self, x):
                return self.head(self.body(x))

        return Net()

    ours, theirs = build(minitorch2.nn), build(torch.nn)
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert [n for n, _ in ours.named_children()] == [n for n, _ in theirs.named_children()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    ours.eval()
    assert not any(m.training for m in ours.modules())
    ours.train()
    assert all(m.training for m in ours.modules())
    visited = []
    ours.apply(lambda m: visited.append(type(m).__name__))
    assert visited == ["Linear", "ReLU", "Sequential", "Linear", "Net"]
    ours(minitorch2.randn(2, 3)).sum().backward()
    assert all(p.grad is not None for p in ours.parameters())
    ours.zero_grad()
    assert all(p.grad is None for p in ours.parameters())
    doubled = ours.to(minitorch2.float64)
    assert all(p.dtype is minitorch2.float64 for p in doubled.parameters())


def test_modulelist_repr_compresses_repeats_like_torch():
    ours = minitorch2.nn.ModuleList([minitorch2.nn.Linear(2, 2) for _ in range(3)] + [minitorch2.nn.ReLU()])
    theirs = torch.nn.ModuleList([torch.nn.Linear(2, 2) for _ in range(3)] + [torch.nn.ReLU()])
    assert repr(ours) == repr(theirs)



@pytest.mark.parametrize("make", [
    lambda nn: nn.Conv1d(4, 4, 3, padding="same", dilation=2, groups=2, bias=False),
    lambda nn: nn.Conv2d(4, 4, 3, padding="valid", stride=2),
    lambda nn: nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2),
    lambda nn: nn.ConvTranspose1d(4, 4, 2, dilation=2, bias=False),
    lambda nn: nn.Embedding(5, 3, padding_idx=1, max_norm=2.0, norm_type=1.0, scale_grad_by_freq=True, sparse=True),
])
def test_conv_and_embedding_reprs_match_torch(make):
    assert repr(make(minitorch2.nn)) == repr(make(torch.nn))

def test_dropout_masks_match_torch():
    minitorch2.manual_seed(5)
    torch.manual_seed(5)
    ours = minitorch2.nn.Dropout(0.3)(minitorch2.ones(64, 32))
    theirs = torch.nn.Dropout(0.3)(torch.ones(64, 32))
    assert np.array_equal(ours.numpy(), theirs.numpy())


def test_fuse_conv_bn_eval_matches_torch():
    def build(lib):
        lib.manual_seed(0)
        conv, bn = lib.nn.Conv2d(3, 4, 3), lib.nn.BatchNorm2d(4)
        bn(conv(lib.randn(8, 3, 6, 6)))
        conv.eval()
        bn.eval()
        return conv, bn, lib.nn.utils.fusion.fuse_conv_bn_eval(conv, bn)

    conv, bn, fused = build(minitorch2)
    tconv, tbn, tfused = build(torch)
    assert_same(fused.weight, tfused.weight)
    assert_same(fused.bias, tfused.bias)
    x = minitorch2.randn(2, 3, 6, 6)
    assert_same(fused(x), bn(conv(x)), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fn", ["kaiming_uniform_", "kaiming_normal_", "xavier_uniform_", "xavier_normal_", "normal_",
                                "uniform_", "zeros_", "ones_", "trunc_normal_"])
def test_init_matches_torch(fn):
    minitorch2.manual_seed(7)
    torch.manual_seed(7)
    ours = getattr(minitorch2.nn.init, fn)(minitorch2.empty(16, 9))
    theirs = getattr(torch.nn.init, fn)(torch.empty(16, 9))
    assert np.array_equal(ours.numpy(), theirs.numpy())
