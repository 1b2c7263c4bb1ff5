"""The AOT corpus: small programs traced by torch's aot_function and by ours, each written once.

A program is `build(lib) -> (fn, args)`: `lib` is the real `torch` or
`minitorch2`; the test seeds both libraries' generators identically before
building, so the random inputs and module parameters come out equal (the two
CPU generators agree bit for bit). `fn(*args)` returns a tensor or a tuple of
tensors. Modules are called functionally: their parameters and buffers become
the first inputs (as aot_module makes them), so they are primals and get
gradients rather than being baked into the graph as constants.

Programs tagged `random=True` draw random numbers inside the graph (dropout):
their graphs are compared, and their values only checked for consistency
with the mask they drew, since torch's aot keeps its own RNG state.
"""
import math

PROGRAMS = {}
RANDOM = set()


def program(fn=None, *, random=False):
    def register(build):
        PROGRAMS[build.__name__] = build
        if random:
            RANDOM.add(build.__name__)
        return build

    return register(fn) if fn is not None else register


# ---------------------------------------------------------------- helpers
def leaf(lib, *shape, grad=True):
    return lib.randn(*shape).requires_grad_(grad)


def indices(lib, high, *shape):
    return lib.randint(0, high, shape)


class _swapped:
    """Let a module read the given tensors as its parameters and buffers (a functional call)."""

    def __init__(self, module, names, values):
        self.module, self.names, self.values = module, names, values

    def __enter__(self):
        self.saved = []
        for name, value in zip(self.names, self.values):
            path, _, attr = name.rpartition(".")
            owner = self.module.get_submodule(path) if path else self.module
            store = owner._parameters if attr in owner._parameters else owner._buffers
            self.saved.append((store, attr, store[attr]))
            store[attr] = value

    def __exit__(self, *exc):
        for store, attr, value in reversed(self.saved):
            store[attr] = value


def functional(module, *inputs, call=None):
    """(fn, args) running `call(module, *inputs)` (default: `module(*inputs)`) with the module's
    parameters, then buffers, passed as the leading arguments."""
    names = [n for n, _ in module.named_parameters()] + [n for n, _ in module.named_buffers()]
    state = [p for _, p in module.named_parameters()] + [b for _, b in module.named_buffers()]
    call = call or (lambda m, *xs: m(*xs))

    def fn(*args):
        with _swapped(module, names, args[: len(names)]):
            return call(module, *args[len(names):])

    return fn, state + list(inputs)


# ---------------------------------------------------------------- pointwise
@program
def pointwise_chain(lib):
    def fn(x, y):
        return (x.sin() * y).exp().tanh() + 1

    return fn, [leaf(lib, 3, 4), leaf(lib, 3, 4)]


@program
def pointwise_sigmoid_gelu(lib):
    F = lib.nn.functional

    def fn(x, y):
        return F.gelu(x) * lib.sigmoid(y) - F.silu(x)

    return fn, [leaf(lib, 5), leaf(lib, 5)]


@program
def pointwise_div_pow(lib):
    def fn(x, y):
        return (x - y) / (y.abs() + 1) ** 2

    return fn, [leaf(lib, 2, 3), leaf(lib, 2, 3)]


@program
def pointwise_scalars(lib):
    def fn(x):
        return (2 - x) * 3 / 4 + x ** 3 - x.neg()

    return fn, [leaf(lib, 6)]


@program
def pointwise_log_sqrt(lib):
    def fn(x, y):
        return (x.abs() + 1).log() + (y * y + 1).sqrt() + (y * y + 2).rsqrt() + x.cos()

    return fn, [leaf(lib, 4, 2), leaf(lib, 4, 2)]


@program
def pointwise_relu_clamp(lib):
    def fn(x):
        return x.relu().clamp(0.1, 0.5) + x.clamp(min=-0.2) + lib.tanh(x)

    return fn, [leaf(lib, 3, 5)]


@program
def pointwise_where_maximum(lib):
    def fn(x, y):
        return lib.where(x > 0, x, y * 2) + lib.maximum(x, y)

    return fn, [leaf(lib, 4, 3), leaf(lib, 4, 3)]


@program
def pointwise_activations(lib):
    F = lib.nn.functional

    def fn(x):
        return F.leaky_relu(x, 0.2) + F.softplus(x) + F.hardtanh(x) + lib.erf(x)

    return fn, [leaf(lib, 8)]


