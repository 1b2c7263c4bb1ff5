"""The built-in demo of `python -m minitorch2 run` (no script given).

CLI layer, run by run.py; it imports the layers its three parts show.

Part 1, the runtime alone: a two-layer network's forward and backward, the
grad_fn chain eager autograd recorded (as PyTorch names its nodes) and the aten
ops the backward ran, seen through a TorchDispatchMode.

Part 2, one call through the compiler stack (seed 000's "one call, three
graphs"): the graph the frontend hands a backend, then the AOT forward and
backward graphs of aten ops that autograd/ and partition/ make of it. The
backward graph is compiled lazily, at `.backward()`.

Part 3, the same call through the default "inductor" backend: the fused
loop-level kernels backend/ generated for the forward and backward graphs
(each becomes one LLVM function; MINITORCH2_LOGS=output_code prints them).
"""
import backend
import minitorch2 as torch
from autograd import aot_module_simplified, make_boxed_func
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


class _MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 4)

    def forward(self, x):
        return torch.relu(self.fc(x)).sum()


def _three_graphs():
    def show(tag):
        def compiler(gm, inputs):
            print(f"--- {tag}")
            print(gm.code.strip())
            return make_boxed_func(gm.forward)

        return compiler

    def printing_backend(gm, example_inputs):
        print("--- what the frontend handed the backend")
        print(gm.code.strip())
        return aot_module_simplified(gm, example_inputs, fw_compiler=show("aot forward"),
                                     bw_compiler=show("aot backward"))

    torch.manual_seed(0)
    loss = torch.compile(_MLP(), backend=printing_backend)(torch.randn(2, 3))
    loss.backward()


def _fused_kernels():
    backend.metrics.reset()
    torch.manual_seed(0)
    loss = torch.compile(_MLP())(torch.randn(2, 3))
    loss.backward()
    for graph in backend.metrics.graphs:
        print(f"--- {graph.name}: {len(graph.kernels)} fused kernel(s)")
        for kernel in graph.kernels:
            print(kernel)


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
    print()
    print("=== one call, three graphs")
    _three_graphs()
    print()
    print("=== the same call through the inductor backend: fused kernels")
    _fused_kernels()


if __name__ == "__main__":
    main()
