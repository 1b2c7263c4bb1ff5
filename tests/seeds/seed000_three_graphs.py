import torch
import torch.nn as nn
from torch._functorch.aot_autograd import aot_module_simplified
from functorch.compile import make_boxed_func

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)
    def forward(self, x):
        return torch.relu(self.fc(x)).sum()

def show(tag):
    def compiler(gm, inputs):
        print(f"--- {tag}")
        print(gm.code.strip())
        return make_boxed_func(gm.forward)
    return compiler

def backend(gm, example_inputs):
    print("--- what dynamo handed the backend")
    print(gm.code.strip())
    return aot_module_simplified(gm, example_inputs,
                                 fw_compiler=show("aot forward"),
                                 bw_compiler=show("aot backward"))

torch.manual_seed(0)
loss = torch.compile(MLP(), backend=backend)(torch.randn(2, 3))
loss.backward()

