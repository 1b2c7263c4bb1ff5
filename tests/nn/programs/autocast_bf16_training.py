import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.LayerNorm(32), nn.Linear(32, 4))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
scaler = torch.amp.GradScaler("cpu", enabled=False)
x = torch.randn(32, 16)
y = torch.randint(0, 4, (32,))
for step in range(5):
    opt.zero_grad(set_to_none=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(x)
        print("dtype in autocast", logits.dtype, model[0](x).dtype, model[2](model[0](x)).dtype)
        loss = F.cross_entropy(logits, y)
    print(step, loss.dtype, f"{loss.item():.4f}")
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    print("scale", scaler.get_scale() if scaler.is_enabled() else "disabled", model[0].weight.grad.dtype)

with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    a = torch.randn(4, 4)
    b = a @ a
    c = torch.mm(a, a).float() + 1
    with torch.autocast("cpu", enabled=False):
        d = a @ a
print(b.dtype, c.dtype, d.dtype, torch.is_autocast_enabled("cpu"))
print(f"{(b.float() - d).abs().max().item():.4f}")

for backend in ("inductor", "aot_eager"):
    torch.manual_seed(1)
    m = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    cm = torch.compile(m, backend=backend)
    o = torch.optim.SGD(m.parameters(), lr=0.1)
    for step in range(3):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            out = cm(x)
            loss = F.cross_entropy(out, y)
        o.zero_grad()
        loss.backward()
        o.step()
        print(backend, step, out.dtype, f"{loss.item():.3f}")