@program
def binary_formulas(lib):
    def fn(x, y, z):
        return lib.atan2(x, y) + lib.lerp(x, y, 0.3) + lib.addcmul(z, x, y, value=2) + lib.addcdiv(z, x, y.exp(), value=0.5)

    return fn, [leaf(lib, 2, 3), leaf(lib, 3), leaf(lib, 2, 1)]


@program
def pow_tensor_tensor(lib):
    def fn(x, e):
        return x.abs() ** e + lib.minimum(x, e)

    return fn, [leaf(lib, 3, 4), leaf(lib, 4)]


@program
def clamp_tensor_bounds(lib):
    def fn(x, lo, hi):
        return x.clamp(min=lo - 1, max=hi + 1) * 2 + lib.rsub(x, hi, alpha=2)

    return fn, [leaf(lib, 3, 4), leaf(lib, 4), leaf(lib, 3, 1, grad=False)]


@program
def remainder_fmod(lib):
    def fn(x, y):
        d = y.abs() + 0.5
        return x % d + lib.fmod(x, d)

    return fn, [leaf(lib, 2, 5), leaf(lib, 5)]


@program
def masked_fill(lib):
    def fn(x):
        return x.masked_fill(x < 0, 0.5).exp()

    return fn, [leaf(lib, 3, 3)]


# ---------------------------------------------------------------- reductions
@program
def reduce_sum_dims(lib):
    def fn(x):
        return x.sum(dim=1) + x.sum(dim=(0, 2)).sum() + x.sum(dim=-1, keepdim=True).sum(1)

    return fn, [leaf(lib, 2, 3, 4)]


@program
def reduce_mean(lib):
    def fn(x):
        return x.mean(dim=-1, keepdim=True) * x.mean()

    return fn, [leaf(lib, 3, 5)]


@program
def reduce_amax(lib):
    def fn(x):
        return x.amax(dim=1) + x.amax(dim=(0, 1), keepdim=True).sum()

    return fn, [leaf(lib, 3, 4, 2)]


@program
def reduce_amax_amin_0d(lib):
    def fn(x):  # a 0-d tensor reduced over its one dim: ATen's backward restores it to [1], the engine sums
        return x.amax(dim=0) * x.amin(dim=[0])

    return fn, [lib.randn(()).requires_grad_()]


@program
def reduce_var_std(lib):
    def fn(x):
        return x.var(dim=1) + x.std(dim=1, keepdim=False) + x.var(dim=0, correction=0).sum()

    return fn, [leaf(lib, 4, 6)]


@program
def reduce_logsumexp_max(lib):
    def fn(x):
        return lib.logsumexp(x, dim=1) + x.max(dim=1).values

    return fn, [leaf(lib, 3, 7)]


@program
def reduce_cumsum(lib):
    def fn(x):
        return lib.cumsum(x, dim=1) * 2

    return fn, [leaf(lib, 3, 4)]


# ---------------------------------------------------------------- broadcasting
@program
def broadcast_three_ways(lib):
    def fn(x, y, z):
        return x + y * z

    return fn, [leaf(lib, 4, 1, 3), leaf(lib, 2, 3), leaf(lib, 3)]


@program
def broadcast_scalar_tensor(lib):
    def fn(x, s):
        return (x / s + s).exp()

    return fn, [leaf(lib, 2, 5), leaf(lib, ())]


# ---------------------------------------------------------------- matrix products
@program
def matmul_2d(lib):
    def fn(x, w):
        return (x @ w).sin()

    return fn, [leaf(lib, 2, 3), leaf(lib, 3, 4)]


@program
def matmul_3d_2d(lib):
    def fn(x, w):
        return lib.matmul(x, w)

    return fn, [leaf(lib, 2, 3, 4), leaf(lib, 4, 5)]


@program
def matmul_batched(lib):
    def fn(a, b):
        return a @ b

    return fn, [leaf(lib, 2, 3, 4), leaf(lib, 2, 4, 5)]


@program
def bmm_direct(lib):
    def fn(a, b):
        return lib.bmm(a, b).relu()

    return fn, [leaf(lib, 3, 2, 4), leaf(lib, 3, 4, 2)]


