"""A small U-Net for binary segmentation: double-conv blocks with BatchNorm, max-pool down, ConvTranspose2d up,
skip connections joined with torch.cat, BCEWithLogits + soft Dice loss, IoU of the sigmoid > 0.5 mask; a training
step also run compiled."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DoubleConv(nn.Sequential):
    def __init__(self, cin, cout):
        super().__init__(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                         nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class UNet(nn.Module):
    def __init__(self, cin=3, base=8):
        super().__init__()
        self.inc = DoubleConv(cin, base)
        self.down1 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(base, base * 2))
        self.down2 = nn.Sequential(nn.MaxPool2d(2), DoubleConv(base * 2, base * 4))
        self.up1 = nn.ConvTranspose2d(base * 4, base * 2, 2, stride=2)
        self.conv1 = DoubleConv(base * 4, base * 2)
        self.up2 = nn.ConvTranspose2d(base * 2, base, 2, stride=2)
        self.conv2 = DoubleConv(base * 2, base)
        self.outc = nn.Conv2d(base, 1, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        u = self.up1(x3)
        dy, dx = x2.size(2) - u.size(2), x2.size(3) - u.size(3)
        u = F.pad(u, [dx // 2, dx - dx // 2, dy // 2, dy - dy // 2])
        u = self.conv1(torch.cat([x2, u], dim=1))
        u = self.conv2(torch.cat([x1, self.up2(u)], dim=1))
        return self.outc(u)


def dice_loss(logits, target, eps=1.0):
    probs = torch.sigmoid(logits)
    inter = (probs * target).sum(dim=(1, 2, 3))
    union = probs.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


def iou(logits, target):
    pred = (torch.sigmoid(logits) > 0.5).float()
    inter = (pred * target).sum()
    return (inter / (pred + target - pred * target).sum().clamp(min=1)).item()


images = torch.randn(4, 3, 16, 16)
yy, xx = torch.meshgrid(torch.arange(16), torch.arange(16), indexing="ij")
masks = (((yy - 8) ** 2 + (xx - 8) ** 2) < 20).float().expand(4, 1, 16, 16).contiguous()
model = UNet()
bce = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(5):
    logits = model(images)
    loss = bce(logits, masks) + dice_loss(logits, masks)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} iou {iou(logits, masks):.4f}")
print("running mean", [round(v, 4) for v in model.inc[1].running_mean[:4].tolist()])

compiled = torch.compile(model, backend="aot_eager")
logits = compiled(images)
loss = bce(logits, masks) + dice_loss(logits, masks)
opt.zero_grad()
loss.backward()
print("compiled loss", round(loss.item(), 4), "up1 grad", round(model.up1.weight.grad.norm().item(), 4))
model.eval()
with torch.no_grad():
    pred = torch.sigmoid(compiled(images[:1])) > 0.5
print("eval positives", int(pred.sum()), "shape", tuple(pred.shape))
