import torch
import torch.fx
import torch.fx as fx
from torch.fx import symbolic_trace, Transformer, Interpreter, GraphModule
import operator
class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.param = torch.nn.Parameter(torch.rand(3, 4))
        self.linear = torch.nn.Linear(4, 5)
    def forward(self, x):
        return self.linear(x + self.param).clamp(min=0.0, max=1.0)
module = MyModule()
symbolic_traced = symbolic_trace(module)
print(symbolic_traced.graph)
print(symbolic_traced.code)
symbolic_traced.graph.print_tabular() if False else None
for node in symbolic_traced.graph.nodes:
    print(node.op, node.name, node.target if node.op != "call_function" else node.target.__name__, node.args, node.kwargs)
def transform(m: torch.nn.Module) -> torch.nn.Module:
    gm = torch.fx.symbolic_trace(m)
    for node in gm.graph.nodes:
        if node.op == 'call_method' and node.target == 'clamp':
            node.target = 'relu'
            node.kwargs = {}
    gm.graph.lint()
    gm.recompile()
    return gm
t = transform(MyModule())
print(t.code)
class NegSigmSwapXformer(Transformer):
    def call_function(self, target, args, kwargs):
        if target == torch.sigmoid:
            return torch.neg(*args, **kwargs)
        return super().call_function(target, args, kwargs)
    def call_method(self, target, args, kwargs):
        if target == 'neg':
            call_self, *args_tail = args
            return call_self.sigmoid(*args_tail, **kwargs)
        return super().call_method(target, args, kwargs)
def fn(x):
    return torch.sigmoid(x).neg()
gm = torch.fx.symbolic_trace(fn)
transformed = NegSigmSwapXformer(gm).transform()
inp = torch.randn(3, 4, generator=torch.Generator().manual_seed(0))
print(transformed.code)
torch.testing.assert_close(transformed(inp), torch.neg(inp).sigmoid())
class CountInterp(Interpreter):
    def run_node(self, n):
        r = super().run_node(n)
        print("ran", n.name, tuple(r.shape) if isinstance(r, torch.Tensor) else r)
        return r
torch.manual_seed(0)
m = MyModule()
gm = symbolic_trace(m)
print(CountInterp(gm).run(torch.ones(3, 4)))
def pattern(x, y):
    return torch.add(x, y)
def replacement(x, y):
    return torch.mul(x, y)
def f(a, b):
    c = torch.add(a, b)
    return torch.add(c, b)
traced = symbolic_trace(f)
matches = torch.fx.replace_pattern(traced, pattern, replacement)
print(len(matches))
print(traced.code)
print(traced(torch.tensor(2.), torch.tensor(3.)))
from torch.fx.passes.shape_prop import ShapeProp
gm = symbolic_trace(MyModule())
ShapeProp(gm).propagate(torch.ones(3, 4))
for node in gm.graph.nodes:
    tm = node.meta.get('tensor_meta')
    print(node.name, tm.dtype if tm is not None else None, tuple(tm.shape) if tm is not None else None)
g = torch.fx.Graph()
x = g.placeholder('x')
y = g.call_function(torch.relu, (x,))
z = g.call_method('sum', (y,), {'dim': 0})
g.output(z)
gm2 = GraphModule(torch.nn.Module(), g)
print(gm2.code)
print(gm2(torch.tensor([[-1., 2.], [3., -4.]])))
def cond(x, flag: bool):
    return x * 2 if flag else x
t2 = symbolic_trace(cond, concrete_args={'flag': True})
print(t2(torch.ones(2), True))
class M2(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 2, 3)
        self.bn = torch.nn.BatchNorm2d(2)
    def forward(self, x):
        y = self.bn(self.conv(x))
        return torch.relu(y) + y.size(0) * 2, y.shape[1]
gm = fx.symbolic_trace(M2())
print(gm.code)

for n in gm.graph.nodes:
    print(n.name, [u.name for u in n.users], n.all_input_nodes and [a.name for a in n.all_input_nodes])
def fn(x):
    return x + 1, x * 2
g = fx.symbolic_trace(fn)
for node in g.graph.nodes:
    if node.op == 'call_function' and node.target == operator.add:
        with g.graph.inserting_after(node):
            new = g.graph.call_function(torch.mul, (node, 10))
            node.replace_all_uses_with(new)
            new.args = (node, 10)
g.recompile()
print(g.code)
print(g(torch.ones(2)))
class Tracer2(fx.Tracer):
    def is_leaf_module(self, m, qualname):
        return isinstance(m, torch.nn.BatchNorm2d) or super().is_leaf_module(m, qualname)
graph = Tracer2().trace(M2())
print([n.op for n in graph.nodes])
gm3 = fx.GraphModule(M2(), graph)
print(gm3(torch.ones(1, 1, 5, 5))[0].shape)
print(str(gm3.graph).count("call_module"))
gm4 = fx.symbolic_trace(lambda x: torch.cat([x, x], dim=0).sum(dim=-1, keepdim=True))
print(gm4.code)
@fx.wrap
def my_helper(x):
    return x.sum() if x.dim() > 1 else x
def uses(x):
    return my_helper(x) + 1
print(fx.symbolic_trace(uses).code)
gm5 = fx.symbolic_trace(torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU()))
gm5.graph.eliminate_dead_code()
print(gm5)
try:
    fx.symbolic_trace(lambda x: x * 2 if x.sum() > 0 else x)
except Exception as e:
    print(type(e).__name__, str(e)[:70])
nodes = list(gm5.graph.nodes)
print(nodes[1].format_node())
gm5.graph.erase_node if False else None
print(gm5.print_readable(print_output=False)[:40])
