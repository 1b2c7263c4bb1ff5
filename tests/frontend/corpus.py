"""The frontend oracle corpus: ~100 programs run through Dynamo and through our frontend.

Each program is written once, in CORPUS_SRC (captured in one graph) or in
corpus_breaks.BREAKS_SRC (graph breaks, side effects, recompiles), against the names `torch`, `nn`, `F`
and `dynamo`; `build(lib)` execs it with those bound to torch (and torch._dynamo)
or to minitorch2 (and frontend), so both libraries run the same text with their
own globals. `CASES` says how to call each program: one or more calls, each a
tuple of argument specs (see `Arg`), optionally under no_grad; several calls
exercise recompiles (shape, dtype, constants, grad mode). test_corpus.py runs
every case on torch.compile and minitorch2.compile with CompileCounter backends
and compares values, printed output, Python side effects and Dynamo's counts.

Case names say what they cover: `c_` captured in one graph, `m_` modules,
`b_` graph breaks, `s_` Python side effects, `r_` recompiles.
"""
from dataclasses import dataclass, field

from .corpus_breaks import BREAKS_SRC
from .corpus_dynamo_style import DYNAMO_STYLE_PROGRAMS, DYNAMO_STYLE_SRC
from .corpus_numpy import NUMPY_PROGRAMS, NUMPY_SRC

