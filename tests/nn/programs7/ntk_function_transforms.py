"""Function transforms over a model's parameter dict, as the NTK and per-sample-gradient tutorials use them: the
empirical neural tangent kernel two ways (Jacobian contraction, and NTK-vector products that push vjp outputs
through jvp with the parameter dict as the primal), per-sample gradients, and a Hessian-vector product."""
import torch
import torch.nn as nn
from torch.func import functional_call, grad, jacrev, jvp, vjp, vmap

torch.manual_seed(5)


class TinyConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3)
        self.fc = nn.Linear(3 * 3 * 3, 2)

    def forward(self, x):
        return self.fc(self.conv(x).tanh().flatten(1))


net = TinyConv()
params = {k: v.detach() for k, v in net.named_parameters()}
xs, ys = torch.randn(3, 2, 5, 5), torch.randn(2, 2, 5, 5)


def f_single(p, x):
    return functional_call(net, p, (x.unsqueeze(0),)).squeeze(0)


def ntk_by_jacobians(p, x1, x2):
    j1 = [j.flatten(2) for j in vmap(jacrev(f_single), (None, 0))(p, x1).values()]
    j2 = [j.flatten(2) for j in vmap(jacrev(f_single), (None, 0))(p, x2).values()]
    return torch.stack([torch.einsum("Naf,Mbf->NMab", a, b) for a, b in zip(j1, j2)]).sum(0)


def ntk_by_products(p, x1, x2):
    def one_pair(a, b):
        out, pullback = vjp(lambda q: f_single(q, a), p)

        def column(unit):
            cotangent, = pullback(unit)  # a dict shaped like the parameters
            return jvp(lambda q: f_single(q, b), (p,), (cotangent,))[1]

        return vmap(column)(torch.eye(out.numel()))

    return vmap(vmap(one_pair, (None, 0)), (0, None))(x1, x2)


k1 = ntk_by_jacobians(params, xs, ys)
k2 = ntk_by_products(params, xs, ys)
print(k1.shape, k2.shape, torch.allclose(k1, k2, atol=1e-5))
print(k1[0, 1])
print(torch.einsum("NMKK->NM", k2))

_, tangent_out = jvp(lambda p: f_single(p, xs[0]), (params,), ({k: torch.ones_like(v) for k, v in params.items()},))
print(tangent_out)


def loss_of(p, x, target):
    return nn.functional.mse_loss(f_single(p, x), target)


targets = torch.randn(3, 2)
per_sample = vmap(grad(loss_of), in_dims=(None, 0, 0))(params, xs, targets)
print({k: tuple(v.shape) for k, v in per_sample.items()})
print(per_sample["fc.bias"])
by_loop = torch.stack([torch.autograd.grad(loss_of(dict(net.named_parameters()), xs[i], targets[i]),
                                           net.fc.bias)[0] for i in range(3)])
print(torch.allclose(by_loop, per_sample["fc.bias"], atol=1e-6))


def hvp(fn, primal, tangent):
    return jvp(grad(fn), (primal,), (tangent,))[1]


w = torch.randn(6)
v = torch.randn(6)
energy = lambda t: (t.sin() * t).sum() + t.pow(3).sum() / 3  # noqa: E731
print(hvp(energy, w, v))
print(torch.func.hessian(energy)(w) @ v)
