"""torch.bfloat16 against torch's on the CPU: the dtype object and finfo, type promotion, conversions (rounded to
nearest-even, bit for bit), printing, numpy interop's refusals, eager values and gradients computed as ATen's
kernels compute them (float32 "opmath", rounded once), and CPU autocast, whose default dtype it is, on a small MLP.

bfloat16 values travel between the libraries as Python floats (`.float().tolist()`: float32 holds every bfloat16
exactly), since torch's `.numpy()` refuses bfloat16. The op-by-op sweep is test_bfloat16_ops.py; compiled graphs
are tests/backend/test_bfloat16_compiled.py.
"""
import math

import ml_dtypes
import numpy as np
import pytest
import torch

import minitorch2

pytestmark = pytest.mark.runtime

DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")
SPECIAL = [0.0, -0.0, 1.0, 1.00390625, 1.01171875, 1.0078125, 3.14159, -2.5e-5, 1e-40, 3.3895e38, 3.4e38, 1e39,
           65504.0, 70000.0, float("inf"), -float("inf"), float("nan"), 1 / 3, -7.999, 123456.789]


def floats(t):
    return [x if not math.isnan(x) else "nan" for x in t.detach().float().reshape(-1).tolist()]


def test_the_dtype_object_is_torchs():
    for lib in (minitorch2, torch):
        d = lib.bfloat16
        assert (repr(d), d.is_floating_point, d.is_signed, d.itemsize, d.is_complex) == \
            ("torch.bfloat16", True, True, 2, False)
    assert minitorch2.bfloat16 is not minitorch2.float16 and minitorch2.bfloat16.np == np.dtype(ml_dtypes.bfloat16)


def test_finfo_is_torchs():
    ours, theirs = minitorch2.finfo(minitorch2.bfloat16), torch.finfo(torch.bfloat16)
    assert repr(ours) == repr(theirs)
    for field in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"):
        assert getattr(ours, field) == getattr(theirs, field), field


def test_promotion_with_every_dtype_is_torchs():
    for name in DTYPES:
        ours = minitorch2.promote_types(minitorch2.bfloat16, getattr(minitorch2, name))
        theirs = torch.promote_types(torch.bfloat16, getattr(torch, name))
        assert repr(ours) == str(theirs), name
        assert repr(minitorch2.promote_types(getattr(minitorch2, name), minitorch2.bfloat16)) == str(theirs), name
        assert minitorch2.can_cast(minitorch2.bfloat16, getattr(minitorch2, name)) == \
            torch.can_cast(torch.bfloat16, getattr(torch, name)), name


@pytest.mark.parametrize("other", [2, 2.5, True, "int64_0d", "float32_0d", "float16", "int32", "float64_0d"])
def test_result_dtypes_with_scalars_and_tensors_are_torchs(other):
    def run(lib):
        x = lib.ones(3, dtype=lib.bfloat16)
        if isinstance(other, str):
            name, _, zero_dim = other.partition("_")
            y = lib.ones((), dtype=getattr(lib, name)) if zero_dim else lib.ones(3, dtype=getattr(lib, name))
        else:
            y = other
        return repr((x + y).dtype), repr((y * x).dtype), repr(lib.result_type(x, y))

    assert run(minitorch2) == run(torch)


def test_conversions_round_to_nearest_even_as_torchs():
    def run(lib):
        x = lib.tensor(SPECIAL, dtype=lib.float32)
        b = x.bfloat16()
        return (floats(b), floats(x.to(lib.bfloat16)), floats(x.double().to(lib.bfloat16)),
                floats(x.half().to(lib.bfloat16)), floats(b.half()), b.dtype is lib.bfloat16,
                floats(lib.tensor(SPECIAL, dtype=lib.bfloat16)), b.type(), b[1:4].tolist(), b[3].item())

    assert run(minitorch2) == run(torch)


