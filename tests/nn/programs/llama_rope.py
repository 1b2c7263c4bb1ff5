import torch
from torch import nn
from torch.nn import functional as F

# LLaMA's model.py in small: RMSNorm, rotary position embeddings through complex numbers (freqs_cis from
# torch.polar, view_as_complex of query/key pairs, a complex product, view_as_real back), a SwiGLU feed-forward,
# tied embeddings; compiled, trained a few AdamW steps on a character sequence, then greedy decoding.
torch.manual_seed(0)
text = "to be, or not to be, that is the question. " * 6
chars = sorted(set(text))
data = torch.tensor([chars.index(c) for c in text], dtype=torch.long)
dim, n_heads, n_layers, seq_len, batch = 32, 4, 2, 16, 4


def precompute_freqs_cis(head_dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, head_dim, 2)[: (head_dim // 2)].float() / head_dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)  # complex64


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = freqs_cis.view(1, xq_.shape[1], 1, xq_.shape[-1])
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.head_dim = dim // n_heads
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(dim, dim, bias=False) for _ in range(4))

    def forward(self, x, freqs_cis):
        b, s, _ = x.shape
        xq = self.wq(x).view(b, s, n_heads, self.head_dim)
        xk = self.wk(x).view(b, s, n_heads, self.head_dim)
        xv = self.wv(x).view(b, s, n_heads, self.head_dim)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis)
        out = F.scaled_dot_product_attention(xq.transpose(1, 2), xk.transpose(1, 2), xv.transpose(1, 2),
                                             is_causal=True)
        return self.wo(out.transpose(1, 2).reshape(b, s, -1))


class FeedForward(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.w1, self.w3 = nn.Linear(dim, hidden, bias=False), nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention_norm, self.ffn_norm = RMSNorm(dim), RMSNorm(dim)
        self.attention, self.feed_forward = Attention(), FeedForward()

    def forward(self, x, freqs_cis):
        h = x + self.attention(self.attention_norm(x), freqs_cis)
        return h + self.feed_forward(self.ffn_norm(h))


class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok_embeddings = nn.Embedding(len(chars), dim)
        self.layers = nn.ModuleList(Block() for _ in range(n_layers))
        self.norm = RMSNorm(dim)
        self.output = nn.Linear(dim, len(chars), bias=False)
        self.output.weight = self.tok_embeddings.weight
        self.register_buffer("freqs_cis", precompute_freqs_cis(dim // n_heads, seq_len * 2), persistent=False)

    def forward(self, tokens):
        h = self.tok_embeddings(tokens)
        freqs_cis = self.freqs_cis[: tokens.shape[1]]
        for layer in self.layers:
            h = layer(h, freqs_cis)
        return self.output(self.norm(h))


model = Transformer()
print("freqs_cis:", model.freqs_cis.dtype, tuple(model.freqs_cis.shape), model.freqs_cis[1, :2])
compiled = torch.compile(model)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.1)
for step in range(6):
    starts = torch.randint(len(data) - seq_len - 1, (batch,))
    x = torch.stack([data[i:i + seq_len] for i in starts])
    y = torch.stack([data[i + 1:i + seq_len + 1] for i in starts])
    logits = compiled(x)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.3f}")

model.eval()
tokens = data[:4].unsqueeze(0)
with torch.no_grad():
    for _ in range(8):
        next_token = model(tokens)[0, -1].argmax()
        tokens = torch.cat([tokens, next_token.view(1, 1)], dim=1)
print("generated:", repr("".join(chars[i] for i in tokens[0].tolist())))
