"""torch.compiler and torch._logging.set_logs as scripts use them (run unchanged on torch and on minitorch2)."""
import logging

import torch
import torch._dynamo


def f(x):
    if torch.compiler.is_compiling():
        return x + 1
    return x - 1


def g(x):
    return x * 2 if torch._dynamo.is_compiling() else x / 2


print(f(torch.ones(2)), torch.compile(f, backend="eager")(torch.ones(2)), torch.compile(g, backend="eager")(torch.ones(2)))
print(torch.compiler.is_compiling(), torch.compiler.is_dynamo_compiling(), torch.compiler.is_exporting())
torch.compiler.reset()
triple = torch.compiler.disable(lambda x: x * 3)
print(torch.compiler.compile(lambda x: triple(x) + 1, backend="aot_eager")(torch.ones(2)))
print("inductor" in torch.compiler.list_backends(), torch.compiler.compile is torch.compile)

torch._logging.set_logs(graph_code=True)
torch.compile(lambda x: x.sin() + 1, backend="eager")(torch.ones(2))
torch._logging.set_logs(dynamo=logging.WARNING)
torch.compile(lambda x: x.cos() + 1, backend="eager")(torch.ones(2))
print("done")
