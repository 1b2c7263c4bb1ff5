"""Training utilities as timm and HF training scripts use them: AdamW with amsgrad, LinearLR warmup then
CosineAnnealingWarmRestarts through SequentialLR, clip_grad_norm_(foreach=True) and clip_grad_value_,
AveragedModel with an EMA multi_avg_fn, an EMA kept with torch._foreach_lerp_ / _foreach_mul_ (which minitorch2
did not have), OneCycleLR, Categorical sampling, gumbel_softmax(hard=True) and multinomial with replacement."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.GELU(approximate="tanh"), nn.LayerNorm(12), nn.Linear(12, 3))
ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01, amsgrad=True)
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=2)
cos = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=1e-4)
sched = torch.optim.lr_scheduler.SequentialLR(opt, [warm, cos], milestones=[2])
x, y = torch.randn(16, 6), torch.randint(0, 3, (16,))
ema_params = [p.detach().clone() for p in model.parameters()]
for step in range(7):
    loss = F.cross_entropy(model(x), y, label_smoothing=0.05)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), 0.5, foreach=True)
    nn.utils.clip_grad_value_(model.parameters(), 0.2)
    opt.step()
    sched.step()
    ema.update_parameters(model)
    with torch.no_grad():
        params = [p.detach() for p in model.parameters()]
        torch._foreach_lerp_(ema_params, params, 0.1)
        torch._foreach_mul_(ema_params, 1.0)
    print(step, f"{loss.item():.5f}", f"{norm.item():.5f}", f"{sched.get_last_lr()[0]:.6f}")
print("ema", f"{ema(x).sum().item():.5f}", f"{sum(p.sum() for p in ema_params).item():.5f}", ema.n_averaged.item())
one = torch.optim.lr_scheduler.OneCycleLR(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9), max_lr=0.1,
                                          total_steps=10)
lrs = []
for _ in range(10):
    one.optimizer.step()
    one.step()
    lrs.append(round(one.get_last_lr()[0], 6))
print(lrs)
logits = torch.randn(4, 5)
dist = torch.distributions.Categorical(logits=logits)
s = dist.sample((3,))
print(s.tolist(), dist.log_prob(s).sum().item(), dist.entropy().tolist())
g = F.gumbel_softmax(logits, tau=0.5, hard=True)
print(g.argmax(-1).tolist())
print(torch.multinomial(F.softmax(logits, -1), 3, replacement=True).tolist())