CORPUS_SRC = r'''
import collections
import functools
import itertools
import math

W = torch.ones(4, 4) * 0.5
SCALE = 3
CONFIG = {"scale": 2.0, "shift": 1}
COUNTER = 0

# ---- arithmetic and comparisons --------------------------------------------------------
def c_arith_scalars(x):
    return (x * 3 - 2) / 4 + x ** 2 - 1.5
def c_torch_ops(x):
    return torch.ops.aten.sin(x) + torch.ops.aten.mul.Tensor(x, 2) + torch.ops.aten.sum.dim_IntList(x, [0], True)
def c_reverse_ops(x):
    return 2 - x + 3 / (x.abs() + 1) + 2 ** x
def c_floordiv_mod(x):
    return x // 2 + x % 3
def c_compare_ops(x, y):
    return (x > 0).float() + (x <= y).float() + (x == x).float() + (x != y).float()
def c_bool_tensor_ops(x, y):
    return (((x > 0) & (y < 0)) | (x > 1)).float()
def c_py_number_fold(x):
    n = 3
    m = n * 2 + 1
    k = m // 2
    return x * k + m % 4 - abs(-2) + max(n, 1) + min(2.5, k)
def c_py_float_branch(x):
    a = 2.0
    if a > 1.5:
        return x * a
    return x
def c_matmul(x, y):
    return x @ y + x.mm(y) - torch.matmul(x, y)
def c_unary(x):
    return -x + (+x) + abs(x) + ~(x > 0)
def c_scalar_tensor_mix(x):
    s = x.shape[0] * 1.5
    return x * s + x.shape[1]

# ---- attributes and methods ----------------------------------------------------------
def c_tensor_attrs(x):
    if x.dtype == torch.float32 and x.ndim == 2:
        return x.T * x.ndim
    return x
def c_method_chain(x):
    return x.view(2, -1).transpose(0, 1).reshape(-1).cumsum(0)
def c_size_methods(x):
    return x.sum() * x.size(0) + x.dim() + x.numel() + x.size()[1]
def c_inplace_methods(x):
    y = x.clone()
    y.mul_(2).add_(1)
    y.relu_()
    return y
def c_inplace_input(x):
    x.add_(1)
    return x * 2
def c_inplace_operators(x):
    y = x * 1
    y += 2
    y *= x
    y -= 1
    return y
def c_getitem_variants(x):
    return x[..., 0] + x[None][0, 1] + x[1:3, ::2].sum()
def c_slice_builtin(x):
    index = [slice(None)] * x.dim()
    index[-1] = slice(1, None, 2)
    return x[tuple(index)] * 2
def c_setitem_tensor(x):
    y = x.clone()
    y[0] = 0.0
    return y
def c_detach_requires_grad(x):
    y = x * 2
    return y.detach() + y, y.requires_grad

# ---- calls to torch functions ------------------------------------------------------
def c_torch_elementwise(x):
    return torch.sigmoid(x) + torch.tanh(x) + torch.exp(x).clamp(min=-1, max=1)
def c_torch_reductions(x):
    return torch.amax(x, dim=1) + torch.logsumexp(x, 1) + x.var(dim=0)
def c_torch_factories(x):
    return x + torch.zeros(x.shape[0], x.shape[1]) + torch.ones_like(x) + torch.full((4,), 2.0)
def c_torch_split_cat(x):
    a, b = torch.split(x, 2, dim=0)
    return torch.cat([b, a], dim=0)
def c_masked_fill(x):
    return x.masked_fill(x < 0, 0.0) + torch.where(x > 0.5, x, torch.zeros_like(x))
def c_functional(x, w):
    return F.log_softmax(F.linear(x, w), dim=-1) + F.relu(x) + F.softmax(x, dim=0)
def c_torch_kwargs(x):
    return torch.sum(x, dim=1, keepdim=True) + x.mean(dim=0, keepdim=True)
def c_is_grad_enabled(x):
    if torch.is_grad_enabled():
        return x + 1
    return x - 1
def c_math_module(x):
    return x * math.sqrt(x.shape[0]) + math.pi

# ---- user functions -------------------------------------------------------------------
def _h3(t):
    return t.sin()
def _h2(t):
    return _h3(t) * 2
def _h1(t):
    return _h2(t) + 1
def c_inline_chain(x):
    return _h1(x)
def _scaled(t, k=2, shift=0.0):
    return t * k + shift
def c_defaults_kw(x):
    return _scaled(x) + _scaled(x, 3) + _scaled(x, shift=1.0) + _scaled(x, k=4, shift=2.0)
def _add_all(*ts):
    out = ts[0]
    for t in ts[1:]:
        out = out + t
    return out
def c_varargs(x, y):
    return _add_all(x, y, x * 2)
def _kw_fn(t, **kw):
    return t * kw["a"] + kw.get("b", 0)
def c_kwargs(x):
    return _kw_fn(x, a=2) + _kw_fn(x, a=3, b=1)
def c_star_call(x, y):
    args = (x, y)
    return _add_all(*args)
def c_double_star_call(x):
    kwargs = {"k": 3, "shift": 0.5}
    return _scaled(x, **kwargs)
def c_closure_tensor(x):
    y = x.cos()
    def inner(t):
        return t + y
    return inner(x) * inner(y)
def c_nonlocal(x):
    count = 0
    def bump():
        nonlocal count
        count += 1
    bump()
    bump()
    return x * count
def c_lambda(x):
    g = lambda t: t * 2
    return g(x) + (lambda: x)()
def _repeat(t, n):
    if n == 0:
        return t
    return _repeat(t * 2, n - 1)
def c_recursion(x):
    return _repeat(x, 3)
def _apply(fn, t):
    return fn(t)
def c_higher_order(x):
    return _apply(torch.relu, x) + _apply(_h3, x) + _apply(lambda t: t + 1, x)

# ---- modules ----------------------------------------------------------------------------
class m_two_linear(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)
    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))
class m_sequential_iter(nn.Module):
    def __init__(self):
        super().__init__()
        self.seq = nn.Sequential(nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 4))
    def forward(self, x):
        for layer in self.seq:
            x = layer(x) + x
        return x
class m_module_dict(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({"a": nn.Linear(4, 2), "b": nn.Linear(4, 2)})
    def forward(self, x):
        return self.heads["a"](x) * self.heads["b"](x)
class m_modulelist_enumerate(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x) * (i + 1)
        return x
class m_modulelist_len_index(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])
    def forward(self, x):
        for i in range(len(self.layers)):
            x = self.layers[i](x)
        return self.layers[-1](x)
class m_buffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("offset", torch.ones(4) * 0.25)
        self.fc = nn.Linear(4, 4)
    def forward(self, x):
        return self.fc(x) + self.offset
class m_parameter_direct(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(4, 3) * 0.1)
        self.bias = nn.Parameter(torch.zeros(3))
    def forward(self, x):
        return x @ self.weight + self.bias
class m_shape_of_weight(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 6)
    def forward(self, x):
        if self.fc.weight.shape[0] > 4:
            return self.fc(x).sum(dim=1)
        return x.sum(dim=1)
class m_batchnorm_train(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.bn = nn.BatchNorm1d(4)
    def forward(self, x):
        return self.bn(self.fc(x)).relu()
class m_training_flag(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.eval()
    def forward(self, x):
        if self.training:
            return self.fc(x) * 0
        return self.fc(x)
class m_dropout_layernorm_eval(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(4)
        self.drop = nn.Dropout(0.5)
        self.eval()
    def forward(self, x):
        return self.drop(self.ln(x))
class m_embedding(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.fc = nn.Linear(4, 2)
    def forward(self, idx):
        return self.fc(self.emb(idx)).sum(dim=1)
class m_conv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
    def forward(self, x):
        return torch.flatten(self.pool(F.relu(self.conv(x))), 1)
class _Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
    def forward(self, x):
        return self.fc(x).sigmoid()
class m_nested(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = _Inner()
        self.b = _Inner()
        self.scale = 0.5
    def forward(self, x):
        return self.b(self.a(x)) * self.scale + self.helper(x)
    def helper(self, x):
        return x * self.scale
class m_getattr_hasattr(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.extra = 2.0
    def forward(self, x):
        y = self.fc(x)
        if hasattr(self, "extra"):
            y = y * self.extra
        if not hasattr(self, "missing"):
            y = y + getattr(self, "bonus", 1.0)
        return getattr(self, "fc")(y)
class m_attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(8, 24)
    def forward(self, x):
        q, k, v = self.qkv(x).split(8, dim=-1)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
        mask = torch.tril(torch.ones(x.shape[1], x.shape[1])) == 0
        return torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1) @ v
class m_sequential_subclass(nn.Sequential):
    def __init__(self):
        super().__init__(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
GLOBAL_LINEAR = nn.Linear(4, 4)
def c_global_module(x):
    return GLOBAL_LINEAR(x).relu()

_OTHER_MODULE = {"k": 3.0}
exec("def other_scale(t):\n    return t * k\n", _OTHER_MODULE)
other_scale = _OTHER_MODULE["other_scale"]
def c_other_module_global(x):
    return other_scale(x) + 1

# ---- containers ------------------------------------------------------------------------
def c_star_unpack(x, y):
    a, *rest = (x, y, x * 2)
    return a + rest[0] + rest[1]
def c_dict_values(x, y):
    d = {"a": x, "b": y}
    return d["a"] * d["b"]
def c_dict_items(x):
    d = {"one": 1.0, "two": 2.0}
    out = x
    for k, v in d.items():
        out = out * v + len(k)
    return out
def c_list_ops(x, y):
    items = [x]
    items.append(y)
    items.extend([x * 2])
    items.insert(0, y)
    return items[-1] + len(items) + items.pop()
def c_list_slice(x):
    items = [x, x + 1, x + 2, x + 3]
    return sum(items[1:3]) + items[::2][1]
def c_nested_return(x, y):
    return x, (y, [x + y, {"k": x * y}])
def c_dict_return(x):
    return {"out": x + 1, "n": 2}
def c_swap(x, y):
    a, b = x, y
    a, b = b, a
    return a - b
def c_in_operator(x):
    if "a" in ("a", "b") and 3 not in [1, 2]:
        return x + 1
    return x
def c_tuple_methods(x):
    t = (1, 2, 2, 3)
    return x * t.count(2) + t.index(3) + len(t)
def c_list_of_tensors_arg(xs):
    return xs[0] + xs[1] * len(xs)
def c_dict_arg(d):
    return d["a"] * d["b"]

# ---- comprehensions ----------------------------------------------------------------------
def c_listcomp(x, y):
    return [t * i for i, t in enumerate([x, y])]
def c_dictcomp(x):
    d = {k: x * v for k, v in (("a", 1), ("b", 2))}
    return d["a"] + d["b"]
def c_genexp_sum(x, y):
    return sum(t.sum() for t in [x, y])
def c_genexp_builtins(x):
    flags = any(n > 2 for n in [1, 3]), all(n > 2 for n in [1, 3])
    return flags, list(t * 2 for t in (x, x)), tuple(t + 1 for t in [x]), sum([1.5, x], start=x), sum((x, x * 2), 5)
def c_nested_comp(x):
    grid = [[x * i * j for j in range(2)] for i in range(1, 3)]
    return grid[1][1] + grid[0][1]
def c_comp_filter(x):
    return torch.stack([x * i for i in range(5) if i % 2])

# ---- functools, itertools, collections ---------------------------------------------------
def c_partial(x):
    act = functools.partial(F.leaky_relu, negative_slope=0.1)
    return act(x) + functools.partial(torch.add, alpha=2)(x, x)
def c_min_max_tensors(x, y):
    return x * min(x.sum(), 3) + max([x.mean(), y.mean()])
def c_lazy_builtins(x, y):
    scaled = sum(map(lambda t: t * 2, [x, y]))
    return [scaled * i + u for i, u in enumerate(itertools.islice(itertools.chain([x], [y, x]), 2), start=1)]
def c_deque_fromkeys(x):
    q = collections.deque([x, x + 1], maxlen=2)
    q.append(x * 3)
    return q.popleft() * dict.fromkeys(["a", "b"], 2)["b"] + q[0]
class _Pair(collections.namedtuple("_PairBase", "a b")):
    def dot(self):
        return (self.a * self.b).sum()
    @property
    def total(self):
        return self.a + self.b
def c_namedtuple_subclass(x, y):
    p = _Pair(x, y)
    return p.total * p.dot()

# ---- loops -------------------------------------------------------------------------------
def c_range_step(x):
    for i in range(0, 6, 2):
        x = x + i
    return x
def c_while(x):
    i = 0
    while i < 3:
        x = x * 2
        i += 1
    return x
def c_break_continue(x):
    for i in range(6):
        if i == 1:
            continue
        if i == 4:
            break
        x = x + i
    return x
def c_iterate_tensor(x):
    total = 0
    for row in x:
        total = total + row.sum()
    return total
def c_reversed_sorted(x):
    out = x
    for k in reversed(sorted([3, 1, 2])):
        out = out * k - 1
    return out
def c_zip_dict_keys(x, y):
    acc = x
    for name, t in zip(["p", "q"], (x, y)):
        acc = acc + t * len(name)
    return acc

# ---- if on constants, shapes and Python values -----------------------------------------
def c_if_shape_eq(x, y):
    if x.shape == y.shape:
        return x + y
    return x
def c_if_ndim(x):
    if x.dim() == 2 and x.size(1) == 4:
        return x.sum(1)
    return x
def c_ternary(x, y):
    return x if x.shape[0] == 4 else y
def c_isinstance_checks(x, n):
    if isinstance(n, int) and not isinstance(x, (list, tuple)):
        return x * n
    return x
def c_type_is(x):
    if type(x) is torch.Tensor:
        return x + 1
    return x
def c_none_default(x, bias=None):
    return x * 2 if bias is None else x * 2 + bias
def c_and_or_values(x, n):
    flag = n > 1 and n < 5
    other = n == 0 or n == 3
    return x * flag + x * other
def c_builtins(x):
    n = int(2.7) + float(1) + round(2.4) + len(range(3)) + min(x.shape)
    return x * n

# ---- globals ----------------------------------------------------------------------------
def c_globals_read(x):
    return x @ W * CONFIG["scale"] + CONFIG["shift"] + SCALE

# ---- grad mode ------------------------------------------------------------------------
def c_no_grad_block(x):
    with torch.no_grad():
        y = x * 2
    return y + x
def c_enable_grad_block(x):
    with torch.enable_grad():
        y = x * 2
    return y.sum()
def c_set_grad_enabled_block(x):
    with torch.set_grad_enabled(False):
        y = x.exp()
    return y, y.requires_grad
def c_set_grad_enabled_then_op(x):
    with torch.set_grad_enabled(False):
        y = x.exp()
    z = x * 2
    return y, z, z.requires_grad
def c_set_grad_enabled_call(x):
    torch.set_grad_enabled(False)
    y = x.exp()
    torch.set_grad_enabled(True)
    return y, x * 2, y.requires_grad
def c_set_grad_enabled_left_off(x):
    torch.set_grad_enabled(False)
    return x.exp()
@torch.no_grad()
def _no_grad_helper(x):
    return x.exp()
def c_no_grad_decorated(x):
    y = _no_grad_helper(x)
    return y, x * 2, y.requires_grad
def c_requires_grad_out(x):
    y = (x * x).sum()
    return y, y.requires_grad

'''


