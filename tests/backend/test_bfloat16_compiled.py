"""bfloat16 programs compiled (Dynamo + aot_eager, Dynamo + Inductor) against torch.compile's on the CPU.

torch's Inductor compiles bfloat16 as its C++ kernels legalize it: loads upcast to float32, every op in float32, a
conversion to bfloat16 inside a kernel left unrounded, stores (and reductions' results) rounded to nearest-even.
Ours (backend/codegen/llvm_bfloat16.py; the numpy reference evaluator and the Triton generator alike) does the same, so pointwise chains,
reductions, softmax and layer_norm come out bit for bit, not merely as close as eager's per-op rounding would be.
A small GPT-like model trained three SGD steps in bfloat16 is compared to torch's within bfloat16's resolution:
a few of its kernels round differently in a last bit (layer_norm's weight gradient, the matmuls' accumulation
order), and training steps carry those differences on.
"""
import importlib.util

import numpy as np
import pytest
import torch
import torch._dynamo

import frontend
import minitorch2
from frontend.testing import CompileCounter
from tests.backend.codegens import codegen_fixture

codegen = codegen_fixture(["llvm", "numpy_ref"] + (["triton"] if importlib.util.find_spec("triton") else []))


def _programs(lib):
    F = lib.nn.functional
    return {
        "gelu_chain": lambda x, y: F.gelu(x * y + 1.5) / 3,
        "transcendentals": lambda x, y: lib.tanh(x) + lib.exp(-x) * lib.sigmoid(y),
        "gelu_tanh": lambda x, y: F.gelu(x, approximate="tanh") - y,
        "reductions": lambda x, y: x.sum(-1, keepdim=True) + x.mean() + x.amax(-1, keepdim=True),
        "sum_then_pointwise": lambda x, y: x.sum(-1, keepdim=True) + x,
        "centered": lambda x, y: x - x.mean(),
        "max_shifted": lambda x, y: (x + y) - (x + y).amax(-1, keepdim=True),
        "softmax_layer_norm": lambda x, y: lib.softmax(x, -1) + F.layer_norm(x, (16,)),
        "to_float32": lambda x, y: (x - y).float() * 2,
        "to_float16": lambda x, y: x.to(lib.float16) + 1,
        "mixed_sum": lambda x, y: (x + y.float()).sum(),
        "silu_relu": lambda x, y: F.silu(x) + lib.relu(x) * y,
        "powers": lambda x, y: x ** 2 + y ** 3,
        "rsqrt": lambda x, y: lib.rsqrt(x.abs() + 1),
        "log_softmax": lambda x, y: lib.log_softmax(x, -1),
        "var": lambda x, y: x.var(-1),
        "where": lambda x, y: lib.where(x > 0, x, y * 0.1),
        "mm": lambda x, y: x @ y.T,
        "many_outputs": lambda x, y: (F.gelu(x * y + 1.5) / 3, (x - y).float(), x.sum(-1, keepdim=True) + x),
    }


def _inputs(lib):
    rng = np.random.default_rng(0)
    return [lib.tensor(rng.standard_normal((8, 16)).astype(np.float32)).bfloat16() for _ in range(2)]


def _values(out):
    outs = out if isinstance(out, tuple) else (out,)
    return [(str(o.dtype), o.float().tolist()) for o in outs]


def _torch_compiled(name, backend):
    torch._dynamo.reset()
    return _values(torch.compile(_programs(torch)[name], backend=backend)(*_inputs(torch)))


@pytest.mark.parametrize("name", sorted(_programs(torch)))
def test_inductor_compiles_bfloat16_as_torch_compile(name, codegen):
    ours = minitorch2.compile(_programs(minitorch2)[name], backend="inductor")(*_inputs(minitorch2))
    assert _values(ours) == _torch_compiled(name, "inductor")


@pytest.mark.parametrize("name", sorted(_programs(torch)))
def test_aot_eager_runs_bfloat16_as_torchs(name):
    frontend.reset()
    ours = minitorch2.compile(_programs(minitorch2)[name], backend="aot_eager")(*_inputs(minitorch2))
    assert _values(ours) == _torch_compiled(name, "aot_eager")


@pytest.mark.xfail(strict=True, reason="torch's Inductor inlines a bfloat16 pointwise result used by three "
                   "reductions and a pointwise consumer (unrounded); ours stores it, rounded, and reads it back")
