import os
import tempfile

import torch
from torch import nn
from torch.nn import functional as F
torch.manual_seed(0)

class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc21 = nn.Linear(32, 8)
        self.fc22 = nn.Linear(32, 8)
        self.fc3 = nn.Linear(8, 32)
        self.fc4 = nn.Linear(32, 64)
    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)
    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std
    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))
    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar

def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction='sum')
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD

model = VAE()
compiled = torch.compile(model)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
data = torch.rand(32, 1, 8, 8)
for epoch in range(1, 6):
    model.train()
    optimizer.zero_grad()
    recon, mu, logvar = compiled(data)
    loss = loss_function(recon, data, mu, logvar)
    loss.backward()
    optimizer.step()
    print('====> Epoch: {} Average loss: {:.4f}'.format(epoch, loss.item() / len(data)))
model.eval()
with torch.no_grad():
    sample = model.decode(torch.randn(4, 8))
    print(sample.shape, sample.mean().item() > 0)
path = os.path.join(tempfile.mkdtemp(), "vae.pt")
torch.save(model.state_dict(), path)
m2 = VAE()
m2.load_state_dict(torch.load(path))
print(torch.allclose(m2.fc1.weight, model.fc1.weight))
