"""A Siamese image matcher in the style of pytorch/examples' siamese_network: one convolutional tower (batch norm in
training mode) applied to both images of a pair inside the compiled forward, features concatenated, a sigmoid
head, BCELoss, Adadelta with a StepLR. The tower's batch norm runs twice in one graph: under the inductor its
decomposition writes the running statistics twice while the first call's backward keeps them."""
import torch
from torch import nn
from torch.optim.lr_scheduler import StepLR


class PairMatcher(nn.Module):
    def __init__(self):
        super().__init__()
        self.tower = nn.Sequential(nn.Conv2d(1, 4, 3, 2, 1, bias=False), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                                   nn.AdaptiveAvgPool2d((1, 1)))
        self.head = nn.Sequential(nn.Linear(8, 8), nn.ReLU(inplace=True), nn.Linear(8, 1))
        self.sigmoid = nn.Sigmoid()

    def forward_once(self, x):
        features = self.tower(x)
        return features.view(features.size()[0], -1)

    def forward(self, first, second):
        both = torch.cat((self.forward_once(first), self.forward_once(second)), 1)
        return self.sigmoid(self.head(both))


torch.manual_seed(1)
model = PairMatcher()
compiled = torch.compile(model)
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)
criterion = nn.BCELoss()
for step in range(2):
    first, second = torch.rand(6, 1, 8, 8), torch.rand(6, 1, 8, 8)
    targets = torch.tensor([1, 0, 1, 0, 1, 0], dtype=torch.float)
    optimizer.zero_grad()
    outputs = compiled(first, second).squeeze()
    loss = criterion(outputs, targets)
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(f"step {step}: loss {loss.item():.6f} lr {scheduler.get_last_lr()[0]:.3f}")
print("running mean", model.tower[1].running_mean, "batches", model.tower[1].num_batches_tracked.item())
print("matches", torch.where(outputs > 0.5, 1, 0).tolist())
