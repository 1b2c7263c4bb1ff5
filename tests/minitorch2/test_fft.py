"""torch.fft against real torch: every function's values and dtypes, the gradients of real losses through them, the
graphs make_fx records (torch's _fft_c2c/_fft_r2c/_fft_c2r with its promotions, cuts, paddings and conjugations),
the same programs compiled, and the errors for wrong inputs."""
import numpy as np
import pytest
import torch
import torch.fx.experimental.proxy_tensor

import frontend
import minitorch2
from autograd.proxy_tensor import make_fx

RNG = np.random.default_rng(0)
REAL = RNG.standard_normal((3, 4)).astype(np.float32)
COMPLEX = (RNG.standard_normal((3, 4)) + 1j * RNG.standard_normal((3, 4))).astype(np.complex64)

PROGRAMS = {
    "fft": lambda lib, x, c: lib.fft.fft(x),
    "ifft_of_real": lambda lib, x, c: lib.fft.ifft(x),
    "fft_ortho": lambda lib, x, c: lib.fft.fft(c, norm="ortho"),
    "ifft_padded_dim0": lambda lib, x, c: lib.fft.ifft(c, n=6, dim=0),
    "rfft_padded": lambda lib, x, c: lib.fft.rfft(x, n=6),
    "rfft_cut_forward": lambda lib, x, c: lib.fft.rfft(x, n=3, norm="forward"),
    "irfft": lambda lib, x, c: lib.fft.irfft(c),
    "irfft_odd_ortho": lambda lib, x, c: lib.fft.irfft(c, n=5, norm="ortho"),
    "hfft": lambda lib, x, c: lib.fft.hfft(c),
    "ihfft": lambda lib, x, c: lib.fft.ihfft(x),
    "fftn_of_real": lambda lib, x, c: lib.fft.fftn(x),
    "ifftn_sized": lambda lib, x, c: lib.fft.ifftn(c, s=(4, 2)),
    "rfftn": lambda lib, x, c: lib.fft.rfftn(x),
    "rfft2_sized": lambda lib, x, c: lib.fft.rfft2(x, s=(2, 6)),
    "irfftn_sized": lambda lib, x, c: lib.fft.irfftn(c, s=(4, 6)),
    "irfft2": lambda lib, x, c: lib.fft.irfft2(c),
    "fft2": lambda lib, x, c: lib.fft.fft2(c),
    "fft_of_ints": lambda lib, x, c: lib.fft.fft(lib.arange(5)),
    "fftfreq": lambda lib, x, c: lib.fft.fftfreq(5, 0.3),
    "fftfreq_even": lambda lib, x, c: lib.fft.fftfreq(6),
    "rfftfreq": lambda lib, x, c: lib.fft.rfftfreq(7),
    "fftshift": lambda lib, x, c: lib.fft.fftshift(x),
    "ifftshift": lambda lib, x, c: lib.fft.ifftshift(c, dim=1),
    "round_trip": lambda lib, x, c: lib.fft.irfft(lib.fft.rfft(x) * lib.fft.rfft(x), n=4),
}


def _run(lib, program):
    x, c = lib.tensor(REAL, requires_grad=True), lib.tensor(COMPLEX, requires_grad=True)
    out = program(lib, x, c)
    if out.requires_grad:
        ((out.abs() ** 2).sum() if out.is_complex() else (out * out).sum()).backward()
    return [out] + [t.grad for t in (x, c)]


def _close(ours, theirs):
    assert (ours is None) == (theirs is None)
    if ours is not None:
        assert str(ours.dtype) == str(theirs.dtype) and tuple(ours.shape) == tuple(theirs.shape)
        np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().resolve_conj().numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_values_and_gradients_match_torch(name):
    for ours, theirs in zip(_run(minitorch2, PROGRAMS[name]), _run(torch, PROGRAMS[name])):
        _close(ours, theirs)


def _traced(x, c):
    lib = minitorch2 if isinstance(x, minitorch2.Tensor) else torch
    return (lib.fft.ifft(x), lib.fft.rfft(x, n=6), lib.fft.irfftn(c, s=(4, 6)), lib.fft.fftn(x),
            lib.fft.fft(c, norm="ortho"), lib.fft.hfft(c))


def test_make_fx_records_torchs_ops():
    ours = make_fx(_traced)(minitorch2.tensor(REAL), minitorch2.tensor(COMPLEX))
    theirs = torch.fx.experimental.proxy_tensor.make_fx(_traced)(torch.tensor(REAL), torch.tensor(COMPLEX))
    assert ours.code == theirs.code


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compiled_spectral_filter_matches_torch(backend):
    def lowpass(x, lib):
        spectrum = lib.fft.rfft(x)
        keep = (lib.arange(spectrum.shape[-1]) < 2).to(x.dtype)
        return lib.fft.irfft(spectrum * keep, n=x.shape[-1]).sum(-1)

    frontend.reset()
    x = minitorch2.tensor(REAL, requires_grad=True)
    out = minitorch2.compile(lambda x: lowpass(x, minitorch2), backend=backend)(x)
    out.sum().backward()
    tx = torch.tensor(REAL, requires_grad=True)
    expected = lowpass(tx, torch)
    expected.sum().backward()
    _close(out, expected)
    _close(x.grad, tx.grad)


@pytest.mark.parametrize("program", [
    lambda lib: lib.fft.rfft(lib.tensor([1j, 2])),
    lambda lib: lib.fft.fft(lib.ones(3), n=0),
    lambda lib: lib.fft.fftn(lib.ones(3, 3), s=(2,), dim=(0, 1)),
    lambda lib: lib.fft.fftn(lib.ones(3, 3), dim=(0, 0)),
])
def test_errors_are_torchs(program):
    errors = []
    for lib in (minitorch2, torch):
        with pytest.raises(RuntimeError) as e:
            program(lib)
        errors.append(str(e.value))
    assert errors[0] == errors[1]
