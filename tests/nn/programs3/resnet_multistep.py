"""A ResNet-ish CNN as torchvision writes it: BasicBlocks with BatchNorm, kaiming_normal_ init (fan_out, relu),
zero-init of the last BN in each block, channels_last, SGD with nesterov momentum and MultiStepLR; BatchNorm's
running statistics in train and eval, and the model compiled for evaluation."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def conv3x3(in_planes, out_planes, stride=1):
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=1, bias=False)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class ResNet(nn.Module):
    def __init__(self, layers=(1, 1), num_classes=4):
        super().__init__()
        self.inplanes = 8
        self.conv1 = nn.Conv2d(3, 8, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(8, layers[0])
        self.layer2 = self._make_layer(16, layers[1], stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, num_classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)
        for m in self.modules():
            if isinstance(m, BasicBlock):
                nn.init.constant_(m.bn2.weight, 0)

    def _make_layer(self, planes, blocks, stride=1):
        downsample = None
        if stride != 1 or self.inplanes != planes:
            downsample = nn.Sequential(nn.Conv2d(self.inplanes, planes, 1, stride=stride, bias=False),
                                       nn.BatchNorm2d(planes))
        layers = [BasicBlock(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes
        layers += [BasicBlock(planes, planes) for _ in range(1, blocks)]
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer2(self.layer1(x))
        return self.fc(torch.flatten(self.avgpool(x), 1))


model = ResNet().to(memory_format=torch.channels_last)
print("conv1 std", round(model.conv1.weight.std().item(), 4), model.conv1.weight.is_contiguous(
    memory_format=torch.channels_last))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.1)
images = torch.randn(8, 3, 12, 12).to(memory_format=torch.channels_last)
labels = torch.randint(0, 4, (8,))
for epoch in range(5):
    model.train()
    out = model(images)
    loss = F.cross_entropy(out, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    running_mean = model.bn1.running_mean[:2].round(decimals=4).tolist()
    print(f"epoch {epoch} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.4f} "
          f"bn1 mean {running_mean} batches {model.bn1.num_batches_tracked.item()}")
model.eval()
with torch.no_grad():
    eager = model(images)
    compiled = torch.compile(model)
    out = compiled(images)
    print("eval", eager.argmax(1).tolist(), "compiled close", torch.allclose(out, eager, atol=1e-4))
    print("channels_last out", model.layer1[0].conv1(model.maxpool(model.bn1(model.conv1(images)))).is_contiguous(
        memory_format=torch.channels_last))
