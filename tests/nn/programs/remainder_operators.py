import torch
vals = [torch.tensor([-7., 7., 0.5, -0.0]), torch.tensor([-7, 7, 3, 0]), torch.tensor([True, False]),
        torch.tensor([-7, 7], dtype=torch.int32), torch.tensor([2.5, -2.5], dtype=torch.float64)]
for x in vals:
    for s in [3, -3, 2.5, True]:
        try:
            print(x % s, (x % s).dtype, torch.remainder(x, s), x.remainder(s))
        except RuntimeError as e:
            print("RuntimeError:", e)
        try:
            print(s % x, (s % x).dtype)
        except (RuntimeError, ZeroDivisionError) as e:
            print(type(e).__name__, e)
    print(x % x.abs().clamp(min=1) if x.dtype != torch.bool else None)
g = torch.tensor([5.5, -3.25], requires_grad=True)
(g % 2).sum().backward(); print(g.grad)
y = torch.tensor([1, 2, 3]); y %= 2; print(y)
z = torch.tensor([1., 2., 3.]); z.remainder_(1.5); print(z)
f = torch.compile(lambda t: (t % 3, 10 % t, t.remainder(-2.5)))
print(f(torch.tensor([-7., 7., 4.])))
h = torch.tensor([5.5, -3.25], requires_grad=True)
r = 7 % h
print(r, type(r.grad_fn).__name__)
try:
    r.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
