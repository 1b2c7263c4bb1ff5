"""The diffusion probe: a UNet residual block trained compiled (tests/nn/programs/unet_resblock_compiled.py) prints
what torch prints and records torch's graphs at every layer, GroupNorm kept whole as native_group_norm."""
import pytest

from tests.nn.test_probe_programs import _report


@pytest.mark.slow  # (about 30 s: an inductor compile of the training graphs, in both runs)
def test_unet_resblock_graphs_and_output_are_torchs():
    report = _report("unet_resblock_compiled")
    assert "--- graphs (op by op): same (layers dynamo, aot, joint)" in report, report
    assert report.rstrip("\n").split("\n")[-1].startswith("==== summary: same: stdout same; graphs same"), report
