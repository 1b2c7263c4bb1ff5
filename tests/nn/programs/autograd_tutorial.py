import torch
torch.manual_seed(0)
x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True, generator=torch.Generator().manual_seed(0))
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {type(z.grad_fn).__name__}")
print(f"Gradient function for loss = {type(loss.grad_fn).__name__}")
loss.backward()
print(w.grad)
print(b.grad.shape)
z = torch.matmul(x, w)+b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w)+b
print(z.requires_grad)
z_det = (torch.matmul(x, w)+b).detach()
print(z_det.requires_grad)
inp = torch.eye(4, 5, requires_grad=True)
out = (inp+1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3*a**3 - b**2
Q.backward(gradient=torch.tensor([1., 1.]))
print(9*a**2 == a.grad, -2*b == b.grad)
print([(type(f).__name__, i) for f, i in Q.grad_fn.next_functions])
try:
    Q.backward(torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
x = torch.tensor(3.0, requires_grad=True)
y = x ** 3
g, = torch.autograd.grad(y, x, create_graph=True)
g2, = torch.autograd.grad(g, x)
print(g, g2)
print(torch.autograd.functional.jacobian(lambda t: t ** 2, torch.tensor([1., 2.])))
print(torch.autograd.functional.hessian(lambda t: (t ** 3).sum(), torch.tensor([1., 2.])))
with torch.set_grad_enabled(False):
    print((a * 2).requires_grad)
    with torch.enable_grad():
        print((a * 2).requires_grad)
print(torch.is_grad_enabled())
@torch.no_grad()
def f(t): return t * 2
print(f(a).requires_grad)
with torch.inference_mode():
    r = a * 2
print(r.requires_grad)
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
    with torch.enable_grad():
        z = x * 2
print(y.requires_grad, z.requires_grad)
torch.set_grad_enabled(False)
print((x * 2).requires_grad)
torch.set_grad_enabled(True)
print((x * 2).requires_grad)
@torch.enable_grad()
def f(t): return t * 3
with torch.no_grad():
    print(f(x).requires_grad)
class Ctx:
    pass
with torch.no_grad():
    w = torch.zeros(2, requires_grad=True)
print(w.requires_grad, w.is_leaf)
a = torch.randn(3, requires_grad=True) if False else torch.tensor([1., 2., 3.], requires_grad=True)
b = a.detach()
b[0] = 10
print(a)
try:
    a.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
c = a * 1
c.add_(1)
print(c.grad_fn.name())
d = a.clone()
e = d.sin()
d.mul_(2)
try:
    e.backward(torch.ones(3)) ; print("ok")
except RuntimeError as ex:
    print("RuntimeError:", str(ex)[:60])
g = a.exp()
g.mul_(2)
try:
    g.sum().backward()
except RuntimeError as ex:
    print("RuntimeError:", str(ex)[:110])
print(a.grad)
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), (a * 2).requires_grad)
h = a.data
h.zero_()
print(a, a.requires_grad, h.requires_grad)
print(a._version)
k = torch.tensor([1.0], requires_grad=True)
try:
    torch.autograd.grad(k * 2, k)
except RuntimeError as ex:
    print("RuntimeError:", ex)
print(torch.autograd.grad((k * 2).sum(), k, allow_unused=True))
m = torch.tensor([1.0], requires_grad=True)
print(torch.autograd.grad((k * 2).sum(), [k, m], allow_unused=True))
try:
    torch.autograd.grad((k * 2).sum(), [m])
except RuntimeError as ex:
    print("RuntimeError:", ex)
print(torch.autograd.grad((k * 2).sum(), [m], allow_unused=True, materialize_grads=True))
n = torch.tensor(2.0)
try:
    n.backward()
except RuntimeError as ex:
    print("RuntimeError:", ex)
try:
    (k * torch.ones(2)).backward()
except RuntimeError as ex:
    print("RuntimeError:", ex)
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x.clone()
y[0] = 0
y.sum().backward(); print(x.grad)
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a[1:]
c = b * 2
c.sum().backward(); print(a.grad)
w = torch.tensor([2.], requires_grad=True)
out = torch.stack([w * i for i in range(3)]).sum()
out.backward(); print(w.grad)
p = torch.tensor([1., 2.], requires_grad=True)
q = p.view(2, 1)
r = q.expand(2, 3)
r.sum().backward(); print(p.grad)
m = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
torch.linalg.det(m).backward(); print(m.grad)
n = torch.tensor([0., 1.], requires_grad=True)
torch.where(n > 0, n.sqrt(), torch.zeros_like(n)).sum().backward(); print(n.grad)
k = torch.tensor([0.], requires_grad=True)
(k.abs() + k.clamp(min=0) + k.relu() + torch.maximum(k, torch.zeros(1))).backward(); print(k.grad)
z = torch.tensor([3., 3., 1.], requires_grad=True)
z.max().backward(); print(z.grad)
z.grad = None
z.amax().backward(); print(z.grad)
z.grad = None
torch.sort(z)[0][0].backward(); print(z.grad)
z.grad = None
z.norm().backward(); print(z.grad)
zero = torch.zeros(3, requires_grad=True)
zero.norm().backward(); print(zero.grad)
s = torch.tensor([1., 2.], requires_grad=True)
v = s.unsqueeze(0)
v2 = v * v
g = torch.autograd.grad(v2.sum(), s, create_graph=True)[0]
gg = torch.autograd.grad(g.sum(), s)[0]
print(g, gg)
lin = torch.nn.Linear(2, 1)
x2 = torch.randn(4, 2, requires_grad=True)
out = lin(x2)
gp = torch.autograd.grad(out.sum(), x2, create_graph=True)[0]
pen = (gp.norm(2, dim=1) - 1).pow(2).mean()
pen.backward(); print(lin.weight.grad)
t = torch.ones(2, requires_grad=True)
u = t * 2
u.backward(torch.tensor([1., 0.5]), inputs=[t]); print(t.grad)
leaf = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    leaf.mul_(2)
print(leaf, leaf.grad_fn)
ij = torch.autograd.functional.vjp(lambda v: v ** 2, torch.tensor([1., 2.]), torch.tensor([1., 1.]))
print(ij)
print(torch.autograd.functional.jvp(lambda v: v.exp(), torch.tensor([0., 1.]), torch.tensor([1., 0.])))
dd = torch.tensor([1., 2., 3.], requires_grad=True, dtype=torch.float64)
print(torch.autograd.gradcheck(lambda v: (v.sin() * v.cumsum(0)).prod(), (dd,)))
print(torch.autograd.gradgradcheck(lambda v: (v ** 3).sum(), (dd,)))