@program
def addmm_direct(lib):
    def fn(b, x, w):
        return lib.addmm(b, x, w)

    return fn, [leaf(lib, 4), leaf(lib, 3, 5), leaf(lib, 5, 4)]


@program
def attention(lib):
    def fn(q, k, v):
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        return lib.softmax(scores, dim=-1) @ v

    return fn, [leaf(lib, 2, 4, 8), leaf(lib, 2, 4, 8), leaf(lib, 2, 4, 8)]


# ---------------------------------------------------------------- nn modules
@program
def linear(lib):
    return functional(lib.nn.Linear(4, 3), leaf(lib, 2, 4))


@program
def linear_no_bias(lib):
    return functional(lib.nn.Linear(4, 3, bias=False), leaf(lib, 5, 4))


@program
def linear_3d_input(lib):
    return functional(lib.nn.Linear(4, 3), leaf(lib, 2, 5, 4))


@program
def mlp(lib):
    nn = lib.nn
    model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3), nn.Tanh())
    return functional(model, leaf(lib, 5, 6))


@program
def conv2d(lib):
    return functional(lib.nn.Conv2d(3, 4, 3, padding=1), leaf(lib, 2, 3, 6, 6))


@program
def conv2d_no_bias_relu(lib):
    nn = lib.nn
    model = nn.Sequential(nn.Conv2d(2, 3, 3, stride=2, bias=False), nn.ReLU())
    return functional(model, leaf(lib, 1, 2, 7, 7))


@program
def batchnorm2d_eval(lib):
    bn = lib.nn.BatchNorm2d(3)
    with lib.no_grad():
        bn.running_mean.uniform_(-1, 1)
        bn.running_var.uniform_(0.5, 2)
    bn.eval()
    return functional(bn, leaf(lib, 2, 3, 4, 4))


@program
def conv_bn_relu_eval(lib):
    nn = lib.nn
    model = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU())
    model.eval()
    return functional(model, leaf(lib, 2, 2, 5, 5))


@program
def batchnorm2d_train(lib):
    bn = lib.nn.BatchNorm2d(3)
    bn.train()
    return functional(bn, leaf(lib, 2, 3, 4, 4))


