"""Each decomposition in the op table computes what the op it replaces computes (and what PyTorch's op gives)."""
import numpy as np
import pytest
import torch

import minitorch2
from minitorch2._aten.table import DECOMPOSITIONS

aten = minitorch2.ops.aten
rng = np.random.default_rng(0)


def _t(*shape, positive=False):
    data = rng.standard_normal(shape)
    if positive:
        data = np.abs(data) + 0.5
    return minitorch2.from_numpy(data.astype(np.float64))


CASES = {
    "addmm.default": lambda: ((_t(4), _t(3, 5), _t(5, 4)), {"beta": 0.5, "alpha": 2.0}),
    "silu.default": lambda: ((_t(3, 4),), {}),
    "silu_backward.default": lambda: ((_t(3, 4), _t(3, 4)), {}),
    "sigmoid_backward.default": lambda: ((_t(3, 4), _t(3, 4)), {}),
    "tanh_backward.default": lambda: ((_t(3, 4), _t(3, 4)), {}),
    "threshold_backward.default": lambda: ((_t(3, 4), _t(3, 4), 0.1), {}),
    "gelu.default": lambda: ((_t(3, 4),), {"approximate": "tanh"}),
    "_softmax.default": lambda: ((_t(3, 4), 1, False), {}),
    "_log_softmax.default": lambda: ((_t(3, 4), 0, False), {}),
    "_softmax_backward_data.default": lambda: ((_t(3, 4), aten._softmax.default(_t(3, 4), 1, False), 1, minitorch2.float64), {}),
    "_log_softmax_backward_data.default": lambda: ((_t(3, 4), aten._log_softmax.default(_t(3, 4), 1, False), 1,
                                                   minitorch2.float64), {}),
    "mse_loss.default": lambda: ((_t(3, 4), _t(3, 4), 2), {}),
    "clamp_min.default": lambda: ((_t(3, 4), 0.2), {}),
    "clamp_max.default": lambda: ((_t(3, 4), 0.2), {}),
    "leaky_relu.default": lambda: ((_t(3, 4), 0.2), {}),
    "hardtanh.default": lambda: ((_t(3, 4), -0.5, 0.5), {}),
    "var_mean.correction": lambda: ((_t(3, 4), [1]), {"correction": 0, "keepdim": True}),
    "native_layer_norm.default": lambda: ((_t(2, 3, 4), [4], _t(4), _t(4), 1e-5), {}),
    "t.default": lambda: ((_t(3, 4),), {}),
    "transpose.int": lambda: ((_t(2, 3, 4), -1, 0), {}),
    "detach.default": lambda: ((_t(3, 4),), {}),
}


def test_every_decomposition_has_a_case():
    assert sorted(CASES) == sorted(DECOMPOSITIONS)


def _op(name):
    packet, overload = name.split(".")
    return getattr(getattr(aten, packet), overload)


@pytest.mark.parametrize("name", sorted(CASES))
def test_decomposition_matches_op(name):
    args, kwargs = CASES[name]()
    op = _op(name)
    expected = op(*args, **kwargs)
    got = op.decompose(*args, **kwargs)
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        assert tuple(g.shape) == tuple(e.shape)
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-10, atol=1e-12)
    theirs = getattr(getattr(torch.ops.aten, name.split(".")[0]), name.split(".")[1])(
        *[torch.from_numpy(a.numpy().copy()) if isinstance(a, minitorch2.Tensor) else
          (torch.float64 if a is minitorch2.float64 else a) for a in args], **kwargs)
    theirs = theirs if isinstance(theirs, tuple) else (theirs,)
    np.testing.assert_allclose(got[0].numpy(), theirs[0].numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.ops.aten.t.default(x), lambda lib, x: lib.ops.aten.t.default(x[0]),
    lambda lib, x: lib.ops.aten.transpose.int(x, -1, 0), lambda lib, x: lib.ops.aten.transpose.int(x, 1, 1),
    lambda lib, x: lib.ops.aten.detach.default(x),
])
def test_view_decompositions_record_what_torchs_do(call):
    """Traced with the core decompositions, t/transpose become permute (or alias) and detach an alias."""
    from torch._decomp import core_aten_decompositions as torch_table
    from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

    from autograd import core_aten_decompositions, make_fx

    theirs = torch_make_fx(lambda x: call(torch, x) + 1, torch_table())(torch.randn(2, 3))
    ours = make_fx(lambda x: call(minitorch2, x) + 1, core_aten_decompositions())(minitorch2.randn(2, 3))
    assert ours.code == theirs.code
