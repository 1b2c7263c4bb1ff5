"""What a script asks of a CPU-only build, answered as torch's does: nn.DataParallel with no devices, the Tensor
device and layout flags, and F.pad's modes through nn.functional itself."""
import numpy as np
import pytest
import torch

import minitorch2


def test_data_parallel_calls_its_module():
    built = []
    for lib in (torch, minitorch2):
        lib.manual_seed(0)
        model = lib.nn.DataParallel(lib.nn.Linear(3, 2))
        x = lib.arange(12.0).reshape(4, 3)
        built.append((repr(model), list(model.state_dict()), model.device_ids, model(x).detach().numpy()))
    (r1, k1, d1, y1), (r2, k2, d2, y2) = built
    assert (r1, k1, d1) == (r2, k2, d2)
    np.testing.assert_allclose(y1, y2, rtol=1e-6)


@pytest.mark.parametrize("flag", ["is_cpu", "is_cuda", "is_xpu", "is_mps", "is_meta", "is_sparse", "is_sparse_csr",
                                  "is_quantized", "is_mkldnn", "is_nested"])
def test_device_and_layout_flags(flag):
    assert getattr(minitorch2.ones(2), flag) is getattr(torch.ones(2), flag)
    with pytest.raises(AttributeError):
        setattr(minitorch2.ones(2), flag, True)


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_functional_pad_modes(mode):
    pad = (1, 2, 2, 0)
    theirs = torch.nn.functional.pad(torch.arange(24.0).reshape(1, 2, 3, 4), pad, mode=mode)
    ours = minitorch2.nn.functional.pad(minitorch2.arange(24.0).reshape(1, 2, 3, 4), pad, mode=mode)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
