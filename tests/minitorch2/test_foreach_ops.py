"""torch._foreach_* (minitorch2/_functions_foreach.py) against torch: each op over a list of tensors with a number, a
tensor, a list of tensors or a list of numbers as the second operand, in place and not; lerp_, addcmul_, addcdiv_,
copy_ and norm; the EMA update timm writes with them; and one compiled, its values torch's."""
import numpy as np
import pytest
import torch

import minitorch2

SHAPES = [(3,), (2, 4), (4, 1)]


def _lists(seed=0):
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(0.5, 2.0, s).astype(np.float32) for s in SHAPES]
    return ([torch.from_numpy(a.copy()) for a in arrays], [minitorch2.from_numpy(a.copy()) for a in arrays])


def _same(ours, theirs):
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o.numpy(), t.numpy(), rtol=1e-6, atol=1e-7)


def _operand(lib, other, kind):
    if kind == "number":
        return 0.75
    if kind == "numbers":
        return [0.5, 1.5, -2.0]
    if kind == "tensor":
        return lib.tensor(1.25)
    return other


@pytest.mark.parametrize("kind", ["number", "numbers", "tensor", "list"])
@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "maximum", "pow", "clamp_min"])
def test_binary_foreach_ops_are_torchs(name, kind):
    (t_self, m_self), (t_other, m_other) = _lists(0), _lists(1)
    t_arg, m_arg = _operand(torch, t_other, kind), _operand(minitorch2, m_other, kind)
    _same(getattr(minitorch2, f"_foreach_{name}")(m_self, m_arg), getattr(torch, f"_foreach_{name}")(t_self, t_arg))
    getattr(torch, f"_foreach_{name}_")(t_self, t_arg)
    getattr(minitorch2, f"_foreach_{name}_")(m_self, m_arg)
    _same(m_self, t_self)


def test_unary_lerp_addc_copy_norm_and_an_ema_update_are_torchs():
    (t, m), (t2, m2), (t3, m3) = _lists(0), _lists(1), _lists(2)
    for lib, (a, b, c) in ((torch, (t, t2, t3)), (minitorch2, (m, m2, m3))):
        lib._foreach_sqrt_(a)
        lib._foreach_lerp_(a, b, 0.1)
        lib._foreach_addcmul_(a, b, c, value=0.5)
        lib._foreach_addcdiv_(a, b, c, [0.1, 0.2, 0.3])
        lib._foreach_mul_(a, 0.999)
        lib._foreach_add_(a, b, alpha=0.001)
    _same(m, t)
    _same(minitorch2._foreach_norm(m), torch._foreach_norm(t))
    _same(minitorch2._foreach_neg(m), torch._foreach_neg(t))
    minitorch2._foreach_copy_(m3, m)
    minitorch2._foreach_zero_(m)
    _same(m3, t)
    assert all(float(x.abs().sum()) == 0 for x in m)


def test_a_compiled_ema_step_is_torchs():
    (t, m), (t2, m2) = _lists(0), _lists(1)

    def ema(lib):
        def step(avg, params):
            lib._foreach_lerp_(avg, params, 0.25)
            return lib._foreach_norm(avg)
        return step

    want = torch.compile(ema(torch), backend="aot_eager")(t, t2)
    got = minitorch2.compile(ema(minitorch2), backend="aot_eager")(m, m2)
    _same(got, want)
    _same(m, t)


@pytest.mark.parametrize("call", [
    lambda L, a: L._foreach_add(a, 1), lambda L, a: L._foreach_mul(a, a), lambda L, a: L._foreach_sqrt(a),
    lambda L, a: L._foreach_norm(a), lambda L, a: L._foreach_maximum(a, 1.0), lambda L, a: L._foreach_lerp(a, a, 0.5),
    lambda L, a: L._foreach_addcmul(a, a, a), lambda L, a: L._foreach_pow(2.0, a),
    lambda L, a: L._foreach_add_(a, 1), lambda L, a: L._foreach_zero_(a), lambda L, a: L._foreach_sqrt_(a),
    lambda L, a: L._foreach_copy_(a, a), lambda L, a: L._foreach_lerp_(a, a, 0.5),
    lambda L, a: L._foreach_addcdiv_(a, a, a), lambda L, a: L._foreach_maximum_(a, 1.0),
])
def test_results_are_what_torchs_are(call):
    """An out-of-place op returns a tuple, an in-place one the very list it was given (session 34: lists and None)."""
    theirs, ours = _lists()
    their_result, our_result = call(torch, theirs), call(minitorch2, ours)
    assert type(our_result) is type(their_result)
    assert (our_result is ours) == (their_result is theirs)
    _same(our_result, their_result)
