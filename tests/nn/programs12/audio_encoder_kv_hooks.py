"""A speech encoder-decoder in the style of openai/whisper's model file: layers subclassing the library's own
(a LayerNorm whose forward calls `super().forward(x.float()).type(x.dtype)`, a Conv1d overriding _conv_forward to cast
its weight), a conv1d/GELU stem over log-mel frames with sinusoidal positions, causal self-attention and
cross-attention over the audio features, a key/value cache kept by forward hooks for greedy decoding; the encoder
compiled (one graph: super().forward of a library module is inlined) and one backward through the whole model."""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


class LayerNorm(nn.LayerNorm):
    def forward(self, x):
        return super().forward(x.float()).type(x.dtype)


class Linear(nn.Linear):
    def forward(self, x):
        return F.linear(x, self.weight.to(x.dtype), None if self.bias is None else self.bias.to(x.dtype))


class Conv1d(nn.Conv1d):
    def _conv_forward(self, x, weight, bias):
        return super()._conv_forward(x, weight.to(x.dtype), None if bias is None else bias.to(x.dtype))


def sinusoids(length, channels, max_timescale=10000):
    step = np.log(max_timescale) / (channels // 2 - 1)
    inv = torch.exp(-step * torch.arange(channels // 2))
    scaled = torch.arange(length)[:, np.newaxis] * inv[np.newaxis, :]
    return torch.cat([torch.sin(scaled), torch.cos(scaled)], dim=1)


class Attention(nn.Module):
    def __init__(self, n_state, n_head):
        super().__init__()
        self.n_head = n_head
        self.query, self.key, self.value = Linear(n_state, n_state), Linear(n_state, n_state, bias=False), \
            Linear(n_state, n_state)
        self.out = Linear(n_state, n_state)

    def forward(self, x, xa=None, mask=None, kv_cache=None):
        q = self.query(x)
        if kv_cache is None or xa is None or self.key not in kv_cache:
            k, v = self.key(x if xa is None else xa), self.value(x if xa is None else xa)
        else:
            k, v = kv_cache[self.key], kv_cache[self.value]
        split = lambda t: t.view(*t.shape[:2], self.n_head, -1).permute(0, 2, 1, 3)
        causal = mask is not None and q.shape[1] > 1
        y = F.scaled_dot_product_attention(split(q), split(k), split(v), is_causal=causal)
        return self.out(y.permute(0, 2, 1, 3).flatten(start_dim=2))


class Block(nn.Module):
    def __init__(self, n_state, n_head, cross=False):
        super().__init__()
        self.attn, self.attn_ln = Attention(n_state, n_head), LayerNorm(n_state)
        self.cross_attn = Attention(n_state, n_head) if cross else None
        self.cross_attn_ln = LayerNorm(n_state) if cross else None
        self.mlp = nn.Sequential(Linear(n_state, 4 * n_state), nn.GELU(), Linear(4 * n_state, n_state))
        self.mlp_ln = LayerNorm(n_state)

    def forward(self, x, xa=None, mask=None, kv_cache=None):
        x = x + self.attn(self.attn_ln(x), mask=mask, kv_cache=kv_cache)
        if self.cross_attn is not None:
            x = x + self.cross_attn(self.cross_attn_ln(x), xa, kv_cache=kv_cache)
        return x + self.mlp(self.mlp_ln(x))


class Encoder(nn.Module):
    def __init__(self, n_mels, n_ctx, n_state, n_head, n_layer):
        super().__init__()
        self.conv1 = Conv1d(n_mels, n_state, kernel_size=3, padding=1)
        self.conv2 = Conv1d(n_state, n_state, kernel_size=3, stride=2, padding=1)
        self.register_buffer("positional_embedding", sinusoids(n_ctx, n_state))
        self.blocks = nn.ModuleList([Block(n_state, n_head) for _ in range(n_layer)])
        self.ln_post = LayerNorm(n_state)

    def forward(self, x):
        x = F.gelu(self.conv2(F.gelu(self.conv1(x)))).permute(0, 2, 1)
        x = (x + self.positional_embedding).to(x.dtype)
        for block in self.blocks:
            x = block(x)
        return self.ln_post(x)


class Decoder(nn.Module):
    def __init__(self, n_vocab, n_ctx, n_state, n_head, n_layer):
        super().__init__()
        self.token_embedding = nn.Embedding(n_vocab, n_state)
        self.positional_embedding = nn.Parameter(torch.empty(n_ctx, n_state).normal_(std=0.1))
        self.blocks = nn.ModuleList([Block(n_state, n_head, cross=True) for _ in range(n_layer)])
        self.ln = LayerNorm(n_state)
        self.register_buffer("mask", torch.empty(n_ctx, n_ctx).fill_(-np.inf).triu_(1), persistent=False)

    def forward(self, x, xa, kv_cache=None):
        offset = next(iter(kv_cache.values())).shape[1] if kv_cache else 0
        x = self.token_embedding(x) + self.positional_embedding[offset:offset + x.shape[-1]]
        for block in self.blocks:
            x = block(x, xa, mask=self.mask, kv_cache=kv_cache)
        return (self.ln(x) @ torch.transpose(self.token_embedding.weight.to(x.dtype), 0, 1)).float()


def install_kv_cache_hooks(decoder, n_ctx):
    cache, hooks = {}, []

    def save(module, _, output):
        if module not in cache or output.shape[1] > n_ctx:
            cache[module] = output  # the first call (or cross-attention's): kept as it is
        else:
            cache[module] = torch.cat([cache[module], output], dim=1).detach()
        return cache[module]

    for layer in decoder.modules():
        if isinstance(layer, Attention):
            hooks += [layer.key.register_forward_hook(save), layer.value.register_forward_hook(save)]
    return cache, hooks


torch.manual_seed(0)
encoder, decoder = Encoder(8, 6, 16, 2, 2), Decoder(30, 10, 16, 2, 2)
print(encoder.conv2, decoder.blocks[0].cross_attn.key, decoder.mask[:3, :3])
mel = torch.randn(2, 8, 12)
audio = encoder(mel)
print(audio.shape, audio[0, :2, :4])
tokens = torch.tensor([[1, 2, 3], [4, 5, 6]])
cache, hooks = install_kv_cache_hooks(decoder, n_ctx=10)
with torch.no_grad():
    for i in range(4):
        logits = decoder(tokens if i == 0 else tokens[:, -1:], audio, kv_cache=cache)
        tokens = torch.cat([tokens, logits[:, -1].argmax(-1, keepdim=True)], dim=-1)
for h in hooks:
    h.remove()
print(tokens.tolist(), sorted(t.shape[1] for t in cache.values()))
compiled = torch.compile(encoder)
print(torch.allclose(compiled(mel), audio, atol=1e-5))
loss = decoder(tokens[:, :-1], compiled(mel)).logsumexp(-1).mean()
loss.backward()
print(f"{loss.item():.5f} {encoder.conv1.weight.grad.norm():.5f} {decoder.positional_embedding.grad.abs().sum():.5f}")
