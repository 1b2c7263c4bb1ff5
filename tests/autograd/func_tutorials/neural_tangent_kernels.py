"""Neural tangent kernels, in the style of PyTorch's torch.func tutorial: the empirical NTK of a small CNN by
Jacobian contraction (full, trace and diagonal) and by NTK-vector products, which agree."""
import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, jvp, vjp, vmap

torch.manual_seed(0)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(2, 4, (3, 3))
        self.conv2 = nn.Conv2d(4, 4, (3, 3))
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        x = self.conv2(self.conv1(x).relu()).relu()
        return self.fc(x.mean((2, 3)))


net = CNN()
x_train, x_test = torch.randn(4, 2, 6, 6), torch.randn(3, 2, 6, 6)
params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute="full"):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = [j.flatten(2) for j in jac2.values()]
    einsum_expr = {"full": "Naf,Mbf->NMab", "trace": "Naf,Maf->NM", "diagonal": "Naf,Maf->NMa"}[compute]
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    return result.sum(0)


def empirical_ntk_ntk_vps(func, params, x1, x2, compute="full"):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            vjps = vjp_fn(vec)
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        basis = torch.eye(output.numel(), dtype=output.dtype).view(output.numel(), -1)
        return vmap(get_ntk_slice)(basis)

    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == "trace":
        return torch.einsum("NMKK->NM", result)
    if compute == "diagonal":
        return torch.einsum("NMKK->NMK", result)
    return result


for compute in ("full", "trace", "diagonal"):
    by_jacobians = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, compute)
    by_products = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test, compute)
    print(compute, tuple(by_jacobians.shape), torch.allclose(by_jacobians, by_products, atol=1e-4, rtol=1e-4))
print(empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "trace").round(decimals=3))
