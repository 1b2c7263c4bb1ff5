"""torch.amp against torch's on a CPU-only build: autocast's output dtype and values per op, its state and nesting,
its warnings and refusals (cuda, unsupported dtypes), its default bfloat16, GradScaler's scale sequence and the parameters it
leaves after scaled steps with injected infs, its errors, and torch.cuda.amp's deprecated spellings.

Values computed in float16 are compared at float16's tolerance (rtol and atol 1e-2); everything else exactly or
at float32's. Each test runs the same program in both libraries, the values made from numpy.
"""
import pickle
import warnings

import numpy as np
import pytest
import torch

import minitorch2 as mt
import minitorch2.amp as amp
import minitorch2.amp.cuda_amp as cuda_amp
import minitorch2.profiler as mprof
from minitorch2 import _dispatch
from minitorch2.amp import _state

pytestmark = pytest.mark.runtime

RNG = np.random.default_rng(11)
FP16 = {"rtol": 1e-2, "atol": 1e-2}


def normal(*shape):
    return RNG.standard_normal(shape).astype("float32")


def probability(*shape):
    return RNG.uniform(0.05, 0.95, shape).astype("float32")


def close(ours, theirs, **tolerance):
    torch.testing.assert_close(torch.from_numpy(np.array(ours.detach().numpy())), theirs.detach(), **tolerance)


@pytest.fixture
def autocast_hook(monkeypatch):
    """The dispatcher with the autocast hook proposed for minitorch2/_dispatch.py (issue 20's report): before
    autograd, `state.autocast`, when set, rewrites the op's arguments. Where the dispatcher has it, nothing to do."""
    if hasattr(_dispatch.state, "autocast"):
        yield
        return
    plain_dispatch = _dispatch.dispatch

    def dispatch(op, args, kwargs):
        if _dispatch.state.autocast is not None:
            args, kwargs = _dispatch.state.autocast(op, args, kwargs)
        return plain_dispatch(op, args, kwargs)

    monkeypatch.setattr(_dispatch, "dispatch", dispatch)
    _dispatch.state.autocast = None
    yield
    del _dispatch.state.autocast


