"""Dynamic shapes as users meet them, against torch.compile 2.13 (session 33's probe of issue 20).

Each program below is a driver: it compiles a function or model with the `compile` it is given (torch.compile or
minitorch2.compile with a CompileCounter backend) and calls it as a user does: tensors marked with mark_dynamic
(with min/max), maybe_mark_dynamic, mark_static, the automatic-dynamic and assume-static configs patched, sizes 0
and 1, equal sizes (duck sizing), sizes in Python arithmetic, range() over a size, torch._check_is_size, factories
and views sized from the input, conv/pool/interpolate output sizes, a training loop whose last batch is smaller
(DataLoader's drop_last=False), the backward of a size-scaled loss, a greedy generation loop over growing lengths.
Both libraries run the same driver text; every compile's (frames, ops), the graph-break count and every value
(or the error class a call raised) must be torch's.
"""
import numpy as np
import pytest
import torch
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

from .test_dynamo_tests_ported import _breaks, _clear_counters

PROGRAMS_SRC = r'''
import math

import numpy as np


def rows(lib, n, m=4):
    return lib.tensor(np.random.default_rng(n).standard_normal((n, m)).astype("float32"))


def calls(fn, inputs):
    out = []
    for args in inputs:
        try:
            out.append(fn(*args))
        except Exception as e:  # (the class only: torch's messages name its own files)
            out.append(type(e).__name__)
    return out


def mark_dynamic_with_min_max(lib, dynamo, compile):
    f = compile(lambda x: x.sin() * x.shape[0])
    inputs = []
    for n in (4, 6, 8, 12, 1):  # 12 is above max: a ConstraintViolationError; so is 1 (a marked size specialized)
        x = rows(lib, n)
        dynamo.mark_dynamic(x, 0, min=2, max=10)
        inputs.append((x,))
    return calls(f, inputs)


def mark_dynamic_several_dims_with_min_max(lib, dynamo, compile):
    f = compile(lambda x: x.t() @ x)
    inputs = []
    for n, m in ((3, 4), (5, 6), (7, 3), (5, 20)):
        x = rows(lib, n, m)
        dynamo.mark_dynamic(x, [0, 1], min=3, max=16)  # (torch 2.13 fails on one bound alone)
        inputs.append((x,))
    return calls(f, inputs)


def mark_dynamic_on_sizes_zero_and_one(lib, dynamo, compile):
    out = []
    for sizes, bounds in (((4, 1), {}), ((1, 4), {}), ((1, 4), dict(min=2, max=10)), ((4, 0), dict(min=0, max=10))):
        dynamo.reset()  # (a 0 or 1 marked is an error only where min/max were given, as torch's)
        f = compile(lambda x: x.sin() * x.shape[0])
        inputs = []
        for n in sizes:
            x = rows(lib, n)
            dynamo.mark_dynamic(x, 0, **bounds)
            inputs.append((x,))
        out += calls(f, inputs)
    return out


def maybe_mark_dynamic_then_specialized(lib, dynamo, compile):
    def branchy(x):
        if x.shape[0] == 5:
            return x + 1
        return x * 2
    f = compile(branchy)
    inputs = []
    for n in (3, 5, 6, 7):
        x = rows(lib, n)
        dynamo.maybe_mark_dynamic(x, 0)
        inputs.append((x,))
    return calls(f, inputs)


def mark_static_under_dynamic_true(lib, dynamo, compile):
    f = compile(lambda x: x.cos() + 1, dynamic=True)
    inputs = []
    for n in (3, 5, 6):
        x = rows(lib, n)
        dynamo.mark_static(x, 0)
        inputs.append((x,))
    return calls(f, inputs)


def automatic_dynamic_off(lib, dynamo, compile):
    with dynamo.config.patch(automatic_dynamic_shapes=False):
        f = compile(lambda x: x.cos() + 1)
        return calls(f, [(rows(lib, n),) for n in (3, 5, 6, 7)])


def assume_static_by_default_off(lib, dynamo, compile):
    with dynamo.config.patch(assume_static_by_default=False):
        f = compile(lambda x: x.cos() * x.shape[1])
        return calls(f, [(rows(lib, n),) for n in (3, 5, 1, 6)])


def automatic_dynamic_then_zero_and_one(lib, dynamo, compile):
    f = compile(lambda x: x.cos() + x.shape[0])
    return calls(f, [(rows(lib, n),) for n in (3, 5, 6, 7, 1, 0, 2)])


def duck_sized_square_inputs(lib, dynamo, compile):
    f = compile(lambda x, y: (x @ y).sum() + x.shape[0], dynamic=True)
    return calls(f, [(rows(lib, n, n), rows(lib, n + 10, n)) for n in (3, 4)] + [(rows(lib, 3, 5), rows(lib, 5, 3))])


def sizes_in_python_arithmetic(lib, dynamo, compile):
    def arithmetic(x):
        n = x.shape[0]
        return x[: n // 2].sum() + math.ceil(n / 4) + n * n + int(n ** 0.5)
    f = compile(arithmetic, dynamic=True)
    return calls(f, [(rows(lib, n),) for n in (4, 9, 10, 16)])


def check_is_size_of_sizes(lib, dynamo, compile):
    def checked(x):
        lib._check(x.shape[0] > 2)
        lib._check_is_size(x.shape[0])
        lib._check_is_size(x.shape[1] - 1)
        return x * 2
    f = compile(checked, dynamic=True)
    return calls(f, [(rows(lib, n),) for n in (3, 4, 6)])


def factories_views_and_splits_from_sizes(lib, dynamo, compile):
    def shaped(x):
        n = x.shape[0]
        a, b = x.reshape(n, -1).split(n // 2)
        ones = lib.cat([x.new_zeros(n + 1, 4), x]).sum(0) + lib.arange(n).sum()
        return a.sum() + b.sum() + x.view(n * 2, 2).sum(1).sum() + x[:, :1].expand(n, 8).sum() + ones
    f = compile(shaped, dynamic=True)
    return calls(f, [(rows(lib, n),) for n in (4, 6, 8)])


def conv_pool_and_interpolate_output_sizes(lib, dynamo, compile):
    lib.manual_seed(0)
    conv = lib.nn.Conv2d(2, 3, 3, stride=2, padding=1)
    def image(x):
        y = lib.nn.functional.max_pool2d(conv(x), 2)
        return lib.nn.functional.interpolate(y, scale_factor=2).sum((2, 3))
    f = compile(image, dynamic=True)
    return calls(f, [(lib.ones(1, 2, n, n + 1) * n,) for n in (8, 10, 13)])


def pad_to_a_multiple_of_8_and_cat(lib, dynamo, compile):
    def padded(x, y):
        blocks = lib.nn.functional.pad(x, (0, 0, 0, (-x.shape[0]) % 8)).view(-1, 8, 4).sum(1)
        return blocks.sum(0) + lib.cat([x, y, x], 0).sum(0)
    f = compile(padded)
    return calls(f, [(rows(lib, n), rows(lib, n + 2)) for n in (3, 9, 16, 17)])


def strides_of_transposed_inputs(lib, dynamo, compile):
    f = compile(lambda x: (x.t() + 1).contiguous().stride())
    return calls(f, [(rows(lib, n).t(),) for n in (3, 5, 6)] + [(rows(lib, 3, 7).t(),)])


def training_with_a_smaller_last_batch(lib, dynamo, compile):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 2))
    opt = lib.optim.SGD(model.parameters(), lr=0.1)
    compiled = compile(model)
    data = rows(lib, 26)
    target = (data.sum(1) > 0).long()
    losses = []
    for epoch in range(2):
        for i in range(0, 26, 8):  # batches of 8, 8, 8 and 2
            loss = lib.nn.functional.cross_entropy(compiled(data[i:i + 8]), target[i:i + 8])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.detach())
    return losses + [p.detach().clone() for p in model.parameters()]


def backward_of_a_size_scaled_loss(lib, dynamo, compile):
    lib.manual_seed(0)
    lin = lib.nn.Linear(4, 3)
    f = compile(lambda x: (lin(x).relu() * x.shape[0]).sum())
    out = []
    for n in (5, 7, 9, 7):
        x = (lib.ones(n, 4) * 0.5).requires_grad_()
        loss = f(x)
        loss.backward()
        out += [loss.detach(), lin.weight.grad.clone(), x.grad.clone()]
        lin.zero_grad()
    return out


def greedy_generation_over_growing_lengths(lib, dynamo, compile):
    lib.manual_seed(0)
    nn = lib.nn

    class TinyGPT(nn.Module):
        def __init__(self, vocab=11, block_size=8, n_embd=16):
            super().__init__()
            self.block_size = block_size
            self.tok, self.pos = nn.Embedding(vocab, n_embd), nn.Embedding(block_size, n_embd)
            self.attn = nn.MultiheadAttention(n_embd, 2, batch_first=True)
            self.ln, self.head = nn.LayerNorm(n_embd), nn.Linear(n_embd, vocab)

        def forward(self, idx):
            t = idx.shape[1]
            x = self.tok(idx) + self.pos(lib.arange(t))
            mask = lib.triu(lib.ones(t, t, dtype=lib.bool), diagonal=1)
            a, _ = self.attn(x, x, x, attn_mask=mask, need_weights=False)
            return self.head(self.ln(x + a))

    model = TinyGPT().eval()
    compiled = compile(model)
    idx, out = lib.zeros(1, 1, dtype=lib.long), []
    with lib.no_grad():
        for _ in range(10):  # lengths 1..8, then the last 8 (idx[:, -block_size:])
            logits = compiled(idx[:, -model.block_size:])
            idx = lib.cat([idx, logits[:, -1, :].argmax(-1, keepdim=True)], 1)
            out.append(logits)
    return out + [idx]


def unpacking_a_split_whose_count_changed(lib, dynamo, compile):
    def halves(x):
        n = x.shape[0]
        a, b = x.reshape(-1, n).split(n // 2)[:2]  # (at n = 8: one chunk, a ValueError)
        return a.sum() + b.sum()
    return calls(compile(halves, dynamic=True), [(rows(lib, n),) for n in (4, 6, 8)])


def scalar_output_as_a_size(lib, dynamo, compile):
    with dynamo.config.patch(capture_scalar_outputs=True):
        f = compile(lambda x, k: x[: k.item()].sum() * 2 + lib.ones(k.item(), 2).sum())
        return calls(f, [(rows(lib, 6), lib.tensor(n)) for n in (3, 4, 5)])


def dynamic_output_shape_ops_captured(lib, dynamo, compile):
    with dynamo.config.patch(capture_dynamic_output_shape_ops=True):
        f = compile(lambda x: lib.nonzero(x > 0).sum() + x[x > 0].mean() + lib.unique((x > 0).int()).sum())
        return calls(f, [(rows(lib, n),) for n in (3, 3, 5)])
'''

