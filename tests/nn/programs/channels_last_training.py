"""timm's channels-last training: model.to(memory_format=torch.channels_last) (which left the 4-d weights
contiguous: their gradients had other strides than torch's), a conv/BatchNorm/depthwise/GroupNorm net trained eagerly
and compiled, and interpolate (nearest, bilinear) of a channels-last input, whose output and input gradient are
channels-last as ATen allocates them. (Compiled, the graphs still differ after the GroupNorm, which both keep as
native_group_norm: the flatten of the channels-last pooled output and the running statistics' copy_; stdout only.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1,
                      groups=8), nn.GroupNorm(2, 8), nn.SiLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))
model = model.to(memory_format=torch.channels_last)
x = torch.randn(4, 3, 8, 8).to(memory_format=torch.channels_last)
y = torch.tensor([0, 1, 2, 3])
print(model[0].weight.is_contiguous(memory_format=torch.channels_last), x.stride())
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
for step in range(3):
    out = model(x)
    loss = F.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", model[0].weight.grad.stride())
cm = torch.compile(model)
for step in range(3):
    loss = F.cross_entropy(cm(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("compiled", step, f"{loss.item():.5f}")
h = model[:3](x)
print(h.stride(), F.interpolate(h, scale_factor=2, mode="nearest").stride(), F.avg_pool2d(h, 2).stride())
x = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last).requires_grad_()
for mode in ("nearest", "bilinear"):
    kw = {} if mode == "nearest" else {"align_corners": False}
    y = F.interpolate(x, scale_factor=2, mode=mode, **kw)
    g = torch.randn(2, 3, 8, 10)
    (y * g).sum().backward()
    print(mode, y.stride(), x.grad.stride(), f"{y.sum().item():.5f}", f"{x.grad.sum().item():.5f}")
    x.grad = None
    gcl = g.to(memory_format=torch.channels_last)
    y = F.interpolate(x.detach().contiguous().requires_grad_(), scale_factor=2, mode=mode, **kw)
    print(y.stride())
