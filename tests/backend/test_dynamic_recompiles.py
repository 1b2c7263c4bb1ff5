"""Frame counts over growing sizes against torch (issue 21): what our meta functions, decompositions and the AOT trace
ask of symbolic sizes must not make frames recompile where torch's do not (nor compile per size behind one frame).

A program is compiled once (dynamic=True, or mark_dynamic on the grown dims) and called at growing sizes; after each
call the number of frames compiled so far must be torch's, and so must the class of any error raised. The oracle is
torch.compile with `aot_autograd(decompositions=torch._inductor.decomposition.select_decomp_table())` and no-op
compilers: Dynamo's and AOT's questions about sizes, which decide torch's guards, without inductor's C++ compile.
Ours run through backend="inductor" and "aot_eager". A frame is one cache entry, counted where Dynamo exports the
entry's guards (guard_export_fn): torch's CompileCounter counts a backend call twice where Dynamo restarts the
analysis to make unused float inputs constants (tensorify), which is still one frame.

AOT (autograd/aot.py) traces a frontend graph over symbolic sizes once, and where that trace fails it traces and
compiles per size behind the one frame (it logs "AOT over symbolic sizes gave up"): recompiles no frame count shows.
That must never happen, under aot_eager or inductor (150 random programs of each kind compiled once under inductor
when this became strict).

Two parts: hand-written programs in the style of real models (MLP with layernorm, attention with masked_fill and
softmax, conv + batchnorm in eval, cat/stack/split, broadcasts, transposes, reductions, reshapes with -1), grown along
their batch and sequence dims; and the random programs of tests/minitorch2/test_differential.py grown as in
test_dynamic_kernels_fuzz.py (an example count a tenth of the hypothesis profile's; HYPOTHESIS_PROFILE=deep for more).
"""
import logging

import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing
import torch._inductor.lowering  # (the decomposition table's max_pool2d entry reads it)
from hypothesis import given, note, reject, settings
from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd
from torch._functorch.aot_autograd import make_boxed_func
from torch._inductor.decomposition import select_decomp_table

import frontend
import frontend.testing
import minitorch2 as mt
import minitorch2.nn.functional  # (the programs' F)
from tests.backend.test_differential_inductor import straight_line
from tests.backend.test_dynamic_kernels_fuzz import GROWTH, grown
from tests.frontend.dynamic_oracle import _fast_dynamo
from tests.minitorch2.test_differential import default_dtype, describe, programs

BACKENDS = ("inductor", "aot_eager")


