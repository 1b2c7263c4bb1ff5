"""nn.TransformerEncoder trained with dropout (train mode), as a text classifier does: the attention output of a
batch_first MultiheadAttention is a transposed view, and dropout draws its mask with empty_like(input).bernoulli_,
which walks memory order. Also the random fills on permuted tensors, bernoulli_ with a tensor of probabilities,
and stochastic depth (DropPath) drawing per sample."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.1, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
head = nn.Linear(16, 4)
opt = torch.optim.SGD(list(encoder.parameters()) + list(head.parameters()), lr=0.1)
x = torch.randn(3, 5, 16)
y = torch.randint(0, 4, (3,))
for step in range(3):
    loss = F.cross_entropy(head(encoder(x).mean(1)), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("encoder", step, f"{loss.item():.5f}")
encoder.eval()
print("eval", f"{(encoder(x) * torch.randn(3, 5, 16)).sum().item():.4f}")

attention = nn.MultiheadAttention(8, 2, dropout=0.0, batch_first=True)
seq = torch.randn(2, 4, 8)
out = attention(seq, seq, seq, need_weights=False)[0]
print("attention output strides", out.stride(), "dropped", F.dropout(out, 0.5).flatten()[:8].tolist())

for fill in ("uniform_", "normal_", "bernoulli_", "exponential_"):
    torch.manual_seed(1)
    permuted = getattr(torch.empty(4, 3, 5).permute(2, 0, 1), fill)()
    print(fill, f"{permuted[1, 2].tolist()}")
torch.manual_seed(2)
print("random_", torch.empty(6, 3, dtype=torch.long).t().random_(0, 10).tolist())
print("strided", torch.empty(3, 8)[:, ::2].bernoulli_(0.3).tolist())
probs = torch.rand(3, 4)
print("bernoulli_(probs)", torch.empty(4, 3).t().bernoulli_(probs).tolist())
print("bernoulli_(row)", torch.empty(2, 4).bernoulli_(probs[0]).tolist())
print("bernoulli(probs.t())", torch.bernoulli(probs.t()).tolist())


def drop_path(x, drop_prob, training):
    if drop_prob == 0.0 or not training:
        return x
    keep = 1 - drop_prob
    mask = x.new_empty((x.shape[0],) + (1,) * (x.ndim - 1)).bernoulli_(keep).div_(keep)
    return x * mask


tokens = torch.randn(4, 3, 8).transpose(0, 1)
print("drop_path", f"{drop_path(tokens, 0.5, True).sum().item():.5f}")
