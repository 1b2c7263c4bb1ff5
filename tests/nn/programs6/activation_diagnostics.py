"""A hand-built MLP language model with hand-written Linear / BatchNorm1d / Tanh layer classes, in the style of a
lecture notebook that trains it for a few steps and then diagnoses the network: the distribution of each tanh
layer's activations and of their gradients (torch.histogram with density=True, as a plot would draw them), the
saturation, each weight's grad:data ratio and the log10 update:data ratio per step. torch.histogram is also asked
with explicit edges, a range, weights, a float64 input and on a tensor method, and for the errors it raises."""
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
vocab, block, n_embd, n_hidden = 27, 3, 10, 48


class Linear:
    def __init__(self, fan_in, fan_out, bias=True):
        self.weight = torch.randn((fan_in, fan_out), generator=g) / fan_in**0.5
        self.bias = torch.zeros(fan_out) if bias else None

    def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
            self.out += self.bias
        return self.out

    def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])


class BatchNorm1d:
    def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps, self.momentum, self.training = eps, momentum, True
        self.gamma, self.beta = torch.ones(dim), torch.zeros(dim)
        self.running_mean, self.running_var = torch.zeros(dim), torch.ones(dim)

    def __call__(self, x):
        if self.training:
            xmean, xvar = x.mean(0, keepdim=True), x.var(0, keepdim=True)
        else:
            xmean, xvar = self.running_mean, self.running_var
        self.out = self.gamma * (x - xmean) / torch.sqrt(xvar + self.eps) + self.beta
        if self.training:
            with torch.no_grad():
                self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * xmean
                self.running_var = (1 - self.momentum) * self.running_var + self.momentum * xvar
        return self.out

    def parameters(self):
        return [self.gamma, self.beta]


class Tanh:
    def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out

    def parameters(self):
        return []


C = torch.randn((vocab, n_embd), generator=g)
layers = [Linear(n_embd * block, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
          Linear(n_hidden, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
          Linear(n_hidden, vocab, bias=False), BatchNorm1d(vocab)]
with torch.no_grad():
    layers[-1].gamma *= 0.1
    for layer in layers[:-1]:
        if isinstance(layer, Linear):
            layer.weight *= 5 / 3
parameters = [C] + [p for layer in layers for p in layer.parameters()]
for p in parameters:
    p.requires_grad = True
print(sum(p.nelement() for p in parameters))

Xtr = torch.randint(0, vocab, (400, block), generator=g)
Ytr = (Xtr.sum(1) * 7 + 3) % vocab
ud = []
for i in range(6):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    x = C[Xtr[ix]].view(32, -1)
    for layer in layers:
        x = layer(x)
        layer.out.retain_grad()
    loss = F.cross_entropy(x, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1
    for p in parameters:
        p.data += -lr * p.grad
    with torch.no_grad():
        ud.append([((lr * p.grad).std() / p.data.std()).log10().item() for p in parameters])
    print(f"{i:4d}: {loss.item():.4f}")

for i, layer in enumerate(layers[:-1]):
    if isinstance(layer, Tanh):
        t = layer.out
        print(f"layer {i} ({layer.__class__.__name__}): mean {t.mean():+.2f}, std {t.std():.2f}, "
              f"saturated: {(t.abs() > 0.97).float().mean() * 100:.2f}%")
        hy, hx = torch.histogram(t, density=True)
        print(len(hy), len(hx), f"{hy.max().item():.4f} {hx[hy.argmax()].item():.4f}")
        print(hy[40:60].round(decimals=3).tolist())
        gy, gx = torch.histogram(layer.out.grad, density=True)
        print(f"grad {gy.max().item():.0f} {gx[0].item():.3e} {gx[-1].item():.3e}")
for i, p in enumerate(parameters):
    if p.ndim == 2:
        print(f"weight {tuple(p.shape)!s:10s} | std {p.grad.std():e} | "
              f"grad:data ratio {p.grad.std() / p.std():e}")
print([round(u, 3) for u in ud[-1]])

values = torch.tensor([0.5, 1.0, 1.0, 2.5, 3.0, 3.0, 4.0, 7.5, -1.0])
print(torch.histogram(values, bins=4, range=(0.0, 4.0)))
print(torch.histogram(values, torch.tensor([0.0, 1.0, 2.0, 4.0]), weight=torch.arange(9.0), density=True))
print(values.histogram(3))
print(torch.histogram(torch.full((5,), 2.0), 4))
h = torch.histogram(torch.linspace(-1, 1, 11, dtype=torch.float64), 5)
print(h.hist, h.bin_edges, type(h).__name__)
for bad in (lambda: torch.histogram(torch.arange(4), 2), lambda: torch.histogram(values, 0),
            lambda: torch.histogram(values, 2, weight=torch.ones(9, dtype=torch.float64)),
            lambda: torch.histogram(values, 2, range=(3.0, 1.0))):
    try:
        bad()
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
