"""Known differences from Dynamo closed in session 30: an optimizer step a learning-rate scheduler wrapped, compiled.

A scheduler replaces `opt.step` by a wrapper that notes the optimizer stepped (torch.optim.lr_scheduler's, a file
Dynamo skips). `torch.compile(opt.step)` then starts at a frame Dynamo does not trace: the wrapper runs as written
and the optimizer's step it calls compiles as frames of its own (2 graphs for SGD with momentum). A tensor lr stays
the same tensor, filled by each scheduler step (torch's _update_param_group_val), so OneCycleLR's float rates keep
the compiled step's lr a tensor.
"""
import pytest
import torch
from torch._dynamo.testing import CompileCounter as TorchCounter

import frontend
import minitorch2
from frontend.testing import CompileCounter

SCHEDULERS = {
    "LambdaLR": lambda S, opt: S.LambdaLR(opt, lambda epoch: 0.9 ** epoch),
    "StepLR": lambda S, opt: S.StepLR(opt, 1, 0.5),
    "OneCycleLR": lambda S, opt: S.OneCycleLR(opt, 0.1, total_steps=10),
}


def _train(lib, counter, reset, name, tensor_lr):
    """Three steps of a compiled `opt.step` the scheduler wrapped, each followed by the scheduler's step."""
    reset()
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    lr = lib.tensor(0.01) if tensor_lr else 0.01
    opt = lib.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    sched = SCHEDULERS[name](lib.optim.lr_scheduler, opt)
    x, y = lib.randn(4, 3), lib.randn(4, 2)
    step = lib.compile(opt.step, backend=counter)
    for _ in range(3):
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        step()
        sched.step()
    group_lr = opt.param_groups[0]["lr"]
    return dict(frames=counter.frame_count, ops=counter.op_count, weight=model.weight.detach().flatten().tolist(),
                lr_is_tensor=isinstance(group_lr, lib.Tensor), same_lr=group_lr is lr,
                lr=float(group_lr), last_lr=float(sched.get_last_lr()[0]), stepped=opt._opt_called)


@pytest.mark.parametrize("tensor_lr", [False, True], ids=["float_lr", "tensor_lr"])
@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_compiled_step_wrapped_by_scheduler_as_dynamo(name, tensor_lr):
    ours = _train(minitorch2, CompileCounter(), frontend.reset, name, tensor_lr)
    theirs = _train(torch, TorchCounter(), torch._dynamo.reset, name, tensor_lr)
    assert (ours["frames"], ours["ops"]) == (theirs["frames"], theirs["ops"])
    assert ours["frames"] == 2  # (the step compiles: never 0, as when the wrapper's resume ran uncompiled)
    for key in ("lr_is_tensor", "same_lr", "stepped"):
        assert ours[key] == theirs[key], key
    assert ours["lr"] == pytest.approx(theirs["lr"], rel=1e-6)
    assert ours["last_lr"] == pytest.approx(theirs["last_lr"], rel=1e-6)
    assert ours["weight"] == pytest.approx(theirs["weight"], rel=1e-5, abs=1e-7)


def test_scheduler_last_lr_is_not_the_tensor_lr_it_fills():
    """get_last_lr() and base_lrs hold copies: filling the group's tensor lr leaves them as they were."""
    def rates(lib):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(2))], lr=lib.tensor(0.1))
        sched = lib.optim.lr_scheduler.StepLR(opt, 1, 0.5)
        before = sched.get_last_lr()[0]
        opt.step()
        sched.step()
        return [float(before), float(sched.get_last_lr()[0]), float(sched.base_lrs[0]),
                float(opt.param_groups[0]["initial_lr"]), float(opt.param_groups[0]["lr"])]
    assert rates(minitorch2) == pytest.approx(rates(torch))


def test_compiling_a_disabled_function_compiles_the_function():
    """frontend.disable(recursive=False)'s wrapper, compiled: the function it wraps compiles (Dynamo's innermost_fn),
    unlike the scheduler's wrapper, which has no such link."""
    def run(lib, dynamo, counter):
        dynamo.reset()

        def f(x):
            return (x + 1).sin()
        lib.compile(dynamo.disable(f, recursive=False), backend=counter)(lib.ones(3))
        return counter.frame_count, counter.op_count
    assert run(minitorch2, frontend, CompileCounter()) == run(torch, torch._dynamo, TorchCounter())