# ------------------------------------------------------------------ the cast policy, op by op
OPS = {
    "mm": (lambda L, a, b: L.mm(a, b), [normal(2, 3), normal(3, 4)]),
    "bmm": (lambda L, a, b: L.bmm(a, b), [normal(2, 2, 3), normal(2, 3, 4)]),
    "addmm": (lambda L, c, a, b: L.addmm(c, a, b), [normal(4), normal(2, 3), normal(3, 4)]),
    "addmm, float16 bias": (lambda L, c, a, b: L.addmm(c.half(), a, b), [normal(4), normal(2, 3), normal(3, 4)]),
    "baddbmm": (lambda L, c, a, b: L.baddbmm(c, a, b), [normal(2, 2, 4), normal(2, 2, 3), normal(2, 3, 4)]),
    "matmul 1d @ 1d": (lambda L, a, b: L.matmul(a, b), [normal(3), normal(3)]),
    "matmul 2d @ 1d": (lambda L, a, b: a @ b, [normal(2, 3), normal(3)]),
    "matmul 3d @ 3d": (lambda L, a, b: a @ b, [normal(2, 2, 3), normal(2, 3, 4)]),
    "linear": (lambda L, x, w, b: L.nn.functional.linear(x, w, b), [normal(2, 3), normal(4, 3), normal(4)]),
    "linear 3d": (lambda L, x, w, b: L.nn.functional.linear(x, w, b), [normal(2, 2, 3), normal(4, 3), normal(4)]),
    "conv1d": (lambda L, x, w, b: L.nn.functional.conv1d(x, w, b), [normal(1, 2, 6), normal(3, 2, 3), normal(3)]),
    "conv2d": (lambda L, x, w, b: L.nn.functional.conv2d(x, w, b, padding=1),
               [normal(1, 2, 5, 5), normal(3, 2, 3, 3), normal(3)]),
    "scaled_dot_product_attention": (lambda L, q, k, v: L.nn.functional.scaled_dot_product_attention(q, k, v),
                                     [normal(1, 2, 4, 8), normal(1, 2, 4, 8), normal(1, 2, 4, 8)]),
    "mse_loss": (lambda L, a, b: L.nn.functional.mse_loss(a.half(), b.half()), [normal(5), normal(5)]),
    "nll_loss": (lambda L, a: L.nn.functional.nll_loss(a.half().log_softmax(1), L.tensor([0, 2])), [normal(2, 3)]),
    "cross_entropy": (lambda L, a: L.nn.functional.cross_entropy(a.half(), L.tensor([0, 2])), [normal(2, 3)]),
    "binary_cross_entropy": (lambda L, a, b: L.nn.functional.binary_cross_entropy(a.half(), b.half()),
                             [probability(4), probability(4)]),
    "binary_cross_entropy_with_logits": (
        lambda L, a, b: L.nn.functional.binary_cross_entropy_with_logits(a.half(), b.half()),
        [normal(4), probability(4)]),
    "prod": (lambda L, a: L.prod(a.half()), [probability(4)]),
    "trace": (lambda L, a: L.trace(a.half()), [normal(3, 3)]),
    "cdist": (lambda L, a, b: L.cdist(a.half(), b.half()), [normal(2, 3), normal(4, 3)]),
    "cat (promote)": (lambda L, a, b: L.cat([a.half(), b]), [normal(2), normal(3)]),
    "stack (promote)": (lambda L, a, b: L.stack([a.half(), b]), [normal(2), normal(2)]),
    "relu, float16 in": (lambda L, a: L.relu(a.half()), [normal(3)]),
    "relu, float32 in": (lambda L, a: L.relu(a), [normal(3)]),
    "sum, float16 in": (lambda L, a: a.half().sum(), [normal(3)]),
    "softmax": (lambda L, a: L.softmax(a, 0), [normal(3)]),
    "layer_norm, float16 in": (lambda L, a: L.nn.functional.layer_norm(a.half(), [3]), [normal(2, 3)]),
    "mm in float64": (lambda L, a, b: L.mm(a.double(), b.double()), [normal(2, 3), normal(3, 2)]),
    "mm in int64": (lambda L, a, b: L.mm(a.long(), b.long()), [normal(2, 3), normal(3, 2)]),
    "embedding": (lambda L, w: L.nn.functional.embedding(L.tensor([0, 1]), w), [normal(3, 2)]),
}


@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("hooked", [False, True], ids=["mode", "hook"])
def test_autocast_dtype_and_values_per_op_match_torch(name, hooked, request):
    if hooked:
        request.getfixturevalue("autocast_hook")
    fn, arrays = OPS[name]
    with amp.autocast("cpu", dtype=mt.float16):
        ours = fn(mt, *[mt.tensor(a) for a in arrays])
    with torch.autocast("cpu", dtype=torch.float16):
        theirs = fn(torch, *[torch.tensor(a) for a in arrays])
    assert repr(ours.dtype) == str(theirs.dtype)
    close(ours, theirs, check_dtype=False, **FP16)


def test_linear_of_a_vector_is_float16_as_torchs():
    """F.linear of a 1-d input with a bias: as ATen's linear, ours flattens it into one row for addmm (which
    autocast casts, bias included), so the result is float16 as torch's (it was float32: mm, then add)."""
    x, w, b = normal(3), normal(4, 3), normal(4)
    with amp.autocast("cpu", dtype=mt.float16):
        ours = mt.nn.functional.linear(mt.tensor(x), mt.tensor(w), mt.tensor(b))
    with torch.autocast("cpu", dtype=torch.float16):
        theirs = torch.nn.functional.linear(torch.tensor(x), torch.tensor(w), torch.tensor(b))
    assert (repr(ours.dtype), str(theirs.dtype)) == ("torch.float16", "torch.float16")
    close(ours, theirs, check_dtype=False, **FP16)


def test_weight_casts_are_cached_in_a_region_as_torch_does():
    w, x = normal(3, 3), normal(2, 3)
    counts = []
    for lib, autocast, profiler in ((mt, amp.autocast, mprof), (torch, torch.autocast, torch.profiler)):
        weight = lib.nn.Parameter(lib.tensor(w))
        inputs = lib.tensor(x)
        with lib.no_grad(), profiler.profile() as prof:
            with autocast("cpu", dtype=lib.float16):
                lib.mm(inputs, weight)
                lib.mm(inputs, weight)
        counts.append(sum(e.name == "aten::_to_copy" for e in prof.events()))
    assert counts[0] == counts[1] == 3  # the input twice, the weight once


