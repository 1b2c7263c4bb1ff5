"""Complex tensors (complex64/complex128) against real torch: dtypes and promotion, creation and printing, the views
between complex and real (shared memory, strides, torch's errors), an opinfo-style sweep of the complex ops, the
gradients of real losses of complex values (torch's conjugate Wirtinger convention), and torch's refusals."""
import numpy as np
import pytest
import torch

import minitorch2

RNG = np.random.default_rng(0)


def _values(shape, kind="c"):
    real = RNG.standard_normal(shape)
    return (real + 1j * RNG.standard_normal(shape)) if kind == "c" else real


def _both(values, dtype_name, requires_grad=False):
    return tuple(lib.tensor(values.tolist(), dtype=getattr(lib, dtype_name), requires_grad=requires_grad)
                 for lib in (minitorch2, torch))


def _same(ours, theirs, rtol=1e-5, atol=1e-6):
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().resolve_conj().numpy(), rtol=rtol, atol=atol)


# ---------------------------------------------------------------- dtypes, promotion, creation, printing
@pytest.mark.parametrize("lib", [minitorch2, torch])
def test_dtype_names_and_flags(lib):
    assert lib.cfloat is lib.complex64 and lib.cdouble is lib.complex128
    assert lib.complex64.is_complex and not lib.complex64.is_floating_point and lib.complex64.is_signed
    assert lib.complex128.itemsize == 16


PROMOTIONS = [("complex64", "float64"), ("float16", "complex64"), ("int64", "complex64"), ("complex64", "complex128"),
              ("bool", "complex128"), ("float32", "complex64")]


@pytest.mark.parametrize("a, b", PROMOTIONS)
def test_promote_types(a, b):
    ours = minitorch2.promote_types(getattr(minitorch2, a), getattr(minitorch2, b))
    assert str(ours) == str(torch.promote_types(getattr(torch, a), getattr(torch, b)))


@pytest.mark.parametrize("program", [
    lambda lib: lib.ones(2) * 1j,
    lambda lib: lib.ones(2, dtype=lib.float64) * 1j,
    lambda lib: lib.ones(2, dtype=lib.int64) * (1 + 2j),
    lambda lib: lib.ones(2) + lib.tensor(1j, dtype=lib.complex128),  # a 0-d complex over a float tensor: its precision
    lambda lib: lib.ones(2, dtype=lib.int32) + lib.tensor(1j, dtype=lib.complex128),
    lambda lib: lib.tensor([1 + 2j, 3]),
    lambda lib: lib.tensor(1j),
    lambda lib: lib.zeros(2, dtype=complex),
    lambda lib: lib.full((2,), 1j),
    lambda lib: lib.ones(2, dtype=lib.cfloat).fill_(2 - 1j),
    lambda lib: lib.ones(2).fill_(2 + 0j),
    lambda lib: lib.complex(lib.tensor([1.0, float("inf")]), lib.tensor([float("inf"), 2.0])),
    lambda lib: lib.polar(lib.tensor([1.0, 2.0]), lib.tensor([0.5, -3.0])),
])
def test_creation_and_promotion(program):
    _same(program(minitorch2), program(torch))


def test_default_complex_dtype_follows_the_default_float_dtype():
    for lib in (minitorch2, torch):
        lib.set_default_dtype(lib.float64)
        try:
            assert str(lib.tensor([1j]).dtype) == "torch.complex128"
            assert str((lib.ones(2, dtype=lib.float32) * 1j).dtype) == "torch.complex64"
        finally:
            lib.set_default_dtype(lib.float32)


@pytest.mark.parametrize("values, dtype", [
    ([[1 + 2j, -3.5 - 0.25j], [0j, 1e-5 + 100j]], "complex64"),
    ([[1 + 2j, -3.5 - 0.25j], [0j, 1e-5 + 100j]], "complex128"),
    ([1 + 1j, 2 + 0j], "complex64"),
    ([1e10 + 1j, 1j], "complex64"),
    (1 + 2j, "complex64"),
    ([complex(i, -i / 3) for i in range(30)], "complex64"),
    ([complex(i, i) for i in range(2000)], "complex128"),
])
def test_printing(values, dtype):
    ours, theirs = (repr(lib.tensor(values, dtype=getattr(lib, dtype))) for lib in (minitorch2, torch))
    assert ours == theirs


