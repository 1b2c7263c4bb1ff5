from collections import Counter
import torch
import torch.nn as nn
from torch.fx import Interpreter, symbolic_trace

class CountingInterpreter(Interpreter):
    def __init__(self, gm):
        super().__init__(gm)
        self.calls = Counter()
    def run_node(self, n):
        if n.op in ("call_function", "call_module"):
            self.calls[n.op] += 1
        return super().run_node(n)

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = nn.Linear(6, 8), nn.Linear(8, 2)
    def forward(self, x):
        return self.l2(torch.relu(self.l1(x))) + 1.0

torch.manual_seed(0)
model = MLP()
gm = symbolic_trace(model)
x = torch.randn(5, 6)
interp = CountingInterpreter(gm)
out = interp.run(x)

static = Counter(n.op for n in gm.graph.nodes if n.op in ("call_function", "call_module"))
assert interp.calls == static, (interp.calls, static)
assert static == Counter({"call_module": 2, "call_function": 2})
torch.testing.assert_close(out, model(x))
print(f"executed {dict(interp.calls)} == graph {dict(static)}")