@program
def conv_bn_train(lib):
    nn = lib.nn
    model = nn.Sequential(nn.Conv2d(2, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU())
    model.train()
    return functional(model, leaf(lib, 2, 2, 5, 5))


@program
def layernorm(lib):
    return functional(lib.nn.LayerNorm(6), leaf(lib, 3, 6))


@program
def layernorm_2d_shape(lib):
    return functional(lib.nn.LayerNorm([4, 5]), leaf(lib, 2, 4, 5))


@program
def layernorm_no_affine(lib):
    F = lib.nn.functional

    def fn(x):
        return F.layer_norm(x, [8]) * 2

    return fn, [leaf(lib, 3, 8)]


@program
def embedding(lib):
    return functional(lib.nn.Embedding(10, 4), indices(lib, 10, 2, 3))


@program
def embedding_linear(lib):
    nn = lib.nn

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(12, 6)
            self.proj = nn.Linear(6, 12)

        def forward(self, tokens):
            return self.proj(self.emb(tokens)).log_softmax(-1)

    return functional(Model(), indices(lib, 12, 2, 5))


@program(random=True)
def dropout_train(lib):
    F = lib.nn.functional

    def fn(x):
        return F.dropout(x, p=0.5, training=True) * 3

    return fn, [leaf(lib, 4, 8)]


@program
def dropout_eval(lib):
    model = lib.nn.Dropout(0.3)
    model.eval()
    return functional(model, leaf(lib, 4, 5), call=lambda m, x: m(x).exp())


@program
def softmax(lib):
    F = lib.nn.functional

    def fn(x):
        return F.softmax(x, dim=1)

    return fn, [leaf(lib, 3, 5)]


@program
def log_softmax(lib):
    F = lib.nn.functional

    def fn(x):
        return F.log_softmax(x, dim=-1)

    return fn, [leaf(lib, 2, 3, 4)]


@program
def cross_entropy(lib):
    F = lib.nn.functional

    def fn(logits, target):
        return F.cross_entropy(logits, target)

    return fn, [leaf(lib, 4, 5), indices(lib, 5, 4)]


@program
def linear_cross_entropy(lib):
    model = lib.nn.Linear(6, 4)
    F = lib.nn.functional
    return functional(model, leaf(lib, 5, 6, grad=False), indices(lib, 4, 5),
                      call=lambda m, x, t: F.cross_entropy(m(x), t))


@program
def mse_loss(lib):
    F = lib.nn.functional

    def fn(x, y):
        return F.mse_loss(x, y)

    return fn, [leaf(lib, 3, 4), leaf(lib, 3, 4, grad=False)]


# ---------------------------------------------------------------- views
@program
def view_reshape(lib):
    def fn(x):
        return x.view(4, 6).reshape(2, 12).sin().reshape(24)

    return fn, [leaf(lib, 2, 3, 4)]


@program
def permute_transpose(lib):
    def fn(x):
        return x.permute(2, 0, 1).transpose(0, 1).contiguous() * 2

    return fn, [leaf(lib, 2, 3, 4)]


@program
def slice_select(lib):
    def fn(x):
        return x[:, 1:3] * x[0, :2] + x[:, -1].unsqueeze(1)

    return fn, [leaf(lib, 3, 4)]


@program
def unsqueeze_expand(lib):
    def fn(x, y):
        return x.unsqueeze(0).expand(3, 2, 4) * y.unsqueeze(-1)

    return fn, [leaf(lib, 2, 4), leaf(lib, 3, 2)]


@program
def flatten_t(lib):
    def fn(x, w):
        return x.flatten(1) @ w.t()

    return fn, [leaf(lib, 2, 3, 2), leaf(lib, 5, 6)]


@program
def cat_stack_split(lib):
    def fn(x, y):
        a, b = lib.cat([x, y], dim=1).split(3, dim=1)
        return lib.stack([a * b, a], dim=0)

    return fn, [leaf(lib, 2, 2), leaf(lib, 2, 4)]


@program
def gather_index_select(lib):
    def fn(x, idx):
        return lib.gather(x, 1, idx) + lib.index_select(x, 1, idx[0])[:, :2]

    return fn, [leaf(lib, 3, 5), indices(lib, 5, 3, 2)]


# ---------------------------------------------------------------- in-place, grads, outputs
@program
def inplace_mul_nonleaf(lib):
    def fn(x):
        y = x * 1
        y.mul_(2)
        return y.sin()

    return fn, [leaf(lib, 3, 4)]


@program
def inplace_add_relu(lib):
    def fn(x, y):
        h = x @ y
        h.add_(1).relu_()
        return h

    return fn, [leaf(lib, 2, 3), leaf(lib, 3, 2)]


@program
def inplace_on_view(lib):
    def fn(x):
        y = x.clone()
        y[0].mul_(3)
        return y * 2

    return fn, [leaf(lib, 3, 4)]


@program
def mixed_requires_grad(lib):
    def fn(x, w, b):
        return (x @ w + b).tanh()

    return fn, [leaf(lib, 3, 4, grad=False), leaf(lib, 4, 2), leaf(lib, 2, grad=False)]


@program
def mixed_requires_grad_mul(lib):
    def fn(x, y):
        return x * y + y.exp()

    return fn, [leaf(lib, 3), leaf(lib, 3, grad=False)]


@program
def multiple_outputs(lib):
    def fn(x, y):
        s = x + y
        return s.sin(), s.cos() * x

    return fn, [leaf(lib, 2, 3), leaf(lib, 2, 3)]


@program
def non_differentiable_output(lib):
    def fn(x):
        return x.argmax(dim=1), x * 2

    return fn, [leaf(lib, 3, 4)]


@program
def output_aliases_input(lib):
    def fn(x, y):
        return x.t(), x * y

    return fn, [leaf(lib, 2, 3), leaf(lib, 2, 3)]


@program
def output_is_input_view(lib):
    def fn(x):
        return x.view(6), x.sum()

    return fn, [leaf(lib, 2, 3)]


# ---------------------------------------------------------------- more nn and shape programs
@program
def max_pool2d(lib):
    F = lib.nn.functional

    def fn(x):
        return F.max_pool2d(x, 2) * 2

    return fn, [leaf(lib, 1, 2, 6, 6)]


@program
def avg_pool2d_adaptive(lib):
    F = lib.nn.functional

    def fn(x):
        return F.avg_pool2d(x, 2, stride=1) .sum() + F.adaptive_avg_pool2d(x, 1).sum()

    return fn, [leaf(lib, 2, 3, 4, 4)]


@program
def small_cnn(lib):
    nn = lib.nn
    model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(36, 5))
    return functional(model, leaf(lib, 2, 1, 8, 8, grad=False))


