"""torch.export against real torch.export: printed graphs, generated code, ExportedProgram's text, the graph
signature, values of exported.module(), run_decompositions() of the seed, errors, and seed 004's block run
unchanged under `python -m minitorch2 run`.

Each module is built twice by one function, once over torch and once over minitorch2; torch's side is
exported once per module for the whole file (torch.export is slow to start).
"""
import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import minitorch2
from minitorch2.export import GuardOnDataDependentSymNode, export

ROOT = Path(__file__).resolve().parents[2]
SEED_BLOCK = """\
import torch
import torch.fx as fx

model = torch.nn.Sequential(
    torch.nn.Linear(512, 256),
    torch.nn.ReLU(),
    torch.nn.Linear(256, 10)
)

# Symbolic tracing (static, follows Python code)
tracer = fx.symbolic_trace(model)
print(tracer.graph)

# torch.export (newer, handles more cases, produces aten-level graph)
from torch.export import export
exported = export(model, args=(torch.randn(1, 512),))
print(exported.graph)
"""


def build(lib, name):
    """(module, args, kwargs) over `lib` (torch or minitorch2)."""
    nn, F = lib.nn, lib.nn.functional

    class ConvBN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 3, padding=1)
            self.bn = nn.BatchNorm2d(4)
            self.fc = nn.Linear(4, 2)

        def forward(self, x):
            y = F.relu(self.bn(self.conv(x)))
            y = F.adaptive_avg_pool2d(y, 1).flatten(1)
            return self.fc(y)

    class Const(nn.Module):
        def __init__(self):
            super().__init__()
            self.scale = lib.tensor([1.0, 2.0, 3.0])
            self.lin = nn.Linear(3, 3)

        def forward(self, x):
            return self.lin(x) * self.scale + x.sum()

    class TwoOutputs(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(3, 2)

        def forward(self, x, y):
            h = self.lin(x)
            return h.softmax(-1), lib.matmul(h, y).tanh()

    class KeywordInputs(nn.Module):
        def forward(self, x, *, bias, scale=2.0):
            return F.dropout(x * scale + bias, 0.5, training=False).view(-1) @ lib.ones(6)

    class Buffers(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("np_buf", lib.ones(3), persistent=False)
            self.sub = nn.Sequential(nn.Linear(3, 3), nn.LayerNorm(3))
            self.sub.k = lib.tensor([2.0, 3.0, 4.0])

        def forward(self, x, n: int = 2):
            return self.sub(x) + self.np_buf * self.sub.k * n

    cases = {
        "seed": lambda: (nn.Sequential(nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10)), (lib.randn(1, 512),), None),
        "conv_bn_eval": lambda: (ConvBN().eval(), (lib.randn(1, 3, 4, 4),), None),
        "constant_attribute": lambda: (Const(), (lib.randn(2, 3),), None),
        "two_outputs": lambda: (TwoOutputs(), (lib.randn(2, 3), lib.randn(2, 4)), None),
        "keyword_inputs": lambda: (KeywordInputs(), (lib.randn(2, 3),), {"bias": lib.randn(3)}),
        "buffers_and_ints": lambda: (Buffers(), (lib.randn(2, 3), 3), None),
    }
    return cases[name]()


CASES = ["seed", "conv_bn_eval", "constant_attribute", "two_outputs", "keyword_inputs", "buffers_and_ints"]


def _same_weights(theirs, ours):
    ours.load_state_dict({k: minitorch2.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})


def _ours_from(args):
    return tuple(minitorch2.tensor(a.numpy()) if isinstance(a, torch.Tensor) else a for a in args)


@pytest.fixture(scope="module")
def programs():
    """name -> (torch module, torch args, torch kwargs, torch's ExportedProgram, ours, our ExportedProgram)."""
    found = {}
    for name in CASES:
        module, args, kwargs = build(torch, name)
        ours_module, _, ours_kwargs = build(minitorch2, name)
        _same_weights(module, ours_module)
        ours_args = _ours_from(args)
        ours_kwargs = ours_kwargs and {k: minitorch2.tensor(v.numpy()) for k, v in kwargs.items()}
        found[name] = (module, args, kwargs, torch.export.export(module, args, kwargs),
                       ours_module, ours_args, ours_kwargs, export(ours_module, ours_args, ours_kwargs))
    return found


def _library_frames_unified(text):
    """A node made inside an nn module's forward points at torch's file there and at minitorch2's here."""
    library = rf"({re.escape(str(Path(torch.__file__).parent))}|{re.escape(str(Path(minitorch2.__file__).parent))})"
    return re.sub(rf"# File: {library}/nn/modules/\S+ in forward, code: .*", "# File: <an nn module's forward>", text)


@pytest.mark.parametrize("name", CASES)
def test_graph_code_and_program_print_as_torchs(programs, name):
    theirs, ours = programs[name][3], programs[name][7]
    assert str(ours.graph) == str(theirs.graph)
    assert ours.graph_module.code == theirs.graph_module.code
    assert _library_frames_unified(str(ours)) == _library_frames_unified(str(theirs))


@pytest.mark.parametrize("name", CASES)
def test_graph_signature_state_dict_and_constants_as_torchs(programs, name):
    theirs, ours = programs[name][3], programs[name][7]
    assert str(ours.graph_signature) == str(theirs.graph_signature)
    assert repr(ours.graph_signature) == repr(theirs.graph_signature)
    assert list(ours.state_dict) == list(theirs.state_dict)
    assert sorted(ours.constants) == sorted(theirs.constants)
    assert ours.range_constraints == theirs.range_constraints == {}


@pytest.mark.parametrize("name", CASES)
def test_module_computes_what_torchs_does(programs, name):
    module, args, kwargs, theirs, ours_module, ours_args, ours_kwargs, ours = programs[name]
    expected = theirs.module()(*args, **(kwargs or {}))
    got = ours.module()(*ours_args, **(ours_kwargs or {}))
    expected, got = torch.utils._pytree.tree_leaves(expected), minitorch2.utils._pytree.tree_leaves(got)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g.detach().numpy(), e.detach().numpy(), rtol=1e-5, atol=1e-6)
    assert sorted(ours.module().state_dict()) == sorted(theirs.module().state_dict())


