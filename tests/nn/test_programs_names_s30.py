"""A program in the style of third-party training scripts written with the names issue 20 found missing
(tests/nn/programs_names_s30/): the device modules probed first, stft/istft, RReLU, ChannelShuffle, lazy and
synchronised batch norms, an adaptive-softmax head, Adafactor, torch.gradient. Run by `python -m minitorch2 run
--compare-torch`: what it prints must be torch's and both runs exit 0."""
from .program_reports import all_same, compare_report


def test_program_prints_what_torch_does():
    report = compare_report("programs_names_s30", "device_probe_audio_lm")
    assert all_same(report), report
