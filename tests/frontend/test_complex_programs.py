"""Complex numbers in compiled programs, against real torch: LLaMA-style rotary embeddings (polar, view_as_complex, a
complex product, view_as_real) traced by AOT autograd into torch's graphs, captured by the frontend and compiled
with aot_eager and inductor (whose complex nodes run as fallbacks, as torch's inductor's do), and a small attention
block with rotary embeddings trained a few steps eagerly and compiled, losses and gradients compared with torch's."""
import functorch.compile
import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing
import torch.fx.experimental.proxy_tensor

import frontend
import minitorch2
from autograd import aot_function
from autograd.compile_utils import make_boxed_func
from frontend.testing import CompileCounterWithBackend


def precompute_freqs_cis(lib, dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (lib.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = lib.arange(end)
    freqs = lib.outer(t, freqs).float()
    return lib.polar(lib.ones_like(freqs), freqs)


def apply_rotary_emb(xq, xk, freqs_cis):
    lib = minitorch2 if isinstance(xq, minitorch2.Tensor) else torch
    xq_ = lib.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = lib.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = lib.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = lib.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


def _inputs(lib, seed=0):
    rng = np.random.default_rng(seed)
    xq, xk = (lib.tensor(rng.standard_normal((2, 4, 3, 8)).astype(np.float32), requires_grad=True) for _ in range(2))
    return xq, xk, precompute_freqs_cis(lib, 8, 4)


def _aot_graphs(lib, aot, boxed):
    graphs = []

    def compiler(gm, example_inputs):
        graphs.append(gm.code)
        return boxed(gm.forward)

    xq, xk, freqs = _inputs(lib)
    q, k = aot(apply_rotary_emb, compiler, compiler)(xq, xk, freqs)
    (q.sum() + (k * k).sum()).backward()
    return graphs, xq.grad.numpy(), xk.grad.numpy()


def test_rope_aot_graphs_are_torchs():
    ours = _aot_graphs(minitorch2, aot_function, make_boxed_func)
    theirs = _aot_graphs(torch, functorch.compile.aot_function, functorch.compile.make_boxed_func)
    assert ours[0] == theirs[0]  # forward: view, view_as_complex, mul, view_as_real; backward: _conj, clone, mul
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5, atol=1e-6)


def _compiled_rope(lib, dynamo, counter_class, backend):
    dynamo.reset()
    counter = counter_class(backend)
    xq, xk, freqs = _inputs(lib)
    q, k = lib.compile(apply_rotary_emb, backend=counter)(xq, xk, freqs)
    (q.sum() + (k * k).sum()).backward()
    return counter.frame_count, counter.op_count, q.detach().numpy(), xq.grad.numpy(), xk.grad.numpy()


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_rope_compiled_matches_torch(backend):
    ours = _compiled_rope(minitorch2, frontend, CompileCounterWithBackend, backend)
    theirs = _compiled_rope(torch, torch._dynamo, torch._dynamo.testing.CompileCounterWithBackend, "aot_eager")
    assert ours[:2] == theirs[:2]
    for a, b in zip(ours[2:], theirs[2:]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def complex_parts(x, y):
    lib = minitorch2 if isinstance(x, minitorch2.Tensor) else torch
    z = lib.complex(x, y)
    w = z * z.conj() + z.exp()
    return w.real + w.imag, w.abs(), z.angle(), lib.view_as_real(z * 1j)


def polar_sums(x, y):
    lib = minitorch2 if isinstance(x, minitorch2.Tensor) else torch
    freqs = lib.polar(lib.ones_like(x), x)
    return (freqs * (2 + 1j)).sum(0), freqs.mean() / (y.abs() + 0.5j)


def _compiled(lib, dynamo, counter_class, backend, fn):
    dynamo.reset()
    counter = counter_class(backend)
    rng = np.random.default_rng(3)
    x, y = (lib.tensor(rng.standard_normal((3, 4)).astype(np.float32), requires_grad=True) for _ in range(2))
    outs = lib.compile(fn, backend=counter)(x, y)
    loss = sum((o.abs() ** 2).sum() if o.is_complex() else o.sum() for o in outs)
    loss.backward()
    values = [o.detach().numpy() for o in outs] + [x.grad.numpy(), y.grad.numpy()]
    return (counter.frame_count, counter.op_count), values


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
@pytest.mark.parametrize("fn", [complex_parts, polar_sums])
def test_complex_programs_compile_as_torchs(fn, backend):
    ours = _compiled(minitorch2, frontend, CompileCounterWithBackend, backend, fn)
    theirs = _compiled(torch, torch._dynamo, torch._dynamo.testing.CompileCounterWithBackend, "aot_eager", fn)
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1], theirs[1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def mutate_through_complex_views(x):
    lib = minitorch2 if isinstance(x, minitorch2.Tensor) else torch
    y = x * 2
    lib.view_as_real(y).mul_(3)  # a write through the real view reaches y
    c = lib.view_as_complex(lib.stack([x.real, x.imag], -1) * 1.0)
    c.mul_(1j)
    return y.exp(), c, x.real + x.imag


def test_writes_through_complex_views_functionalize_to_torchs_values():
    from autograd.func import functionalize  # (the AOT layer's own entry, beside torch.func's)
    from autograd.proxy_tensor import make_fx

    ours = make_fx(functionalize(mutate_through_complex_views))(minitorch2.tensor([1 + 2j, -1j]))
    traced = ours(minitorch2.tensor([1 + 2j, -1j]))
    assert "aten.mul_" not in ours.code and "view_as_complex" in ours.code
    for a, b in zip(traced, mutate_through_complex_views(torch.tensor([1 + 2j, -1j]))):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)


def consume_a_conjugate(x):
    lib = minitorch2 if isinstance(x, minitorch2.Tensor) else torch
    c = x.conj()
    return (c * 2, c + x, c.to(lib.complex128), c.sum(), c.exp(), c.abs(), c.clone(), c.view(-1), -c, c.angle(),
            lib.view_as_real(c.resolve_conj()))


def test_a_conjugate_is_resolved_before_ops_that_cannot_read_it_as_torchs_trace_shows():
    """torch's conjugate fallback: each op but views reads a clone of the conjugated tensor (_conj, clone, op)."""
    from autograd.proxy_tensor import make_fx  # (the AOT layer's make_fx, beside torch's)

    ours = make_fx(consume_a_conjugate)(minitorch2.tensor([1 + 2j, 3j]))
    theirs = torch.fx.experimental.proxy_tensor.make_fx(consume_a_conjugate)(torch.tensor([1 + 2j, 3j]))
    assert ours.code == theirs.code
    values = consume_a_conjugate(minitorch2.tensor([1 + 2j, 3j])), consume_a_conjugate(torch.tensor([1 + 2j, 3j]))
    for a, b in zip(*values):
        assert a.tolist() == b.tolist()


# ---------------------------------------------------------------- a LLaMA-style attention block with rotary embeddings
def attention_block(lib):
    nn, F = lib.nn, lib.nn.functional

    class Attention(nn.Module):
        def __init__(self, dim=16, n_heads=2, seq=6):
            super().__init__()
            self.n_heads, self.head_dim = n_heads, dim // n_heads
            self.wq, self.wk, self.wv = (nn.Linear(dim, dim, bias=False) for _ in range(3))
            self.wo = nn.Linear(dim, dim, bias=False)
            self.register_buffer("freqs_cis", precompute_freqs_cis(lib, self.head_dim, seq), persistent=False)

        def forward(self, x):
            b, s, _ = x.shape
            xq = self.wq(x).view(b, s, self.n_heads, self.head_dim)
            xk = self.wk(x).view(b, s, self.n_heads, self.head_dim)
            xv = self.wv(x).view(b, s, self.n_heads, self.head_dim)
            xq, xk = apply_rotary_emb(xq, xk, self.freqs_cis[:s])
            xq, xk, xv = (t.transpose(1, 2) for t in (xq, xk, xv))
            scores = (xq @ xk.transpose(2, 3)) / self.head_dim ** 0.5
            mask = lib.full((s, s), float("-inf")).triu(1)
            out = F.softmax(scores + mask, dim=-1) @ xv
            return self.wo(out.transpose(1, 2).reshape(b, s, -1))

    return Attention()


def _train(lib, compile_with=None, steps=3):
    lib.manual_seed(0)
    model = attention_block(lib)
    rng = np.random.default_rng(1)
    x = lib.tensor(rng.standard_normal((2, 6, 16)).astype(np.float32))
    target = lib.tensor(rng.standard_normal((2, 6, 16)).astype(np.float32))
    forward = lib.compile(model, backend=compile_with) if compile_with else model
    optimizer = lib.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = ((forward(x) - target) ** 2).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, [p.grad.numpy().copy() for p in model.parameters()]


@pytest.mark.parametrize("backend", [None, "aot_eager", "inductor"])
def test_attention_block_with_rotary_embeddings_trains_as_torchs(backend):
    frontend.reset()
    ours = _train(minitorch2, backend)
    theirs = _train(torch)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5, atol=1e-6)
    for a, b in zip(ours[1], theirs[1]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)