KNOWN_DIFFS = {
    "scalar_output_as_a_size": "capture_scalar_outputs is not implemented: no unbacked SymInt from .item() (torch: "
                               "one graph for every k, with u0 sizes; ours: no such config, an AttributeError)",
    "dynamic_output_shape_ops_captured": "capture_dynamic_output_shape_ops is not implemented: nonzero, x[mask] and "
                                         "unique always break (torch: 2 graphs, no break; ours: an AttributeError)",
}


def _namespaces():
    spaces = {}
    for lib in (torch, minitorch2):
        spaces[lib] = {"torch": lib}
        exec(compile(PROGRAMS_SRC, "<dynamic_s33>", "exec"), spaces[lib])
    return spaces


SPACES = _namespaces()
NAMES = [name for name, value in SPACES[torch].items() if callable(value) and name not in ("rows", "calls")
         and getattr(value, "__module__", None) is None and not isinstance(value, type)]


def _run(lib, program):
    _clear_counters(lib)
    counters = []

    def compile_counted(fn, **kwargs):
        counters.append(torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter())
        return lib.compile(fn, backend=counters[-1], **kwargs)

    try:
        outputs = program(lib, torch._dynamo if lib is torch else frontend, compile_counted)
    except Exception as e:
        outputs = [f"raised {type(e).__name__}"]
    counts = [(c.frame_count, c.op_count) for c in counters]
    _clear_counters(lib)
    return (counts, _breaks(lib)), outputs


