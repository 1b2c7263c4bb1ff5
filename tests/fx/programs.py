"""Programs traced by both torch.fx and minitorch2.fx, each written once against a library argument.

`build(torch)` receives either the real `torch` or `minitorch2` and returns
`(root, input_shapes, concrete_args)`; the tests trace both versions and
compare the printed graphs, the generated code and the outputs.
"""
import math

import torch as _real_torch

import minitorch2 as _minitorch2
import minitorch2.fx  # noqa: F401  (minitorch2 does not import its fx package by itself)


def leaf_scale(x, k):
    """A user function kept as a leaf by fx.wrap in both libraries."""
    return x * k


_real_torch.fx.wrap("leaf_scale")
_minitorch2.fx.wrap("leaf_scale")


@_real_torch.fx.wrap
@_minitorch2.fx.wrap
def leaf_norm(x, eps=1e-6):
    """Wrapped with the decorator form."""
    return x / (x.abs().sum() + eps)

PROGRAMS = {}


def program(fn):
    PROGRAMS[fn.__name__] = fn
    return fn


@program
def swish_seed(torch):
    class Swish(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(4, 4)

        def forward(self, x):
            y = self.lin(x)
            return y * torch.sigmoid(y) + self.lin.bias.sum()

    return Swish(), [(3, 4)], None


@program
def mlp_modules(torch):
    nn = torch.nn

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.l1, self.l2 = nn.Linear(6, 8), nn.Linear(8, 2)
            self.act = nn.ReLU()

        def forward(self, x):
            return self.l2(self.act(self.l1(x))) + 1.0

    return MLP(), [(5, 6)], None


@program
def mlp_functional(torch):
    nn, F = torch.nn, torch.nn.functional

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.w1 = nn.Parameter(torch.randn(8, 6))
            self.b1 = nn.Parameter(torch.randn(8))
            self.l2 = nn.Linear(8, 3)

        def forward(self, x):
            h = F.relu(F.linear(x, self.w1, self.b1))
            return F.log_softmax(self.l2(h), dim=-1)

    return MLP(), [(4, 6)], None


@program
def sequential(torch):
    nn = torch.nn
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 2)), [(3, 4)], None


@program
def convnet(torch):
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 4, 3, padding=1)
            self.bn1 = nn.BatchNorm2d(4)
            self.pool = nn.MaxPool2d(2)
            self.conv2 = nn.Conv2d(4, 6, 3)
            self.fc = nn.Linear(6 * 2 * 2, 5)

        def forward(self, x):
            x = self.pool(torch.relu(self.bn1(self.conv1(x))))
            x = torch.relu(self.conv2(x))
            return self.fc(torch.flatten(x, 1))

    return Net().eval(), [(2, 3, 8, 8)], None


@program
def conv_bn_silu(torch):
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3)
            self.bn = nn.BatchNorm2d(8)
            self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))

        def forward(self, x):
            y = self.bn(self.conv(x))
            return self.head(y * torch.sigmoid(y))

    return Block().eval(), [(4, 3, 8, 8)], None


@program
def method_calls(torch):
    def f(x):
        a = x.view(-1).reshape(2, 12).t()
        b = x.permute(2, 0, 1).contiguous().transpose(0, 1)
        c = x.sum(dim=1, keepdim=True).mean()
        return a.relu(), b.exp().clamp(min=0.5), c, x.flatten(1).softmax(-1)

    return f, [(2, 3, 4)], None


@program
def operators(torch):
    def f(x, y):
        a = (x + y) * (x - y) / (y + 2.0)
        b = 2 - x, 1 / (x + 3), x ** 2, -x, +y, abs(x), x // 2, x % 3
        c = (x > 0) & (y < 1), (x >= 0) | (y <= 0), x == y, x != y
        return a, b, c, x @ y.t()

    return f, [(3, 3), (3, 3)], None


@program
def getattr_parameters(torch):
    nn = torch.nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            self.scale = nn.Parameter(torch.ones(4))
            self.register_buffer("shift", torch.zeros(4))

        def forward(self, x):
            w = self.lin.weight.t()
            return torch.matmul(x, w) * self.scale + self.shift + self.lin.bias, self.scale.sum()

    return M(), [(2, 4)], None


@program
def concrete_flag(torch):
    def f(x, use_relu=True, scale=None):
        if use_relu:
            x = torch.relu(x)
        if scale is not None:
            x = x * scale
        return x + 1

    return f, [(3,)], {"use_relu": True, "scale": None}


@program
def concrete_int(torch):
    def f(x, n):
        for _ in range(n):
            x = x * 2
        return x

    return f, [(3,), ("value", 3)], {"n": 3}


