"""Linear attention (Katharopoulos et al., "Transformers are RNNs"): the elu(x) + 1 feature map, non-causal
attention with einsum over a key-value summary, causal attention with cumsum prefix sums, in a pre-norm block
trained under torch.compile (inductor), and checked against softmax-free quadratic attention."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def feature_map(x):
    return F.elu(x) + 1


def linear_attention(q, k, v, eps=1e-6):
    q, k = feature_map(q), feature_map(k)
    kv = torch.einsum("bhnd,bhne->bhde", k, v)
    z = 1 / (torch.einsum("bhnd,bhd->bhn", q, k.sum(dim=2)) + eps)
    return torch.einsum("bhnd,bhde,bhn->bhne", q, kv, z)


def causal_linear_attention(q, k, v, eps=1e-6):
    q, k = feature_map(q), feature_map(k)
    kv = torch.einsum("bhnd,bhne->bhnde", k, v).cumsum(dim=2)
    z = 1 / (torch.einsum("bhnd,bhnd->bhn", q, k.cumsum(dim=2)) + eps)
    return torch.einsum("bhnd,bhnde,bhn->bhne", q, kv, z)


def quadratic_reference(q, k, v, causal):
    q, k = feature_map(q), feature_map(k)
    scores = q @ k.transpose(-1, -2)
    if causal:
        scores = scores.tril()
    return (scores @ v) / scores.sum(-1, keepdim=True)


class LinearAttentionBlock(nn.Module):
    def __init__(self, d=32, heads=4, causal=True):
        super().__init__()
        self.heads, self.causal = heads, causal
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4).unbind(0)
        attend = causal_linear_attention if self.causal else linear_attention
        x = x + self.proj(attend(q, k, v).transpose(1, 2).reshape(b, n, d))
        return x + self.mlp(self.norm2(x))


q, k, v = torch.randn(3, 2, 2, 6, 8).unbind(0)
for causal in (False, True):
    fast = (causal_linear_attention if causal else linear_attention)(q, k, v)
    print(f"causal={causal} matches quadratic", torch.allclose(fast, quadratic_reference(q, k, v, causal), atol=1e-5))

model = nn.Sequential(nn.Embedding(20, 32), LinearAttentionBlock(), LinearAttentionBlock(), nn.Linear(32, 20))
compiled = torch.compile(model)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
tokens = torch.randint(0, 20, (4, 10))
for step in range(4):
    logits = compiled(tokens[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 20), tokens[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f}")
with torch.no_grad():
    print("eager vs compiled", torch.allclose(model(tokens), compiled(tokens), atol=1e-5))
print("qkv grad norm", round(model[1].qkv.weight.grad.norm().item(), 4))