def test_printing_requires_grad_and_conj():
    for lib in (minitorch2, torch):
        x = lib.zeros(2, dtype=lib.cfloat, requires_grad=True)
        assert repr(x) == "tensor([0.+0.j, 0.+0.j], requires_grad=True)"
    ours, theirs = (repr(lib.tensor([1 + 2j, -1j]).conj()) for lib in (minitorch2, torch))
    assert ours == theirs


@pytest.mark.parametrize("data, dtype", [([1j, 2], "float32"), ([1 + 0j], "int64")])
def test_tensor_refuses_complex_data_for_a_real_dtype(data, dtype):
    errors = []
    for lib in (minitorch2, torch):
        with pytest.raises(TypeError) as e:
            lib.tensor(data, dtype=getattr(lib, dtype))
        errors.append(str(e.value))
    assert errors[0] == errors[1]


def test_fill_of_a_complex_value_into_a_real_tensor_is_refused():
    for lib in (minitorch2, torch):
        with pytest.raises(RuntimeError, match="value cannot be converted to type float without overflow"):
            lib.ones(2).fill_(1j)


# ---------------------------------------------------------------- views between complex and real
def test_view_as_real_and_view_as_complex_share_memory():
    results = []
    for lib in (minitorch2, torch):
        x = lib.tensor([[1 + 2j, -3 - 1j, 0.5j], [2, 1j, -1]])
        r = lib.view_as_real(x)
        r[0, 1, 1] = 7.0  # a write through the real view is seen in the complex tensor
        column = lib.view_as_real(x[:, 1])
        c = lib.view_as_complex(lib.arange(24.0).reshape(2, 3, 4)[..., 2:])
        c.mul_(1j)  # and through a complex view of a real tensor
        results.append((x.tolist(), r.stride(), r.storage_offset(), column.stride(), column.storage_offset(),
                        c.stride(), c.storage_offset(), c._base is not None, x.real.stride(), x.imag.storage_offset(),
                        c.tolist()))
    assert results[0] == results[1]


def test_real_and_imag_are_views_and_settable():
    results = []
    for lib in (minitorch2, torch):
        x = lib.tensor([1 + 2j, 3 - 4j])
        x.real.mul_(10)
        x.imag = lib.tensor([5.0, 6.0])
        y = lib.ones(2)
        results.append((x.tolist(), y.real is y, str(x.real.dtype)))
    assert results[0] == results[1]
    for lib in (minitorch2, torch):
        with pytest.raises(RuntimeError, match="imag is not implemented for tensors with non-complex dtypes"):
            lib.ones(2).imag


def _view_error(lib, make):
    with pytest.raises(RuntimeError) as e:
        make(lib)
    return str(e.value)


@pytest.mark.parametrize("make", [
    lambda lib: lib.view_as_complex(lib.randn(4, 2, 3).transpose(1, 2)),
    lambda lib: lib.view_as_complex(lib.randn(4, 3)),
    lambda lib: lib.view_as_complex(lib.tensor(1.0)),
    lambda lib: lib.view_as_complex(lib.ones(3, 4)[:, 1:3]),
    lambda lib: lib.view_as_complex(lib.ones(3, 3)[:, :2]),
    lambda lib: lib.view_as_complex(lib.ones(2, 2, dtype=lib.int64)),
    lambda lib: lib.view_as_real(lib.randn(3)),
    lambda lib: lib.view_as_real(lib.tensor([1j]).conj()),
    lambda lib: lib.complex(lib.ones(2), lib.ones(2, dtype=lib.float64)),
    lambda lib: lib.polar(lib.ones(2, dtype=lib.int64), lib.ones(2, dtype=lib.int64)),
])
def test_view_errors_are_torchs(make):
    assert _view_error(minitorch2, make) == _view_error(torch, make)


