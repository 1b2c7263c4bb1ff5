import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import orthogonal

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), orthogonal(nn.Linear(8, 8)), nn.Linear(8, 2))
compiled = torch.compile(model, backend="aot_eager")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(16, 6), torch.randn(16, 2)
for step in range(3):
    loss = (compiled(x) - y).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
