"""torch.autograd.functional (jacobian, hessian, vjp, jvp, hvp, vhp) and anomaly mode against torch 2.13: values,
the nesting of tuple results, graphs kept with create_graph, strict mode's errors, torch's messages."""
import warnings

import numpy as np
import pytest
import torch

import minitorch2

X = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]
Y = [0.3, -0.2, 0.7]


def _inputs(lib):
    return lib.tensor(X), lib.tensor(Y)


def _f_single(lib):
    return lambda x: (x.sin() * x).sum(0) * 2


def _f_pair(lib):
    return lambda x, y: ((x * y).exp().sum(1), (x.tanh() @ y).sum() + y.pow(3))


def _scalar(lib):
    return lambda x, y: (x.sin() * y).sum() + (y ** 3).sum()


def _same(expected, got, requires_grad=None):
    if isinstance(expected, torch.Tensor):
        assert isinstance(got, minitorch2.Tensor), type(got)
        assert tuple(got.shape) == tuple(expected.shape)
        assert str(got.dtype) == str(expected.dtype)
        np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(), rtol=1e-5, atol=1e-6)
        assert got.requires_grad == expected.requires_grad
        return
    assert type(got) is type(expected) and type(got) in (tuple, list) and len(got) == len(expected), (expected, got)
    for e, g in zip(expected, got):
        _same(e, g)


def _both(run):
    return run(torch), run(minitorch2)


@pytest.mark.parametrize("tuple_inputs", [False, True])
@pytest.mark.parametrize("strategy", ["reverse-mode", "forward-mode"])
def test_jacobian_nesting_and_values(tuple_inputs, strategy):
    def run(lib):
        x, y = _inputs(lib)
        jac = lib.autograd.functional.jacobian
        vectorize = strategy == "forward-mode"
        if tuple_inputs:
            return jac(_f_pair(lib), (x, y), vectorize=vectorize, strategy=strategy)
        return jac(_f_single(lib), x, vectorize=vectorize, strategy=strategy)

    _same(*_both(run))


def test_jacobian_create_graph_and_vectorize():
    def run(lib):
        x = lib.tensor(X, requires_grad=True)
        j = lib.autograd.functional.jacobian(_f_single(lib), x, create_graph=True)
        j.sum().backward()
        jv = lib.autograd.functional.jacobian(_f_single(lib), x, vectorize=True)
        return j, x.grad, jv

    _same(*_both(run))


@pytest.mark.parametrize("tuple_inputs", [False, True])
def test_hessian(tuple_inputs):
    def run(lib):
        x, y = _inputs(lib)
        if tuple_inputs:
            return lib.autograd.functional.hessian(_scalar(lib), (x, y))
        return lib.autograd.functional.hessian(lambda y: (y.exp() * y).sum(), y,
                                               vectorize=True, outer_jacobian_strategy="forward-mode")

    _same(*_both(run))


@pytest.mark.parametrize("name", ["vjp", "jvp", "vhp", "hvp"])
def test_products(name):
    def run(lib):
        x, y = _inputs(lib)
        fn = getattr(lib.autograd.functional, name)
        if name == "vjp":
            return fn(_f_pair(lib), (x, y), (lib.ones(2), lib.tensor([1.0, 2.0, -1.0])))
        if name == "jvp":
            return fn(_f_pair(lib), (x, y), (lib.ones(2, 3), lib.tensor([1.0, 2.0, -1.0])))
        return fn(_scalar(lib), (x, y), (lib.ones(2, 3), lib.tensor([1.0, 2.0, -1.0])))

    _same(*_both(run))


@pytest.mark.parametrize("name", ["vjp", "jvp", "hvp"])
def test_products_create_graph_single_tensor(name):
    def run(lib):
        y = lib.tensor(Y, requires_grad=True)
        fn = getattr(lib.autograd.functional, name)
        v = lib.tensor([1.0, -2.0, 0.5])
        out, product = fn(lambda t: (t.sin() * t).sum() if name == "hvp" else t.sin() * t, y, v, create_graph=True)
        product.sum().backward()
        return out, product, y.grad

    _same(*_both(run))


def test_zeros_for_unused_inputs_and_strict_errors():
    def run(lib):
        x, y = _inputs(lib)
        return lib.autograd.functional.vjp(lambda x, y: x.sum() * 2, (x, y))

    _same(*_both(run))
    cases = [
        lambda lib, x, y: lib.autograd.functional.vjp(lambda x, y: x.sum() * 2, (x, y), strict=True),
        lambda lib, x, y: lib.autograd.functional.jacobian(lambda x, y: x * 2, (x, y), strict=True),
        lambda lib, x, y: lib.autograd.functional.jvp(lambda x: x.detach(), x, lib.ones(2, 3), strict=True),
        lambda lib, x, y: lib.autograd.functional.hessian(lambda y: y.sum(), y, strict=True),
        lambda lib, x, y: lib.autograd.functional.jacobian(lambda x: x, x, strict=True, vectorize=True),
        lambda lib, x, y: lib.autograd.functional.jacobian(lambda x: x, x, strategy="forward-mode"),
        lambda lib, x, y: lib.autograd.functional.jacobian(lambda x: x, x, strategy="sideways"),
        lambda lib, x, y: lib.autograd.functional.vjp(lambda x: x, x),
        lambda lib, x, y: lib.autograd.functional.vjp(lambda x: x, x, lib.ones(3)),
        lambda lib, x, y: lib.autograd.functional.jvp(lambda x, y: x, (x, y), (lib.ones(2, 3),)),
        lambda lib, x, y: lib.autograd.functional.hvp(lambda x: x, x, lib.ones(2, 3)),
        lambda lib, x, y: lib.autograd.functional.vhp(lambda x: (x, x), x, lib.ones(2, 3)),
        lambda lib, x, y: lib.autograd.functional.jacobian(lambda x: x, (x, 3)),
        lambda lib, x, y: lib.autograd.functional.jacobian(lambda x: 3, x),
    ]
    for case in cases:
        errors = []
        for lib in (torch, minitorch2):
            with pytest.raises(Exception) as info:
                case(lib, *_inputs(lib))
            errors.append(info.value)
        assert type(errors[1]) is type(errors[0])
        assert str(errors[1]).replace("minitorch2", "torch") == str(errors[0]), case


def _enabled(lib):
    return lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()


def test_anomaly_mode_flag_and_warning():
    for lib in (torch, minitorch2):
        assert not _enabled(lib)[0]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with lib.autograd.detect_anomaly(check_nan=False):
                assert _enabled(lib)[0]
                assert not _enabled(lib)[1]
        assert [str(w.message) for w in caught] == ["Anomaly Detection has been enabled. This mode will increase "
                                                    "the runtime and should only be enabled for debugging."]
        assert not _enabled(lib)[0]
        lib.autograd.set_detect_anomaly(True)
        assert _enabled(lib)[0]
        with lib.autograd.set_detect_anomaly(False):
            assert not _enabled(lib)[0]
        assert _enabled(lib)[0]
        lib.autograd.set_detect_anomaly(False)
        assert lib.set_anomaly_enabled(True, check_nan=False) is None
        assert _enabled(lib) == (True, False)
        lib.set_anomaly_enabled(False)
        assert _enabled(lib) == (False, True)


def _nan_backward(lib):
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    with lib.autograd.set_detect_anomaly(True):
        y = (x.sqrt() * 0).sum()
        with pytest.raises(RuntimeError) as info, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y.backward()
    return str(info.value)


def test_anomaly_mode_nan_in_backward_raises():
    assert _nan_backward(minitorch2) == _nan_backward(torch)
