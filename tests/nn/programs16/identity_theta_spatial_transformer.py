"""A spatial transformer classifier in the manner of pytorch/tutorials' spatial_transformer_tutorial: a
localization net regresses theta, its last layer initialised to the identity transform, so affine_grid's
points fall on pixel centres and grid_sample's gradient with respect to them takes one side or the other by
the grid's last bit; trained on synthetic 28x28 digits from a DataLoader, losses printed."""
import torch
import torch.nn.functional as F
from torch import nn


class SpatialTransformerNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.localization = nn.Sequential(nn.Conv2d(1, 4, kernel_size=7), nn.MaxPool2d(2, stride=2), nn.ReLU(True),
                                          nn.Conv2d(4, 6, kernel_size=5), nn.MaxPool2d(2, stride=2), nn.ReLU(True))
        self.fc_loc = nn.Sequential(nn.Linear(6 * 3 * 3, 16), nn.ReLU(True), nn.Linear(16, 3 * 2))
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
        self.classifier = nn.Sequential(nn.Conv2d(1, 6, kernel_size=5), nn.MaxPool2d(4), nn.ReLU(),
                                        nn.Flatten(), nn.Linear(6 * 6 * 6, 10))

    def stn(self, x):
        theta = self.fc_loc(self.localization(x).flatten(1)).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False)

    def forward(self, x):
        return F.log_softmax(self.classifier(self.stn(x)), dim=1)


torch.manual_seed(1)
data = torch.utils.data.TensorDataset(torch.rand(24, 1, 28, 28), torch.randint(0, 10, (24,)))
loader = torch.utils.data.DataLoader(data, batch_size=8, shuffle=True)
model = SpatialTransformerNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(2):
    for batch, (images, targets) in enumerate(loader):
        optimizer.zero_grad()
        loss = F.nll_loss(model(images), targets)
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} batch {batch} loss {loss.item():.6f}")
print("theta bias", [round(v, 6) for v in model.fc_loc[2].bias.tolist()])
for size, corners in (((2, 1, 6, 5), False), ((1, 2, 7, 7), True), ((1, 1, 3, 4, 5), False)):
    theta = torch.eye(len(size) - 2, len(size) - 1).expand(size[0], -1, -1)
    print(size, corners, torch.nn.functional.affine_grid(theta, size, align_corners=corners).flatten()[:9].tolist())
