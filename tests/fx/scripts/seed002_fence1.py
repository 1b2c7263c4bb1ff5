import operator
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.fx import symbolic_trace

class Swish(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
    def forward(self, x):
        y = self.lin(x)
        return y * torch.sigmoid(y)

torch.manual_seed(0)
model = Swish()
gm = symbolic_trace(model)
assert [n.op for n in gm.graph.nodes] == ["placeholder", "call_module", "call_function", "call_function", "output"]

for node in list(gm.graph.nodes):
    if node.op == "call_function" and node.target is operator.mul:
        y, sig = node.args
        if getattr(sig, "target", None) is torch.sigmoid and sig.args[0] is y:
            with gm.graph.inserting_after(node):
                silu = gm.graph.call_function(F.silu, (y,))
            node.replace_all_uses_with(silu)
            gm.graph.erase_node(node)
            gm.graph.erase_node(sig)
gm.graph.lint()
gm.recompile()

targets = [n.target for n in gm.graph.nodes if n.op == "call_function"]
assert F.silu in targets and torch.sigmoid not in targets and operator.mul not in targets
x = torch.randn(3, 4)
torch.testing.assert_close(gm(x), model(x), atol=1e-6, rtol=1e-6)
print("rewritten forward:", " | ".join(l.strip() for l in gm.code.strip().splitlines()[1:]))
