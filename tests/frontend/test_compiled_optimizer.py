"""Compiled training steps and compiled optimizer steps against torch 2.13's Dynamo.

A step that calls zero_grad, forward, loss.backward() and opt.step() in a compiled function; a compiled function that
only calls opt.step(); torch.compile(opt.step); and a DataLoader loop calling a compiled train step. Under both
libraries, from torch.manual_seed(0): the losses and parameters after 3 steps, the graphs and their calls
(counters["stats"]), and the number of breaks frames were split at (summed; the reasons' words are ours): zero_grad
(torch's is @_disable_dynamo), backward, and the two graph_break()s of the step's grad-mode wrapper.
"""
import pytest
import torch
import torch._dynamo
from torch._dynamo.utils import counters as dynamo_counters

import frontend
import minitorch2
from frontend.utils import counters

OPTIMIZERS = {
    "sgd": lambda lib, params: lib.optim.SGD(params, lr=0.1),
    "sgd_momentum": lambda lib, params: lib.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=0.01),
    "adam": lambda lib, params: lib.optim.Adam(params, lr=0.01),
    "adamw": lambda lib, params: lib.optim.AdamW(params, lr=0.01),
    "sgd_nesterov_maximize": lambda lib, params: lib.optim.SGD(params, lr=0.1, momentum=0.9, nesterov=True,
                                                               maximize=True),
    "adam_amsgrad_decay": lambda lib, params: lib.optim.Adam(params, lr=0.01, amsgrad=True, weight_decay=0.1),
    "sgd_foreach": lambda lib, params: lib.optim.SGD(params, lr=0.1, momentum=0.9, weight_decay=0.01, foreach=True),
    "adam_foreach": lambda lib, params: lib.optim.Adam(params, lr=0.01, foreach=True),
}


def _run(lib, opt_name, mode, backend="eager", steps=3):
    tally, dynamo = (dynamo_counters, torch._dynamo) if lib is torch else (counters, frontend)
    dynamo.reset()
    tally.clear()
    lib.manual_seed(0)
    model = lib.nn.Linear(4, 2)
    opt = OPTIMIZERS[opt_name](lib, model.parameters())
    x, y = lib.randn(8, 4), lib.randn(8, 2)

    def train_step(x, y):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        return loss

    def only_step():
        opt.step()

    losses = []
    if mode == "train":
        compiled = lib.compile(train_step, backend=backend)
        losses = [compiled(x, y).item() for _ in range(steps)]
    else:
        compiled = lib.compile(opt.step, backend=backend) if mode == "method" else lib.compile(only_step, backend=backend)
        for _ in range(steps):
            opt.zero_grad()
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            compiled()
            losses.append(loss.item())
    params = [p.detach().numpy().copy() for p in model.parameters()]
    return losses, params, dict(tally["stats"]), sum(tally["graph_break"].values())


def test_adam_foreach_values_as_torch():
    ours, theirs = _run(minitorch2, "adam_foreach", "fn"), _run(torch, "adam_foreach", "fn")
    for a, b in zip(ours[0] + ours[1], theirs[0] + theirs[1]):
        torch.testing.assert_close(torch.as_tensor(a), torch.as_tensor(b), rtol=1e-5, atol=1e-6)


def _check(opt_name, mode, backend="eager"):
    theirs = _run(torch, opt_name, mode, "aot_eager" if backend != "eager" else "eager")
    ours = _run(minitorch2, opt_name, mode, backend)
    for a, b in zip(ours[0] + ours[1], theirs[0] + theirs[1]):
        torch.testing.assert_close(torch.as_tensor(a), torch.as_tensor(b), rtol=1e-5, atol=1e-6)
    assert ours[2:] == theirs[2:]


@pytest.mark.parametrize("mode", ["train", "fn", "method"])
@pytest.mark.parametrize("opt_name", ["sgd", "sgd_momentum", "sgd_nesterov_maximize", "sgd_foreach"])
def test_sgd_steps_split_and_update_as_torch(opt_name, mode):
    _check(opt_name, mode)


@pytest.mark.parametrize("opt_name", ["sgd_momentum", "sgd_foreach"])
@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_train_step_through_aot_backends(backend, opt_name):
    _check(opt_name, "train", backend)


@pytest.mark.parametrize("mode", ["train", "fn", "method"])
@pytest.mark.parametrize("opt_name", ["adam", "adamw", "adam_amsgrad_decay",
                                      "adam_foreach"])
def test_adam_family_steps(opt_name, mode):
    _check(opt_name, mode)


def _data_loader_loop(lib):
    tally, dynamo = (dynamo_counters, torch._dynamo) if lib is torch else (counters, frontend)
    dynamo.reset()
    tally.clear()
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 5), lib.nn.ReLU(), lib.nn.Linear(5, 1))
    opt = lib.optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
    data = lib.utils.data.TensorDataset(lib.randn(12, 3), lib.randn(12, 1))

    @lib.compile(backend="eager")
    def train_step(x, y):
        opt.zero_grad()
        loss = lib.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        return loss

    losses = [train_step(x, y).item() for _ in range(2) for x, y in lib.utils.data.DataLoader(data, batch_size=4)]
    params = [p.detach().numpy().copy() for p in model.parameters()]
    return losses, params, dict(tally["stats"]), sum(tally["graph_break"].values())


