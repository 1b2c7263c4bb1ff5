"""Probes of what users pass in, found by running small scripts side by side with torch (session 26).

- A module that updates a buffer in forward (`self.count += 1`, `self.running = self.running * 0.9 + ...`):
  Dynamo records the write as a side effect replayed after the graph, one graph per call, no break.
- Overlapping views passed as inputs, one changed in place: the eager call raises ATen's overlap error, the
  compiled one (a synthetic base, functionalized) computes a value, as torch.compile does.
- A compiled module reads its original's training flag (`model.eval()` after torch.compile(model)).
- A float module attribute under dynamic=True: the joint and inference graphs are logged as traced, before
  tensorify_python_scalars, as torch's aot logs them.
"""
import os
import subprocess
import sys

import pytest
import torch
import torch._dynamo
from torch._dynamo.testing import CompileCounter as TorchCounter

import frontend
import minitorch2
from frontend.testing import CompileCounter
from tests.minitorch2.test_ops import to_torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _buffer_module(lib, rebind):
    class Counting(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = lib.nn.Linear(4, 3)
            self.register_buffer("count", lib.zeros((), dtype=lib.int64))
            self.register_buffer("running", lib.zeros(3))
            self.calls = 0

        def forward(self, x):
            if rebind:
                self.count = self.count + 1
            else:
                self.count += 1
            self.calls += 1
            y = self.lin(x)
            self.running = self.running * 0.9 + y.detach().mean(0) * 0.1
            return y * self.count + self.running

    return Counting()


@pytest.mark.parametrize("rebind", [False, True], ids=["in_place", "rebound"])
def test_buffer_written_in_forward_is_a_side_effect_not_a_break(rebind):
    frontend.reset()
    torch._dynamo.reset()
    ours, theirs = _buffer_module(minitorch2, rebind), _buffer_module(torch, rebind)
    theirs.load_state_dict({k: torch.tensor(v.numpy()) for k, v in ours.state_dict().items()})
    counter, torch_counter = CompileCounter(), TorchCounter()
    compiled, torch_compiled = frontend.optimize(counter)(ours), torch.compile(theirs, backend=torch_counter)
    x = minitorch2.randn(5, 4)
    for _ in range(3):
        out, expected = compiled(x), torch_compiled(to_torch(x))
        torch.testing.assert_close(torch.tensor(out.detach().numpy()), expected.detach())
    assert ours.count.item() == theirs.count.item() == 3 and ours.calls == theirs.calls == 3
    torch.testing.assert_close(torch.tensor(ours.running.numpy()), theirs.running)
    assert (counter.frame_count, counter.op_count) == (torch_counter.frame_count, torch_counter.op_count)
    assert frontend.explain(_buffer_module(minitorch2, rebind))(x).graph_break_count == \
        torch._dynamo.explain(_buffer_module(torch, rebind))(to_torch(x)).graph_break_count == 0


def _add_into_overlapping(x, y):
    x.add_(y)
    return x * 2


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_overlapping_inputs_one_changed_in_place_compute_what_torch_compile_does(backend):
    frontend.reset()
    torch._dynamo.reset()
    base, torch_base = minitorch2.arange(6.0), torch.arange(6.0)
    out = frontend.optimize(backend)(_add_into_overlapping)(base[:4], base[2:])
    expected = torch.compile(_add_into_overlapping, backend=backend)(torch_base[:4], torch_base[2:])
    assert out.tolist() == expected.tolist() and base.tolist() == torch_base.tolist()
    with pytest.raises(RuntimeError, match="single memory location"):
        _add_into_overlapping(*(lambda b: (b[:4], b[2:]))(minitorch2.arange(6.0)))


def test_compiled_module_shares_its_originals_training_flag_and_attributes():
    def states(lib):
        model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Dropout(0.5))
        compiled = lib.compile(model)
        seen = [(compiled.training, model.training)]
        model.eval()  # on the original: the compiled module reads its flag (torch: a property over _orig_mod)
        seen.append((compiled.training, model[1].training))
        compiled.train()
        seen.append((compiled.training, model.training, model[1].training))
        compiled.flag = 3  # set through the compiled module: lands on the original
        model.other = 5
        seen.append((getattr(model, "flag", None), "flag" in vars(compiled), compiled.other))
        seen.append(list(compiled.state_dict()))
        return seen

    assert states(minitorch2) == states(torch)


