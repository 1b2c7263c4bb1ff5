"""nn.functional against torch.nn.functional: values, gradients and the aten ops each call runs."""
import numpy as np
import pytest
import torch
import torch.nn.functional as TF

import minitorch2
import minitorch2.nn.functional as F
from minitorch2.utils._python_dispatch import TorchDispatchMode as OurMode
from torch.utils._python_dispatch import TorchDispatchMode as TheirMode

from .helpers import assert_same


def _pair(shape, seed=0, positive=False):
    data = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    if positive:
        data = np.abs(data) + 0.1
    return minitorch2.from_numpy(data.copy()).requires_grad_(), torch.from_numpy(data.copy()).requires_grad_()


def _index(values):
    return minitorch2.tensor(values), torch.tensor(values)


CASES = {
    "linear": lambda lib, f, x: f.linear(x, lib["w"], lib["b"]),
    "linear_nobias_3d": lambda lib, f, x: f.linear(x.reshape(2, 2, 6), lib["w"]),
    "relu": lambda lib, f, x: f.relu(x),
    "gelu": lambda lib, f, x: f.gelu(x),
    "gelu_tanh": lambda lib, f, x: f.gelu(x, approximate="tanh"),
    "silu": lambda lib, f, x: f.silu(x),
    "softmax": lambda lib, f, x: f.softmax(x, dim=1),
    "log_softmax": lambda lib, f, x: f.log_softmax(x, dim=-1),
    "layer_norm": lambda lib, f, x: f.layer_norm(x, [6], lib["g"], lib["b6"]),
    "cross_entropy": lambda lib, f, x: f.cross_entropy(x, lib["t"]),
    "cross_entropy_sum": lambda lib, f, x: f.cross_entropy(x, lib["t"], reduction="sum"),
    "cross_entropy_none_ignore": lambda lib, f, x: f.cross_entropy(x, lib["t"], reduction="none", ignore_index=2),
    "cross_entropy_smooth": lambda lib, f, x: f.cross_entropy(x, lib["t"], label_smoothing=0.2),
    "cross_entropy_weighted": lambda lib, f, x: f.cross_entropy(x, lib["t"], weight=lib["cw"], label_smoothing=0.1),
    "nll_loss": lambda lib, f, x: f.nll_loss(f.log_softmax(x, 1), lib["t"]),
    "mse_loss": lambda lib, f, x: f.mse_loss(x, x * 0.5 + 1),
    "pad": lambda lib, f, x: f.pad(x, (1, 2), value=0.5),
    "dropout_eval": lambda lib, f, x: f.dropout(x, 0.5, training=False),
}


def _libs():
    rng = np.random.default_rng(3)
    w = rng.standard_normal((5, 6)).astype(np.float32)
    b = rng.standard_normal(5).astype(np.float32)
    g = rng.standard_normal(6).astype(np.float32)
    b6 = rng.standard_normal(6).astype(np.float32)
    cw = np.abs(rng.standard_normal(6)).astype(np.float32)
    targets = [0, 2, 5, 1]
    ours = {"w": minitorch2.from_numpy(w.copy()).requires_grad_(), "b": minitorch2.from_numpy(b.copy()).requires_grad_(),
            "g": minitorch2.from_numpy(g.copy()).requires_grad_(), "b6": minitorch2.from_numpy(b6.copy()).requires_grad_(),
            "cw": minitorch2.from_numpy(cw.copy()), "t": minitorch2.tensor(targets)}
    theirs = {"w": torch.from_numpy(w.copy()).requires_grad_(), "b": torch.from_numpy(b.copy()).requires_grad_(),
              "g": torch.from_numpy(g.copy()).requires_grad_(), "b6": torch.from_numpy(b6.copy()).requires_grad_(),
              "cw": torch.from_numpy(cw.copy()), "t": torch.tensor(targets)}
    return ours, theirs


class _Log:
    def __init__(self, base):
        log = self

        class Mode(base):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                log.ops.append(str(func))
                return func(*args, **(kwargs or {}))

        self.ops = []
        self.mode = Mode()


@pytest.mark.parametrize("name", sorted(CASES))
def test_functional_matches_torch(name):
    fn = CASES[name]
    ours_lib, theirs_lib = _libs()
    x_ours, x_theirs = _pair((4, 6))
    our_log, their_log = _Log(OurMode), _Log(TheirMode)
    with our_log.mode:
        out_ours = fn(ours_lib, F, x_ours)
    with their_log.mode:
        out_theirs = fn(theirs_lib, TF, x_theirs)
    assert our_log.ops == their_log.ops
    assert_same(out_ours, out_theirs, rtol=1e-5, atol=1e-6)
    out_ours.sum().backward()
    out_theirs.sum().backward()
    assert_same(x_ours.grad, x_theirs.grad, rtol=1e-5, atol=1e-6)
    for key in ("w", "b", "g", "b6"):
        if theirs_lib[key].grad is not None:
            assert_same(ours_lib[key].grad, theirs_lib[key].grad, rtol=1e-5, atol=1e-6)


def test_dropout_training_runs_torch_ops_and_rng():
    minitorch2.manual_seed(1)
    torch.manual_seed(1)
    x_ours, x_theirs = _pair((8, 16))
    our_log, their_log = _Log(OurMode), _Log(TheirMode)
    with our_log.mode:
        out_ours = F.dropout(x_ours, 0.25)
    with their_log.mode:
        out_theirs = TF.dropout(x_theirs, 0.25)
    assert our_log.ops == their_log.ops
    assert np.array_equal(out_ours.detach().numpy(), out_theirs.detach().numpy())


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_double_precision(approximate):
    data = np.linspace(-6, 6, 101)
    ours = F.gelu(minitorch2.from_numpy(data.copy()), approximate=approximate)
    theirs = TF.gelu(torch.from_numpy(data.copy()), approximate=approximate)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-7, atol=1e-12)
