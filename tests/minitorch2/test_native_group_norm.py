"""GroupNorm as torch records it: one aten.native_group_norm (and native_group_norm_backward) in make_fx and
aot_eager graphs, decomposed as torch's inductor decomposes it; values, gradients and printed graphs against torch."""
import numpy as np
import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

import autograd
import frontend
import minitorch2
from tests.backend.test_inductor_aot_graphs import _our_graphs, _torch_graphs, summary


def _pair(shape, seed=0, dtype="float32"):
    array = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return (minitorch2.tensor(array).to(getattr(minitorch2, dtype)).requires_grad_(),
            torch.tensor(array).to(getattr(torch, dtype)).requires_grad_())


def _close(ours, theirs, **tolerances):
    np.testing.assert_allclose(ours.detach().float().numpy(), theirs.detach().float().numpy(), **tolerances)


@pytest.mark.parametrize("layout", ["contiguous", "channels_last"])
@pytest.mark.parametrize("affine", [True, False])
def test_values_gradients_and_layout_match_torch(layout, affine):
    (x, tx), (w, tw), (b, tb) = _pair((2, 6, 3, 4)), _pair((6,), 1), _pair((6,), 2)
    if layout == "channels_last":
        x, tx = (t.detach().to(memory_format=lib.channels_last).requires_grad_() for t, lib in
                 ((x, minitorch2), (tx, torch)))
    args, targs = (x, w, b) if affine else (x, None, None), (tx, tw, tb) if affine else (tx, None, None)
    out = minitorch2.ops.aten.native_group_norm(*args, 2, 6, 12, 3, 1e-5)
    tout = torch.ops.aten.native_group_norm(*targs, 2, 6, 12, 3, 1e-5)
    for o, t in zip(out, tout):
        assert o.shape == t.shape and o.stride() == t.stride() and str(o.dtype) == str(t.dtype)
        _close(o, t, rtol=1e-5, atol=1e-5)
    assert type(out[0].grad_fn).__name__ == type(tout[0].grad_fn).__name__ == "NativeGroupNormBackward0"
    assert [o.requires_grad for o in out] == [t.requires_grad for t in tout]
    grad = np.random.default_rng(3).standard_normal((2, 6, 3, 4)).astype(np.float32)
    (out[0] * minitorch2.tensor(grad)).sum().backward()
    (tout[0] * torch.tensor(grad)).sum().backward()
    for ours, theirs in zip(args, targs):
        if ours is not None:
            _close(ours.grad, theirs.grad, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_half_input_with_float32_parameters_keeps_float32_statistics(dtype):
    (x, tx), (w, tw), (b, tb) = _pair((2, 4, 5), dtype=dtype), _pair((4,), 1), _pair((4,), 2)
    out = minitorch2.nn.functional.group_norm(x, 2, w, b)
    tout = torch.nn.functional.group_norm(tx, 2, tw, tb)
    assert str(out.dtype) == str(tout.dtype)
    _close(out, tout, rtol=1e-2, atol=1e-2)
    stats = minitorch2.ops.aten.native_group_norm(x, w, b, 2, 4, 5, 2, 1e-5)[1:]
    tstats = torch.ops.aten.native_group_norm(tx, tw, tb, 2, 4, 5, 2, 1e-5)[1:]
    assert [str(s.dtype) for s in stats] == [str(s.dtype) for s in tstats]
    for s, t in zip(stats, tstats):
        _close(s, t, rtol=1e-6, atol=1e-6)


def _block(lib):
    """GroupNorm + SiLU + Conv, and a UNet-style residual block of two of them with a time embedding."""
    nn, F = lib.nn, lib.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm, self.conv = nn.GroupNorm(2, 4), nn.Conv2d(4, 4, 3, padding=1)

        def forward(self, x):
            return self.conv(F.silu(self.norm(x)))

    class ResBlock(nn.Module):
        def __init__(self):
            super().__init__()
            self.first, self.second, self.time = Block(), Block(), nn.Linear(8, 4)

        def forward(self, x, t):
            h = self.first(x) + self.time(F.silu(t))[:, :, None, None]
            return x + self.second(h)

    lib.manual_seed(0)
    return Block(), ResBlock()


def _load_same_weights(ours, theirs):
    for (name, p), (_, tp) in zip(ours.named_parameters(), theirs.named_parameters()):
        with minitorch2.no_grad():
            p.copy_(minitorch2.tensor(tp.detach().numpy()))


def _block_fn(lib):
    F = lib.nn.functional

    def fn(x, norm_weight, norm_bias, conv_weight, conv_bias):
        return F.conv2d(F.silu(F.group_norm(x, 2, norm_weight, norm_bias)), conv_weight, conv_bias, padding=1)
    return fn


def _block_args():
    return zip(*(_pair(shape, seed) for seed, shape in enumerate([(2, 4, 5, 5), (4,), (4,), (4, 4, 3, 3), (4,)])))


def test_make_fx_graphs_print_as_torchs():
    def joint(lib):
        def fn(*args):
            return lib.autograd.grad(_block_fn(lib)(*args).sum(), args)
        return fn

    args, targs = _block_args()
    ours, theirs = autograd.make_fx(joint(minitorch2))(*args), torch_make_fx(joint(torch))(*targs)
    assert ours.code == theirs.code
    assert "native_group_norm_backward" in ours.code


def test_aot_and_inductor_graphs_match_torchs():
    args, targs = _block_args()
    ours, theirs = _our_graphs(_block_fn(minitorch2), list(args)), _torch_graphs(_block_fn(torch), list(targs))
    assert [ours[k].code for k in ("forward", "backward")] == [theirs[k].code for k in ("forward", "backward")]
    assert "aten.native_group_norm.default" not in summary(ours["forward"])[0]  # decomposed, as the inductor's
    for kind in ("forward", "backward"):
        assert summary(ours[kind]) == summary(theirs[kind]), kind


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_unet_residual_block_compiled_end_to_end(backend):
    res, tres = _block(minitorch2)[1], _block(torch)[1]
    _load_same_weights(res, tres)
    (x, tx), (t, tt) = _pair((2, 4, 6, 6)), _pair((2, 8), 5)
    frontend.reset()
    out = minitorch2.compile(res, backend=backend)(x, t)
    tout = tres(tx, tt)
    _close(out, tout, rtol=1e-4, atol=1e-4)
    out.square().sum().backward()
    tout.square().sum().backward()
    for ours, theirs in [(x, tx), (t, tt)] + list(zip(res.parameters(), tres.parameters())):
        _close(ours.grad, theirs.grad, rtol=1e-3, atol=1e-4)


def test_inductor_graphs_of_a_3d_group_norm_match_torchs():
    def fn(lib):
        return lambda x, w, b: lib.nn.functional.silu(lib.nn.functional.group_norm(x, 2, w, b))

    args, targs = zip(*(_pair(shape, seed) for seed, shape in enumerate([(2, 4, 5), (4,), (4,)])))
    ours, theirs = _our_graphs(fn(minitorch2), list(args)), _torch_graphs(fn(torch), list(targs))
    assert [ours[k].code for k in ("forward", "backward")] == [theirs[k].code for k in ("forward", "backward")]


def test_export_keeps_group_norm_and_its_decomposition_keeps_native_group_norm():
    def program(lib):
        class Block(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.norm, self.conv = lib.nn.GroupNorm(2, 4), lib.nn.Conv2d(4, 4, 3, padding=1)

            def forward(self, x):
                return self.conv(lib.nn.functional.silu(self.norm(x)))

        exported = lib.export.export(Block(), (lib.randn(2, 4, 5, 5),))
        return exported.graph_module.code, exported.run_decompositions().graph_module.code

    ours, theirs = program(minitorch2), program(torch)
    assert ours == theirs
    assert "aten.group_norm.default" in ours[0] and "aten.native_group_norm.default" in ours[1]


@pytest.mark.parametrize("backend,dtype", [("aot_eager", "bfloat16"),
                                           pytest.param("inductor", "float32", marks=pytest.mark.slow)])  # (~13 s)
def test_channels_last_compiled_keeps_layout_values_and_gradients(backend, dtype):
    def run(lib, array):
        x = lib.tensor(array).to(getattr(lib, dtype)).to(memory_format=lib.channels_last).requires_grad_()
        w, b = (lib.tensor(np.linspace(-1, 1, 4, dtype=np.float32)).requires_grad_() for _ in range(2))
        fn = lib.compile(lambda x, w, b: lib.nn.functional.silu(lib.nn.functional.group_norm(x, 2, w, b)),
                         backend=backend)
        out = fn(x, w, b)
        out.float().square().sum().backward()
        return out, x.grad, w.grad, b.grad

    array = np.random.default_rng(7).standard_normal((2, 4, 3, 5)).astype(np.float32)
    frontend.reset()
    torch._dynamo.reset()
    ours, theirs = run(minitorch2, array), run(torch, array)
    assert ours[0].stride() == theirs[0].stride() and ours[1].stride() == theirs[1].stride()
    for o, t in zip(ours, theirs):
        _close(o, t, rtol=1e-4, atol=1e-5)


def test_double_backward_matches_torch():
    """A gradient penalty through GroupNorm: create_graph's formula is differentiable, as ATen's."""
    def penalty(lib, x, w, b):
        out = lib.nn.functional.group_norm(x, 2, w, b)
        (grad_x,) = lib.autograd.grad((out * out.detach().sin()).sum(), [x], create_graph=True)
        grad_x.square().sum().backward()
        return x.grad, w.grad, b.grad

    (x, tx), (w, tw), (b, tb) = _pair((2, 4, 3, 3)), _pair((4,), 1), _pair((4,), 2)
    ours, theirs = penalty(minitorch2, x, w, b), penalty(torch, tx, tw, tb)
    assert [g is None for g in ours] == [g is None for g in theirs] == [False, False, True]  # (bias: no path)
    for o, t in zip(ours[:2], theirs[:2]):
        _close(o, t, rtol=1e-4, atol=1e-5)
