"""Compiled optimizer steps against torch 2.13's Dynamo: every torch.optim optimizer, foreach=False and True.

`torch.compile(opt.step)` with a CompileCounter-like backend that also records each graph's ops, for three steps of a
small Linear model from torch.manual_seed(0), under both libraries: the parameters after the steps, frame_count and
op_count, and the op sequence of every graph (methods by name, functions by __name__). On CPU torch takes each
optimizer's single-tensor update unless foreach=True is asked for; while tracing, Dynamo reads `capturable` as True
in every group that has the key, so the graphs hold the capturable branches (frontend/variables/optimizer.py).
"""
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing
from torch._dynamo.utils import counters as dynamo_counters

import frontend
import minitorch2
from frontend.testing import CompileCounter
from frontend.utils import counters

CONFIGS = {
    "sgd": ("SGD", dict(lr=0.1)),
    "sgd_momentum_decay": ("SGD", dict(lr=0.1, momentum=0.9, weight_decay=0.01)),
    "sgd_nesterov_maximize": ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, maximize=True)),
    "adam": ("Adam", dict(lr=0.01)),
    "adamw": ("AdamW", dict(lr=0.01)),
    "adamax": ("Adamax", dict(lr=0.01)),
    "nadam": ("NAdam", dict(lr=0.01)),
    "radam": ("RAdam", dict(lr=0.01)),
    "adagrad": ("Adagrad", dict(lr=0.01)),
    "adadelta": ("Adadelta", dict()),
    "rmsprop": ("RMSprop", dict(lr=0.01)),
    "rmsprop_centered_momentum": ("RMSprop", dict(lr=0.01, centered=True, momentum=0.9)),
    "rprop": ("Rprop", dict(lr=0.01)),
    "asgd": ("ASGD", dict(lr=0.01)),
}
# the flags of the Adam family, each alone and together
ADAM_FLAGS = {
    "adam_amsgrad": ("Adam", dict(lr=0.01, amsgrad=True)),
    "adam_maximize_decay": ("Adam", dict(lr=0.01, maximize=True, weight_decay=0.1)),
    "adam_capturable": ("Adam", dict(lr=0.01, capturable=True)),
    "adamw_amsgrad_maximize": ("AdamW", dict(lr=0.01, amsgrad=True, maximize=True, weight_decay=0.05)),
    "adamw_capturable_amsgrad": ("AdamW", dict(lr=0.01, capturable=True, amsgrad=True)),
    "nadam_decoupled": ("NAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    "radam_decoupled_maximize": ("RAdam", dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, maximize=True)),
    "nadam_maximize_decay": ("NAdam", dict(lr=0.01, weight_decay=0.1, maximize=True)),
    "radam_decay": ("RAdam", dict(lr=0.01, weight_decay=0.1)),
}
# maximize and weight decay on the others (the branches their multi-tensor updates take apart)
OTHER_FLAGS = {
    "adamax_maximize_decay": ("Adamax", dict(lr=0.01, maximize=True, weight_decay=0.1)),
    "adamax_decay": ("Adamax", dict(lr=0.01, weight_decay=0.1)),
    "adagrad_maximize_decay": ("Adagrad", dict(lr=0.01, maximize=True, weight_decay=0.1, lr_decay=0.01)),
    "adadelta_maximize_decay": ("Adadelta", dict(maximize=True, weight_decay=0.1)),
    "rmsprop_maximize_decay": ("RMSprop", dict(lr=0.01, maximize=True, weight_decay=0.1, momentum=0.5)),
    "rmsprop_decay": ("RMSprop", dict(lr=0.01, weight_decay=0.1)),
    "rprop_maximize": ("Rprop", dict(lr=0.01, maximize=True)),
    "asgd_maximize_decay": ("ASGD", dict(lr=0.01, maximize=True, weight_decay=0.1, t0=1)),
    "asgd_decay": ("ASGD", dict(lr=0.01, weight_decay=0.1)),
}
FAST_FOREACH = {"sgd_momentum_decay", "adam", "adamw", "rmsprop", "adagrad"}


def _graph_ops(gm):
    return [str(n.target) if n.op == "call_method" else getattr(n.target, "__name__", str(n.target))
            for n in gm.graph.nodes if n.op in ("call_method", "call_function")]


def _compiled_steps(lib, config, foreach, steps=3, compiled=True):
    cls, kwargs = {**CONFIGS, **ADAM_FLAGS, **OTHER_FLAGS}[config]
    (torch._dynamo if lib is torch else frontend).reset()
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(_graph_ops(gm))
        return counter(gm, example_inputs)

    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    opt = getattr(lib.optim, cls)(model.parameters(), foreach=foreach, **kwargs)
    x, y = lib.randn(4, 3), lib.randn(4, 2)
    step = lib.compile(opt.step, backend=backend) if compiled else opt.step
    for _ in range(steps):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        step()
    return [p.detach().numpy().copy() for p in model.parameters()], (counter.frame_count, counter.op_count), graphs


def _assert_as_torch(config, foreach):
    ours, theirs = _compiled_steps(minitorch2, config, foreach), _compiled_steps(torch, config, foreach)
    for a, b in zip(ours[0], theirs[0]):
        torch.testing.assert_close(torch.as_tensor(a), torch.as_tensor(b), rtol=1e-5, atol=1e-6)
    assert ours[1] == theirs[1]
    assert ours[2] == theirs[2]


def _foreach_params():
    for config in CONFIGS:
        yield pytest.param(config, id=config, marks=[] if config in FAST_FOREACH else [pytest.mark.slow])


@pytest.mark.parametrize("config", list(CONFIGS))
def test_single_tensor_step_as_torch(config):
    _assert_as_torch(config, foreach=False)


@pytest.mark.parametrize("config", list(_foreach_params()))
def test_foreach_step_as_torch(config):
    _assert_as_torch(config, foreach=True)


@pytest.mark.parametrize("config", [*CONFIGS, *(c for c in ADAM_FLAGS if "capturable" not in c), *OTHER_FLAGS])
def test_eager_foreach_steps_as_torch(config):
    """foreach=True run eagerly: the multi-tensor updates' non-capturable branches (Python-number step sizes)."""
    ours = _compiled_steps(minitorch2, config, True, compiled=False)
    theirs = _compiled_steps(torch, config, True, compiled=False)
    for a, b in zip(ours[0], theirs[0]):
        torch.testing.assert_close(torch.as_tensor(a), torch.as_tensor(b), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("foreach", [False, True])
@pytest.mark.parametrize("name", ["Adam", "AdamW", "Adamax", "NAdam", "RAdam", "Adadelta", "RMSprop", "Rprop", "ASGD"])
def test_capturable_steps_refused_eagerly_on_cpu_as_torch(name, foreach):
    """capturable=True asks for tensors on an accelerator: an eager step on CPU tensors is refused (a compiled one
    is not: Dynamo skips the check, test_adam_family_flags_as_torch)."""
    for lib in (torch, minitorch2):
        param = lib.nn.Parameter(lib.ones(2))
        param.grad = lib.ones(2)
        with pytest.raises(AssertionError, match="If capturable=True"):
            getattr(lib.optim, name)([param], foreach=foreach, capturable=True).step()


@pytest.mark.parametrize("foreach", [False, pytest.param(True, marks=pytest.mark.slow)])
@pytest.mark.parametrize("config", list(ADAM_FLAGS))
def test_adam_family_flags_as_torch(config, foreach):
    _assert_as_torch(config, foreach)


@pytest.mark.parametrize("foreach", [False, True])
@pytest.mark.parametrize("config", [pytest.param(c, marks=pytest.mark.slow) for c in OTHER_FLAGS])
def test_other_flags_as_torch(config, foreach):
    _assert_as_torch(config, foreach)


def _compiled_train_step(lib, cls, kwargs, backend):
    """forward, backward and step in one compiled function (zero_grad inside): losses, parameters, the graphs and
    their calls (counters["stats"]), and the breaks."""
    tally, dynamo = (dynamo_counters, torch._dynamo) if lib is torch else (counters, frontend)
    dynamo.reset()
    tally.clear()
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 2))
    opt = getattr(lib.optim, cls)(model.parameters(), **kwargs)
    x, y = lib.randn(5, 3), lib.randn(5, 2)

    @lib.compile(backend=backend)
    def train_step(x, y):
        opt.zero_grad()
        loss = lib.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        return loss

    losses = [train_step(x, y).item() for _ in range(3)]
    return losses, [p.detach().numpy().copy() for p in model.parameters()], dict(tally["stats"]), \
        sum(tally["graph_break"].values())


