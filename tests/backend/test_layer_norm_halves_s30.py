"""Compiled layer_norm of float16 and bfloat16 inputs as torch.compile's, autocast's mixed dtypes included.

Autocast on the CPU hands layer_norm a bfloat16 input with float32 weight and bias. torch's decomposition computes
in the input's computation dtype (float32), whatever the weight's, and gives out, mean and rstd in the input's
dtype; its backward computes every operand in float32 (each cast as Tensor.to(dtype, contiguous_format): a convert
and a clone) and gives each gradient in its operand's dtype. Ours took the statistics in bfloat16 and returned a
float32 output where torch's is bfloat16. The joint graphs are checked op for op by `minitorch2 run
--compare-torch --show joint` in test_layer_norm_halves_graphs_as_torchs (slow).
"""
import os
import subprocess
import sys

import pytest
import torch
import torch._dynamo

import frontend
import minitorch2

CASES = [("float32", "float32", True), ("float16", "float16", True), ("bfloat16", "float32", True),
         ("bfloat16", "bfloat16", False), ("float16", "float32", False)]
TOLERANCE = {"float32": 1e-5, "float16": 2e-3, "bfloat16": 2e-2}


def _train_step(lib, dtype, weight_dtype, affine):
    lib.manual_seed(0)
    norm = lib.nn.LayerNorm(32, elementwise_affine=affine).to(getattr(lib, weight_dtype))
    x = (lib.randn(6, 32) * 3 + 1).to(getattr(lib, dtype)).requires_grad_()
    (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()
    out = lib.compile(lambda x: norm(x) * 2)(x)
    out.float().pow(2).sum().backward()
    return [out, x.grad, *[p.grad for p in norm.parameters()]]


def _autocast_forward(lib):
    lib.manual_seed(0)
    norm, linear = lib.nn.LayerNorm(64), lib.nn.Linear(64, 64)
    (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()
    with lib.autocast("cpu", dtype=lib.bfloat16):
        return [lib.compile(lambda x: norm(lib.nn.functional.gelu(linear(x))))(lib.randn(16, 64) * 3)]


def _assert_close(ours, theirs, tolerance):
    for o, t in zip(ours, theirs, strict=True):
        assert str(o.dtype) == str(t.dtype)
        assert torch.allclose(torch.tensor(o.float().tolist()), t.float(), rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("dtype, weight_dtype, affine", CASES)
def test_compiled_layer_norm_of_halves_as_torch_compiled(dtype, weight_dtype, affine):
    _assert_close(_train_step(minitorch2, dtype, weight_dtype, affine), _train_step(torch, dtype, weight_dtype, affine),
                  TOLERANCE[dtype])


def test_compiled_layer_norm_under_cpu_autocast_is_bfloat16_as_torchs():
    _assert_close(_autocast_forward(minitorch2), _autocast_forward(torch), 4e-2)


SCRIPT = '''
import torch
import torch.nn as nn
torch.manual_seed(0)
for dt, wdt, affine in CASES:
    ln = nn.LayerNorm(32, elementwise_affine=affine).to(getattr(torch, wdt))
    x = (torch.randn(6, 32) * 3 + 1).to(getattr(torch, dt)).requires_grad_()
    torch._dynamo.reset()
    torch.compile(lambda x: ln(x) * 2)(x).float().pow(2).sum().backward()
'''


@pytest.mark.slow
def test_layer_norm_halves_graphs_as_torchs(tmp_path):
    script = tmp_path / "layer_norm_halves.py"
    script.write_text(f"CASES = {CASES!r}\n" + SCRIPT)
    env = dict(os.environ, TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", "--compare-torch", "--show", "joint", str(script)],
                            capture_output=True, text=True, timeout=600, env=env,
                            cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert "graphs (op by op): same" in result.stdout, result.stdout[-3000:]
