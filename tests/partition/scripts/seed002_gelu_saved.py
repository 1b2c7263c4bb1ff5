import torch
import torch.nn.functional as F
from torch._dynamo.backends.common import aot_autograd
from functorch.compile import aot_function, make_boxed_func, default_partition, min_cut_rematerialization_partition


def backend(store, **kw):
    def rec(tag):
        def compiler(gm, example_inputs):
            store[tag] = gm
            return make_boxed_func(gm.forward)
        return compiler
    return aot_autograd(fw_compiler=rec("fw"), bw_compiler=rec("bw"), **kw)


saved = {}
for name, pf in (("default", default_partition), ("min_cut", min_cut_rematerialization_partition)):
    torch._dynamo.reset()
    g = {}
    f = torch.compile(lambda a, w: (F.gelu(a) * w).sum(), backend=backend(g, partition_fn=pf))
    f(torch.randn(16, 16, requires_grad=True), torch.randn(16, 16, requires_grad=True)).backward()
    saved[name] = [n.name for n in g["bw"].graph.nodes if n.op == "placeholder" and not n.name.startswith("tangents")]
    for tag in ("fw", "bw"):
        nodes = g[tag].graph.nodes
        print(name, tag, "inputs", [n.name for n in nodes if n.op == "placeholder"])
        print(name, tag, "ops", [str(n.target) for n in nodes if n.op == "call_function"])
        print(name, tag, "returns", [str(a) for a in g[tag].graph.output_node().args[0]])
assert "gelu" in saved["default"] and "gelu" not in saved["min_cut"], saved
print(f"saved for backward {saved}")

# Linear -> GELU -> Linear: the weight gradient reads gelu through mm, which cannot fuse, so min-cut saves it too.


def mlp(x, w1, b1, w2, b2):
    return F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2).sum()


torch.manual_seed(0)
x = torch.randn(4, 8)
params = [torch.randn(16, 8), torch.randn(16), torch.randn(8, 16), torch.randn(8)]
for name, partition_fn in (("default", default_partition), ("min_cut", min_cut_rematerialization_partition)):
    graphs = {}

    def keep(tag):
        def compiler(gm, inputs):
            graphs[tag] = gm
            return make_boxed_func(gm.forward)
        return compiler

    args = [x] + [p.clone().requires_grad_() for p in params]
    aot_function(mlp, fw_compiler=keep("fw"), bw_compiler=keep("bw"), partition_fn=partition_fn)(*args).backward()
    saved = [n.name for n in graphs["bw"].graph.nodes if n.op == "placeholder" and not n.name.startswith("tangents")]
    print(f"{name}: saves {saved}")
    print(graphs["bw"].code.strip())
    print("grad of w1:", [round(v, 4) for v in args[1].grad[0, :4].tolist()])
