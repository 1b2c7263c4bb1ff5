"""Modules Dynamo refuses to trace (nn.RNN, GRU, LSTM with allow_rnn off; a torch.jit.script module) called at
different places: in the compiled function itself (read as a global, passed as an argument), or inside a helper it
calls. Dynamo resumes after a break inside a helper's call; a refusal in the frame itself goes back to the last
checkpoint (an instruction with an empty stack once two ops are traced) and runs the rest eagerly. (Read from a
plain object's attribute into a local, Dynamo runs the whole frame eagerly: tests/frontend/test_fuzz_s26_classes.py.)"""
import torch
import torch._dynamo
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.GRU(4, 4)
scripted = torch.jit.script(nn.Linear(4, 4))
x = torch.randn(2, 4)


def call_rnn(z):
    return rnn(z)[0]


def call_scripted(z):
    return scripted(z)


def global_rnn(x):
    y = x.sin().cos().exp() + 1
    z = y * 3
    return rnn(z)[0] * 2


def global_scripted(x):
    y = x.sin().cos().exp() + 1
    z = y * 3
    return scripted(z) * 2


def rnn_in_helper(x):
    y = x.sin().cos().exp() + 1
    z = y * 3
    return call_rnn(z) * 2


def scripted_in_helper(x):
    y = x.sin().cos().exp() + 1
    z = y * 3
    return call_scripted(z) * 2


def argument(x, module):
    y = x.sin().cos().exp() + 1
    z = y * 3
    out = module(z)
    return (out[0] if isinstance(out, tuple) else out) * 2


def argument_one_op(x, module):
    y = x.sin()
    return module(y) * 2


def attribute_read(x, holder):
    y = x.sin().cos()
    m = holder.module
    out = m(y)
    return (out[0] if isinstance(out, tuple) else out) + 1


class Holder(nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module


for fn, args in ((global_rnn, (x,)), (global_scripted, (x,)), (rnn_in_helper, (x,)), (scripted_in_helper, (x,)),
                 (argument, (x, rnn)), (argument, (x, scripted)), (argument_one_op, (x, scripted)),
                 (attribute_read, (x, Holder(scripted))), (attribute_read, (x, Holder(rnn)))):
    torch._dynamo.reset()
    explained = torch._dynamo.explain(fn)(*args)
    value = torch.compile(fn)(*args)
    print(f"{fn.__name__:20s} graphs {explained.graph_count} breaks {explained.graph_break_count} "
          f"ops {explained.op_count} sum {value.sum().item():.5f}")
