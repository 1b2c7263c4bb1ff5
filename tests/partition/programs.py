"""Programs partitioned by both PyTorch's partitioners and ours, each written once against a library argument.

`PROGRAMS[name](lib)` receives `torch` or `minitorch2` and returns `(fn, inputs)`:
a function of tensors and the example inputs to trace it with (identical
values in both libraries, drawn from one numpy generator; `requires_grad` as
listed). The tests hand `fn` to each library's `aot_function` and compare the
forward and backward graphs the partitioners produce.
"""
import math

import numpy as np

PROGRAMS = {}


def program(fn):
    PROGRAMS[fn.__name__] = fn
    return fn


def tensors(lib, *specs, seed=0):
    """One tensor per (shape, requires_grad[, kind]) spec; kind "int" draws class indices below 4."""
    rng = np.random.default_rng(seed)
    out = []
    for spec in specs:
        shape, grad = spec[0], spec[1]
        kind = spec[2] if len(spec) > 2 else "float"
        if kind == "int":
            out.append(lib.from_numpy(rng.integers(0, 4, size=shape).astype(np.int64)))
        else:
            t = lib.from_numpy(rng.standard_normal(shape).astype(np.float32))
            out.append(t.requires_grad_(grad))
    return out


# ------------------------------------------------------------------ pointwise chains

@program
def sin_cos_chain(lib):  # seed 000
    return (lambda x: x.sin().cos().sin().sum()), tensors(lib, ((8,), True))


@program
def gelu_mul(lib):  # seed 002: default saves [x, w, gelu], min-cut [x, w]
    F = lib.nn.functional
    return (lambda a, w: (F.gelu(a) * w).sum()), tensors(lib, ((16, 16), True), ((16, 16), True))


@program
def silu_chain(lib):
    F = lib.nn.functional
    return (lambda x: F.silu(x).mul(2.0).sum()), tensors(lib, ((4, 8), True))


@program
def tanh_sigmoid(lib):
    return (lambda x, y: (lib.tanh(x) * lib.sigmoid(y)).sum()), tensors(lib, ((6, 5), True), ((6, 5), True))


@program
def exp_log(lib):
    return (lambda x: (x.exp() + 1).log().mean()), tensors(lib, ((10,), True))


@program
def add_chain_cos(lib):  # seed 001
    return (lambda a, b, c, d: (a + b + c + d).cos().cos()), tensors(lib, *[((2, 4), True)] * 4)


@program
def pow_sqrt(lib):
    return (lambda x: (x.pow(2) + 1).sqrt().rsqrt().sum()), tensors(lib, ((5, 5), True))


@program
def relu_where(lib):
    return (lambda x, y: lib.where(x > 0, x.relu(), y * 2).sum()), tensors(lib, ((7,), True), ((7,), True))


@program
def two_outputs(lib):
    return (lambda x: (x.sin(), x.cos() * 2)), tensors(lib, ((3, 3), True))


@program
def long_pointwise_chain(lib):  # > 100 fusible ops: the long-chain ban must cut it
    def f(x):
        for i in range(104):
            x = x.sin() if i % 2 else x * 1.01
        return x.sum()
    return f, tensors(lib, ((16,), True))


@program
def softplus_leaky(lib):
    F = lib.nn.functional
    return (lambda x: F.softplus(x).mul(F.leaky_relu(x, 0.1)).sum()), tensors(lib, ((4, 4), True))


# ------------------------------------------------------------------ matmul mixtures

@program
def mm_sin(lib):  # seed 000's joint peek
    return (lambda x, w: (x @ w).sin().sum()), tensors(lib, ((2, 3), False), ((3, 4), True))


@program
def linear_gelu_linear(lib):  # gelu's output feeds an mm in the backward: materialised, so saved
    F = lib.nn.functional
    return (lambda x, w1, b1, w2, b2: F.linear(F.gelu(F.linear(x, w1, b1)), w2, b2).sum()), tensors(
        lib, ((4, 8), False), ((16, 8), True), ((16,), True), ((8, 16), True), ((8,), True))


@program
def mlp_relu(lib):
    return (lambda x, w1, w2: (x @ w1).relu().matmul(w2).sum()), tensors(lib, ((4, 6), True), ((6, 8), True),
                                                                        ((8, 2), True))


@program
def residual_relu(lib):
    return (lambda x, w: (x + (x @ w).relu()).sum()), tensors(lib, ((5, 5), True), ((5, 5), True))