@dataclass(frozen=True)
class Arg:
    """An argument spec: a tensor (shape, dtype, requires_grad), or a fresh Python container per run."""
    shape: tuple = ()
    dtype: str = "float32"
    requires_grad: bool = False
    kind: str = "tensor"  # "tensor", "list" (a fresh empty list per run), "dict" (a fresh empty dict per run),
    # "tensor_list" (a list of `shape[0]` tensors of shape shape[1:]), "tensor_dict" ({"a": t, "b": t})


def T(*shape, dtype="float32", requires_grad=False):
    return Arg(tuple(shape), dtype, requires_grad)


LIST = Arg(kind="list")
DICT = Arg(kind="dict")


@dataclass
class Case:
    name: str
    calls: list  # each call: a tuple of Arg specs / Python values, or {"args": (...), "grad": False}
    state: list = field(default_factory=list)  # module attributes or globals (prefixed "G.") to compare after


def _calls(*args):
    return [tuple(args), tuple(args)]  # the second call, on fresh inputs, runs the cached entry behind its guards


X4 = T(4, 4)
CASES = [Case(name, _calls(*args)) for name, args in [
    ("c_arith_scalars", [X4]), ("c_torch_ops", [X4]), ("c_reverse_ops", [X4]), ("c_floordiv_mod", [X4]), ("c_compare_ops", [X4, X4]),
    ("c_bool_tensor_ops", [X4, X4]), ("c_py_number_fold", [X4]), ("c_py_float_branch", [X4]),
    ("c_matmul", [X4, X4]), ("c_unary", [X4]), ("c_scalar_tensor_mix", [X4]),
    ("c_tensor_attrs", [X4]), ("c_method_chain", [X4]), ("c_size_methods", [X4]), ("c_inplace_methods", [X4]),
    ("c_inplace_input", [X4]), ("c_inplace_operators", [X4]), ("c_getitem_variants", [X4]), ("c_slice_builtin", [X4]),
    ("c_setitem_tensor", [X4]), ("c_detach_requires_grad", [T(4, 4, requires_grad=True)]),
    ("c_torch_elementwise", [X4]), ("c_torch_reductions", [X4]), ("c_torch_factories", [X4]),
    ("c_torch_split_cat", [X4]), ("c_masked_fill", [X4]), ("c_functional", [X4, X4]), ("c_torch_kwargs", [X4]),
    ("c_math_module", [X4]),
    ("c_inline_chain", [X4]), ("c_defaults_kw", [X4]), ("c_varargs", [X4, X4]), ("c_kwargs", [X4]),
    ("c_star_call", [X4, X4]), ("c_double_star_call", [X4]), ("c_closure_tensor", [X4]), ("c_nonlocal", [X4]),
    ("c_lambda", [X4]), ("c_recursion", [X4]), ("c_higher_order", [X4]),
    ("m_two_linear", [T(2, 4)]), ("m_sequential_iter", [T(2, 4)]), ("m_module_dict", [T(2, 4)]),
    ("m_modulelist_enumerate", [T(2, 4)]), ("m_modulelist_len_index", [T(2, 4)]), ("m_buffer", [T(2, 4)]),
    ("m_parameter_direct", [T(2, 4)]), ("m_shape_of_weight", [T(2, 4)]), ("m_training_flag", [T(2, 4)]),
    ("m_batchnorm_train", [T(3, 4)]),
    ("m_dropout_layernorm_eval", [T(2, 4)]), ("m_embedding", [T(2, 3, dtype="int64")]),
    ("m_conv", [T(2, 2, 4, 4)]), ("m_nested", [T(2, 4)]), ("m_getattr_hasattr", [T(2, 4)]),
    ("m_attention", [T(2, 5, 8)]), ("m_sequential_subclass", [T(2, 4)]),
    ("c_other_module_global", [X4]), ("c_global_module", [T(2, 4)]),
    ("c_star_unpack", [X4, X4]), ("c_dict_values", [X4, X4]), ("c_dict_items", [X4]), ("c_list_ops", [X4, X4]),
    ("c_list_slice", [X4]), ("c_nested_return", [X4, X4]), ("c_dict_return", [X4]), ("c_swap", [X4, X4]),
    ("c_in_operator", [X4]), ("c_tuple_methods", [X4]), ("c_list_of_tensors_arg", [Arg((2, 4, 4), kind="tensor_list")]),
    ("c_dict_arg", [Arg((4, 4), kind="tensor_dict")]),
    ("c_listcomp", [X4, X4]), ("c_dictcomp", [X4]), ("c_genexp_sum", [X4, X4]), ("c_genexp_builtins", [X4]), ("c_nested_comp", [X4]),
    ("c_comp_filter", [X4]),
    ("c_range_step", [X4]), ("c_while", [X4]), ("c_break_continue", [X4]), ("c_iterate_tensor", [T(3, 4)]),
    ("c_reversed_sorted", [X4]), ("c_zip_dict_keys", [X4, X4]),
    ("c_partial", [X4]), ("c_min_max_tensors", [X4, X4]), ("c_lazy_builtins", [X4, X4]), ("c_deque_fromkeys", [X4]),
    ("c_namedtuple_subclass", [X4, X4]),
    ("c_if_shape_eq", [X4, X4]), ("c_if_ndim", [X4]), ("c_ternary", [X4, T(2, 4)]), ("c_isinstance_checks", [X4, 3]),
    ("c_type_is", [X4]), ("c_none_default", [X4]), ("c_and_or_values", [X4, 3]), ("c_builtins", [X4]),
    ("c_globals_read", [X4]),
    ("c_no_grad_block", [T(4, 4, requires_grad=True)]), ("c_enable_grad_block", [T(4, 4, requires_grad=True)]),
    ("c_set_grad_enabled_block", [T(4, 4, requires_grad=True)]),
    ("c_set_grad_enabled_then_op", [T(4, 4, requires_grad=True)]),
    ("c_set_grad_enabled_call", [T(4, 4, requires_grad=True)]),
    ("c_set_grad_enabled_left_off", [T(4, 4, requires_grad=True)]),
    ("c_no_grad_decorated", [T(4, 4, requires_grad=True)]),
    ("c_requires_grad_out", [T(4, 4, requires_grad=True)]),
    ("b_data_if", [X4]), ("b_print_middle", [X4]), ("b_explicit_break", [X4]), ("b_break_in_loop", [X4]),
    ("b_print_in_loop", [X4]), ("b_break_in_try", [X4]), ("b_item", [X4]), ("b_two_breaks", [X4]),
    ("b_break_in_inlined", [X4]), ("b_break_in_no_grad", [T(4, 4, requires_grad=True)]),
    ("b_break_after_set_grad_call", [T(4, 4, requires_grad=True)]),
    ("b_break_in_no_grad_helper", [T(4, 4, requires_grad=True)]), ("b_data_while", [T(4)]),
    ("b_tolist", [T(4)]), ("b_break_live_values", [X4, X4]), ("b_data_if_nested_fn", [X4]),
    ("b_disabled_call", [X4]), ("b_break_in_helper_loop", [X4]),
]]