@pytest.mark.parametrize("cls, kwargs", [("RMSprop", dict(lr=0.01, momentum=0.5)),
                                         ("Adam", dict(lr=0.01, foreach=True, amsgrad=True))],
                         ids=["rmsprop", "adam_foreach_amsgrad"])
@pytest.mark.parametrize("backend", ["eager", *(pytest.param(b, marks=pytest.mark.slow)
                                                for b in ("aot_eager", "inductor"))])
def test_compiled_train_step_as_torch(cls, kwargs, backend):
    """(ours through inductor is compared with torch's aot_eager: the same graphs, values within float32 rounding)"""
    ours = _compiled_train_step(minitorch2, cls, kwargs, backend)
    theirs = _compiled_train_step(torch, cls, kwargs, "aot_eager" if backend == "inductor" else backend)
    for a, b in zip(ours[0] + ours[1], theirs[0] + theirs[1]):
        torch.testing.assert_close(torch.as_tensor(a), torch.as_tensor(b), rtol=1e-5, atol=1e-6)
    assert ours[2:] == theirs[2:]


def _tensor_lr_steps(lib, cls, kwargs, foreach, with_scheduler):
    """An lr held in a 0-dim tensor (torch's advice for compiled steps under a scheduler: no recompile per lr)."""
    (torch._dynamo if lib is torch else frontend).reset()
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(_graph_ops(gm))
        return counter(gm, example_inputs)

    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    opt = getattr(lib.optim, cls)(model.parameters(), lr=lib.tensor(0.01), foreach=foreach, **kwargs)
    scheduler = lib.optim.lr_scheduler.StepLR(opt, 1, 0.5) if with_scheduler else None
    x, y = lib.randn(4, 3), lib.randn(4, 2)
    step = lib.compile(opt.step, backend=backend)
    for _ in range(3):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        step()
        if scheduler is not None:
            scheduler.step()
    return [p.detach().numpy().copy() for p in model.parameters()], (counter.frame_count, counter.op_count), graphs


