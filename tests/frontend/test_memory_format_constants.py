"""torch.contiguous_format, torch.channels_last, torch.preserve_format and torch.strided read inside a compiled
function are constants of the graph, as in Dynamo: one frame, no break (a LOAD_ATTR of torch.contiguous_format broke
the graph in two before), the same op count and values as torch.compile's."""
import numpy as np
import pytest
import torch
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter


def _programs(lib):
    return {
        "ones_like_contiguous": lambda x: lib.ones_like(x.t(), memory_format=lib.contiguous_format) + x.t().sin(),
        "zeros_like_preserve": lambda x: lib.zeros_like(x.t(), memory_format=lib.preserve_format) * 2 + x.t(),
        "contiguous_channels_last": lambda x: x.view(1, 2, 3, 2).contiguous(memory_format=lib.channels_last).cos(),
        "empty_strided_layout": lambda x: lib.zeros(2, 3, layout=lib.strided) + x[:2, :3],
    }


@pytest.mark.parametrize("name", sorted(_programs(torch)))
def test_memory_formats_and_layouts_are_graph_constants(name):
    data = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    frontend.reset()
    torch._dynamo.reset()
    ours_counter, theirs_counter = CompileCounter(), torch._dynamo.testing.CompileCounter()
    ours = minitorch2.compile(_programs(minitorch2)[name], backend=ours_counter)(minitorch2.from_numpy(data.copy()))
    theirs = torch.compile(_programs(torch)[name], backend=theirs_counter)(torch.from_numpy(data.copy()))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)
    assert (ours_counter.frame_count, ours_counter.op_count) == (theirs_counter.frame_count, theirs_counter.op_count)
    assert ours_counter.frame_count == 1
