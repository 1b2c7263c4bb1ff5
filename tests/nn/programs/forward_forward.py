"""Hinton's forward-forward training in small: each layer (an nn.Linear subclass with its own Adam) learns on its
own to give positive samples (the label overlaid on the input) a high goodness and negative ones a low one, through
a softplus of the margin; labels are overlaid by advanced-index assignment, wrong labels drawn per sample, and the
prediction takes the label of highest summed goodness. The layers' forward runs compiled."""
import torch
import torch.nn as nn

torch.manual_seed(3)
CLASSES, DIM, SAMPLES = 4, 20, 48


def overlay(x, y):
    out = x.clone()
    out[:, :CLASSES] *= 0.0
    out[range(x.shape[0]), y] = x.max()
    return out


def wrong_labels(y):
    shift = torch.randint(1, CLASSES, y.shape)
    return (y + shift) % CLASSES


class Layer(nn.Linear):
    def __init__(self, fin, fout, threshold=2.0):
        super().__init__(fin, fout)
        self.opt = torch.optim.Adam(self.parameters(), lr=0.03)
        self.threshold = threshold
        self.step = torch.compile(self.forward)

    def forward(self, x):
        direction = x / (x.norm(2, 1, keepdim=True) + 1e-4)
        return torch.relu(torch.mm(direction, self.weight.T) + self.bias.unsqueeze(0))

    def learn(self, pos, neg, epochs):
        for i in range(epochs):
            g_pos = self.step(pos).pow(2).mean(1)
            g_neg = self.step(neg).pow(2).mean(1)
            loss = torch.log1p(torch.exp(torch.cat([self.threshold - g_pos, g_neg - self.threshold]))).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            if i % 10 == 0:
                print(f"  epoch {i:2d} loss {loss.item():.5f}")
        return self.step(pos).detach(), self.step(neg).detach()


class Net(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = nn.ModuleList(Layer(a, b) for a, b in zip(dims, dims[1:]))

    def predict(self, x):
        scores = []
        for label in range(CLASSES):
            h, goodness = overlay(x, torch.full((x.shape[0],), label)), []
            for layer in self.layers:
                h = layer(h)
                goodness.append(h.pow(2).mean(1))
            scores.append(sum(goodness).unsqueeze(1))
        return torch.cat(scores, 1).argmax(1)


centers = torch.randn(CLASSES, DIM) * 2
y = torch.randint(0, CLASSES, (SAMPLES,))
x = centers[y] + 0.5 * torch.randn(SAMPLES, DIM)
net = Net([DIM, 16, 16])
pos, neg = overlay(x, y), overlay(x, wrong_labels(y))
for i, layer in enumerate(net.layers):
    print("training layer", i)
    pos, neg = layer.learn(pos, neg, epochs=21)
with torch.no_grad():
    predicted = net.predict(x)
print("train error:", round(1.0 - predicted.eq(y).float().mean().item(), 4), predicted.bincount(minlength=CLASSES).tolist())
