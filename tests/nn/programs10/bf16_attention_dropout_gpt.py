"""Multi-head attention as rasbt/LLMs-from-scratch's training-speed script writes it: one fused qkv projection,
F.scaled_dot_product_attention(is_causal=True) with dropout while training (ATen's math path: the fused CPU kernel
takes no dropout), the whole model cast to bfloat16. The math path keeps half q, k, v in float32 and rounds the
result back; eager values, gradients and the compiled (aot_eager) graphs must be torch's."""
import torch
import torch.nn as nn

torch.manual_seed(123)


class PyTorchMultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, num_heads, dropout=0.0):
        super().__init__()
        self.num_heads, self.head_dim, self.d_out = num_heads, d_out // num_heads, d_out
        self.qkv = nn.Linear(d_in, 3 * d_out, bias=False)
        self.proj = nn.Linear(d_out, d_out)
        self.dropout = dropout

    def forward(self, x):
        b, t, _ = x.shape
        qkv = self.qkv(x).view(b, t, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        queries, keys, values = qkv
        use_dropout = self.dropout if self.training else 0.0
        ctx = nn.functional.scaled_dot_product_attention(queries, keys, values, attn_mask=None,
                                                         dropout_p=use_dropout, is_causal=True)
        return self.proj(ctx.transpose(1, 2).contiguous().view(b, t, self.d_out))


class TinyGPT(nn.Module):
    def __init__(self, vocab=50, dim=16, heads=2, context=8):
        super().__init__()
        self.tok_emb, self.pos_emb = nn.Embedding(vocab, dim), nn.Embedding(context, dim)
        self.att = PyTorchMultiHeadAttention(dim, dim, heads, dropout=0.1)
        self.out_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        x = self.tok_emb(idx) + self.pos_emb(torch.arange(idx.shape[1]))
        return self.out_head(x + self.att(x))


model = TinyGPT().to(torch.bfloat16)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.1)
inputs = torch.randint(0, 50, (4, 8))
targets = torch.roll(inputs, -1, dims=1)

for step in range(3):
    optimizer.zero_grad()
    logits = model(inputs)
    loss = nn.functional.cross_entropy(logits.flatten(0, 1).float(), targets.flatten())
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}, qkv grad norm {model.att.qkv.weight.grad.float().norm():.4f}")

compiled = torch.compile(model, backend="aot_eager")
logits = compiled(inputs)
logits.float().sum().backward()
print("compiled", logits.dtype, tuple(logits.shape), model.att.proj.bias.grad[:4])
