"""An importance-weighted autoencoder in the style of VAE model zoos: the encoder's mean and log-variance repeated
for S samples and permuted to [B x S x D], noise drawn by `torch.randn_like` of that permuted tensor (so it, and
`eps * std + mu`, keep the permuted layout: a `.view` of z fails as torch's does, and the zoo's decoder has to
reshape), log-weights from torch.distributions, a logsumexp bound, a few Adam steps, dropout masks by
`rand_like`/`randint_like` of transposed activations (drawn in memory order), and the sampling step compiled."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, Independent

torch.manual_seed(0)


class IWAE(nn.Module):
    def __init__(self, in_dim=12, latent_dim=4, hidden=16, num_samples=5):
        super().__init__()
        self.latent_dim, self.num_samples = latent_dim, num_samples
        self.encoder = nn.Sequential(nn.Linear(in_dim, hidden), nn.LeakyReLU())
        self.fc_mu, self.fc_var = nn.Linear(hidden, latent_dim), nn.Linear(hidden, latent_dim)
        self.decoder = nn.Sequential(nn.Linear(latent_dim, hidden), nn.LeakyReLU(), nn.Linear(hidden, in_dim))

    def encode(self, x):
        h = self.encoder(x)
        return self.fc_mu(h), self.fc_var(h)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return eps * std + mu

    def decode(self, z):
        B = z.size(0)
        try:
            flat = z.view(-1, self.latent_dim)
        except RuntimeError as error:
            print("view refused:", str(error).split(" (")[0])
            flat = z.reshape(-1, self.latent_dim)
        return self.decoder(flat).view(B, self.num_samples, -1)

    def forward(self, x):
        mu, log_var = self.encode(x)
        mu = mu.repeat(self.num_samples, 1, 1).permute(1, 0, 2)  # [B x S x D]
        log_var = log_var.repeat(self.num_samples, 1, 1).permute(1, 0, 2)
        z = self.reparameterize(mu, log_var)
        return self.decode(z), mu, log_var, z

    def loss_function(self, recons, x, mu, log_var, z):
        x = x.unsqueeze(1)
        log_p_x_z = Independent(Normal(recons, 1.0), 1).log_prob(x.expand_as(recons))
        log_p_z = Independent(Normal(torch.zeros_like(z), torch.ones_like(z)), 1).log_prob(z)
        log_q_z = Independent(Normal(mu, torch.exp(0.5 * log_var)), 1).log_prob(z)
        log_w = log_p_x_z + log_p_z - log_q_z  # [B x S]
        bound = torch.logsumexp(log_w, dim=1) - math.log(self.num_samples)
        weights = F.softmax(log_w, dim=1).detach()
        return -(weights * log_w).sum(1).mean(), bound.mean()


model = IWAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
data = torch.randn(6, 12)
for step in range(4):
    recons, mu, log_var, z = model(data)
    if step == 0:
        print("layouts:", mu.stride(), z.stride(), z.is_contiguous(), recons.shape)
    loss, bound = model.loss_function(recons, data, mu, log_var, z)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f} bound {bound:.4f}")

# dropout masks of transposed activations: the draws fill memory, so the values follow the layout
h = model.encoder(data).t()
keep = (torch.rand_like(h) > 0.3).float()
print(keep.stride(), keep[:2].tolist())
coin = torch.randint_like(h, 2)
print(coin.stride(), coin.dtype, coin[0].tolist())
noise = torch.randn_like(h[:, ::2], memory_format=torch.contiguous_format)
print(noise.stride(), noise[0, :3])
image = torch.randn(2, 3, 4, 4).to(memory_format=torch.channels_last)
print(torch.randn_like(image).stride(), torch.rand_like(image)[0, 0, 0])


@torch.compile(backend="aot_eager")
def sample_bound(x):
    recons, mu, log_var, z = model(x)
    return model.loss_function(recons, x, mu, log_var, z)[1], z


model.decode = lambda z: model.decoder(z.reshape(-1, model.latent_dim)).view(z.size(0), model.num_samples, -1)
with torch.no_grad():
    for _ in range(2):
        bound, z = sample_bound(data)
        print(f"compiled bound {bound:.4f}", z.stride())