# ------------------------------------------------------------------ autocast's state, warnings and refusals
def _state_trace(lib, autocast):
    seen = []

    def note():
        seen.append((lib.is_autocast_enabled("cpu") if lib is torch else _state.is_autocast_enabled("cpu"),
                     repr(lib.get_autocast_dtype("cpu") if lib is torch else _state.get_autocast_dtype("cpu"))))

    note()
    with autocast("cpu", dtype=lib.float16):
        note()
        with autocast("cpu", enabled=False):
            note()
        note()

    @autocast("cpu", dtype=lib.float16)
    def decorated():
        note()

    decorated()
    note()
    return seen


def test_autocast_state_nests_as_torchs():
    assert _state_trace(mt, amp.autocast) == _state_trace(torch, torch.autocast)
    assert _state.is_autocast_enabled() is torch.is_autocast_enabled() is False  # no device type: cuda's
    assert repr(_state.get_autocast_dtype("cuda")) == str(torch.get_autocast_dtype("cuda"))
    assert _state.is_autocast_cache_enabled() is torch.is_autocast_cache_enabled()
    for device in ("cpu", "cuda", "xpu", "mps", "meta"):
        assert amp.is_autocast_available(device) == torch.amp.is_autocast_available(device)


def _warnings_of(make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = make()
    return made, [(w.category, str(w.message)) for w in caught]


def test_cuda_autocast_warns_and_is_disabled_as_on_a_cpu_only_torch():
    ours, ours_warnings = _warnings_of(lambda: amp.autocast("cuda"))
    theirs, theirs_warnings = _warnings_of(lambda: torch.autocast("cuda"))
    assert ours_warnings == theirs_warnings
    assert ours._enabled is theirs._enabled is False
    a = mt.tensor(normal(2, 2))
    with ours:
        assert mt.mm(a, a).dtype is mt.float32
        assert _state.is_autocast_enabled("cuda") is False


def test_unsupported_cpu_dtype_warns_and_disables_as_torch_does():
    ours, ours_warnings = _warnings_of(lambda: amp.autocast("cpu", dtype=mt.float32))
    theirs, theirs_warnings = _warnings_of(lambda: torch.autocast("cpu", dtype=torch.float32))
    assert ours_warnings == theirs_warnings and ours._enabled is theirs._enabled is False
    with pytest.raises(ValueError, match="Expected `device_type` of type `str`"):
        amp.autocast(mt.device("cpu"))


def test_cpu_autocast_runs_in_bfloat16_by_default_as_torchs():
    def run(lib, autocast):
        x = lib.tensor(np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4))
        w = lib.tensor(np.linspace(1, -1, 8, dtype=np.float32).reshape(2, 4))
        with autocast("cpu") as region:  # torch's CPU default dtype is bfloat16
            y = lib.nn.functional.linear(x, w)
            return repr(region.fast_dtype), repr(y.dtype), y.float().tolist(), repr((x + 1).dtype)

    assert run(mt, amp.autocast) == run(torch, torch.autocast)
    assert _state.get_autocast_dtype("cpu") is mt.bfloat16


def test_cuda_amp_spellings_warn_as_torchs():
    for name in ("autocast", "GradScaler"):
        ours, ours_warnings = _warnings_of(getattr(cuda_amp, name))
        theirs, theirs_warnings = _warnings_of(getattr(torch.cuda.amp, name))
        assert ours_warnings == theirs_warnings
        assert (ours.is_enabled() if name == "GradScaler" else ours._enabled) is False
    assert cuda_amp.amp_definitely_not_available() is torch.cuda.amp.common.amp_definitely_not_available()