FLOAT_ATTRIBUTE_SCRIPT = '''
import math, torch, torch.nn as nn
class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj, self.scale = nn.Linear(4, 3), math.sqrt(8)
    def forward(self, x, lens):
        return self.proj(x / lens.unsqueeze(-1).to(x.dtype) * self.scale)
model = torch.compile(Scaled(), dynamic=True)
model(torch.randn(5, 4), torch.arange(1, 6)).sum().backward()
with torch.no_grad():
    model(torch.randn(6, 4), torch.arange(1, 7))
'''


def _logged_ops(command, env_name, tmp_path):
    """{graph title: [op, ...]} from the aot_graphs and aot_joint_graph logs of one run of the script."""
    script = tmp_path / "scaled.py"
    script.write_text(FLOAT_ATTRIBUTE_SCRIPT)
    env = {**os.environ, env_name: "aot_graphs,aot_joint_graph", "PYTHONPATH": ROOT,
           "TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"}  # (a graph torch's caches serve is not logged)
    err = subprocess.run([*command, str(script)], env=env, capture_output=True, text=True, check=True).stderr
    graphs, title = {}, None
    for line in err.splitlines():
        if "=====" in line:
            title = line.split("=====")[1].strip()
            graphs[title] = []
        elif title and " = torch.ops." in line:
            graphs[title].append(line.split(" = ")[1].split("(")[0])
    return graphs


def test_joint_and_inference_graphs_are_logged_before_floats_become_tensors_as_torch_logs_them(tmp_path):
    """torch's aot logs the joint and the inference graph as traced, a float input read by _local_scalar_dense,
    and runs tensorify_python_scalars after; the partitioned forward and backward are logged tensorified."""
    ours = _logged_ops([sys.executable, "-m", "minitorch2", "run"], "MINITORCH2_LOGS", tmp_path)
    theirs = _logged_ops([sys.executable], "TORCH_LOGS", tmp_path)
    assert ours == theirs and "torch.ops.aten._local_scalar_dense.default" in theirs["Joint graph 0"]


def _frames_per_marking(lib, compile_, counter, mark_dynamic, mark_static):
    def attend(x):
        return (x @ x.transpose(-1, -2)).softmax(-1)

    compiled, frames = compile_(attend, backend=counter), []
    calls = [(5, None, None), (7, None, None), (9, [2], None), (11, [2], None), (6, None, [0]), (6, [2, 3], None),
             (8, [2], None), (4, None, None)]
    for length, dynamic, static in calls:
        x = lib.randn(2, 2, length, length)
        if dynamic:
            mark_dynamic(x, dynamic)
        if static:
            mark_static(x, static)
        compiled(x)
        frames.append(counter.frame_count)
    return frames


def test_a_new_dim_marking_recompiles_and_a_subset_of_the_compiled_one_does_not_as_dynamo():
    """Dynamo guards each tensor's mark_dynamic / maybe_mark_dynamic / mark_static dims: a call marking dims the
    entry was not compiled with recompiles (even where the dim is already dynamic), a subset does not."""
    frontend.reset()
    torch._dynamo.reset()
    ours = _frames_per_marking(minitorch2, minitorch2.compile, CompileCounter(), frontend.mark_dynamic,
                               frontend.mark_static)
    theirs = _frames_per_marking(torch, torch.compile, TorchCounter(), torch._dynamo.mark_dynamic,
                                 torch._dynamo.mark_static)
    assert ours == theirs