@program
def gelu_tanh_sigmoid_silu(lib):
    nn = lib.nn
    model = nn.Sequential(nn.Linear(5, 5), nn.GELU(approximate="tanh"), nn.Linear(5, 5), nn.Sigmoid(), nn.SiLU())
    return functional(model, leaf(lib, 3, 5))


@program
def transformer_block(lib):
    nn = lib.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm = nn.LayerNorm(8)
            self.qkv = nn.Linear(8, 24)
            self.proj = nn.Linear(8, 8)

        def forward(self, x):
            q, k, v = self.qkv(self.norm(x)).chunk(3, dim=-1)
            att = (q @ k.transpose(-2, -1) * 8 ** -0.5).softmax(dim=-1)
            return x + self.proj(att @ v)

    return functional(Block(), leaf(lib, 2, 4, 8))


@program
def nll_loss_log_softmax(lib):
    F = lib.nn.functional

    def fn(x, target):
        return F.nll_loss(F.log_softmax(x, dim=1), target)

    return fn, [leaf(lib, 5, 4), indices(lib, 4, 5)]


@program
def bce_with_logits(lib):
    F = lib.nn.functional

    def fn(x, y):
        return F.binary_cross_entropy_with_logits(x, y)

    return fn, [leaf(lib, 6), lib.rand(6)]


@program
def embedding_padding_idx(lib):
    return functional(lib.nn.Embedding(8, 3, padding_idx=0), indices(lib, 8, 4, 2))


@program
def softmax_dim0_mean(lib):
    def fn(x):
        return lib.softmax(x, dim=0).mean(dim=(0, 1)) + x.sum()

    return fn, [leaf(lib, 3, 4, 2)]


@program
def squeeze_unsqueeze_chunk(lib):
    def fn(x):
        a, b = x.unsqueeze(1).chunk(2, dim=-1)
        return (a * b).squeeze(1).sum(dim=0)

    return fn, [leaf(lib, 3, 6)]


@program
def baddbmm_transpose(lib):
    def fn(b, x, y):
        return lib.baddbmm(b, x, y.transpose(1, 2), alpha=0.5)

    return fn, [leaf(lib, 2, 3, 3), leaf(lib, 2, 3, 4), leaf(lib, 2, 3, 4)]


@program
def tril_flip_repeat(lib):
    def fn(x):
        return lib.tril(x).flip(0).repeat(2, 1) * 3

    return fn, [leaf(lib, 3, 3)]


@program
def advanced_indexing(lib):
    def fn(x, idx):
        return x[idx] * 2 + x[:, 1].sum()

    return fn, [leaf(lib, 5, 3), indices(lib, 5, 4)]


@program
def detach_and_no_grad_branch(lib):
    def fn(x, y):
        return x * y.detach() + (x.detach() * 2).sin()

    return fn, [leaf(lib, 4), leaf(lib, 4)]


@program
def mean_std_normalize(lib):
    def fn(x):
        return (x - x.mean(dim=-1, keepdim=True)) / (x.std(dim=-1, keepdim=True) + 1e-5)

    return fn, [leaf(lib, 3, 7)]


@program
def reshape_noncontiguous(lib):
    def fn(x):
        return x.transpose(0, 1).reshape(-1).cumsum(0)

    return fn, [leaf(lib, 3, 4)]


# ---------------------------------------------------------------- more formulas
@program
def unary_math(lib):
    def fn(x):
        y = x.abs() + 0.5
        return y.log1p() + x.expm1() + y.sqrt() + y.reciprocal() + x.sigmoid().tanh() + y.log2()

    return fn, [leaf(lib, 2, 4)]


@program
def amin_min_max(lib):
    def fn(x):
        return x.amin(dim=0) + x.min() + x.max()

    return fn, [leaf(lib, 3, 4)]


@program
def prod_all(lib):
    def fn(x):
        return x.prod() * x

    return fn, [leaf(lib, 2, 3)]