# ------------------------------------------------------------------ GradScaler
def _train(lib, scaler_factory, steps, inject_inf_at=(), optimizer="sgd", clip=None, autocast=None):
    """A small regression model trained with a GradScaler; per step the scale, growth tracker and loss."""
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 2))
    with lib.no_grad():
        for parameter, array in zip(model.parameters(), _INITIAL):
            parameter.copy_(lib.tensor(array))
    make = {"sgd": lambda p: lib.optim.SGD(p, lr=0.05, momentum=0.9), "adam": lambda p: lib.optim.Adam(p, lr=0.01)}
    opt = make[optimizer](model.parameters())
    scaler = scaler_factory(lib)
    x, y = lib.tensor(_X), lib.tensor(_Y)
    history = []
    for step in range(steps):
        opt.zero_grad()
        if autocast is None:
            loss = lib.nn.functional.mse_loss(model(x), y)
        else:
            with autocast("cpu", dtype=lib.float16):
                loss = lib.nn.functional.mse_loss(model(x), y)
        scaler.scale(loss).backward()
        if step in inject_inf_at:
            with lib.no_grad():
                model[0].weight.grad[0, 0] = float("inf")
        if clip is not None:
            scaler.unscale_(opt)
            lib.nn.utils.clip_grad_norm_(model.parameters(), clip)
        scaler.step(opt)
        scaler.update()
        history.append((scaler.get_scale(), scaler._get_growth_tracker(), round(loss.item(), 4)))
    return history, [p.detach() for p in model.parameters()], scaler


_INITIAL = [normal(8, 4) * 0.5, normal(8) * 0.1, normal(2, 8) * 0.5, normal(2) * 0.1]
_X, _Y = normal(16, 4), normal(16, 2)


def _cpu_scaler(lib):
    module = amp if lib is mt else torch.amp
    return module.GradScaler("cpu", init_scale=2.0 ** 10, growth_factor=2.0, backoff_factor=0.5, growth_interval=3)


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_grad_scaler_scale_sequence_and_parameters_match_torch(optimizer):
    ours = _train(mt, _cpu_scaler, 12, inject_inf_at=(2, 7, 8), optimizer=optimizer)
    theirs = _train(torch, _cpu_scaler, 12, inject_inf_at=(2, 7, 8), optimizer=optimizer)
    assert ours[0] == theirs[0]
    assert [scale for scale, _, _ in ours[0]] == [1024.0, 1024.0, 512.0, 512.0, 512.0, 1024.0, 1024.0, 512.0,
                                                   256.0, 256.0, 256.0, 512.0]
    for o, t in zip(ours[1], theirs[1]):
        close(o, t)
    assert ours[2].state_dict() == theirs[2].state_dict()


def test_grad_scaler_with_unscale_and_clipping_matches_torch():
    ours = _train(mt, _cpu_scaler, 6, inject_inf_at=(3,), clip=0.5)
    theirs = _train(torch, _cpu_scaler, 6, inject_inf_at=(3,), clip=0.5)
    assert ours[0] == theirs[0]
    for o, t in zip(ours[1], theirs[1]):
        close(o, t)


def test_amp_training_matches_torch_with_the_autocast_hook(autocast_hook):
    """autocast + GradScaler, the casts recorded by autograd (the hook): float16 forward, float32 gradients."""
    ours = _train(mt, _cpu_scaler, 6, inject_inf_at=(1,), autocast=amp.autocast)
    theirs = _train(torch, _cpu_scaler, 6, inject_inf_at=(1,), autocast=torch.autocast)
    assert [h[:2] for h in ours[0]] == [h[:2] for h in theirs[0]]
    for o, t in zip(ours[1], theirs[1]):
        close(o, t, **FP16)
    x = mt.tensor(_X)
    layer = mt.nn.Linear(4, 2)
    with amp.autocast("cpu", dtype=mt.float16):
        out = layer(x)
    assert out.dtype is mt.float16
    out.float().sum().backward()
    assert layer.weight.grad.dtype is mt.float32


def test_amp_training_runs_without_the_hook():
    """Without the dispatcher's hook the mode leaves the ops autograd records in float32: training runs, skips
    and scales as torch's does, and its parameters stay within 0.05 of torch's float16-trained ones."""
    ours = _train(mt, _cpu_scaler, 6, inject_inf_at=(1,), autocast=amp.autocast)
    theirs = _train(torch, _cpu_scaler, 6, inject_inf_at=(1,), autocast=torch.autocast)
    assert [h[:2] for h in ours[0]] == [h[:2] for h in theirs[0]]
    for o, t in zip(ours[1], theirs[1]):
        close(o, t, rtol=5e-2, atol=5e-2)


