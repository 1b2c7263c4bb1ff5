"""More programs in the style of real models, compiled once with dynamic dims and called at growing sizes (issue 21):
frame counts and error classes after each call equal torch's, and no graph is compiled per size behind one frame,
under inductor and aot_eager (the harness and torch's oracle are test_dynamic_recompiles.py's check_frames); the
values and input gradients of the inductor-compiled calls equal torch's eager ones.

Each program is a pattern that puts size arithmetic in front of the backend: heads split by view/transpose with
q/k/v chunked off one projection, convolutions whose output sizes are `(h + 2*p - k)//s + 1`, pooling, flatten then
linear, cat of pieces of different dynamic sizes, repeat, roll and the sizes of a sequence's halves.
"""
import numpy as np
import pytest
import torch

import frontend
import minitorch2 as mt
from tests.backend.test_dynamic_recompiles import _backward, _tensors, check_frames, f32

PROGRAMS = r'''
import math

def _init(m, seed):
    rng = np.random.default_rng(seed)
    with torch.no_grad():
        for _, p in sorted(m.named_parameters()):
            p.copy_(torch.from_numpy(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype("float32")))
    return m

QKV, PROJ = _init(nn.Linear(8, 24), 1), _init(nn.Linear(8, 8), 2)
CONV_S2, CONV = _init(nn.Conv2d(3, 4, 3, stride=2, padding=1), 3), _init(nn.Conv2d(3, 4, 3, padding=1), 4)
FC = _init(nn.Linear(4, 3), 5)

def multihead_attention(x):
    B, T, C = x.size()
    q, k, v = QKV(x).chunk(3, dim=-1)
    q, k, v = (t.view(B, T, 2, C // 2).transpose(1, 2) for t in (q, k, v))
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
    y = att.softmax(-1) @ v
    return PROJ(y.transpose(1, 2).contiguous().view(B, T, C))

def strided_conv_pool_head(x):
    h = F.relu(CONV_S2(x))
    return FC(F.adaptive_avg_pool2d(h, 1).flatten(1))

def conv_avg_pool_flatten(x):
    return F.avg_pool2d(CONV(x), 2).flatten(1).sum(1)

def cat_of_dynamic_pieces(x, y):
    z = torch.cat([x, y * 2, x[:1]], dim=0)
    return z.softmax(0).sum(1), torch.cat([x, x.flip(1)], dim=1).mean(0)

def halves_of_a_sequence(x):
    first, second = x[:, : x.shape[1] // 2], x[:, x.shape[1] // 2 :]
    return first.sum(1) + second.mean(1), second[:, -1]

def repeat_roll(x):
    return x.repeat(2, 1).roll(1, 0).sum(0), x.expand(3, -1, -1).sum(0)

def upsample_nearest(x):
    return F.interpolate(x, scale_factor=2) * 2

def heads_by_reshape(x):
    B, T, C = x.shape
    h = x.reshape(B, T, 4, -1).permute(0, 2, 1, 3)
    return (h * h.amax(-1, keepdim=True)).reshape(B, 4, -1).sum(-1)
'''

_namespaces = {}


def program(lib, name):
    if lib not in _namespaces:
        namespace = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional, "np": np}
        exec(PROGRAMS, namespace)
        _namespaces[lib] = namespace
    return _namespaces[lib][name]


B, S, HW = (2, 3, 4), (3, 5, 7), (5, 8, 11)
CASES = {  # name -> (the calls' arguments, the dims mark_dynamic marks)
    "multihead_attention": ([(f32(b, s, 8),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "strided_conv_pool_head": ([(f32(b, 3, s, s + 1),) for b, s in zip(B, HW)], [(0, 0), (0, 2), (0, 3)]),
    "conv_avg_pool_flatten": ([(f32(2, 3, s, s),) for s in HW], [(0, 2), (0, 3)]),
    "cat_of_dynamic_pieces": ([(f32(b, 4), f32(s, 4)) for b, s in zip(B, S)], [(0, 0), (1, 0)]),
    "halves_of_a_sequence": ([(f32(b, 2 * s),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "repeat_roll": ([(f32(b, s),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "heads_by_reshape": ([(f32(b, s, 8),) for b, s in zip(B, S)], [(0, 0), (0, 1)]),
    "upsample_nearest": ([(f32(1, 2, s),) for s in S], [(0, 2)]),
}
# torch computes a scale factor's output size over symbols (TruncToInt(2.0*ToFloat(s))) inside the op's meta and
# compiles once; F.interpolate here computes it in Python with math.floor, which specializes the size: a frame per size
KNOWN_DIFFERENT = {"upsample_nearest": "an output size from a float scale specializes the input size"}


@pytest.mark.parametrize("mode", ["dynamic", "mark_dynamic"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_model_shapes_compile_as_many_frames_as_torch(name, mode, request):
    if name in KNOWN_DIFFERENT:
        request.applymarker(pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENT[name]))
    calls, marked = CASES[name]
    check_frames(lambda lib: program(lib, name), calls, requires_grad=True,
                 mark=marked if mode == "mark_dynamic" else None)


@pytest.mark.parametrize("name", sorted(CASES))
def test_model_shapes_values_equal_torch(name):
    calls, _ = CASES[name]
    frontend.reset()
    compiled = frontend.optimize("inductor", dynamic=True)(program(mt, name))
    try:
        for arrays in calls:
            ours, theirs = _tensors(mt, arrays, True), _tensors(torch, arrays, True)
            got, want = compiled(*ours), program(torch, name)(*theirs)
            got, want = (list(v) if isinstance(v, tuple) else [v] for v in (got, want))
            for g, w in zip(got, want):
                np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), rtol=1e-4, atol=1e-5)
            _backward(got)
            _backward(want)
            for a, b in zip(ours, theirs):
                np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-4, atol=1e-5)
    finally:
        frontend.reset()