def test_integer_conversions_are_torchs():
    def run(lib):
        big = lib.tensor([2 ** 40 + 2 ** 32 + 1, -(2 ** 24) - 1, 255, 7], dtype=lib.int64).to(lib.bfloat16)
        x = lib.tensor([2.7, -2.7, 255.5, 300.0, -0.5], dtype=lib.bfloat16)
        return floats(big), x.long().tolist(), x.int().tolist(), x.to(lib.uint8).tolist(), x.bool().tolist()

    assert run(minitorch2) == run(torch)


def test_factories_and_tensor_types_are_torchs():
    def run(lib):
        b = lib.bfloat16
        made = [lib.zeros(2, dtype=b), lib.ones(2, 2, dtype=b), lib.full((2,), 1.7, dtype=b), lib.arange(5, dtype=b),
                lib.linspace(-3, 3, 7, dtype=b), lib.eye(2, dtype=b), lib.tensor(0.1, dtype=b).new_ones(2),
                lib.empty(3, dtype=b).fill_(2.2), lib.zeros_like(lib.ones(2), dtype=b)]
        return ([(repr(t.dtype), floats(t)) for t in made], isinstance(made[0], lib.BFloat16Tensor),
                lib.ones(2).type(lib.BFloat16Tensor).type(), lib.ones(1).type("torch.BFloat16Tensor").dtype is b)

    assert run(minitorch2) == run(torch)


@pytest.mark.parametrize("values", [[1.2345678, 3.14159, 1e10, -2.5e-5], [1.5, 2.0], [0.1, 100.0], [[1, 2], [3, 4.5]],
                                    list(range(12)), [float("nan"), float("inf"), -1.0], 3.3, [1e-3, 12345.0],
                                    [[0.001 * i for i in range(9)]] * 2, [1e-30, 1.0]])
def test_repr_is_torchs(values):
    assert repr(minitorch2.tensor(values, dtype=minitorch2.bfloat16)) == repr(torch.tensor(values, dtype=torch.bfloat16))


def test_repr_of_a_long_tensor_and_of_a_leaf_that_requires_grad_is_torchs():
    def run(lib):
        x = (lib.arange(2000, dtype=lib.float32) / 7).bfloat16()
        return repr(x), repr(x[:3].clone().requires_grad_()), repr(x.reshape(40, 50) * 3)

    assert run(minitorch2) == run(torch)


def test_numpy_interop_refuses_as_torchs():
    def errors(lib):
        seen = []
        for attempt in (lambda: lib.ones(2, dtype=lib.bfloat16).numpy(),
                        lambda: lib.ones(2, dtype=lib.bfloat16).numpy(force=True),
                        lambda: lib.from_numpy(np.zeros(2, ml_dtypes.bfloat16)),
                        lambda: lib.tensor(np.zeros(2, ml_dtypes.bfloat16))):
            with pytest.raises(TypeError) as caught:
                attempt()
            seen.append(str(caught.value).split(". The only")[0])
        return seen

    assert errors(minitorch2) == errors(torch)


def _eager_cases(lib):
    F = lib.nn.functional
    return {
        "linear": (F.linear, [(5, 16), (4, 16), (4,)]), "gelu": (F.gelu, [(5, 16)]),
        "gelu_tanh": (lambda a: F.gelu(a, approximate="tanh"), [(5, 16)]), "softmax": (lambda a: F.softmax(a, -1), [(5, 16)]),
        "tanh": (lib.tanh, [(5, 16)]), "mul_add": (lambda a, b: a * b + 1.5, [(5, 16), (5, 16)]),
        "sum_mean": (lambda a: a.sum(0) + a.mean(), [(5, 16)]), "relu": (lib.relu, [(5, 16)]), "silu": (F.silu, [(5, 16)]),
        "mm": (lib.mm, [(5, 16), (16, 3)]), "exp_div": (lambda a: lib.exp(a) / 3, [(5, 16)]),
        "log_softmax": (lambda a: F.log_softmax(a, -1) + F.log_softmax(a, 0), [(5, 16)]),
        "sigmoid_pow": (lambda a: lib.sigmoid(a) ** 2 - a ** 3, [(5, 16)]), "embedding": (
            lambda w: F.embedding(lib.tensor([1, 2, 1]), w), [(4, 8)]),
    }