def test_conj_bit_questions():
    results = []
    for lib in (minitorch2, torch):
        x = lib.tensor([1 + 2j, -1j])
        c = x.conj()
        results.append((c.is_conj(), c.resolve_conj().is_conj(), c.clone().is_conj(), lib.ones(2).conj().is_conj(),
                        x.conj_physical().is_conj(), lib.is_conj(c), c.resolve_conj().tolist()))
    assert results[0] == results[1]


# ---------------------------------------------------------------- an opinfo-style sweep of the complex ops
UNARY = ["abs", "angle", "exp", "neg", "conj", "conj_physical", "sgn", "real", "imag", "sum", "mean", "t", "flatten",
         "clone", "contiguous", "square", "reciprocal", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "isnan",
         "isfinite", "rsqrt", "expm1", "log1p"]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", UNARY)
def test_unary_sweep(name, dtype):
    ours, theirs = _both(_values((3, 4)), dtype)
    tolerance = dict(rtol=1e-4, atol=1e-5) if dtype == "complex64" else {}
    _same(getattr(ours, name)() if name not in ("real", "imag") else getattr(ours, name),
          getattr(theirs, name)() if name not in ("real", "imag") else getattr(theirs, name), **tolerance)


BINARY = [
    ("add", lambda a, b: a + b), ("sub", lambda a, b: a - b), ("mul", lambda a, b: a * b),
    ("div", lambda a, b: a / b), ("matmul", lambda a, b: a @ b.t()), ("eq", lambda a, b: a == b),
    ("add_alpha", lambda a, b: a.add(b, alpha=2)), ("scalar", lambda a, b: a * (2 - 1j) + 1.5),
    ("rsub_scalar", lambda a, b: 1j - a), ("with_real", lambda a, b: a * b.real + b.imag),
    ("where", lambda a, b: a.where(b.real > 0, b)), ("cat", lambda a, b: minitorch2.cat([a, b]) if isinstance(
        a, minitorch2.Tensor) else torch.cat([a, b])),
    ("reshape_transpose", lambda a, b: (a.reshape(4, 3).transpose(0, 1) * b)), ("sum_dim", lambda a, b: (a * b).sum(1)),
    ("pow", lambda a, b: a ** 2), ("type_as", lambda a, b: a.type_as(b)), ("to_real", lambda a, b: a.abs().to(b.dtype)),
]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name, program", BINARY, ids=[b[0] for b in BINARY])
def test_binary_sweep(name, program, dtype):
    (a, ta), (b, tb) = _both(_values((3, 4)), dtype), _both(_values((3, 4)), dtype)
    tolerance = dict(rtol=1e-4, atol=1e-5) if dtype == "complex64" else {}
    _same(program(a, b), program(ta, tb), **tolerance)


# ---------------------------------------------------------------- gradients: torch's convention, checked against it
GRADIENT_PROGRAMS = {
    "mul": lambda lib, a, b, r: ((a * b).abs() ** 2).sum(),
    "mul_real": lambda lib, a, b, r: (lib.view_as_real(a * r)).pow(2).sum(),
    "div": lambda lib, a, b, r: (a / b).abs().sum(),
    "div_real": lambda lib, a, b, r: (r / b).real.sum() + (b / r).imag.sum(),
    "exp": lambda lib, a, b, r: a.exp().real.sum(),
    "abs": lambda lib, a, b, r: a.abs().sum(),
    "angle": lambda lib, a, b, r: a.angle().sum(),
    "mm": lambda lib, a, b, r: (a @ b.t()).abs().sum(),
    "complex": lambda lib, a, b, r: (lib.complex(r, r * 2) * a).real.sum(),
    "polar": lambda lib, a, b, r: (lib.polar(r.abs(), r) * b).imag.sum(),
    "conj": lambda lib, a, b, r: (a.conj() * b).real.sum(),
    "view_as_complex": lambda lib, a, b, r: (lib.view_as_complex(lib.stack([r, r * r], -1)) * a).abs().sum(),
    "sum_mean": lambda lib, a, b, r: (a.sum(0) * b.mean(0)).abs().sum(),
    "bmm": lambda lib, a, b, r: lib.bmm(a.unsqueeze(0), b.unsqueeze(0)).real.sum(),
    "conj_times_complex_scalar": lambda lib, a, b, r: (a.conj() * 2j).real.sum() + (b / (1 - 1j)).imag.sum(),
    "conj_then_real_imag": lambda lib, a, b, r: (a.conj().imag * r).sum() + a.conj().real.sum(),
    "z_times_conj_z": lambda lib, a, b, r: ((a * a.conj()).real + (a * a.conj() + a.exp()).imag).sum(),
    "sgn": lambda lib, a, b, r: (a.sgn() * b).real.sum() + (a * 0).sgn().abs().sum(),
}


