"""A fast-style-transfer image net in small (reflection-padded convolutions, instance norms, a nearest upsample),
trained compiled against Gram-matrix style and content losses of a fixed feature net, as a style-transfer script."""
from collections import namedtuple

import torch
import torch.nn.functional as F
from torch import nn


class PaddedConv(nn.Module):
    def __init__(self, c_in, c_out, kernel, stride=1, upsample=None):
        super().__init__()
        self.upsample = upsample
        self.pad = nn.ReflectionPad2d(kernel // 2)
        self.conv = nn.Conv2d(c_in, c_out, kernel, stride)

    def forward(self, x):
        if self.upsample:
            x = F.interpolate(x, mode="nearest", scale_factor=self.upsample)
        return self.conv(self.pad(x))


class Stylizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = PaddedConv(3, 8, 3, stride=2)
        self.norm = nn.InstanceNorm2d(8, affine=True)
        self.up = PaddedConv(8, 3, 3, upsample=2)

    def forward(self, x):
        return self.up(F.relu(self.norm(self.down(x))))


Features = namedtuple("Features", ["low", "high"])


class FixedFeatures(nn.Module):
    def __init__(self):
        super().__init__()
        self.low = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU())
        self.high = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(4, 4, 3, padding=1), nn.ReLU())
        self.requires_grad_(False)

    def forward(self, x):
        low = self.low(x)
        return Features(low, self.high(low))


def gram(y):
    b, c, h, w = y.size()
    flat = y.view(b, c, h * w)
    return flat.bmm(flat.transpose(1, 2)) / (c * h * w)


torch.manual_seed(0)
stylizer, features = Stylizer(), FixedFeatures()
compiled = torch.compile(stylizer, backend="aot_eager")
optimizer = torch.optim.Adam(stylizer.parameters(), 1e-2)
style_grams = [gram(f) for f in features(torch.rand(2, 3, 8, 8))]
for step in range(2):
    images = torch.rand(2, 3, 8, 8)
    optimizer.zero_grad()
    out, target = features(compiled(images)), features(images)
    content = F.mse_loss(out.high, target.high)
    style = sum(F.mse_loss(gram(o), g) for o, g in zip(out, style_grams))
    (content + 10 * style).backward()
    optimizer.step()
    print(f"step {step}: content {content.item():.5f} style {style.item():.6f}")
