"""torch.func's functional_call, grad, grad_and_value and vmap against torch's: values, gradients (nested grad,
per-sample gradients through vmap of grad), and that results carry no graph outside a grad transform."""
import numpy as np
import pytest
import torch
import torch.func

import autograd
import minitorch2


def _both(build):
    return build(torch, torch.func), build(minitorch2, autograd)


def _close(a, b):
    a, b = torch.utils._pytree.tree_leaves(a), minitorch2.utils._pytree.tree_leaves(b)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        np.testing.assert_allclose(y.detach().numpy(), x.detach().numpy(), rtol=1e-5, atol=1e-6)
        assert x.requires_grad == y.requires_grad


def _model(lib):
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    params = {k: v.detach() * 2 for k, v in model.named_parameters()}
    return model, params, lib.randn(4, 3)


CASES = {
    "functional_call": lambda lib, F: (lambda m, p, x: F.functional_call(m, p, (x,)))(*_model(lib)),
    "functional_call leaves the module": lambda lib, F: (
        lambda m, p, x: (F.functional_call(m, p, (x,)), m.weight * 1)[1])(*_model(lib)),
    "grad of a functional_call loss": lambda lib, F: (lambda m, p, x: F.grad(
        lambda q, v: F.functional_call(m, q, (v,)).pow(2).sum())(p, x))(*_model(lib)),
    "grad": lambda lib, F: F.grad(lambda t: (t ** 3).sum())(lib.tensor([1.0, 2.0])),
    "grad of grad": lambda lib, F: F.grad(F.grad(lambda t: (t ** 3).sum()))(lib.tensor(2.0)),
    "grad_and_value argnums": lambda lib, F: F.grad_and_value(lambda a, b: (a * b).sum(), argnums=(0, 1))(
        lib.ones(2), lib.arange(2.0)),
    "grad has_aux": lambda lib, F: F.grad(lambda t: ((t * t).sum(), t.mean()), has_aux=True)(lib.arange(3.0)),
    "vmap dot": lambda lib, F: F.vmap(lib.dot)(lib.arange(6.0).reshape(2, 3), lib.ones(2, 3)),
    "vmap in_dims None": lambda lib, F: F.vmap(lambda a, b: a * b, in_dims=(0, None))(
        lib.arange(6.0).reshape(3, 2), lib.tensor([1.0, 10.0])),
    "vmap out_dims 1": lambda lib, F: F.vmap(lambda a: a * 2, out_dims=1)(lib.arange(6.0).reshape(3, 2)),
    "per-sample grads": lambda lib, F: (lambda m, p, x: F.vmap(F.grad(
        lambda q, v: F.functional_call(m, q, (v,)).pow(2).sum()), in_dims=(None, 0))(p, x.unsqueeze(1)))(
        *_model(lib)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_func_matches_torch(name):
    theirs, ours = _both(CASES[name])
    _close(theirs, ours)


def test_grad_of_a_non_scalar_raises_torchs_error():
    for lib, F in ((torch, torch.func), (minitorch2, autograd)):
        with pytest.raises(RuntimeError, match="Expected f\\(\\*args\\) to return a scalar Tensor"):
            F.grad(lambda t: t * 2)(lib.ones(2))
