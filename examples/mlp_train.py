"""Train a small MLP on random data, printing the loss at every step.

Runs unchanged on PyTorch (`python examples/mlp_train.py`) and on minitorch2
(`python -m minitorch2 run examples/mlp_train.py`); the printed losses agree
to float32 rounding because initialisation, data and updates are the same.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Dropout(0.1), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
inputs = torch.randn(256, 64)
targets = torch.randint(0, 10, (256,))

for step in range(20):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(inputs), targets)
    loss.backward()
    optimizer.step()
    print(f"step {step:2d}  loss {loss.item():.6f}")
