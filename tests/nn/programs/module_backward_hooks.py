import torch
from torch import nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
acts = {}
def fwd_hook(mod, inp, out):
    acts[type(mod).__name__ + str(len(acts))] = out.detach()
    print("fwd", type(mod).__name__, tuple(inp[0].shape), tuple(out.shape))
def pre_hook(mod, inp):
    print("pre", type(mod).__name__)
    return (inp[0] * 2,)
def bwd_hook(mod, grad_input, grad_output):
    print("bwd", type(mod).__name__, [None if g is None else tuple(g.shape) for g in grad_input], [tuple(g.shape) for g in grad_output])
def bwd_pre(mod, grad_output):
    print("bwd pre", type(mod).__name__, grad_output[0].sum())
hs = [net[0].register_forward_hook(fwd_hook), net[2].register_forward_pre_hook(pre_hook),
      net[0].register_full_backward_hook(bwd_hook), net[2].register_full_backward_hook(bwd_hook),
      net[1].register_full_backward_hook(bwd_hook), net[2].register_full_backward_pre_hook(bwd_pre)]
x = torch.randn(5, 4, requires_grad=True)
out = net(x)
out.sum().backward()
print(sorted(acts), x.grad.sum())
for h in hs: h.remove()
out = net(x); print(out.sum())
t = torch.randn(3, requires_grad=True)
t.register_hook(lambda g: print("tensor hook", g) or g * 3)
(t * 2).sum().backward(); print(t.grad)
y = t * 1
y.retain_grad()
(y ** 2).sum().backward(); print(y.grad, y.is_leaf, t.is_leaf)
m = nn.Linear(2, 2)
p = m.weight
p.register_post_accumulate_grad_hook(lambda param: print("accumulated", param.grad.shape))
m(torch.ones(3, 2)).sum().backward()
seen = []
net = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Linear(3, 2))
net[2].register_full_backward_hook(lambda m, gi, go: seen.append((tuple(gi[0].shape), round(go[0].sum().item(), 4))))
net[0].register_forward_hook(lambda m, i, o: o * 2)
c = torch.compile(net)
x = torch.randn(5, 4, requires_grad=True)
out = c(x)
out.pow(2).sum().backward()
print(out.sum(), x.grad.sum(), seen)
ref = net(x).pow(2).sum()
print(ref)
def kw_hook(mod, args, kwargs, out):
    print("kw", sorted(kwargs))
    return out + 1
def kw_pre(mod, args, kwargs):
    print("kw pre", len(args), sorted(kwargs))
    return args, kwargs
class WithKw(nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale
wk = WithKw()
h1 = wk.register_forward_hook(kw_hook, with_kwargs=True)
h2 = wk.register_forward_pre_hook(kw_pre, with_kwargs=True, prepend=True)
wk.register_forward_pre_hook(lambda m, a: print("plain pre", len(a)))
print(wk(torch.ones(2), scale=3.0))
h1.remove(); h2.remove()
print(wk(torch.ones(2), scale=2.0))
order = nn.Identity()
order.register_forward_hook(lambda m, a, o: print("first"))
order.register_forward_hook(lambda m, a, o: print("prepended"), prepend=True)
order(torch.ones(1))
