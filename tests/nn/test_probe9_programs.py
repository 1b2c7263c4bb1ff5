"""Programs in the style of third-party projects run in session 29 (karpathy/minGPT, makemore, micrograd's test,
pytorch/examples' word_language_model, time_sequence_prediction, mnist_rnn, fx), tests/nn/programs9/, each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's, both runs exit 0.
char_gpt_dropout_sampling.py: minGPT's chargpt in small. Its dropout masks, sampled batches and top-k samples all
draw mt19937 words; the engine twisted its 624-word blocks in Python, a fifth of such a program's time, and now
twists in numpy's C MT19937 (the same reference engine), so the words must stay torch's across blocks, offsets
within a block and saved and restored states (also checked directly below).
rng_state_checkpoint_resume.py: torch.get_rng_state() / Generator.get_state() gave a NumPy array where torch gives
a uint8 tensor, so a checkpoint carrying it failed torch.load's default weights-only unpickling; set_state now takes
a ByteTensor only, with torch's TypeError / RuntimeError for anything else."""
import numpy as np
import pytest
import torch  # reason: the oracle; the library itself never imports torch

import minitorch2

from .program_reports import all_same, compare_report

FOLDER = "programs9"


@pytest.mark.parametrize("name", ["char_gpt_dropout_sampling", "rng_state_checkpoint_resume",
                                  "manual_tanh_backprop_check"])
def test_program_prints_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report


def _draws(lib, seed):
    """Draws of sizes that end mid-block, fill exact blocks and span several, from a fresh and a restored state."""
    g = lib.Generator().manual_seed(seed)
    out = [lib.randint(0, 2 ** 31 - 1, (n,), generator=g).numpy() for n in (1, 622, 624, 625, 3 * 624 + 5)]
    state = g.get_state()
    after = lib.rand(2000, dtype=lib.float64, generator=g).numpy()
    g.set_state(state)
    out += [after, lib.rand(2000, dtype=lib.float64, generator=g).numpy(), lib.randn(1001, generator=g).numpy(),
            lib.bernoulli(lib.full((1300,), 0.4), generator=g).numpy(), g.get_state().numpy()]
    return out


@pytest.mark.parametrize("seed", [0, 7, 2 ** 40 + 3])
def test_generator_words_are_torchs_across_blocks_and_restored_states(seed):
    for ours, theirs in zip(_draws(minitorch2, seed), _draws(torch, seed)):
        assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_activation_backward_kernels_round_as_atens(dtype):
    """tanh and sigmoid backward bit for bit; silu's with the fma in `1 + x * (1 - s)` as ATen's, but its exp (SLEEF's,
    not always the correctly rounded one) keeps a few elements in a hundred apart (rounding twice: about a quarter)."""
    gen = torch.Generator().manual_seed(0)
    x, grad = (torch.randn(20000, generator=gen, dtype=getattr(torch, dtype)) * 3 for _ in range(2))
    y = torch.rand(20000, generator=gen, dtype=x.dtype)
    ours = {name: getattr(minitorch2.ops.aten, name)(minitorch2.from_numpy(grad.numpy()),
                                                      minitorch2.from_numpy(arg.numpy())).numpy()
            for name, arg in (("tanh_backward", y), ("sigmoid_backward", y), ("silu_backward", x))}
    assert np.array_equal(ours["tanh_backward"], torch.ops.aten.tanh_backward(grad, y).numpy())
    assert np.array_equal(ours["sigmoid_backward"], torch.ops.aten.sigmoid_backward(grad, y).numpy())
    assert (ours["silu_backward"] == torch.ops.aten.silu_backward(grad, x).numpy()).mean() > 0.95
