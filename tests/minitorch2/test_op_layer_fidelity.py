"""Two results the op layer's simplification (issue 19) brought to torch's: baddbmm's half bias scaled in float32 as
addmm's is, and the new_* factories refusing a negative size as the other factories do. Compared with torch."""
import numpy as np
import pytest
import torch

import minitorch2 as mt


def test_half_baddbmm_with_beta_matches_torch_bit_for_bit():
    rng = np.random.default_rng(0)
    c, a, b = (rng.standard_normal(shape).astype(np.float16) for shape in ((2, 3, 4), (2, 3, 5), (2, 5, 4)))
    ours = mt.baddbmm(mt.tensor(c), mt.tensor(a), mt.tensor(b), beta=0.7, alpha=1.3)
    theirs = torch.baddbmm(torch.tensor(c), torch.tensor(a), torch.tensor(b), beta=0.7, alpha=1.3)
    assert ours.dtype == mt.float16
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("method", ["new_zeros", "new_ones", "new_empty"])
def test_new_factories_refuse_a_negative_size_as_torch(method):
    with pytest.raises(RuntimeError) as theirs:
        getattr(torch.zeros(2), method)((2, -1))
    with pytest.raises(RuntimeError) as ours:
        getattr(mt.zeros(2), method)((2, -1))
    assert str(ours.value) == str(theirs.value)
