"""Jacobians, Hessians, hvp, vhp and more, in the style of PyTorch's torch.func tutorial: jacrev and jacfwd with
argnums tuples, has_aux and chunk_size, batched Jacobians with vmap, hessian, and Hessian-vector products built
from jvp, vjp and grad."""
import torch
import torch.nn.functional as F
from torch.func import grad, hessian, jacfwd, jacrev, jvp, linearize, vjp, vmap

torch.manual_seed(0)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


D = 4
weight, bias, x = torch.randn(D, D), torch.randn(D), torch.randn(D)

# the Jacobian row by row with vjp, then all at once
_, vjp_fn = vjp(lambda t: predict(weight, bias, t), x)
unit_vectors = torch.eye(D)
rows = [vjp_fn(vec)[0] for vec in unit_vectors]
jacobian_rows = torch.stack(rows)
ft_jacobian, = vmap(vjp_fn)(unit_vectors)
print("vmap(vjp_fn) equals the rows:", torch.allclose(ft_jacobian, jacobian_rows))

ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print("jacrev:", torch.allclose(ft_jacobian, jacobian_rows), tuple(ft_jacobian.shape))
print(ft_jacobian.round(decimals=4))

jac_weight, jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print("argnums=(0, 1):", tuple(jac_weight.shape), tuple(jac_bias.shape))
fwd_weight, fwd_bias = jacfwd(predict, argnums=(0, 1))(weight, bias, x)
print("jacfwd agrees:", torch.allclose(fwd_weight, jac_weight, atol=1e-6), torch.allclose(fwd_bias, jac_bias, atol=1e-6))
print("chunk_size=1 agrees:", torch.allclose(jacrev(predict, argnums=2, chunk_size=1)(weight, bias, x), ft_jacobian))

# has_aux: the Jacobian and the untouched auxiliary output
jac_aux, aux = jacrev(lambda t: (predict(weight, bias, t), t.norm()), has_aux=True)(x)
print("has_aux:", tuple(jac_aux.shape), round(aux.item(), 4), aux.requires_grad)

# batched Jacobians: vmap over the batch, or jacrev of the sum over the batch moved to the front
batch_size = 3
xs = torch.randn(batch_size, D)
batch_jacobian0 = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, xs)
batch_jacobian1 = jacrev(lambda w, b, t: predict(w, b, t).sum(0), argnums=2)(weight, bias, xs).movedim(1, 0)
print("batched:", tuple(batch_jacobian0.shape), torch.allclose(batch_jacobian0, batch_jacobian1, atol=1e-6))

# Hessians: hessian, or jacfwd of jacrev, of a scalar function
def loss(weight, bias, x):
    return predict(weight, bias, x).pow(2).sum()


hess_api = hessian(loss, argnums=2)(weight, bias, x)
hess_fwdrev = jacfwd(jacrev(loss, argnums=2), argnums=2)(weight, bias, x)
hess_revrev = jacrev(jacrev(loss, argnums=2), argnums=2)(weight, bias, x)
print("hessian:", tuple(hess_api.shape), torch.allclose(hess_api, hess_fwdrev, atol=1e-5),
      torch.allclose(hess_api, hess_revrev, atol=1e-5))
print(hess_api.round(decimals=3))


def f(t):
    return t.sin().sum()


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def vhp(f, primals, tangents):
    return vjp(grad(f), *primals)[1](*tangents)


t, v = torch.randn(5), torch.randn(5)
print("hvp:", hvp(f, (t,), (v,)).round(decimals=4))
print("hvp equals H @ v:", torch.allclose(hvp(f, (t,), (v,)), hessian(f)(t) @ v, atol=1e-6))
print("vhp:", torch.allclose(vhp(f, (t,), (v,))[0], hvp(f, (t,), (v,)), atol=1e-6))

# linearize: the jvp at a point, reusable
out, jvp_fn = linearize(torch.sin, t)
print("linearize:", torch.allclose(out, t.sin()), torch.allclose(jvp_fn(v), t.cos() * v, atol=1e-6))

# a function whose output does not depend on the input differentiably has a zero gradient
print("argmax:", grad(lambda t: t.argmax().float())(t))