@program
def mm_sin_cos_mix(lib):
    def f(x, w):
        y = x @ w
        return (y.sin() * y.cos()).sum()
    return f, tensors(lib, ((4, 4), True), ((4, 4), True))


@program
def mm_tanh_mm(lib):
    return (lambda x, w1, w2: lib.tanh(x @ w1).mm(w2).tanh().sum()), tensors(lib, ((3, 4), True), ((4, 5), True),
                                                                             ((5, 2), True))


@program
def bmm_relu(lib):
    return (lambda a, b: lib.bmm(a, b).relu().sum()), tensors(lib, ((2, 3, 4), True), ((2, 4, 5), True))


@program
def addmm_sigmoid(lib):
    return (lambda b, x, w: lib.addmm(b, x, w).sigmoid().sum()), tensors(lib, ((5,), True), ((3, 4), True),
                                                                          ((4, 5), True))


@program
def transpose_mm(lib):
    return (lambda x, w: (x.t() @ w).exp().sum()), tensors(lib, ((4, 3), True), ((4, 2), True))


@program
def used_far_apart(lib):  # a pointwise value read before and after an mm
    def f(x, w):
        y = x.sin()
        z = (y @ w).relu()
        return (z + y).sum()
    return f, tensors(lib, ((4, 4), True), ((4, 4), True))


# ------------------------------------------------------------------ normalisations and reductions

@program
def softmax_mm(lib):
    F = lib.nn.functional
    return (lambda x, w: F.softmax(x @ w, dim=-1).mul(2).sum()), tensors(lib, ((4, 6), True), ((6, 5), True))


@program
def log_softmax_nll(lib):
    F = lib.nn.functional
    return (lambda x, t: F.nll_loss(F.log_softmax(x, dim=1), t)), tensors(lib, ((5, 4), True), ((5,), False, "int"))


@program
def cross_entropy_linear(lib):
    F = lib.nn.functional
    return (lambda x, w, t: F.cross_entropy(x @ w, t)), tensors(lib, ((6, 3), False), ((3, 4), True),
                                                                ((6,), False, "int"))


@program
def layer_norm(lib):
    F = lib.nn.functional
    return (lambda x, w, b: F.layer_norm(x, (8,), w, b).sum()), tensors(lib, ((4, 8), True), ((8,), True),
                                                                        ((8,), True))


@program
def layer_norm_linear(lib):
    F = lib.nn.functional
    return (lambda x, w, b, w2: F.linear(F.layer_norm(x, (8,), w, b), w2).relu().sum()), tensors(
        lib, ((4, 8), True), ((8,), True), ((8,), True), ((3, 8), True))


@program
def batch_norm_no_stats(lib):  # training-mode BN without running stats: nothing to functionalize
    F = lib.nn.functional
    return (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True).relu().sum()), tensors(
        lib, ((6, 3), True), ((3,), True), ((3,), True))


@program
def manual_norm(lib):
    def f(x):
        mu = x.mean(dim=-1, keepdim=True)
        var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)
        return ((x - mu) / (var + 1e-5).sqrt()).sum()
    return f, tensors(lib, ((4, 16), True))


@program
def sum_dim_reduction(lib):  # the row sums are 4x smaller than their input: banned from recompute
    return (lambda x, w: (x.exp().sum(dim=1) @ w).sum()), tensors(lib, ((3, 16), True), ((3, 2), True))


@program
def mse_linear(lib):
    F = lib.nn.functional
    return (lambda x, w, y: F.mse_loss((x @ w).tanh(), y)), tensors(lib, ((4, 3), False), ((3, 2), True),
                                                                     ((4, 2), False))


# ------------------------------------------------------------------ random, attention, convolution

@program
def dropout_mul(lib):
    F = lib.nn.functional
    return (lambda x, w: (F.dropout(x, 0.5, training=True) * w).sum()), tensors(lib, ((8, 8), True), ((8, 8), True))


@program
def attention(lib):
    F = lib.nn.functional

    def f(q, k, v):
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(8)
        return (F.softmax(scores, dim=-1) @ v).sum()
    return f, tensors(lib, ((2, 4, 8), True), ((2, 4, 8), True), ((2, 4, 8), True))


@program
def conv_relu(lib):
    F = lib.nn.functional
    return (lambda x, w, b: F.conv2d(x, w, b, padding=1).relu().sum()), tensors(
        lib, ((1, 2, 5, 5), True), ((3, 2, 3, 3), True), ((3,), True))