CASES += [
    Case("c_is_grad_enabled", [(X4,), {"args": (X4,), "grad": False}]),
    Case("c_enable_grad_block_under_no_grad", []),  # filled below: same program, called under no_grad
    Case("s_list_append", [(X4, LIST), (X4, LIST)]),
    Case("s_append_break", [(X4, LIST), (X4, LIST)]),
    Case("s_append_tensor", [(X4, LIST), (X4, LIST)]),
    Case("s_dict_store", [(X4, DICT), (X4, DICT)]),
    Case("s_global_store", [(X4,), (X4,)], state=["G.COUNTER"]),
    Case("s_attr_store", [(T(2, 4),), (T(2, 4),)], state=["calls"]),
    Case("s_attr_store_break", [(T(2, 4),), (T(2, 4),)], state=["trace"]),
    Case("r_shape", [(T(2, 3),), (T(2, 3),), (T(4, 3),), (T(5, 3),), (T(2, 3),)]),
    Case("r_dtype", [(X4,), (T(4, 4, dtype="float64"),), (X4,)]),
    Case("r_const_int", [(X4, 1), (X4, 2), (X4, 1), (X4, 2)]),
    Case("r_const_bool", [(X4, True), (X4, False), (X4, True)]),
    Case("r_const_str", [(X4, "relu"), (X4, "sigmoid"), (X4, "relu")]),
    Case("r_grad_mode", [(T(4, 4, requires_grad=True),), {"args": (T(4, 4, requires_grad=True),), "grad": False},
                         (T(4, 4, requires_grad=True),)]),
    Case("r_requires_grad", [(X4,), (T(4, 4, requires_grad=True),), (X4,)]),
    Case("r_none_vs_tensor", [(X4,), (X4, X4), (X4,)]),
    Case("r_list_len", [(Arg((2, 4), kind="tensor_list"),), (Arg((3, 4), kind="tensor_list"),),
                        (Arg((2, 4), kind="tensor_list"),)]),
    Case("r_ndim", [(T(4),), (T(2, 2),), (T(4),)]),
    Case("r_float_arg", [(X4, 0.5), (X4, 1.5), (X4, 0.5)]),
    Case("r_shape_auto_dynamic", [(T(2, 3),), (T(3, 3),), (T(4, 3),)]),
]
for _case in CASES:
    if _case.name == "c_enable_grad_block_under_no_grad":
        _case.calls = [{"args": (T(4, 4, requires_grad=True),), "grad": False}]

