import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.LayerNorm(32), nn.Linear(32, 4))
x = torch.randn(32, 16)
y = torch.randint(0, 4, (32,))
with torch.autocast("cpu", dtype=torch.bfloat16):
    h0 = model[0](x); h1 = model[1](h0); h2 = model[2](h1); logits = model[3](h2)
    loss = F.cross_entropy(logits, y)
print([t.dtype for t in (h0, h1, h2, logits, loss)])
print(f"{loss.item():.8f}", f"{h2.double().sum().item():.6f}", f"{logits.double().sum().item():.6f}")
loss.backward()
for n, p in model.named_parameters():
    print(n, p.grad.dtype, f"{p.grad.double().sum().item():.8f}", f"{p.grad.double().abs().sum().item():.8f}")