class PerSizeLog(logging.Handler):
    """Collects AOT's "gave up" messages: a frame traced and compiled per size instead of once."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.messages = []

    def emit(self, record):
        if "over symbolic sizes gave up" in record.getMessage():
            self.messages.append(record.getMessage())


def _tensors(lib, arrays, requires_grad):
    tensors = [lib.from_numpy(np.array(a, copy=True)) for a in arrays]
    for t in tensors:
        if requires_grad and t.dtype.is_floating_point:
            t.requires_grad_()
    return tensors


def _backward(outputs):
    """The sum of every output that requires grad, backward (so the backward graphs are compiled too)."""
    grads = [o.sum() for o in (outputs if isinstance(outputs, (tuple, list)) else [outputs])
             if getattr(o, "requires_grad", False)]
    if grads:
        sum(grads).backward()


def frame_counts(lib, fn, calls, requires_grad, backend=None, mark=None):
    """(frames compiled after each call, the error class of each call or None, AOT's per-size messages).
    mark: None for dynamic=True, else [(argument, dim)] to mark_dynamic before the first call (dynamic=None)."""
    entries, log = [], PerSizeLog()
    dynamo = torch._dynamo if lib is torch else frontend
    if lib is torch:
        compiler = torch_aot_autograd(fw_compiler=lambda gm, _: make_boxed_func(gm.forward),
                                      decompositions=select_decomp_table())
        counter = torch._dynamo.testing.CompileCounterWithBackend(compiler)
    else:
        counter = frontend.testing.CompileCounterWithBackend(backend)
    dynamo.reset()
    compiled = dynamo.optimize(counter, dynamic=True if mark is None else None, guard_export_fn=entries.append)(fn)
    counts, errors = [], []
    logging.getLogger("autograd.aot").addHandler(log)
    logging.getLogger("autograd.aot").setLevel(logging.INFO)
    try:
        with _fast_dynamo():
            for i, arrays in enumerate(calls):
                args = _tensors(lib, arrays, requires_grad)
                for arg, dim in (mark or []) if i == 0 else []:
                    dynamo.mark_dynamic(args[arg], dim)
                try:
                    _backward(compiled(*args))
                    errors.append(None)
                except Exception as e:  # noqa: BLE001 (the class is compared with torch's)
                    errors.append(type(e).__name__)
                counts.append(len(entries))
    finally:
        logging.getLogger("autograd.aot").removeHandler(log)
        dynamo.reset()
    return counts, errors, log.messages


def check_frames(make_fn, calls, requires_grad, mark=None, backends=BACKENDS):
    """Ours against torch under each backend; a per-size fallback is an error."""
    expected = frame_counts(torch, make_fn(torch), calls, requires_grad, mark=mark)[:2]
    for backend in backends:
        counts, errors, per_size = frame_counts(mt, make_fn(mt), calls, requires_grad, backend, mark=mark)
        assert not per_size, f"{backend}: {per_size[0]}"
        assert (counts, errors) == expected, f"{backend}: frames {counts}, errors {errors}; torch's {expected}"


# ---- programs in the style of real models ---------------------------------------------------------------------------

MODELS = r'''
import math

def _init(m, seed):
    """Parameters and float buffers from numpy (the same on both libraries)."""
    rng = np.random.default_rng(seed)
    with torch.no_grad():
        for _, p in sorted(m.named_parameters()):
            p.copy_(torch.from_numpy(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype("float32")))
        for _, b in sorted(m.named_buffers()):
            if b.dtype == torch.float32:
                b.copy_(torch.from_numpy(rng.uniform(0.5, 1.5, tuple(b.shape)).astype("float32")))
    return m

LN, FC1, FC2 = _init(nn.LayerNorm(8), 1), _init(nn.Linear(8, 16), 2), _init(nn.Linear(16, 8), 3)
QKV, OUT, HEAD = _init(nn.Linear(8, 24), 4), _init(nn.Linear(8, 8), 5), _init(nn.Linear(8, 5), 10)
CONV, BN = _init(nn.Conv2d(3, 4, 3, padding=1), 6), _init(nn.BatchNorm2d(4), 7).eval()
EMB, POS = _init(nn.Embedding(10, 8), 8), _init(nn.Embedding(16, 8), 9)

def mlp_layernorm(x):
    return x + FC2(F.gelu(FC1(LN(x))))

def causal_attention(x):
    B, S, D = x.shape
    q, k, v = (t.view(B, S, 2, 4).transpose(1, 2) for t in QKV(x).chunk(3, dim=-1))
    scores = q @ k.transpose(-2, -1) / math.sqrt(4)
    scores = scores.masked_fill(torch.triu(torch.ones(S, S, dtype=torch.bool), diagonal=1), float("-inf"))
    return OUT((scores.softmax(-1) @ v).transpose(1, 2).reshape(B, S, -1))

def padding_mask_attention(x, lengths):
    mask = torch.arange(x.shape[1])[None, :] >= lengths[:, None]
    scores = (x @ x.transpose(1, 2)).masked_fill(mask[:, None, :], -1e9)
    return torch.softmax(scores, dim=-1) @ x

def sdpa(x):
    q, k, v = QKV(x).split(8, dim=-1)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True).sum(1)

def conv_bn_eval(x):
    return F.relu(BN(CONV(x))).mean((2, 3))

def conv_pool(x):
    return F.max_pool2d(F.relu(CONV(x)), 2).flatten(1)

def cat_stack_split(x, y):
    a, b = x.split(2, dim=1)
    z = torch.cat([a * 2, b, y], dim=1)
    return torch.stack([z, z.tanh()], 0).sum(0)

def chunk_along_batch(x):
    a, b = x.chunk(2, dim=0)
    return (a * b).sum()

def broadcast_outer(x, y):
    return (x[:, None, :] * y[None, :, :]).sum(-1)

def expand_rows(x, w):
    return (x.unsqueeze(1).expand(-1, 3, -1) * w).sum(1)

def transpose_pointwise(x):
    return (x.transpose(0, 1) + 1).relu().sum(0), x.t().contiguous().view(-1) * 2

def reductions(x):
    return x.sum(0) + x.mean(0) * x.amax(0) + x.var(0), x.mean(1, keepdim=True) - x.std(1, keepdim=True)

def normalize_rows(x):
    return (x - x.mean(1, keepdim=True)) / (x.var(1, keepdim=True, unbiased=False) + 1e-5).sqrt()

def reshape_minus_one(x):
    return x.reshape(-1, 4).sum(1), x.view(x.shape[0], -1).relu(), x.flatten(1).softmax(-1)

def embed_positions(idx):
    return (EMB(idx) + POS(torch.arange(idx.shape[1]))[None]).sum(-1)

def cross_entropy(x, target):
    return F.cross_entropy(HEAD(x), target) + F.nll_loss(F.log_softmax(HEAD(x), -1), target)

def masked_mean(x, mask):
    m = mask.float()
    return (x * m[..., None]).sum(1) / m.sum(1, keepdim=True).clamp(min=1)

def gather_rows(x, idx):
    return x.gather(1, idx[:, None].expand(-1, x.shape[1]))[:, 0] + x.index_select(0, idx).sum()

def bmm_scores(x, y):
    return torch.bmm(x, y.transpose(1, 2)).softmax(-1)

def pad_cumsum(x):
    return F.pad(x, (1, 2)).cumsum(-1)

def tanh_matmul_softmax(x, w):
    return (torch.tanh(x @ w) * x.sum(1, keepdim=True)).softmax(-1).sum()

def mse(x, y):
    return F.mse_loss(FC1(x), y)

def silu_residual_normalize(x):
    return F.normalize(FC2(F.silu(FC1(x))) + x, dim=-1)

def group_norm(x):
    return F.group_norm(x, 2) * 2

def first_last_diff(x):
    return x[:, -1] + x[:, 0], x[:, 1:] - x[:, :-1]

def where_topk_sort(x, y):
    return torch.where(x > 0, x, y).sum(0), x.topk(2, dim=-1)[0].sum(-1) + x.sort(0).values[0]

def softmax_dims(x):
    return x.softmax(0) * x.log_softmax(1), F.layer_norm(x, (x.shape[-1],)).sum()
'''


def _models(lib):
    namespace = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional, "np": np}
    exec(MODELS, namespace)
    return namespace


_NAMESPACES = {}


def model(lib, name):
    if lib not in _NAMESPACES:
        _NAMESPACES[lib] = _models(lib)
    return _NAMESPACES[lib][name]


_rng = np.random.default_rng(0)


def f32(*shape):
    return _rng.standard_normal(shape).astype("float32")


def i64(high, *shape):
    return _rng.integers(0, high, shape).astype("int64")


B, S, HW = (2, 3, 4), (3, 5, 7), (4, 6, 8)  # batch, sequence and image sizes of the three calls
ROWS = (2, 5, 7)
# name -> (the calls' arguments, the dims mark_dynamic marks: (argument, dim))
MODEL_CASES = {
    "mlp_layernorm": ([(f32(b, s, 8),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "causal_attention": ([(f32(b, s, 8),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "padding_mask_attention": ([(f32(b, s, 4), _rng.integers(1, s + 1, (b,))) for b, s in zip(B, S)],
                               [(0, 0), (0, 1), (1, 0)]),
    "sdpa": ([(f32(b, s, 8),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "conv_bn_eval": ([(f32(b, 3, s, s),) for b, s in zip(B, HW)], [(0, 0), (0, 2), (0, 3)]),
    "conv_pool": ([(f32(b, 3, s, s),) for b, s in zip(B, HW)], [(0, 0), (0, 2), (0, 3)]),
    "cat_stack_split": ([(f32(b, 4), f32(b, 3)) for b in ROWS], [(0, 0), (1, 0)]),
    "chunk_along_batch": ([(f32(b, 3),) for b in (4, 6, 8)], [(0, 0)]),
    "broadcast_outer": ([(f32(b, 4), f32(s, 4)) for b, s in zip(B, S)], [(0, 0), (1, 0)]),
    "expand_rows": ([(f32(b, 4), f32(3, 4)) for b in ROWS], [(0, 0)]),
    "transpose_pointwise": ([(f32(b, 3),) for b in ROWS], [(0, 0)]),
    "reductions": ([(f32(b, s),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "normalize_rows": ([(f32(b, s),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "reshape_minus_one": ([(f32(b, 8),) for b in ROWS], [(0, 0)]),
    "embed_positions": ([(i64(10, b, s),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "cross_entropy": ([(f32(b, 8), i64(5, b)) for b in ROWS], [(0, 0), (1, 0)]),
    "masked_mean": ([(f32(b, s, 4), _rng.integers(0, 2, (b, s)) > 0) for b, s in zip(B, S)],
                    [(0, 0), (0, 1), (1, 0), (1, 1)]),
    "gather_rows": ([(f32(b, 4), i64(2, b)) for b in ROWS], [(0, 0), (1, 0)]),
    "bmm_scores": ([(f32(b, s, 4), f32(b, s, 4)) for b, s in zip(B, S)], [(0, 0), (0, 1), (1, 0), (1, 1)]),
    "pad_cumsum": ([(f32(b, s),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "tanh_matmul_softmax": ([(f32(n, 6), f32(6, 6)) for n in (5, 7, 9)], [(0, 0)]),
    "mse": ([(f32(b, 8), f32(b, 16)) for b in ROWS], [(0, 0), (1, 0)]),
    "silu_residual_normalize": ([(f32(b, s, 8),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "group_norm": ([(f32(b, 4, s),) for b, s in zip(B, S)], [(0, 0), (0, 2)]),
    "first_last_diff": ([(f32(b, s),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "where_topk_sort": ([(f32(b, s), f32(b, s)) for b, s in zip(B, S)], [(0, 0), (0, 1), (1, 0), (1, 1)]),
    "softmax_dims": ([(f32(b, s),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
}
@pytest.mark.parametrize("mode", ["dynamic", "mark_dynamic"])
@pytest.mark.parametrize("name", sorted(MODEL_CASES))
def test_model_programs_compile_as_many_frames_as_torch(name, mode):
    """Every model program compiles once over symbolic sizes under inductor too (chunk's split counts its pieces from
    the trace's guard, a reshape's sizes broadcast where the guards make them equal, group_norm's variance divides
    by a count the ranges show positive)."""
    calls, marked = MODEL_CASES[name]
    check_frames(lambda lib: model(lib, name), calls, requires_grad=True,
                 mark=marked if mode == "mark_dynamic" else None)


# ---- random programs ------------------------------------------------------------------------------------------------

def check_program(arrays, program, requires_grad):
    if not program:
        reject()
    note(f"inputs: {[(a.shape, str(a.dtype)) for a in arrays]}\nprogram:\n{describe(program)}")
    calls = [grown(arrays, factor) for factor in GROWTH]
    check_frames(lambda lib: straight_line(program, len(arrays), lib), calls, requires_grad)


@settings(max_examples=max(settings.default.max_examples // 10, 1))
@given(programs("float"))
def test_float_programs_compile_as_many_frames_as_torch(case):
    arrays, program = case
    with default_dtype(next(str(a.dtype) for a in arrays if a.dtype.kind == "f")):
        check_program(arrays, program, requires_grad=True)


@settings(max_examples=max(settings.default.max_examples // 10, 1))
@given(programs("int"))
def test_integer_programs_compile_as_many_frames_as_torch(case):
    check_program(*case, requires_grad=False)
