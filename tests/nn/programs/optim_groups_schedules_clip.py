import torch
from torch import nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD([
    {'params': model[0].parameters()},
    {'params': model[2].parameters(), 'lr': 1e-3}], lr=1e-2, momentum=0.9)
print(opt)
print([g['lr'] for g in opt.param_groups])
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
x = torch.randn(16, 4); y = torch.randn(16, 1)
for epoch in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    opt.step()
    sched.step()
    print(epoch, round(loss.item(), 5), round(total.item(), 5), sched.get_last_lr())
torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print(max(p.grad.abs().max().item() for p in model.parameters()))
sd = opt.state_dict()
print(sorted(sd.keys()), sd['param_groups'][1]['lr'], list(sd['state'].keys()))
opt2 = torch.optim.SGD(model.parameters(), lr=0.5)
try:
    opt2.load_state_dict(sd)
except ValueError as e:
    print("ValueError:", e)
opt.add_param_group({'params': [nn.Parameter(torch.zeros(2))], 'lr': 0.3})
print(len(opt.param_groups), opt.param_groups[2]['momentum'])
a = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.1)
s1 = torch.optim.lr_scheduler.LinearLR(a, start_factor=0.1, total_iters=3)
s2 = torch.optim.lr_scheduler.CosineAnnealingLR(a, T_max=5)
seq = torch.optim.lr_scheduler.SequentialLR(a, schedulers=[s1, s2], milestones=[3])
for i in range(8):
    a.step(); seq.step()
    print(i, ["%.6f" % lr for lr in seq.get_last_lr()])
b = torch.optim.Adam(model.parameters(), lr=0.1)
rop = torch.optim.lr_scheduler.ReduceLROnPlateau(b, patience=1, factor=0.5)
for v in [1.0, 0.9, 0.95, 0.96, 0.97, 0.98]:
    rop.step(v); print(b.param_groups[0]['lr'])
c = torch.optim.SGD(model.parameters(), lr=0.1)
oc = torch.optim.lr_scheduler.OneCycleLR(c, max_lr=1.0, total_steps=6)
for i in range(6):
    c.step(); oc.step(); print(round(c.param_groups[0]['lr'], 6), round(c.param_groups[0]['momentum'], 6))
lam = torch.optim.lr_scheduler.LambdaLR(c, lambda e: 0.5 ** e)
for i in range(3):
    c.step(); lam.step(); print(lam.get_last_lr())
print(lam.state_dict().keys() if False else sorted(k for k in lam.state_dict() if k != 'lr_lambdas'))
w = torch.nn.utils.clip_grad_norm_([], 1.0); print(w)
p = nn.Parameter(torch.tensor([float('inf'), 1.0])); p.grad = torch.tensor([float('nan'), 1.0])
print(torch.nn.utils.clip_grad_norm_([p], 1.0))
try:
    torch.nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