@pytest.mark.parametrize("case", sorted(_eager_cases(torch)))
def test_eager_values_and_gradients_are_torchs_bit_for_bit(case):
    def run(lib):
        fn, shapes = _eager_cases(lib)[case]
        rng = np.random.default_rng(len(case))
        xs = [lib.tensor(rng.standard_normal(s).astype(np.float32)).bfloat16().requires_grad_() for s in shapes]
        out = fn(*xs)
        out.backward(lib.tensor(rng.standard_normal(tuple(out.shape)).astype(np.float32)).bfloat16())
        return repr(out.dtype), floats(out), [floats(x.grad) for x in xs], [repr(x.grad.dtype) for x in xs]

    assert run(minitorch2) == run(torch)


def _mlp_step(lib, dtype_name):
    nn = lib.nn
    rng = np.random.default_rng(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 4))
    with lib.no_grad():
        for p in model.parameters():
            p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
    x, y = lib.tensor(rng.standard_normal((5, 8)).astype(np.float32)), lib.tensor([0, 1, 2, 3, 1])
    kwargs = {} if dtype_name is None else {"dtype": getattr(lib, dtype_name)}
    with lib.autocast("cpu", **kwargs):
        hidden, out = model[0](x), model(x)
        loss = nn.functional.cross_entropy(out, y)
        dtypes = [repr(t.dtype) for t in (hidden, out, loss, x @ x.T, x + 1, lib.cat([hidden, hidden.float()]))]
    loss.backward()
    grads = [np.array(p.grad.tolist()) for p in model.parameters()]
    return dtypes, floats(out), loss.item(), grads, repr(lib.get_autocast_dtype("cpu"))


@pytest.mark.parametrize("dtype_name", [None, "bfloat16", "float16"])
def test_autocast_on_a_small_mlp_is_torchs(dtype_name):
    """Forward values and the loss bit for bit (cross_entropy's inputs cast to float32, as torch's autocast lists
    cross_entropy_loss); the float32 weights' gradients, through low-precision backwards, to the low dtype's
    resolution relative to each gradient's scale (layer_norm's weight gradient rounds differently in one ulp)."""
    ours, theirs = _mlp_step(minitorch2, dtype_name), _mlp_step(torch, dtype_name)
    assert ours[:2] == theirs[:2] and ours[4] == theirs[4]
    assert ours[2] == pytest.approx(theirs[2], rel=2e-7)  # (float16's loss: torch's vectorized log_softmax, one ulp)
    for mine, expected in zip(ours[3], theirs[3]):
        np.testing.assert_allclose(mine, expected, rtol=0, atol=2 ** -7 * np.abs(expected).max())


def test_a_module_converted_with_bfloat16_runs_as_torchs():
    def run(lib):
        rng = np.random.default_rng(1)
        model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 2))
        with lib.no_grad():
            for p in model.parameters():
                p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
        model = model.bfloat16()
        x = lib.linspace(-1, 1, 12).reshape(3, 4).bfloat16()
        return [repr(p.dtype) for p in model.parameters()], floats(model(x))

    assert run(minitorch2) == run(torch)


@pytest.mark.parametrize("dtype_name", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape,dim", [((200, 16), -1), ((20, 1000), -1), ((16, 200), 0), ((4, 5, 6), 1), ((7,), 0)])
def test_log_softmax_of_halves_rounds_as_atens_kernels(dtype_name, shape, dim):
    """ATen's last-dim kernel keeps a row's sum and its log in the half dtype (rounded twice); other dims compute
    in float32 and round once."""
    values = np.random.default_rng(0).standard_normal(shape).astype(np.float32)

    def run(lib):
        return floats(lib.log_softmax(lib.tensor(values).to(getattr(lib, dtype_name)), dim))

    assert run(minitorch2) == run(torch)