# The program a case runs, when its name is not the program's own name.
PROGRAM = {"c_enable_grad_block_under_no_grad": "c_enable_grad_block"}


def build(lib):
    """Exec CORPUS_SRC with torch-like names bound to `lib` (torch or minitorch2) and its Dynamo."""
    if lib.__name__ == "torch":
        import torch._dynamo as dynamo
    else:
        import frontend as dynamo
    namespace = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional, "dynamo": dynamo}
    exec(compile(CORPUS_SRC + BREAKS_SRC + NUMPY_SRC + DYNAMO_STYLE_SRC, "<frontend corpus>", "exec"), namespace)
    return namespace


# Frames run eagerly (a break in a loop or try block, disable(recursive=False)) let their callees compile.
CASES += [Case(name, _calls(X4)) for name in ("b_loop_break_calls_helper", "b_try_break_calls_helper",
                                               "b_disabled_frame_only_call")]
CASES += [Case("c_namedtuple_replace", _calls(X4))]
CASES += [Case("r_break_guards_passed_tensor", [(T(2, 3), T(2, 3)), (T(2, 3), T(4, 3)), (T(2, 3), T(5, 3))]),
          Case("r_returned_size", [(T(2, 3),), (T(3, 3),), (T(4, 3),), (T(6, 3),)])]
CASES += [Case("r_size_passed_at_break", [(T(2, 3),), (T(3, 3),), (T(4, 3),), (T(6, 3),)])]
CASES += [Case(name, _calls(X4)) for name in NUMPY_PROGRAMS]  # numpy code in the frame (corpus_numpy.py)
CASES += [Case(name, _calls(X4)) for name in DYNAMO_STYLE_PROGRAMS]  # Dynamo's test style (corpus_dynamo_style.py)
