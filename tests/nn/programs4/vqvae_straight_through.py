"""A VQ-VAE (van den Oord et al.): conv encoder, a codebook looked up by argmin over torch.cdist, the
straight-through estimator x + (q - x).detach(), codebook and commitment losses, perplexity of code usage; the
quantizer also run under torch.compile."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class VectorQuantizer(nn.Module):
    def __init__(self, num_codes=16, dim=8, beta=0.25):
        super().__init__()
        self.beta = beta
        self.codebook = nn.Embedding(num_codes, dim)
        self.codebook.weight.data.uniform_(-1.0 / num_codes, 1.0 / num_codes)

    def forward(self, z):
        b, c, h, w = z.shape
        flat = z.permute(0, 2, 3, 1).reshape(-1, c)
        dist = torch.cdist(flat, self.codebook.weight)
        codes = dist.argmin(dim=1)
        quantized = self.codebook(codes).view(b, h, w, c).permute(0, 3, 1, 2).contiguous()
        codebook_loss = F.mse_loss(quantized, z.detach())
        commitment_loss = F.mse_loss(z, quantized.detach())
        quantized = z + (quantized - z).detach()
        one_hot = F.one_hot(codes, self.codebook.num_embeddings).float()
        avg_probs = one_hot.mean(0)
        perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
        return quantized, codebook_loss + self.beta * commitment_loss, perplexity, codes


class VQVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1), nn.ReLU(), nn.Conv2d(16, 8, 3, 1, 1))
        self.vq = VectorQuantizer()
        self.decoder = nn.Sequential(nn.Conv2d(8, 16, 3, 1, 1), nn.ReLU(), nn.ConvTranspose2d(16, 1, 4, 2, 1))

    def forward(self, x):
        z = self.encoder(x)
        q, vq_loss, perplexity, codes = self.vq(z)
        return self.decoder(q), vq_loss, perplexity, codes


model = VQVAE()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
images = torch.rand(4, 1, 8, 8)
for step in range(5):
    recon, vq_loss, perplexity, codes = model(images)
    recon_loss = F.mse_loss(recon, images)
    loss = recon_loss + vq_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} recon {recon_loss.item():.4f} vq {vq_loss.item():.4f} perplexity {perplexity.item():.3f}")
print("encoder grad norm", round(model.encoder[0].weight.grad.norm().item(), 4))
print("codebook grad norm", round(model.vq.codebook.weight.grad.norm().item(), 4))
print("codes used", torch.unique(codes).numel())

compiled_vq = torch.compile(model.vq, backend="aot_eager")
z = model.encoder(images).detach().requires_grad_()
q_c, loss_c, perp_c, codes_c = compiled_vq(z)
(q_c.pow(2).mean() + loss_c).backward()
print("compiled vq loss", round(loss_c.item(), 4), "perplexity", round(perp_c.item(), 3))
print("same codes as eager", torch.equal(codes_c, model.vq(z)[3]))
print("straight-through grad", round(z.grad.abs().sum().item(), 4))
