"""A conditional VAE zoo's sampling helpers run on a machine without a GPU: `sample(num_samples, current_device)`
moves its latents with `z.cuda(current_device)`, which a CPU-only torch refuses in different words for a device
index, a device of another type and CUDA itself; the script falls back to the CPU and says why. Then a weighted
sampler over a dict dataset feeds a few training steps, and the model is saved and loaded through a state dict."""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, WeightedRandomSampler

torch.manual_seed(0)


class ConditionalDecoder(nn.Module):
    def __init__(self, latent_dim=4, num_classes=3, out_dim=6):
        super().__init__()
        self.latent_dim = latent_dim
        self.embed = nn.Embedding(num_classes, latent_dim)
        self.net = nn.Sequential(nn.Linear(2 * latent_dim, 16), nn.Tanh(), nn.Linear(16, out_dim))

    def forward(self, z, labels):
        return self.net(torch.cat([z, self.embed(labels)], dim=1))

    def sample(self, num_samples, current_device, labels):
        z = torch.randn(num_samples, self.latent_dim)
        try:
            z = z.cuda(current_device)
        except (RuntimeError, AssertionError) as error:
            print(f"  {current_device!r}: {type(error).__name__}: {error}")
        return self(z, labels)


class Points(Dataset):
    def __init__(self, n=24):
        self.x = torch.randn(n, 6)
        self.y = torch.arange(n) % 3

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"x": self.x[i], "label": self.y[i]}


decoder = ConditionalDecoder()
labels = torch.tensor([0, 1, 2, 0])
for device in (0, "cpu", torch.device("cpu"), "cuda", "cuda:1", None):
    print(decoder.sample(4, device, labels).shape)
try:
    decoder.cuda(torch.device("cpu"))
except RuntimeError as error:
    print("module:", error)

data = Points()
weights = torch.tensor([1.0, 2.0, 4.0])[data.y]
loader = DataLoader(data, batch_size=6, sampler=WeightedRandomSampler(weights, num_samples=18, generator=torch.Generator().manual_seed(1)))
opt = torch.optim.Adam(decoder.parameters(), lr=5e-3)
for batch in loader:
    z = torch.randn(len(batch["x"]), decoder.latent_dim)
    loss = F.mse_loss(decoder(z, batch["label"]), batch["x"])
    opt.zero_grad()
    loss.backward()
    print(batch["label"].tolist(), f"{loss.item():.4f}", f"{nn.utils.clip_grad_norm_(decoder.parameters(), 1.0):.4f}")
    opt.step()

buffer = io.BytesIO()
torch.save(decoder.state_dict(), buffer)
buffer.seek(0)
restored = ConditionalDecoder()
print(restored.load_state_dict(torch.load(buffer)))
print(torch.equal(restored.sample(2, None, labels[:2]), decoder.sample(2, None, labels[:2])) is False)
