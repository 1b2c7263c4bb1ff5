"""Graphs and errors of labml-style programs (annotated_deep_learning_paper_implementations) compiled, against
torch's: a WGAN-GP gradient penalty through a compiled discriminator (double backward, which torch.compile refuses),
LoRA's frozen-weight Linear, a hand-written LSTM cell loop, FNet's Fourier mixing."""
import pytest
import torch

import frontend
import minitorch2


def _penalty_through_compiled_discriminator(lib, backend):
    """WGAN-GP: the gradient of the critic's output with create_graph=True, then backward of the penalty."""
    lib.manual_seed(0)
    disc = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.LeakyReLU(0.2), lib.nn.Linear(8, 1))
    x = lib.randn(3, 4, requires_grad=True)
    g, = lib.autograd.grad(lib.compile(disc, backend=backend)(x).sum(), x, create_graph=True)
    facts = [g.requires_grad, type(g.grad_fn).__name__]
    with pytest.raises(Exception) as info:
        ((g.norm(2, dim=1) - 1) ** 2).mean().backward()
    return facts + [type(info.value), str(info.value)]


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_wgan_gp_double_backward_refused_as_torch(backend):
    frontend.reset()
    torch._dynamo.reset()
    ours = _penalty_through_compiled_discriminator(minitorch2, backend)
    theirs = _penalty_through_compiled_discriminator(torch, backend)
    assert ours == theirs
    assert theirs[1:] == ["CompiledFunctionBackwardBackward", RuntimeError,
                          "torch.compile with aot_autograd does not currently support double backward"]


def test_first_order_gradient_under_create_graph_keeps_its_value():
    """The refusing node passes the gradients through unchanged: their values are torch's."""
    def grad_of(lib):
        lib.manual_seed(0)
        disc = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.Tanh(), lib.nn.Linear(8, 1))
        x = lib.randn(3, 4, requires_grad=True)
        g, = lib.autograd.grad(lib.compile(disc, backend="aot_eager")(x).sum(), x, create_graph=True)
        return g.detach().numpy()
    frontend.reset()
    torch._dynamo.reset()
    torch.testing.assert_close(torch.from_numpy(grad_of(minitorch2).copy()), torch.from_numpy(grad_of(torch)))
