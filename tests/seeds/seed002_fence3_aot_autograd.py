import torch
import torch.nn as nn
import torch.nn.functional as F
from torch._dynamo.backends.common import aot_autograd
from functorch.compile import make_boxed_func, default_partition, min_cut_rematerialization_partition

def backend(store, **kw):
    def rec(tag):
        def compiler(gm, example_inputs):
            store[tag] = gm
            return make_boxed_func(gm.forward)
        return compiler
    return aot_autograd(fw_compiler=rec("fw"), bw_compiler=rec("bw"), **kw)

torch._dynamo.reset()
try:
    torch.manual_seed(0)
    model, x, seen = nn.Sequential(nn.Linear(4, 4), nn.GELU()), torch.randn(3, 4), {}
    torch.compile(model, backend=backend(seen))(x).sum().backward()
    got = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    model(x).sum().backward()
    for g, p in zip(got, model.parameters()):
        torch.testing.assert_close(g, p.grad, atol=1e-6, rtol=1e-6)
    counts = {}
    for tag, gm in seen.items():
        calls = [n for n in gm.graph.nodes if n.op == "call_function"]
        assert all(isinstance(n.target, torch._ops.OpOverload) for n in calls)
        counts[tag] = len(calls)
    assert set(counts) == {"fw", "bw"}

    saved = {}
    for name, pf in (("default", default_partition), ("min_cut", min_cut_rematerialization_partition)):
        torch._dynamo.reset()
        g = {}
        f = torch.compile(lambda a, w: (F.gelu(a) * w).sum(), backend=backend(g, partition_fn=pf))
        f(torch.randn(16, 16, requires_grad=True), torch.randn(16, 16, requires_grad=True)).backward()
        saved[name] = [n.name for n in g["bw"].graph.nodes if n.op == "placeholder" and not n.name.startswith("tangents")]
    assert "gelu" in saved["default"] and "gelu" not in saved["min_cut"], saved
finally:
    torch._dynamo.reset()
print(f"fw/bw call_function nodes {counts}; saved for backward {saved}")