def test_grad_scaler_errors_match_torch():
    for lib, module in ((mt, amp), (torch, torch.amp)):
        weight = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.SGD([weight], lr=0.1)
        scaler = module.GradScaler("cpu")
        with pytest.raises(AssertionError, match="Attempted step but _scale is None"):
            scaler.step(opt)
        scaler.scale(weight.sum()).backward()
        scaler.unscale_(opt)
        with pytest.raises(RuntimeError, match=r"unscale_\(\) has already been called on this optimizer"):
            scaler.unscale_(opt)
        scaler.step(opt)
        with pytest.raises(RuntimeError, match=r"step\(\) has already been called since the last update\(\)"):
            scaler.step(opt)
        with pytest.raises(RuntimeError, match=r"unscale_\(\) is being called after step\(\)"):
            scaler.unscale_(opt)
        scaler.update()
        with pytest.raises(RuntimeError, match="Closure use is not currently supported"):
            scaler.step(opt, closure=lambda: None)
        half_weight = lib.nn.Parameter(lib.ones(2).half())
        half_weight.grad = lib.ones(2).half()
        with pytest.raises(ValueError, match="Attempting to unscale FP16 gradients."):
            scaler.unscale_(lib.optim.SGD([half_weight], lr=0.1))
        with pytest.raises(AssertionError, match="The growth factor must be > 1.0."):
            module.GradScaler("cpu", growth_factor=1.0)


def test_grad_scaler_state_dict_update_and_pickle_match_torch():
    results = []
    for lib, module in ((mt, amp), (torch, torch.amp)):
        scaler = module.GradScaler("cpu", init_scale=8.0, growth_interval=5)
        before = scaler.state_dict()
        scaler.scale(lib.ones(1))
        scaler.load_state_dict({**before, "scale": 32.0, "_growth_tracker": 2})
        restored = pickle.loads(pickle.dumps(scaler))
        scaler.update(new_scale=4.0)
        results.append((before, restored.state_dict(), scaler.get_scale(), scaler.state_dict(), scaler.is_enabled()))
    assert results[0] == results[1]


def test_disabled_grad_scaler_passes_through_as_torchs():
    for lib, module in ((mt, amp), (torch, torch.amp)):
        scaler, caught = _warnings_of(lambda: module.GradScaler())  # torch's default device: cuda
        assert caught == [(UserWarning, "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                                        "Disabling.")]
        weight = lib.nn.Parameter(lib.ones(2))
        opt = lib.optim.SGD([weight], lr=0.5)
        loss = weight.sum()
        assert scaler.scale(loss) is loss
        loss.backward()
        scaler.step(opt)
        scaler.update()
        assert weight.tolist() == [0.5, 0.5]
        assert (scaler.is_enabled(), scaler.get_scale(), scaler.state_dict()) == (False, 1.0, {})


# ------------------------------------------------------------------ custom_fwd / custom_bwd
def _custom_function(lib, module):
    class MatMul(lib.autograd.Function):
        @staticmethod
        @module.custom_fwd(device_type="cpu", cast_inputs=lib.float32)
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a.mm(b)

        @staticmethod
        @module.custom_bwd(device_type="cpu")
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad.mm(b.t()), a.t().mm(grad)

    return MatMul


def test_custom_fwd_and_bwd_match_torch(autocast_hook):
    arrays = normal(2, 3), normal(3, 4)
    results = []
    for lib, module, autocast in ((mt, amp, amp.autocast), (torch, torch.amp, torch.autocast)):
        a, b = (lib.tensor(x.astype("float16"), requires_grad=True) for x in arrays)
        with autocast("cpu", dtype=lib.float16):
            out = _custom_function(lib, module).apply(a, b)
        out.sum().backward()
        results.append((out, a.grad, b.grad))
    for o, t in zip(*results):
        assert repr(o.dtype) == str(t.dtype)
        close(o, t, **FP16)