@program
def cat_of_leaves(lib):
    def fn(x, y, z):
        return lib.cat([x, y, z], dim=0).sin()

    return fn, [leaf(lib, 1, 3), leaf(lib, 2, 3), leaf(lib, 2, 3, grad=False)]


@program
def split_sizes_unbind(lib):
    def fn(x):
        a, b = x.split([1, 2], dim=1)
        c, d, e = x.unbind(0)
        return a * b[:, :1] + (c * d + e).sum()

    return fn, [leaf(lib, 3, 3)]


@program
def mm_column_major(lib):
    def fn(x, w):
        return x.t() @ w.t()

    return fn, [leaf(lib, 4, 3), leaf(lib, 5, 4)]


@program
def conv2d_groups_dilation(lib):
    return functional(lib.nn.Conv2d(4, 4, 3, groups=2, dilation=2, padding=2), leaf(lib, 1, 4, 6, 6))


@program
def batchnorm1d_eval(lib):
    bn = lib.nn.BatchNorm1d(5)
    with lib.no_grad():
        bn.running_mean.uniform_(-1, 1)
        bn.running_var.uniform_(0.5, 2)
    bn.eval()
    return functional(bn, leaf(lib, 4, 5))


@program
def mse_sum_both_grads(lib):
    F = lib.nn.functional

    def fn(x, y):
        return F.mse_loss(x, y, reduction="sum")

    return fn, [leaf(lib, 3, 4), leaf(lib, 3, 4)]


@program
def expand_as_narrow(lib):
    def fn(x, y):
        return x.expand_as(y).narrow(1, 1, 2) * y[:, 1:3]

    return fn, [leaf(lib, 3, 1), leaf(lib, 3, 4)]


@program
def where_scalar_other(lib):
    def fn(x):
        return lib.where(x > 0, x, 0.0) + lib.where(x < 0.5, 1.0, x)

    return fn, [leaf(lib, 3, 4)]


@program
def logsumexp_keepdim(lib):
    def fn(x):
        return lib.logsumexp(x, dim=(0, 1), keepdim=True) * x

    return fn, [leaf(lib, 2, 3, 2)]


@program
def linear_4d_input(lib):
    return functional(lib.nn.Linear(4, 2), leaf(lib, 2, 3, 2, 4))


@program
def matmul_vectors(lib):
    def fn(m, v, b):
        return (m @ v).sum() + (v @ m.t()).sum() + (b @ v).sum() + lib.dot(v, v)

    return fn, [leaf(lib, 3, 4), leaf(lib, 4), leaf(lib, 2, 3, 4)]


@program
def mul_broadcast_no_grad(lib):
    def fn(x, y):
        return x * y - y

    return fn, [leaf(lib, 3, 4), leaf(lib, 4, grad=False)]


@program
def contiguous_clone(lib):
    def fn(x):
        return x.t().contiguous() * x.clone().t()

    return fn, [leaf(lib, 3, 4)]


@program
def full_var_std(lib):
    def fn(x):
        return x.var() + x.std(correction=0) * x.mean()

    return fn, [leaf(lib, 3, 4)]


@program
def pooling_options(lib):
    nn = lib.nn
    model = nn.Sequential(nn.MaxPool2d(3, stride=2, padding=1), nn.AvgPool2d(2, count_include_pad=False))
    return functional(model, leaf(lib, 1, 2, 8, 8))


@program
def embedding_bag_mean(lib):
    nn = lib.nn

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 4)
            self.out = nn.Linear(4, 3)

        def forward(self, tokens):
            return self.out(self.emb(tokens).mean(dim=1))

    return functional(Model(), indices(lib, 10, 2, 5))


@program
def cross_entropy_options(lib):
    F = lib.nn.functional

    def fn(logits, target):
        return F.cross_entropy(logits, target, reduction="sum", ignore_index=1)

    return fn, [leaf(lib, 6, 4), indices(lib, 4, 6)]


@program
def addmm_beta_alpha(lib):
    def fn(b, x, w):
        return lib.addmm(b, x, w, beta=0.5, alpha=2.0)

    return fn, [leaf(lib, 3, 4), leaf(lib, 3, 5), leaf(lib, 5, 4)]


@program
def tanh_twice(lib):
    def fn(x, w):
        h = (x @ w).tanh()
        return (h @ w.t()).tanh().sum(dim=1)

    return fn, [leaf(lib, 2, 3), leaf(lib, 3, 3)]