@program
def cat_pointwise(lib):
    return (lambda x, y: lib.cat([x.sin(), y.cos()], dim=0).mul(3).sum()), tensors(lib, ((3, 2), True),
                                                                                   ((4, 2), True))


@program
def batch_norm_running_stats(lib):  # BN updating running stats: needs functionalization of the buffers
    F = lib.nn.functional
    return (lambda x, w, b, rm, rv: F.batch_norm(x, rm, rv, w, b, training=True).sum()), tensors(
        lib, ((6, 3), True), ((3,), True), ((3,), True), ((3,), False), ((3,), False))


@program
def max_pool_conv(lib):
    F = lib.nn.functional
    return (lambda x, w: F.max_pool2d(F.conv2d(x, w), 2).sigmoid().sum()), tensors(
        lib, ((1, 1, 6, 6), True), ((2, 1, 3, 3), True))


@program
def avg_pool_relu(lib):
    F = lib.nn.functional
    return (lambda x: F.avg_pool2d(x.relu(), 2).exp().sum()), tensors(lib, ((1, 2, 4, 4), True))


@program
def embedding_linear(lib):
    F = lib.nn.functional
    return (lambda i, e, w: (F.embedding(i, e) @ w).tanh().sum()), tensors(
        lib, ((5,), False, "int"), ((4, 6), True), ((6, 3), True))


@program
def sdpa(lib):
    F = lib.nn.functional
    return (lambda q, k, v: F.scaled_dot_product_attention(q, k, v).sum()), tensors(
        lib, ((1, 2, 4, 8), True), ((1, 2, 4, 8), True), ((1, 2, 4, 8), True))


@program
def transformer_mlp(lib):  # layer norm, linear, gelu, linear, residual
    F = lib.nn.functional

    def f(x, g, b, w1, b1, w2, b2):
        h = F.layer_norm(x, (8,), g, b)
        return (x + F.linear(F.gelu(F.linear(h, w1, b1)), w2, b2)).sum()
    return f, tensors(lib, ((4, 8), True), ((8,), True), ((8,), True), ((16, 8), True), ((16,), True),
                      ((8, 16), True), ((8,), True))


@program
def clamp_hardtanh(lib):
    F = lib.nn.functional
    return (lambda x: F.hardtanh(x.clamp(-2, 2) * 3).sum()), tensors(lib, ((9,), True))


@program
def amax_softmax_manual(lib):
    def f(x):
        z = x - x.amax(dim=-1, keepdim=True)
        e = z.exp()
        return (e / e.sum(dim=-1, keepdim=True)).mul(x).sum()
    return f, tensors(lib, ((3, 8), True))


@program
def glu_gate(lib):  # sigmoid gating of two matmuls
    def f(x, wa, wb):
        return ((x @ wa) * (x @ wb).sigmoid()).sum()
    return f, tensors(lib, ((4, 6), True), ((6, 5), True), ((6, 5), True))


@program
def two_layer_mlp_layer_norm(lib):
    F = lib.nn.functional

    def f(x, w1, b1, w2, b2, g, b):
        h = F.relu(F.linear(x, w1, b1))
        return F.layer_norm(F.linear(h, w2, b2), (4,), g, b).tanh().sum()
    return f, tensors(lib, ((3, 6), False), ((8, 6), True), ((8,), True), ((4, 8), True), ((4,), True),
                      ((4,), True), ((4,), True))


@program
def softmax_dim0_exp(lib):
    F = lib.nn.functional
    return (lambda x: F.softmax(x.exp(), dim=0).mul(x).sum()), tensors(lib, ((5, 3), True))


@program
def cube_reduction(lib):  # a row reduction feeding pointwise math
    return (lambda x: (x.pow(3).sum(dim=-1) * x.mean(dim=-1)).sum()), tensors(lib, ((4, 12), True))


@program
def long_chain_with_matmuls(lib):  # pointwise runs between matmuls, one run longer than 100 ops
    def f(x, w):
        for block in range(3):
            x = x @ w
            for i in range(104 if block == 1 else 6):
                x = x.cos() if i % 2 else x + 0.5
        return x.sum()
    return f, tensors(lib, ((3, 3), True), ((3, 3), True))


@program
def shared_input_far_apart(lib):  # one input read by pointwise ops on both sides of a matmul
    def f(x, w):
        a = x.exp()
        b = (a @ w).sigmoid()
        c = (b @ w) * x.sin()
        return (c + a).sum()
    return f, tensors(lib, ((4, 4), True), ((4, 4), True))