def test_a_pointwise_result_shared_by_reductions_is_not_rounded_as_in_torch(codegen):
    def program(lib, x, y):
        b = lib.tanh(x) + y
        return (b - (b.sum(-1, keepdim=True) + b.mean() + b.amax(-1, keepdim=True))).float() * 2

    ours = minitorch2.compile(lambda x, y: program(minitorch2, x, y), backend="inductor")(*_inputs(minitorch2))
    torch._dynamo.reset()
    theirs = torch.compile(lambda x, y: program(torch, x, y), backend="inductor")(*_inputs(torch))
    assert _values(ours) == _values(theirs)


def test_frame_and_op_counts_are_torchs():
    def program(x, y):
        z = (x * y).float().softmax(-1)
        return z.to(x.dtype) + x.bfloat16()

    frontend.reset()
    torch._dynamo.reset()
    ours, theirs = CompileCounter(), torch._dynamo.testing.CompileCounter()
    for lib, counter in ((minitorch2, ours), (torch, theirs)):
        compiled = lib.compile(program, backend=counter)
        compiled(*_inputs(lib))
        compiled(*[x.float() for x in _inputs(lib)])  # another dtype: a recompile
    assert (ours.frame_count, ours.op_count) == (theirs.frame_count, theirs.op_count)


def _gpt_training(lib, backend):
    nn, F = lib.nn, lib.nn.functional

    class Block(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.heads = heads
            self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            B, T, C = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
            q, k, v = [t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v)]
            att = (q @ k.transpose(-2, -1)) * (1.0 / (C // self.heads) ** 0.5)
            mask = lib.ones(T, T).tril().view(1, 1, T, T)
            att = F.softmax(att.masked_fill(mask == 0, float("-inf")), dim=-1)
            x = x + self.proj((att @ v).transpose(1, 2).contiguous().view(B, T, C))
            return x + self.out(F.gelu(self.fc(self.ln2(x))))

    class GPT(nn.Module):
        def __init__(self, vocab=32, d=16, heads=2, T=8):
            super().__init__()
            self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(T, d)
            self.block, self.ln = Block(d, heads), nn.LayerNorm(d)
            self.head = nn.Linear(d, vocab, bias=False)

        def forward(self, idx, targets):
            logits = self.head(self.ln(self.block(self.wte(idx) + self.wpe(lib.arange(idx.shape[1])))))
            return F.cross_entropy(logits.view(-1, logits.shape[-1]).float(), targets.view(-1))

    rng = np.random.default_rng(0)
    model = GPT()
    with lib.no_grad():
        for p in model.parameters():
            p.copy_(lib.tensor((rng.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
    model = model.to(lib.bfloat16)
    idx, targets = lib.tensor(rng.integers(0, 32, (2, 8))), lib.tensor(rng.integers(0, 32, (2, 8)))
    optimizer = lib.optim.SGD(model.parameters(), lr=0.1)
    step = lib.compile(model, backend=backend)
    losses, grads = [], []
    for _ in range(3):
        loss = step(idx, targets)
        loss.backward()
        losses.append(loss.item())
        grads.append([np.array(p.grad.float().tolist()) for p in model.parameters()])
        optimizer.step()
        optimizer.zero_grad()
    return losses, grads, [str(p.dtype) for p in model.parameters()]


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_a_gpt_like_model_trains_in_bfloat16_as_torch_compile(backend):
    frontend.reset()
    torch._dynamo.reset()
    ours, theirs = _gpt_training(minitorch2, backend), _gpt_training(torch, backend)
    assert ours[2] == theirs[2] == ["torch.bfloat16"] * len(theirs[2])
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-3)
    for step_ours, step_theirs in zip(ours[1], theirs[1]):
        for mine, expected in zip(step_ours, step_theirs):  # (to bfloat16's resolution at each gradient's scale)
            np.testing.assert_allclose(mine, expected, rtol=0, atol=2 ** -5 * np.abs(expected).max())


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
def test_a_bfloat16_autocast_block_inside_a_compiled_frame_is_torchs(backend):
    def run(lib):
        rng = np.random.default_rng(0)
        x, w = [lib.tensor(rng.standard_normal(s).astype(np.float32)) for s in ((4, 8), (6, 8))]

        def f(x, w):
            with lib.autocast("cpu", dtype=lib.bfloat16):
                y = lib.nn.functional.linear(x, w)
                z = lib.relu(y) * 2
            return z.float().sum(-1), y

        out, y = lib.compile(f, backend=backend)(x, w)
        return out.tolist(), str(y.dtype), y.float().tolist()

    frontend.reset()
    torch._dynamo.reset()
    assert run(minitorch2) == run(torch)