@pytest.mark.parametrize("with_scheduler", [False, pytest.param(True, marks=pytest.mark.slow)])
@pytest.mark.parametrize("foreach", [False, True])
@pytest.mark.parametrize("cls, kwargs", [("SGD", dict(momentum=0.9)), ("Adam", {}), ("RMSprop", dict(momentum=0.5)),
                                         ("Adadelta", {})], ids=["sgd", "adam", "rmsprop", "adadelta"])
def test_tensor_lr_steps_as_torch(cls, kwargs, foreach, with_scheduler):
    if cls == "Adam" and foreach:
        for lib in (torch, minitorch2):  # (refused by the constructor: it would need capturable=True)
            with pytest.raises(ValueError, match="lr as a Tensor is not supported"):
                lib.optim.Adam(lib.nn.Linear(3, 2).parameters(), lr=lib.tensor(0.01), foreach=True)
        return
    ours = _tensor_lr_steps(minitorch2, cls, kwargs, foreach, with_scheduler)
    theirs = _tensor_lr_steps(torch, cls, kwargs, foreach, with_scheduler)
    for a, b in zip(ours[0], theirs[0]):
        torch.testing.assert_close(torch.as_tensor(a), torch.as_tensor(b), rtol=1e-5, atol=1e-6)
    assert ours[1:] == theirs[1:]
