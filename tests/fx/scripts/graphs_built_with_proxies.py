"""Graphs built by hand with torch.fx.Proxy, as the FX docs and pytorch/examples do: torch functions called on
Proxies record nodes (torch routes them through __torch_function__)."""
import operator

import torch
import torch.fx as fx
import torch.nn.functional as F
from torch.fx import Graph, GraphModule, Proxy
from torch.fx.node import map_arg

# 1. A graph appended to directly, through one GraphAppendingTracer.
graph = Graph()
tracer = torch.fx.proxy.GraphAppendingTracer(graph)
x = Proxy(graph.placeholder("x"), tracer)
y = Proxy(graph.placeholder("y"), tracer)
joined = torch.cat([x, y], dim=0)
squashed = torch.tanh(joined) * 2
out = F.relu(torch.neg(squashed)).sum(dim=-1, keepdim=True)
graph.output(torch.stack([out, out.clamp(min=0.5)]).node)
built = GraphModule(torch.nn.Module(), graph)
print(built.code)
print(built(torch.arange(6.0).reshape(2, 3) - 3, torch.ones(1, 3)))


# 2. The docs' decomposition transform: each relu node replaced by the nodes its decomposition records.
def relu_decomposition(v):
    return (v > 0) * v


def swish_decomposition(v):
    return v * torch.sigmoid(v)


decompositions = {F.relu: relu_decomposition, F.silu: swish_decomposition}


class Block(torch.nn.Module):
    def forward(self, v):
        return F.silu(F.relu(v) - 1.0) + v


def decompose(module):
    traced = fx.symbolic_trace(module)
    new_graph = fx.Graph()
    env = {}
    appender = torch.fx.proxy.GraphAppendingTracer(new_graph)
    for node in traced.graph.nodes:
        if node.op == "call_function" and node.target in decompositions:
            proxy_args = [Proxy(env[a.name], appender) if isinstance(a, fx.Node) else a for a in node.args]
            env[node.name] = decompositions[node.target](*proxy_args).node
        else:
            env[node.name] = new_graph.node_copy(node, lambda n: env[n.name])
    return fx.GraphModule(traced, new_graph)


decomposed = decompose(Block())
print(decomposed.code)
sample = torch.linspace(-2, 2, 5)
print(decomposed(sample), Block()(sample))


# 3. A leaf module call inlined into the traced graph through Proxies (pytorch/examples fx/inline_function.py).
class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.act = torch.nn.GELU()

    def forward(self, v):
        return self.act(v) * 3.0


traced = fx.symbolic_trace(Scaled())
inliner = torch.fx.proxy.GraphAppendingTracer(traced.graph)
for node in list(traced.graph.nodes):
    if (node.op, node.target) == ("call_module", "act"):
        with traced.graph.inserting_before(node):
            proxy_args = map_arg(node.args, lambda n: Proxy(n, inliner))
            inlined = F.gelu(*proxy_args, approximate="tanh") + 1.0
            node.replace_all_uses_with(inlined.node)
            traced.graph.erase_node(node)
traced.recompile()
print(traced.code)
print([n.target for n in traced.graph.nodes if n.op == "call_function"] == [F.gelu, operator.add, operator.mul])
print(traced(torch.tensor([-1.0, 0.5])))

# 4. The rest of the program still runs as before: tracing, compiling and eager calls.
print(fx.symbolic_trace(Block()).code)
compiled = torch.compile(lambda v: torch.sigmoid(v) + v.cos(), backend="eager")
print(compiled(sample))
print(torch.relu(sample), torch.add(sample, 1, alpha=2))