def test_data_loader_loop_calling_a_compiled_train_step():
    ours, theirs = _data_loader_loop(minitorch2), _data_loader_loop(torch)
    for a, b in zip(ours[0] + ours[1], theirs[0] + theirs[1]):
        torch.testing.assert_close(torch.as_tensor(a), torch.as_tensor(b), rtol=1e-5, atol=1e-6)
    assert ours[2:] == theirs[2:]


def _with_scheduler(lib, where):
    """SGD with momentum and a StepLR: the scheduler stepped eagerly after a compiled train step, compiled alone, or
    compiled after opt.step() in one function."""
    tally, dynamo = (dynamo_counters, torch._dynamo) if lib is torch else (counters, frontend)
    dynamo.reset()
    tally.clear()
    lib.manual_seed(0)
    model = lib.nn.Linear(4, 2)
    opt = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = lib.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    x, y = lib.randn(8, 4), lib.randn(8, 2)

    def train_step():
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        return loss

    def both_steps():
        opt.step()
        sched.step()

    def scheduler_alone():
        sched.step()

    compiled = lib.compile({"eager": train_step, "alone": scheduler_alone, "both": both_steps}[where], backend="eager")
    for _ in range(3):
        if where == "eager":
            compiled()
            sched.step()
        else:
            opt.zero_grad()
            ((model(x) - y) ** 2).mean().backward()
            compiled() if where == "both" else (opt.step(), compiled())
    params = [p.detach().numpy().copy() for p in model.parameters()]
    return params, opt.param_groups[0]["lr"], dict(tally["stats"]), sum(tally["graph_break"].values())


@pytest.mark.parametrize("where", ["eager", "alone", "both"])
def test_lr_scheduler_steps_as_torch(where):
    ours, theirs = _with_scheduler(minitorch2, where), _with_scheduler(torch, where)
    for a, b in zip(ours[0], theirs[0]):
        torch.testing.assert_close(torch.as_tensor(a), torch.as_tensor(b), rtol=1e-5, atol=1e-6)
    assert ours[1:] == theirs[1:]


@pytest.mark.parametrize("name", ["RMSprop", "RAdam", "ASGD", *[pytest.param(name, marks=pytest.mark.slow) for name in
                                                                  ("Adagrad", "Adadelta", "Adamax", "NAdam", "Rprop")]])
def test_other_optimizers_in_a_compiled_train_step_update_as_torch(name):
    """The other optimizers in a compiled train step (aot_eager): values after 3 steps are torch's (their counts and
    graphs are compared in tests/nn/test_compiled_optimizers.py)."""
    def losses_and_weights(lib):
        lib.manual_seed(0)
        model = lib.nn.Linear(4, 2)
        opt = getattr(lib.optim, name)(model.parameters(), **({} if name == "Adadelta" else {"lr": 0.01}))
        x, y = lib.randn(8, 4), lib.randn(8, 2)

        @lib.compile(backend="aot_eager")
        def train_step(x, y):
            opt.zero_grad()
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
            return loss

        return [train_step(x, y).item() for _ in range(3)], [p.detach().numpy().copy() for p in model.parameters()]

    ours, theirs = losses_and_weights(minitorch2), losses_and_weights(torch)
    for a, b in zip(ours[0] + ours[1], theirs[0] + theirs[1]):
        torch.testing.assert_close(torch.as_tensor(a), torch.as_tensor(b), rtol=1e-5, atol=1e-6)


def _graph_ops(lib, opt_name):
    """Each graph the backend is given, as the ops its nodes call (methods by name, functions by __name__)."""
    dynamo = torch._dynamo if lib is torch else frontend
    dynamo.reset()
    graphs = []

    def recording_backend(gm, example_inputs):
        graphs.append([str(n.target) if n.op == "call_method" else getattr(n.target, "__name__", str(n.target))
                       for n in gm.graph.nodes if n.op in ("call_method", "call_function")])
        return gm.forward

    lib.manual_seed(0)
    model = lib.nn.Linear(4, 2)
    opt = OPTIMIZERS[opt_name](lib, model.parameters())
    x, y = lib.randn(8, 4), lib.randn(8, 2)

    @lib.compile(backend=recording_backend)
    def train_step(x, y):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        return loss

    for _ in range(2):
        train_step(x, y)
    return graphs


@pytest.mark.parametrize("opt_name", ["sgd_momentum", "adam_amsgrad_decay", "adamw", "sgd_foreach"])
def test_train_step_graphs_call_torchs_ops(opt_name):
    assert _graph_ops(minitorch2, opt_name) == _graph_ops(torch, opt_name)