def _plain(value):
    if hasattr(value, "detach"):
        return value.detach().numpy()
    return [_plain(v) for v in value] if isinstance(value, (tuple, list)) else value


pytestmark = pytest.mark.filterwarnings("ignore:_check_is_size will be removed:FutureWarning")


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN_DIFFS[n]))
                                  if n in KNOWN_DIFFS else n for n in NAMES])
def test_counts_and_values_match_torch(name):
    theirs_counts, theirs = _run(torch, SPACES[torch][name])
    ours_counts, ours = _run(minitorch2, SPACES[minitorch2][name])
    assert ours_counts == theirs_counts, f"([(frames, ops)], breaks): ours {ours_counts}, torch {theirs_counts}"
    assert len(ours) == len(theirs)
    for o, t in zip(map(_plain, ours), map(_plain, theirs)):
        if isinstance(t, (np.ndarray, list)):
            np.testing.assert_allclose(np.asarray(o, dtype="float64"), np.asarray(t, dtype="float64"),
                                       rtol=1e-5, atol=1e-5)
        else:
            assert o == t


def test_the_programs_are_all_here():
    assert len(NAMES) == 21


def test_a_size_above_mark_dynamic_max_is_a_constraint_violation_in_torchs_words():
    """The first graph's guard holds the range (`L['x'].size()[0] <= 10`); the size out of it recompiles, and the
    new symbol's range refuses its hint: ConstraintViolationError "12 not in range [2, 10]"."""
    frontend.reset()
    compiled = minitorch2.compile(lambda x: x * 2, backend=CompileCounter())
    for n in (4, 12):
        x = minitorch2.ones(n, 3)
        frontend.mark_dynamic(x, 0, min=1, max=10)
        if n == 12:
            with pytest.raises(minitorch2.fx.experimental.symbolic_shapes.ConstraintViolationError,
                               match=r"^12 not in range \[2, 10\]"):
                compiled(x)
        else:
            compiled(x)


def _sized_cumsum(x):
    minitorch2._check_is_size(x.shape[0] - 1)
    return x.cumsum(0) * x.shape[0]


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_check_is_size_runs_through_aot_and_the_inductor(backend):
    """The graph's torch._check_is_size node runs where AOT traces it (its checks facts on a SymInt): one compile
    serves every size, with the values of eager minitorch2."""
    frontend.reset()
    compiled = minitorch2.compile(_sized_cumsum, backend=backend, dynamic=True)
    for n in (3, 5, 8):
        x = minitorch2.tensor(np.random.default_rng(n).standard_normal((n, 4)).astype("float32"))
        np.testing.assert_allclose(compiled(x).numpy(), (x.cumsum(0) * n).numpy(), rtol=1e-6)
    frontend.reset()
