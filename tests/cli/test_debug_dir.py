"""MINITORCH2_COMPILE_DEBUG=1 (TORCH_COMPILE_DEBUG=1 under `run`): the debug folder in torch's layout, its
output_code.py running on its own and its fx_graph_runnable.py compiling the graph again."""
import os
import re
import runpy
import subprocess
import sys

import numpy as np
import pytest
import torch

import backend
import frontend
import minitorch2
from minitorch2 import _logging

# What torch 2.13 writes for TORCH_COMPILE_DEBUG=1 python script.py, where script.py compiles `forward_and_backward`
# (then runs .backward()) and `inference` below: run_2026_12_03_16_53_47_251492-pid_28405/ and in it these
# paths, numbers replaced by N (torch's compile of the two takes over 30 s here, too long to run in this suite).
TORCH_LAYOUT = {
    "torchdynamo/debug.log",
    "torchinductor/aot_model___N_debug.log",
    *(f"torchinductor/model__N_{kind}_N.N/{name}"
      for kind in ("forward", "backward", "inference")
      for name in ("fx_graph_readable.py", "fx_graph_runnable.py", "fx_graph_transformed.py", "ir_pre_fusion.txt",
                   "ir_post_fusion.txt", "output_code.py")),
}
TORCH_ONLY = {"inductor_provenance_tracking_node_mappings.json"}  # torch's provenance of each kernel: not ours


def forward_and_backward(lib, x, w):
    return lib.relu(x @ w).sin().sum()


def inference(lib, x):
    return x.cos() + 1


@pytest.fixture
def debug_dir(tmp_path, monkeypatch):
    """Compile both functions with the inductor backend under MINITORCH2_COMPILE_DEBUG=1: the run folder."""
    monkeypatch.setenv("MINITORCH2_COMPILE_DEBUG", "1")
    monkeypatch.setattr(backend.config, "debug", True)
    monkeypatch.setattr(_logging, "debug_dir_root", str(tmp_path))
    monkeypatch.setattr(_logging, "_run_dir", None)
    _logging.reload()
    frontend.reset()
    try:
        x, w = minitorch2.randn(4, 8), minitorch2.randn(8, 3, requires_grad=True)
        minitorch2.compile(lambda x, w: forward_and_backward(minitorch2, x, w), backend="inductor")(x, w).backward()
        minitorch2.compile(lambda x: inference(minitorch2, x), backend="inductor")(minitorch2.randn(3))
    finally:
        monkeypatch.delenv("MINITORCH2_COMPILE_DEBUG")
        _logging.reload()
        frontend.reset()
    (run,) = os.listdir(tmp_path)
    return tmp_path / run


def _layout(run_dir):
    paths = {p.relative_to(run_dir).as_posix() for p in run_dir.rglob("*") if p.is_file()}
    return {re.sub(r"\d+", "N", path) for path in paths}


def _graph_folder(run_dir, kind):
    (folder,) = (run_dir / "torchinductor").glob(f"model__*_{kind}_*")
    return folder


def test_the_debug_folder_has_torchs_layout(debug_dir):
    assert re.fullmatch(rf"run_\d{{4}}(_\d\d){{5}}_\d{{6}}-pid_{os.getpid()}", debug_dir.name)
    assert _layout(debug_dir) == {p for p in TORCH_LAYOUT if os.path.basename(p) not in TORCH_ONLY}
    # forward and backward of one aot compile share its id, as torch's model__0_forward_1 and model__0_backward_3
    forward, backward = _graph_folder(debug_dir, "forward"), _graph_folder(debug_dir, "backward")
    assert forward.name.split("_")[2] == backward.name.split("_")[2]
    log = (debug_dir / "torchdynamo" / "debug.log").read_text()
    assert "[__graph_code]" in log and "[__guards]" in log and "[__output_code]" in log and "] [0/0] " in log
    aot_logs = sorted((debug_dir / "torchinductor").glob("aot_model___*_debug.log"))
    joint_log = aot_logs[0].read_text()
    assert "===== Joint graph" in joint_log and "[__partition]" in joint_log and "===== Backward graph" in joint_log
    assert "Joint graph" not in aot_logs[1].read_text()  # the inference compile has no joint graph
    assert "torch.ops.aten.mm.default" in (forward / "fx_graph_readable.py").read_text()


def test_output_code_runs_on_its_own_and_computes_what_torch_does(debug_dir):
    folder = _graph_folder(debug_dir, "forward")
    result = subprocess.run([sys.executable, "output_code.py"], cwd=folder, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"\d+\.\d{6}\n", result.stdout)  # seconds per call, as torch's output_code.py prints
    module = runpy.run_path(str(folder / "output_code.py"))  # not __main__: its `call`, kernels built from its IR
    x, w = np.random.randn(4, 8).astype(np.float32), np.random.randn(8, 3).astype(np.float32)
    loss = module["call"]([minitorch2.tensor(x), minitorch2.tensor(w)])[0]
    expected = forward_and_backward(torch, torch.tensor(x), torch.tensor(w))
    np.testing.assert_allclose(loss.item(), expected.item(), rtol=1e-5, atol=1e-6)  # float32 sums of a near-zero mean


def test_fx_graph_runnable_compiles_the_graph_again(debug_dir):
    folder = _graph_folder(debug_dir, "backward")
    result = subprocess.run([sys.executable, "fx_graph_runnable.py"], cwd=folder, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"backward_\d+: compiled in [\d.]+ s, \d+ kernel\(s\); 2 output\(s\), largest difference "
                        r"from eager [\de.+-]+\n", result.stdout), result.stdout
    assert float(result.stdout.rsplit(" ", 1)[1]) < 1e-4


def test_an_edit_to_the_llvm_ir_in_output_code_is_what_runs(debug_dir):
    """The kernels come from the module's own text: make the inference kernel add 2 instead of 1."""
    folder = _graph_folder(debug_dir, "inference")
    source = (folder / "output_code.py").read_text()
    edited = re.sub(r"fadd (\w+ )*float (%[\w.]+), 1\.0+e\+00", r"fadd \1float \2, 2.000000e+00", source)
    if edited == source:
        edited = source.replace("0x3FF0000000000000", "0x4000000000000000")  # 1.0 -> 2.0 as LLVM's hex floats
    assert edited != source
    (folder / "edited.py").write_text(edited)
    call = runpy.run_path(str(folder / "edited.py"))["call"]
    x = np.random.randn(3).astype(np.float32)
    np.testing.assert_allclose(call([minitorch2.tensor(x)])[0].numpy(), np.cos(x) + 2, rtol=1e-5)
