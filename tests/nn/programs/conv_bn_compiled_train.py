"""A small conv net with batch norm trained five steps under torch.compile (the inductor), as image-classification
examples do: the compiled training step updates BatchNorm's running statistics and num_batches_tracked as eager
does; then eval mode, where the running statistics normalize."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
    nn.Conv2d(8, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8, momentum=0.2), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))
images = torch.randn(5, 6, 3, 8, 8)
labels = torch.randint(0, 4, (5, 6))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
step = torch.compile(model)
for i in range(5):
    loss = nn.functional.cross_entropy(step(images[i]), labels[i])
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {i}: loss {loss.item():.4f}")
bn = model[1]
print("running mean", [round(v, 4) for v in bn.running_mean.tolist()])
print("running var", [round(v, 4) for v in bn.running_var.tolist()])
print("batches tracked", bn.num_batches_tracked.item(), model[4].num_batches_tracked.item())
model.eval()
with torch.no_grad():
    print("eval", [round(v, 3) for v in step(images[0])[:2].flatten().tolist()])
