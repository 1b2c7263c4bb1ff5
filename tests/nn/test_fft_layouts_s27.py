"""The memory layout of torch.fft's outputs against real torch: _fft_r2c, _fft_c2r and _fft_c2c write their outputs
as ATen's CPU kernels do (dense with the untransformed dims outermost, by the input's strides, and the transformed
ones innermost), so rfft, irfft, rfft2, irfftn, hfft, ihfft and fft of transposed, sliced, permuted and batched
inputs have torch's strides: eagerly, and as the outputs of compiled graphs (their meta functions'), with torch's
values."""
import numpy as np
import pytest
import torch

import minitorch2

from ..frontend.fresh_compilers import fresh_compilers  # noqa: F401  (autouse: fresh caches in both Dynamos)


def _real(lib, shape):
    return lib.tensor(np.random.RandomState(len(shape)).randn(*shape).astype(np.float32))


def _complex(lib, shape):
    return lib.complex(_real(lib, shape), _real(lib, shape) * 0.5)


CASES = {  # name: (input maker over a library, the function)
    "rfft_last": (lambda L: _real(L, (4, 6, 8)), lambda L, t: L.fft.rfft(t)),
    "rfft_first": (lambda L: _real(L, (4, 6, 8)), lambda L, t: L.fft.rfft(t, dim=0)),
    "rfft_middle": (lambda L: _real(L, (4, 6, 8)), lambda L, t: L.fft.rfft(t, dim=1)),
    "rfft_transposed": (lambda L: _real(L, (4, 6, 8)).transpose(0, 2), lambda L, t: L.fft.rfft(t)),
    "rfft_sliced": (lambda L: _real(L, (4, 6, 8))[:, ::2], lambda L, t: L.fft.rfft(t, dim=1)),
    "rfft_sized": (lambda L: _real(L, (3, 7)).t(), lambda L, t: L.fft.rfft(t, n=10, dim=0, norm="ortho")),
    "rfft2": (lambda L: _real(L, (4, 6, 8)), lambda L, t: L.fft.rfft2(t)),
    "rfft2_outer_dims": (lambda L: _real(L, (4, 6, 8)), lambda L, t: L.fft.rfft2(t, dim=(0, 2))),
    "rfft2_reversed_dims": (lambda L: _real(L, (4, 6, 8)), lambda L, t: L.fft.rfft2(t, dim=(2, 0))),
    "rfftn_permuted": (lambda L: _real(L, (4, 6, 8)).permute(1, 2, 0), lambda L, t: L.fft.rfftn(t, dim=(0, 1))),
    "irfft_last": (lambda L: _complex(L, (4, 6, 5)), lambda L, t: L.fft.irfft(t)),
    "irfft_first": (lambda L: _complex(L, (5, 6, 8)), lambda L, t: L.fft.irfft(t, dim=0)),
    "irfft_middle": (lambda L: _complex(L, (5, 6, 8)), lambda L, t: L.fft.irfft(t, dim=1, norm="forward")),
    "irfft_transposed": (lambda L: _complex(L, (5, 6, 8)).transpose(0, 2), lambda L, t: L.fft.irfft(t)),
    "irfft2": (lambda L: _complex(L, (5, 6, 8)), lambda L, t: L.fft.irfft2(t)),
    "irfftn_outer_dims": (lambda L: _complex(L, (5, 6, 8)), lambda L, t: L.fft.irfftn(t, dim=(0, 2))),
    "irfftn_reversed_dims": (lambda L: _complex(L, (5, 6, 8)), lambda L, t: L.fft.irfftn(t, dim=(2, 0))),
    "irfftn_permuted": (lambda L: _complex(L, (5, 6, 8)).permute(2, 0, 1), lambda L, t: L.fft.irfftn(t)),
    "hfft": (lambda L: _complex(L, (5, 6, 8)).transpose(0, 1), lambda L, t: L.fft.hfft(t, dim=0)),
    "ihfft": (lambda L: _real(L, (4, 6, 8)).transpose(0, 1), lambda L, t: L.fft.ihfft(t, dim=0)),
    "fft_of_real": (lambda L: _real(L, (4, 6, 8)).transpose(0, 1), lambda L, t: L.fft.fft(t, dim=0)),
    "fft2_reversed_dims": (lambda L: _complex(L, (4, 6, 8)), lambda L, t: L.fft.fft2(t, dim=(2, 0))),
    "ifftn_permuted": (lambda L: _complex(L, (4, 6, 8)).permute(2, 0, 1), lambda L, t: L.fft.ifftn(t, dim=(0, 2))),
}


def _result(lib, name, compiler=None):
    make, fn = CASES[name]
    run = (lambda t: fn(lib, t)) if compiler is None else compiler(lambda t: fn(lib, t))
    out = run(make(lib))
    return tuple(out.shape), out.stride(), out.dtype is lib.complex64, out.resolve_conj().numpy()


def _assert_same(ours, theirs):
    assert ours[:3] == theirs[:3]
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", list(CASES))
def test_eager_outputs_are_laid_out_as_torchs(name):
    _assert_same(_result(minitorch2, name), _result(torch, name))


@pytest.mark.parametrize("name", list(CASES))
def test_compiled_outputs_are_laid_out_as_torchs(name):
    ours = _result(minitorch2, name, lambda f: minitorch2.compile(f, backend="aot_eager", fullgraph=True))
    theirs = _result(torch, name, lambda f: torch.compile(f, backend="aot_eager", fullgraph=True))
    _assert_same(ours, theirs)


@pytest.mark.parametrize("name", ["rfft_transposed", "irfftn_outer_dims"])
def test_inductor_compiled_outputs_are_laid_out_as_torchs(name):
    ours = _result(minitorch2, name, lambda f: minitorch2.compile(f, backend="inductor"))
    theirs = _result(torch, name, lambda f: torch.compile(f, backend="inductor"))
    _assert_same(ours, theirs)
