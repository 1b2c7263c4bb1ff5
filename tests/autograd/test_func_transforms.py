"""torch.func's Jacobian transforms, vjp/jvp and model ensembling (stack_module_state + vmap + functional_call),
against real torch.func: values, shapes and the pytree structure of what each returns."""
import numpy as np
import pytest
import torch
import torch.func as tf

import minitorch2
from autograd import func as mf


def _both(array):
    return minitorch2.tensor(np.asarray(array, dtype=np.float32)), torch.tensor(np.asarray(array, dtype=np.float32))


def _assert_same(ours, theirs):
    # the same containers (tuples, dicts and their keys) around the tensors
    assert minitorch2.utils._pytree.tree_map(lambda t: 0, ours) == torch.utils._pytree.tree_map(lambda t: 0, theirs)
    ours_leaves, theirs_leaves = minitorch2.utils._pytree.tree_leaves(ours), torch.utils._pytree.tree_leaves(theirs)
    for o, t in zip(ours_leaves, theirs_leaves):
        assert tuple(o.shape) == tuple(t.shape)
        np.testing.assert_allclose(o.detach().numpy(), t.detach().numpy(), rtol=1e-5, atol=1e-6)
        assert o.requires_grad == t.requires_grad


X = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]
W = [[0.3, -0.2], [0.1, 0.4], [-0.5, 0.6]]


def _programs(lib, fn):
    """(name, call) pairs: each a transform of fn's library applied to small functions, as users write them."""
    return {
        "jacrev_vector": lambda x, w: fn.jacrev(lambda v: v.sin() * v.sum())(x[0]),
        "jacrev_matrix_two_args": lambda x, w: fn.jacrev(lambda a, b: lib.tanh(a @ b), argnums=(0, 1))(x, w),
        "jacrev_tuple_output_aux": lambda x, w: fn.jacrev(lambda a: ((a * 2, a.exp().sum()), a.mean()),
                                                          has_aux=True)(x[1]),
        "jacrev_dict_input": lambda x, w: fn.jacrev(lambda p: (p["a"] * p["b"]).sum(0))({"a": x, "b": x * 3}),
        "jacfwd_vector": lambda x, w: fn.jacfwd(lambda v: v ** 3 - v)(x[0]),
        "hessian": lambda x, w: fn.hessian(lambda v: (v.sin() * v ** 2).sum())(x[1]),
        "hessian_of_matrix_input": lambda x, w: fn.hessian(lambda a: (a @ w).pow(2).sum())(x),
        "vjp": lambda x, w: (lambda out, f: (out, f(lib.ones_like(out))))(*fn.vjp(lambda a, b: a @ b, x, w)),
        "vjp_tuple_out": lambda x, w: (lambda out, f: (out, f((lib.ones(2), lib.full((2, 3), 2.0)))))(
            *fn.vjp(lambda a: (a.sum(1), a * a), x)),
        "jvp": lambda x, w: fn.jvp(lambda a: a.exp() * 2, (x,), (lib.ones_like(x),)),
        "jvp_two_primals": lambda x, w: fn.jvp(lambda a, b: a @ b, (x, w), (x * 0.5, w)),
        "vmap_of_jacrev": lambda x, w: fn.vmap(fn.jacrev(lambda v: v.tanh() * 2))(x),
        "grad_of_grad": lambda x, w: fn.grad(lambda v: fn.grad(lambda u: (u ** 3).sum())(v).sum())(x[0]),
        "nested_vmap": lambda x, w: fn.vmap(fn.vmap(lambda a, b: a * b), in_dims=(0, None))(x, x[0]),
        "vmap_dict_in_dims": lambda x, w: fn.vmap(lambda p, s: p["a"] * s, in_dims=({"a": 1}, None))({"a": w}, 2.0),
    }


@pytest.mark.parametrize("name", list(_programs(minitorch2, mf)))
def test_transform_matches_torch_func(name):
    (x, tx), (w, tw) = _both(X), _both(W)
    _assert_same(_programs(minitorch2, mf)[name](x, w), _programs(torch, tf)[name](tx, tw))


def _ensemble(lib, fn):
    lib.manual_seed(0)
    models = [lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 2)) for _ in range(3)]
    params, buffers = fn.stack_module_state(models)
    base = models[0]

    def run_one(p, b, x):
        return fn.functional_call(base, (p, b), (x,))

    data = lib.arange(12.0).reshape(4, 3) / 10
    outputs = fn.vmap(run_one, in_dims=(0, 0, None))(params, buffers, data)
    outputs.sum().backward()
    return outputs, {k: (v.shape, v.requires_grad, v.grad) for k, v in params.items()}


def test_model_ensemble_with_stack_module_state_matches_torch():
    ours, ours_params = _ensemble(minitorch2, mf)
    theirs, their_params = _ensemble(torch, tf)
    _assert_same(ours, theirs)
    assert list(ours_params) == list(their_params)
    for key in ours_params:
        shape, requires_grad, grad = ours_params[key]
        assert (tuple(shape), requires_grad) == (tuple(their_params[key][0]), their_params[key][1])
        np.testing.assert_allclose(grad.numpy(), their_params[key][2].numpy(), rtol=1e-5, atol=1e-6)


def test_per_sample_gradients_as_the_tutorial_computes_them():
    def per_sample(lib, fn):
        lib.manual_seed(1)
        model = lib.nn.Linear(3, 2)
        params = {k: v.detach() for k, v in model.named_parameters()}

        def loss(p, x, y):
            out = fn.functional_call(model, p, (x.unsqueeze(0),))
            return lib.nn.functional.cross_entropy(out, y.unsqueeze(0))

        x, y = lib.arange(15.0).reshape(5, 3) / 7, lib.tensor([0, 1, 1, 0, 1])
        return fn.vmap(fn.grad(loss), in_dims=(None, 0, 0))(params, x, y)

    _assert_same(per_sample(minitorch2, mf), per_sample(torch, tf))
