"""Convolution padding as torch.nn's (session 31): padding_mode "reflect", "replicate" and "circular" (were refused
with NotImplementedError) pad the input with F.pad first; padding="same" with an even kernel pads the extra element on
the right first (was refused), recording torch's constant_pad_nd; the argument checks raise torch's classes (ValueError
from the modules, RuntimeError from the functions); `_conv_forward(input, weight, bias)` is there for subclasses that
convolve with weights of their own (weight standardization). Values and gradients compared with torch, eager and
compiled."""
import re
import warnings

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx

import minitorch2
from autograd import make_fx


def _run(lib, build, inputs, compiled=None):
    lib.manual_seed(0)
    module = build(lib)
    x = lib.tensor(inputs, requires_grad=True)
    run = lib.compile(module, backend=compiled) if compiled else module
    y = run(x)
    (y * y).sum().backward()
    return y.detach().numpy(), x.grad.numpy(), module.weight.grad.numpy(), module._reversed_padding_repeated_twice


def check(build, shape, compiled=None):
    inputs = torch.randn(*shape).tolist()
    ours, theirs = _run(minitorch2, build, inputs, compiled), _run(torch, build, inputs)
    for a, b in zip(ours[:3], theirs[:3]):
        assert a.shape == b.shape
        assert abs(a - b).max() <= 1e-4 * max(1.0, abs(b).max())
    assert list(ours[3]) == list(theirs[3])


MODES = ["zeros", "reflect", "replicate", "circular"]
PADDINGS = [1, (1, 2), "same", "valid"]


@pytest.mark.parametrize("padding", PADDINGS)
@pytest.mark.parametrize("mode", MODES)
def test_conv2d_padding_modes_give_torchs_values_and_gradients(mode, padding):
    dilation = (2, 1) if padding == "same" else 1
    check(lambda lib: lib.nn.Conv2d(2, 3, (3, 5), padding=padding, padding_mode=mode, dilation=dilation), (1, 2, 6, 7))


@pytest.mark.parametrize("mode", MODES[1:])
def test_conv1d_and_conv3d_padding_modes(mode):
    check(lambda lib: lib.nn.Conv1d(2, 2, 3, padding=1, padding_mode=mode), (2, 2, 5))
    check(lambda lib: lib.nn.Conv3d(1, 2, 3, padding=1, padding_mode=mode), (1, 1, 4, 4, 3))


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
@pytest.mark.parametrize("mode", ["reflect", "circular"])
def test_compiled_padding_modes_give_eagers_values(mode, backend):
    check(lambda lib: lib.nn.Conv2d(2, 2, 3, padding=(1, 2), padding_mode=mode), (1, 2, 5, 6), compiled=backend)


def test_an_even_kernel_with_same_padding_pads_its_extra_element_on_the_right_as_aten():
    check(lambda lib: lib.nn.Conv2d(2, 3, (4, 2), padding="same", dilation=(1, 2)), (1, 2, 6, 6))
    check(lambda lib: lib.nn.Conv1d(2, 3, 4, padding="same"), (2, 2, 7))
    traced = [trace(lambda x, w: lib.nn.functional.conv2d(x, w, padding="same", dilation=(1, 2)))(
        lib.randn(1, 2, 6, 6), lib.randn(3, 2, 4, 2)).code for lib, trace in ((torch, torch_make_fx),
                                                                              (minitorch2, make_fx))]
    assert traced[0] == traced[1]


def test_the_padded_copy_warning_comes_once():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            minitorch2.nn.functional.conv1d(minitorch2.ones(1, 1, 5), minitorch2.ones(1, 1, 2), padding="same")
    assert len([w for w in caught if "zero-padded copy" in str(w.message)]) <= 1


def _outcome(fn, lib):
    try:
        fn(lib)
        return "ok"
    except Exception as e:  # noqa: BLE001 - the class and words are compared
        # (a set in the message prints in its hash order, which changes from process to process in torch too)
        return type(e).__name__, re.sub(r"\{([^}]*)\}", lambda m: str(sorted(m.group(1).split(", "))), str(e))


BAD_ARGUMENTS = {
    "module_padding_string": lambda lib: lib.nn.Conv2d(2, 2, 3, padding="full"),
    "module_same_strided": lambda lib: lib.nn.Conv2d(2, 2, 3, padding="same", stride=2),
    "module_padding_mode": lambda lib: lib.nn.Conv2d(2, 2, 3, padding_mode="mirror"),
    "functional_padding_string": lambda lib: lib.nn.functional.conv1d(lib.ones(1, 1, 4), lib.ones(1, 1, 3),
                                                                       padding="full"),
    "functional_same_strided": lambda lib: lib.nn.functional.conv1d(lib.ones(1, 1, 4), lib.ones(1, 1, 3),
                                                                     padding="same", stride=2),
    "transposed_padding_mode": lambda lib: lib.nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect"),
}


@pytest.mark.parametrize("case", BAD_ARGUMENTS)
def test_bad_padding_arguments_raise_torchs_errors(case):
    assert _outcome(BAD_ARGUMENTS[case], minitorch2) == _outcome(BAD_ARGUMENTS[case], torch)


def test_a_weight_standardized_conv_calls_conv_forward_with_its_own_weight():
    def build(lib):
        class WSConv2d(lib.nn.Conv2d):
            def forward(self, x):
                w = self.weight
                w = (w - w.mean(dim=(1, 2, 3), keepdim=True)) / (w.std(dim=(1, 2, 3), keepdim=True) + 1e-5)
                return self._conv_forward(x, w, self.bias)
        return WSConv2d(2, 4, 3, padding=1, padding_mode="reflect")
    check(build, (2, 2, 5, 5))
    check(build, (2, 2, 5, 5), compiled="aot_eager")
