"""Train a small convolutional network with BatchNorm, printing the loss at every step.

Runs unchanged on PyTorch and on minitorch2 (`python -m minitorch2 run examples/cnn_bn.py`).
At the end it checks eval mode: the running statistics BatchNorm accumulated.
The convolutions have no bias: BatchNorm cancels it, so its gradient is rounding
noise, which Adam would amplify into steps that differ between any two libraries.
"""
import torch
import torch.nn as nn


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(16, 5)

    def forward(self, x):
        return self.head(torch.flatten(self.features(x), 1))


torch.manual_seed(0)
model = ConvNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
images = torch.randn(16, 3, 12, 12)
labels = torch.randint(0, 5, (16,))

for step in range(20):
    optimizer.zero_grad()
    loss = loss_fn(model(images), labels)
    loss.backward()
    optimizer.step()
    print(f"step {step:2d}  loss {loss.item():.6f}")

model.eval()
with torch.no_grad():
    print(f"eval loss {loss_fn(model(images), labels).item():.6f}")
print(f"batches tracked {model.features[1].num_batches_tracked.item()}")
