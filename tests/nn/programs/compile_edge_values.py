import torch
def run(name, f, *args):
    eager = f(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args])
    try:
        comp = torch.compile(f)(*[a.clone() if isinstance(a, torch.Tensor) else a for a in args])
    except Exception as e:
        comp = f"{type(e).__name__}"
    print(name, eager, comp, sep="\n  ")
nanx = torch.tensor([1., float('nan'), 3., -float('inf')])
run("max_nan", lambda x: (x.max(), x.min(), x.amax(0), torch.maximum(x, torch.zeros(4)), x.argmax(), x.argmin()), nanx)
run("sort_nan", lambda x: (x.sort().values, x.topk(2).values, x.cumsum(0), x.cummax(0).values), nanx)
run("clamp_nan", lambda x: (x.clamp(0, 2), x.clamp(min=float('nan')), torch.clamp(x, max=torch.tensor(0.))), nanx)
run("softmax_inf", lambda x: (torch.softmax(torch.full((2, 3), -float('inf')), 1), torch.log_softmax(x, 0)), nanx)
run("int32_wrap", lambda x: (x + 1, x * 2, x - (-1), x.sum(), x.sum(dtype=torch.int32), (x * x).dtype), torch.tensor([2**31 - 1, 5], dtype=torch.int32))
run("uint8", lambda x: (x + 250, x - 10, x * 3, -x, x // 3, x.sum(), x.float().mean()), torch.tensor([5, 100, 255], dtype=torch.uint8))
run("int_div", lambda x: (x / 2, x // -2, x % -3, torch.div(x, 3, rounding_mode='trunc'), x.float() / 0), torch.tensor([-7, 7, 0]))
run("empty", lambda x: (x.sum(), x.prod(), x.mean(), x.sum(0), x.sum(1), x.std(), x.logsumexp(1), x.norm()), torch.empty(0, 3))
run("bool", lambda x: (x.sum(), x + x, x * 2, x.float().mean(), ~x, x & True, x.any(), x.all(), x.to(torch.int64).cumsum(0)), torch.tensor([True, False, True]))
run("casts", lambda x: (x.to(torch.int64), x.to(torch.uint8) if False else x.round(), x.trunc().to(torch.int32), (x * 1e10).to(torch.int64) if False else x.floor()), torch.tensor([-2.5, -0.5, 0.5, 1.5, 2.5]))
run("pow", lambda x: (x ** 2, x ** -1.0, x.float() ** 0.5, 2 ** x, x.pow(0), torch.pow(x, x)), torch.tensor([-2, 0, 3]).float())
run("where_promote", lambda x: (torch.where(x > 0, x, 0), torch.where(x > 0, 1.5, x), torch.where(x > 0, x.int(), 2.5).dtype, torch.where(x > 0, x.int(), x.long()).dtype), torch.tensor([-1., 2.]))
run("alias_args", lambda a, b: a.add_(b).mul(b), torch.ones(3), torch.ones(3))
def alias(a, b):
    a.add_(1)
    return b * 2
t = torch.zeros(3)
print("same tensor twice", torch.compile(alias)(t, t), t)
t2 = torch.zeros(3)
print("same tensor twice eager", alias(t2, t2), t2)
def view_mut(x):
    y = x.view(3, 2)
    y[0].fill_(5)
    x.t_() if False else None
    return x.sum(), y.sum()
a1, a2 = torch.arange(6.), torch.arange(6.)
print("view_mut", view_mut(a1), a1, torch.compile(view_mut)(a2), a2)
def input_view_mut(x):
    x.unsqueeze(0).mul_(2)
    x[::2].add_(1)
    return x
b1, b2 = torch.arange(4.)[1:], torch.arange(4.)[1:]
print("input_view_mut", input_view_mut(b1), b1._base, torch.compile(input_view_mut)(b2), b2._base)
def expanded(x):
    return x.expand(3, 2).sum(0), x.expand(2, 2).contiguous().add_(1)
print(expanded(torch.ones(1, 2)), torch.compile(expanded)(torch.ones(1, 2)))
def lse(x):
    return torch.logsumexp(x, 0), torch.logsumexp(torch.full((3,), -float('inf')), 0), x.exp().log()
print(lse(torch.tensor([1000., 1000.])), torch.compile(lse)(torch.tensor([1000., 1000.])))
def big_int(x):
    return x * 3, x.float(), x.double(), x // 7, x.abs(), x.neg()
print(big_int(torch.tensor([2**62, -2**63])), torch.compile(big_int)(torch.tensor([2**62, -2**63])))
def minmax_dim(x):
    return x.max(0), x.min(1), torch.median(x, 0), x.mode(0) if False else x.kthvalue(1, 0)
xx = torch.tensor([[1., 5., 5.], [5., 1., float('nan')]])
print(minmax_dim(xx), torch.compile(minmax_dim)(xx))