@program
def nested_user_modules(torch):
    nn = torch.nn

    class Inner(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            return torch.tanh(self.lin(x))

    class Outer(nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b = Inner(), Inner()
            self.shared = nn.Linear(4, 4)

        def forward(self, x):
            return self.shared(self.b(self.shared(self.a(x))))

    return Outer(), [(2, 4)], None


@program
def module_list_loop(torch):
    nn = torch.nn

    class Stack(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
            self.norm = nn.LayerNorm(4)

        def forward(self, x):
            for layer in self.layers:
                x = x + torch.relu(layer(x))
            return self.norm(x)

    return Stack(), [(2, 4)], None


@program
def kwargs_calls(torch):
    F = torch.nn.functional

    def f(x, y):
        s = torch.sum(x, dim=1, keepdim=True)
        c = torch.cat([x, y], dim=0)
        m = torch.softmax(x, dim=-1)
        d = F.dropout(x, p=0.0, training=False)
        n = F.layer_norm(y, [4])
        return s, c, m, d, n, F.softmax(y, dim=0)

    return f, [(3, 4), (3, 4)], None


@program
def tuple_and_dict_outputs(torch):
    def f(x):
        a = x.relu()
        return (a, (x.sigmoid(), [a, 2])), {"sum": a.sum(), "x": x}

    return f, [(2, 2)], None


@program
def indexing(torch):
    def f(x):
        return x[0], x[:, 1], x[..., 1:3], x[None], x[0, 1:2, ...], x[:, None, -1]

    return f, [(3, 4, 5)], None


@program
def shapes(torch):
    def f(x):
        b = x.size(0)
        return x.view(b, -1), x.shape, x.reshape(x.shape[0], 2, -1), x.dim()

    return f, [(2, 3, 4)], None


@program
def aten_overloads(torch):
    aten = torch.ops.aten

    def f(x, y):
        mm = aten.mm.default(x, y)
        s = aten.sum.dim_IntList(mm, [0])
        return aten.add.Tensor(s, 1), aten.relu.default(mm)

    return f, [(3, 3), (3, 3)], None


@program
def builtin_name_collisions(torch):
    def f(input, sum, max):
        a = input.sum() + torch.sum(input, 0).max()
        return torch.max(input), torch.min(input), a + sum + max, abs(input).sum()

    return f, [(3, 3), (), ()], None


@program
def annotations(torch):
    def f(x: torch.Tensor, k: int = 2) -> torch.Tensor:
        return x.repeat(k, 1)

    return f, [(2, 3)], None


@program
def tensor_constants(torch):
    nn = torch.nn

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.table = torch.arange(4.0)  # a plain tensor attribute, not a buffer

        def forward(self, x):
            return x * self.table + torch.ones(4) - torch.full((4,), 0.5)

    return M(), [(2, 4)], None


@program
def unpack_and_chunk(torch):
    def f(x):
        a, b = torch.chunk(x, 2, dim=1)
        c, d = x.split(2, dim=1)
        e, g = torch.split(x, [1, 3], dim=1)
        return a * b + c - d, e, g

    return f, [(3, 4)], None


@program
def max_with_dim(torch):
    def f(x):
        values, indices = torch.max(x, dim=1)
        m = x.max(dim=0)[0]
        return values + m[:3], indices, x.argmax(-1)

    return f, [(3, 4)], None


@program
def varargs_forward(torch):
    def f(x, *rest, scale=2.0, **extra):
        return x * scale + rest[0] + extra["bias"]

    return f, [(3,)], None


@program
def embedding_and_norm(torch):
    nn = torch.nn

    class Emb(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 4)
            self.ln = nn.LayerNorm(4)
            self.drop = nn.Dropout(0.1)

        def forward(self, ids):
            return self.drop(self.ln(self.emb(ids))).mean(dim=1)

    return Emb().eval(), [("long", (2, 3))], None


@program
def wrapped_leaf_and_math(torch):
    def f(x):
        s = math.sqrt(x.numel())
        return leaf_scale(x, 3) + math.sqrt(x.sum()) + s + leaf_norm(x, eps=0.5)

    return f, [(2, 2)], None


@program
def losses(torch):
    F = torch.nn.functional

    def f(x, y):
        return F.mse_loss(x, y), F.l1_loss(x, y, reduction="sum"), torch.nn.functional.gelu(x), F.silu(y)

    return f, [(3, 4), (3, 4)], None


@program
def inplace_and_where(torch):
    def f(x, y):
        z = torch.where(x > 0, x, y)
        z = z.clone()
        z.add_(1)
        z.mul_(y)
        return torch.maximum(z, y), torch.clamp(x, -1, 1), x.masked_fill(x < 0, 0.0)

    return f, [(3, 3), (3, 3)], None


@program
def pooling_net(torch):
    nn, F = torch.nn, torch.nn.functional

    class P(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 4, 3, stride=1, padding=1, bias=False)
            self.avg = nn.AvgPool2d(2)

        def forward(self, x):
            y = self.avg(self.conv(x))
            return F.max_pool2d(y, 2), F.adaptive_avg_pool2d(y, 1).flatten(1)

    return P(), [(1, 2, 8, 8)], None


@program
def constant_tensor_on_the_left(torch):
    c = torch.arange(1.0, 4.0)

    def f(x):
        return c - x, c / x, c @ x, c == x, c < x, (c > 1) & (x > 0), c % x, c.sub(x, alpha=2), c.expand_as(x), c * x

    return f, [(3,)], None