@pytest.mark.parametrize("name", list(GRADIENT_PROGRAMS))
def test_gradients_match_torch(name):
    values = (_values((3, 3)), _values((3, 3)), _values((3, 3), "r"))
    grads = []  # (torch's a.grad of the conj program carries the conjugate bit; ours holds the same values unmarked)
    for lib in (minitorch2, torch):
        a, b = (lib.tensor(v.tolist(), dtype=lib.cfloat, requires_grad=True) for v in values[:2])
        r = lib.tensor(values[2].tolist(), requires_grad=True)
        GRADIENT_PROGRAMS[name](lib, a, b, r).backward()
        grads.append([x.grad for x in (a, b, r)])
    for ours, theirs in zip(*grads):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            _same(ours, theirs, rtol=1e-4, atol=1e-5)


UNARY_GRADIENTS = ["log", "log1p", "expm1", "sin", "cos", "sqrt", "rsqrt", "reciprocal", "square", "tanh", "sigmoid",
                   "exp", "neg", "sum", "mean", "t", "flatten", "conj_physical", "sgn"]


@pytest.mark.parametrize("name", UNARY_GRADIENTS)
def test_unary_gradients_match_torch(name):
    values = _values((3, 3))
    grads = []
    for lib in (minitorch2, torch):
        a = lib.tensor(values.tolist(), dtype=lib.cfloat, requires_grad=True)
        (getattr(a, name)().abs() ** 2).sum().backward()
        grads.append(a.grad)
    _same(*grads, rtol=1e-4, atol=1e-5)


def test_only_floating_and_complex_tensors_require_grad():
    for lib in (minitorch2, torch):
        assert lib.zeros(2, dtype=lib.cfloat).requires_grad_().requires_grad
        with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
            lib.zeros(2, dtype=lib.int64).requires_grad_()  # (torch's words on this path; its factories' differ)


def test_a_complex_loss_needs_a_gradient():
    for lib in (minitorch2, torch):
        x = lib.tensor([1 + 1j], requires_grad=True)
        with pytest.raises(RuntimeError, match="grad can be implicitly created only for real scalar outputs"):
            x.sum().backward()


# ---------------------------------------------------------------- what torch refuses for complex tensors
REFUSED = [
    lambda lib, x: lib.maximum(x, x), lambda lib, x: x < x, lambda lib, x: x.clamp(0, 1), lambda lib, x: lib.relu(x),
    lambda lib, x: x.max(), lambda lib, x: x.floor(), lambda lib, x: x.sort(), lambda lib, x: x % 2,
    lambda lib, x: x.sign(), lambda lib, x: x.argmax(), lambda lib, x: x // 2, lambda lib, x: lib.atan2(x, x),
    lambda lib, x: x.unique(), lambda lib, x: lib.view_as_real(x.conj()), lambda lib, x: x.abs_(),
    lambda lib, x: lib.mul(x, 2, out=lib.empty(2)), lambda lib, x: lib.ones(2).mul_(x),
]


