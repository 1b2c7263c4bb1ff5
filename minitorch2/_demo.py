"""The built-in demo of `python -m minitorch2 run` (no script given).

A two-layer network's forward and backward on the runtime alone: the loss,
the grad_fn chain autograd recorded (as PyTorch names its nodes), and the
aten ops the backward ran, seen through a TorchDispatchMode. Later layers of
the stack extend this demo with the graphs they produce.
"""
import minitorch2 as torch
from minitorch2.utils._python_dispatch import TorchDispatchMode


class _OpLog(TorchDispatchMode):
    def __init__(self):
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def _chain(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or id(fn) in seen:
        return
    seen.add(id(fn))
    print("  " * depth + fn.name())
    for next_fn, _ in fn.next_functions:
        _chain(next_fn, depth + 1, seen)


def main():
    torch.manual_seed(0)
    x = torch.randn(4, 3)
    w1 = torch.randn(3, 8, requires_grad=True)
    b1 = torch.zeros(8, requires_grad=True)
    w2 = torch.randn(8, 1, requires_grad=True)
    hidden = torch.relu(torch.addmm(b1, x, w1))
    loss = (hidden @ w2).tanh().mean()
    print(f"loss = {loss}")
    print("--- grad_fn chain recorded by eager autograd")
    _chain(loss.grad_fn)
    log = _OpLog()
    with log:
        loss.backward()
    print("--- aten ops run by loss.backward()")
    print(", ".join(log.ops))
    print("--- gradients")
    print(f"w2.grad = {w2.grad.view(-1)}")
    print(f"b1.grad = {b1.grad}")


if __name__ == "__main__":
    main()