def test_module_keeps_the_parameters_differentiable():
    model = minitorch2.nn.Sequential(minitorch2.nn.Linear(3, 2), minitorch2.nn.ReLU(), minitorch2.nn.Linear(2, 1))
    x = minitorch2.randn(4, 3)
    exported = export(model, (x,)).module()
    exported(x).sum().backward()
    through_export = {name: p.grad.numpy().copy() for name, p in exported.named_parameters()}
    model.zero_grad()
    model(x).sum().backward()
    assert sorted(through_export) == sorted(name for name, _ in model.named_parameters())
    for name, p in model.named_parameters():
        np.testing.assert_allclose(through_export[name], p.grad.numpy(), rtol=1e-6, err_msg=name)


@pytest.mark.parametrize("name", ["seed", "two_outputs"])
def test_run_decompositions_reaches_core_aten_as_torchs(programs, name):
    theirs, ours = programs[name][3].run_decompositions(), programs[name][7].run_decompositions()
    assert str(ours.graph) == str(theirs.graph)
    assert ours.graph_module.code == theirs.graph_module.code
    assert str(ours.graph_signature) == str(theirs.graph_signature)


def _branches(lib):
    class Branch(lib.nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                return x + 1
            return x - 1

    return Branch()


def test_data_dependent_control_flow_raises_torchs_error():
    with pytest.raises(Exception) as theirs:
        torch.export.export(_branches(torch), (torch.randn(3),))
    with pytest.raises(GuardOnDataDependentSymNode) as ours:
        export(_branches(minitorch2), (minitorch2.randn(3),))
    assert type(ours.value).__name__ == type(theirs.value).__name__
    assert isinstance(ours.value, RuntimeError) and isinstance(theirs.value, RuntimeError)
    for words in ("Could not guard on data-dependent expression", "The following call raised this error:",
                  f'{__file__}", line', "if x.sum() > 0:", "draft_export()"):
        assert words in str(theirs.value) and words in str(ours.value)


def test_refusals_before_tracing_as_torchs():
    with pytest.raises(ValueError) as theirs:
        torch.export.export(lambda x: x, (torch.randn(2),))
    with pytest.raises(ValueError) as ours:
        export(lambda x: x, (minitorch2.randn(2),))
    assert str(ours.value) == str(theirs.value)
    with pytest.raises(RuntimeError) as theirs:
        torch.export.export(torch.nn.ReLU(), [torch.randn(2)])
    with pytest.raises(RuntimeError) as ours:
        export(minitorch2.nn.ReLU(), [minitorch2.randn(2)])
    assert str(ours.value) == str(theirs.value)


def test_export_leaves_the_runtime_as_it_was():
    before = (minitorch2.nn.functional.linear, minitorch2.Tensor.softmax, minitorch2.Tensor.__matmul__,
              minitorch2.backends.cudnn.enabled)
    export(minitorch2.nn.Linear(3, 2), (minitorch2.randn(1, 3),))
    assert (minitorch2.nn.functional.linear, minitorch2.Tensor.softmax, minitorch2.Tensor.__matmul__,
            minitorch2.backends.cudnn.enabled) == before


def test_seed_block_runs_unchanged_under_minitorch2_run(tmp_path):
    script = tmp_path / "export_seed.py"
    script.write_text(SEED_BLOCK)
    expected = io.StringIO()
    with contextlib.redirect_stdout(expected):  # the script's `import torch` is real torch in this process
        exec(compile(SEED_BLOCK, str(script), "exec"), {"__name__": "__main__"})
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", str(script)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected.getvalue()