@pytest.mark.parametrize("program", REFUSED)
def test_refusals_are_torchs(program):
    errors = []
    for lib in (minitorch2, torch):
        with pytest.raises(Exception) as e:
            program(lib, lib.tensor([1 + 2j, 3 - 1j]))
        errors.append((type(e.value).__name__, str(e.value)))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("program", [
    lambda lib: lib.randn(3, 2, dtype=lib.cfloat), lambda lib: lib.rand(4, dtype=lib.cdouble),
    lambda lib: lib.empty(5, dtype=lib.cfloat).normal_(1.0, 3.0), lambda lib: lib.empty(5, dtype=lib.cfloat).uniform_(),
])
def test_random_complex_tensors_draw_torchs_values(program):
    """torch samples a complex tensor's real and imaginary parts (normal's std / sqrt(2)), bit for bit."""
    values = []
    for lib in (minitorch2, torch):
        lib.manual_seed(0)
        values.append(program(lib))
    _same(*values, rtol=0, atol=0)


@pytest.mark.parametrize("program", [
    lambda lib: lib.tensor([1.0, 2.0]).cfloat(), lambda lib: lib.tensor([1.0, 2.0]).cdouble(),
    lambda lib: lib.isreal(lib.tensor([1 + 2j, 3])), lambda lib: lib.vdot(lib.tensor([1j, 2]), lib.tensor([1j, 2])),
    lambda lib: lib.tensor(complex(lib.tensor(1 + 2j))), lambda lib: lib.stack([lib.tensor([1j]), lib.tensor([2.0])]),
    lambda lib: lib.tensor([1j, 2]).masked_fill(lib.tensor([True, False]), 5j), lambda lib: lib.tensor([1j, 2]).prod(),
    lambda lib: lib.tensor([1j, 2 + 1j]).cumsum(0), lambda lib: lib.tensor([1, 2]) / 1j,
    lambda lib: lib.tensor([1j, 2]) ** (0.5 + 1j), lambda lib: lib.tensor([1j, 2, 3j])[lib.tensor([0, 2])],
    lambda lib: lib.tensor([-1.0, float("nan"), 0.0, 2.0]).angle(), lambda lib: lib.tensor([-1, 2]).angle(),
])
def test_more_complex_functions(program):
    _same(program(minitorch2), program(torch))


@pytest.mark.parametrize("program", [
    lambda lib: lib.tensor([1j, 2]).mul_(1j), lambda lib: lib.tensor([1j, 2]).add_(lib.ones(2)),
    lambda lib: lib.tensor([1j, 2]).copy_(lib.ones(2)),
    lambda lib: (lambda t: (t.__setitem__(0, 5 + 5j), t)[1])(lib.tensor([1j, 2])),
    lambda lib: lib.mul(lib.tensor([1j]), 2, out=lib.empty(1, dtype=lib.cfloat)),
])
def test_in_place_and_out_forms(program):
    _same(program(minitorch2), program(torch))


def test_complex_to_real_warns_as_torch_and_keeps_the_real_part():
    torch_warned_always = torch.is_warn_always_enabled()
    torch.set_warn_always(True)  # torch warns once a process, and another test in this worker may have cast before
    try:
        for lib in (minitorch2, torch):
            with pytest.warns(UserWarning, match="Casting complex values to real discards the imaginary part"):
                assert lib.tensor([1 + 2j]).to(lib.float32).tolist() == [1.0]
    finally:
        torch.set_warn_always(torch_warned_always)


def test_complex32_is_refused_clearly():
    with pytest.raises(NotImplementedError, match="complex32"):
        minitorch2.ones(2, dtype=minitorch2.float16) * 1j


@pytest.mark.parametrize("write", [lambda y: y.add_(1), lambda y: y.__setitem__(0, 5j), lambda y: y[1].mul_(2)],
                         ids=["add_", "setitem", "view_mul_"])
def test_a_write_into_conj_reaches_the_tensor_in_torch_and_is_refused_here(write):
    theirs = torch.tensor([1 + 2j, 3 - 1j])
    write(theirs.conj())
    assert theirs.tolist() != [1 + 2j, 3 - 1j]  # torch's conj is a view: the write changed x
    ours = minitorch2.tensor([1 + 2j, 3 - 1j])
    with pytest.raises(NotImplementedError, match="conj"):  # ours is a copy: refused, not silently lost
        write(ours.conj())
    assert ours.tolist() == [1 + 2j, 3 - 1j]
