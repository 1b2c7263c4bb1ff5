"""The twelfth batch of Dynamo-style programs, second half: test_generator.py and test_iter.py (generators consumed
by builtins, iter/next with defaults, yield from), test_exceptions.py (raise and catch inside the frame, finally,
exceptions carrying values), test_unspec.py (Python floats and ints mixed with tensors), test_repros.py (shapes of
reported code), DYNAMIC_SRC (test_dynamic_shapes: programs run with dynamic=True on inputs whose length changes
between calls) and RECOMPILE_SRC (test_recompiles.py: guards on values that change between calls). The calls are in
test_dynamo_tests_ported_9on.py. Our own programs; the names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import collections, functools, itertools, math, operator
__name__ = "corpus_12b"  # (contextlib.contextmanager reads the module name of the globals it is called in)


def _gen_scaled(xs, k):
    for x in xs:
        yield x * k
def _gen_delegating(xs):
    yield from _gen_scaled(xs, 2)
    yield xs[0] - 1


# ---- generators and iterators (test_generator.py, test_iter.py)
def gi12_sum_of_generator(a, b):
    return sum(_gen_scaled([a, b], 3))
def gi12_list_of_yield_from(a, b):
    out = list(_gen_delegating([a, b]))
    return out[0] + out[1] * out[2]
def gi12_next_with_default(a, b):
    it = iter([a])
    first = next(it)
    second = next(it, None)
    return first + b if second is None else first
def gi12_generator_expression_any_all(a, b):
    vals = [1, 2, 3]
    if all(v > 0 for v in vals) and not any(v > 5 for v in vals):
        return a + b
    return a - b
def gi12_zip_of_generators(a, b):
    return [p + q for p, q in zip(_gen_scaled([a, b], 2), (t - 1 for t in [b, a]))]
def gi12_iter_dict_items(a, b):
    d = {"p": a, "q": b}
    it = iter(d.items())
    k, v = next(it)
    return v * 2 if k == "p" else v
def gi12_map_with_two_lists(a, b):
    return list(map(lambda x, y: x * y, [a, b], [b, a]))
def gi12_filter_none(a, b):
    return sum(filter(None, [0, 2, 0, 3])) * a + b
def gi12_generator_send_free_manual_loop(a, b):
    g = _gen_scaled([a, b, a + b], 0.5)
    out = []
    while True:
        try:
            out.append(next(g))
        except StopIteration:
            break
    return out
def gi12_range_reversed_step(a, b):
    out = a
    for i in reversed(range(0, 6, 2)):
        out = out + b * i
    return out


# ---- exceptions (test_exceptions.py)
def ex12_raise_catch_value_error(a, b):
    try:
        raise ValueError("bad")
    except ValueError:
        return a + b
def ex12_catch_key_error_from_dict(a, b):
    d = {"p": a}
    try:
        return d["q"]
    except KeyError:
        return d["p"] * b
def ex12_finally_runs(a, b):
    out = [a]
    try:
        out.append(b * 2)
    finally:
        out.append(a + b)
    return out
def ex12_exception_args(a, b):
    try:
        raise RuntimeError(3, "x")
    except RuntimeError as e:
        return a * e.args[0] + b
def ex12_catch_tuple_of_types(a, b):
    try:
        [1, 2][5]
    except (KeyError, IndexError):
        return a - b
    return a + b
def ex12_else_branch(a, b):
    try:
        c = a + b
    except ZeroDivisionError:
        c = a
    else:
        c = c * 2
    return c
def ex12_assert_passes(a, b):
    assert a.shape == b.shape, "shapes differ"
    return a + b


# ---- Python numbers with tensors (test_unspec.py)
def un12_float_from_tensor_item(a, b):
    s = a.sum().item()
    return b * 2.5 + s * 0
def un12_math_of_constants(a, b):
    return a * math.floor(2.7) + b * math.ceil(0.2) + math.fabs(-1.5)
def un12_int_div_mod(a, b):
    n = 7
    return a * (n // 2) + b * (n % 3) + divmod(n, 4)[1]
def un12_round_and_abs(a, b):
    return a * round(2.567, 1) + abs(-3) * b
def un12_pow_builtin(a, b):
    return pow(2, 3) * a + pow(a, 2) + b
def un12_bool_arith(a, b):
    return a * True + b * (False + 2)


# ---- reported shapes (test_repros.py)
def rp12_split_sizes_list(a, b):
    x = torch.cat([a, b])
    p, q = torch.split(x, [2, 4])
    return p.sum() + q[:3]
def rp12_masked_select_sum(a, b):
    return torch.where(a > 0, a, torch.zeros_like(a)).sum() + b
def rp12_inplace_on_slice(a, b):
    c = a.clone()
    c[1:] += b[:2]
    return c
def rp12_index_put_bool_mask(a, b):
    c = b.clone()
    c[a > 0] = 0.0
    return c
def rp12_stack_unbind(a, b):
    x, y = torch.stack([a, b]).unbind(0)
    return x * y
def rp12_list_comp_with_condition(a, b):
    ts = [a, b, a + b]
    return torch.stack([t * i for i, t in enumerate(ts) if i != 1]).sum(0)
def rp12_softmax_module_inline(a, b):
    return torch.nn.Softmax(dim=-1)(a + b * 2)
def rp12_functional_dropout_eval(a, b):
    return F.dropout(a, p=0.5, training=False) + b
def rp12_ellipsis_and_none_index(a, b):
    m = torch.outer(a, b)
    return m[..., 1] + m[None, 0, :].squeeze(0) + a[:, None].sum(1)
def rp12_new_tensor_and_as_tensor(a, b):
    return a * a.new_tensor([1.0, 2.0, 3.0]) + torch.as_tensor([0.5, 0.5, 0.5]) * b
def rp12_list_sort_key_and_del(a, b):
    items = [(3, a), (1, b), (2, a + b)]
    items.sort(key=lambda p: p[0])
    del items[0]
    return items[0][1] * items[1][0]
def rp12_slice_assign_list(a, b):
    xs = [a, a, a, a]
    xs[1:3] = [b, b * 2]
    return xs[0] + xs[1] + xs[2] + xs[3]
def rp12_dict_and_set_comprehension(a, b):
    d = {k: a * v for k, v in zip("pqr", [1, 2, 3])}
    s = {len(k) for k in d}
    return d["q"] + d["r"] * len(s) + b
def rp12_operator_getters(a, b):
    pick = operator.itemgetter(1, 0)
    x, y = pick([a, b])
    call = operator.methodcaller("mul", 3)
    return call(x) - y
def rp12_math_prod_isclose(a, b):
    k = math.prod([1, 2, 3])
    return a * k + b * math.isclose(0.1 + 0.2, 0.3) + (math.inf > 1e30)
def rp12_percent_format_and_join(a, b):
    s = "%d-%s" % (3, "x")
    parts = "-".join(["p", "q"]).split("-")
    return a * len(s) + b * len(parts)
def rp12_class_made_in_frame(a, b):
    class Acc:
        def __init__(self, start):
            self.total = start
        def add(self, t):
            self.total = self.total + t
            return self
    return Acc(a).add(b).add(b * 2).total
def rp12_property_and_super(a, b):
    class Base:
        def scale(self, t):
            return t * 2
    class Child(Base):
        @property
        def offset(self):
            return 1.5
        def scale(self, t):
            return super().scale(t) + self.offset
    return Child().scale(a) + b
def rp12_isinstance_tuple_of_types(a, b):
    out = a
    for v in (1, 2.5, "s", None, b):
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out = out + v
        elif isinstance(v, torch.Tensor):
            out = out * v
    return out
def rp12_closure_lambdas_in_loop(a, b):
    fns = [lambda t, k=k: t * k for k in range(3)]
    return sum(f(a) for f in fns) + b
def rp12_try_in_loop_continue(a, b):
    out = a
    for k in [1, 0, 2]:
        try:
            out = out + b / (1 / k)
        except ZeroDivisionError:
            continue
    return out
def rp12_enum_member_branch(a, b):
    import enum
    class Mode(enum.Enum):
        SUM = 1
        PROD = 2
    m = Mode.PROD
    return a * b if m is Mode.PROD else a + b
def rp12_dataclass_made_in_frame(a, b):
    import dataclasses
    @dataclasses.dataclass
    class Pair:
        x: object
        y: object = 2.0
    p = Pair(a)
    return p.x * p.y + b
def rp12_shape_unpack_and_compare(a, b):
    (n,) = a.shape
    if a.shape == b.shape and a.size() == (n,):
        return a + b * n
    return a
def rp12_inplace_on_input_then_use(a, b):
    a.mul_(2)
    return a + b
def rp12_tensor_from_sums(a, b):
    return torch.stack([a.sum(), b.sum()]) * 2
def rp12_lru_cache_helper(a, b):
    @functools.lru_cache(maxsize=None)
    def k(n):
        return n * 2
    return a * k(3) + b * k(3)
def rp12_contextmanager_generator(a, b):
    import contextlib
    log = []
    @contextlib.contextmanager
    def scope(tag):
        log.append(tag)
        yield len(log)
        log.append(tag + "!")
    with scope("p") as k:
        out = a * k
    return out + b * len(log)
def rp12_generator_send(a, b):
    def acc():
        total = 0
        while True:
            v = yield total
            total = total + v
    g = acc()
    next(g)
    g.send(2)
    return a * g.send(3) + b
def rp12_module_buffer_update(a, b):
    class Counter(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("n", torch.zeros(3))
        def forward(self, x):
            self.n.add_(1)
            return x + self.n
    m = Counter()
    return m(a) + m(b)
def rp12_sequential_of_activations(a, b):
    m = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Identity())
    return m(a) + m[0](b) + len(m)
def rp12_module_dict_iteration(a, b):
    md = nn.ModuleDict({"r": nn.ReLU(), "s": nn.Sigmoid()})
    out = b
    for name, mod in md.items():
        out = out + mod(a) * len(name)
    return out
def rp12_module_containers_isinstance(a, b):
    seq = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
    ml = nn.ModuleList([nn.ReLU(), nn.Tanh()])
    md = nn.ModuleDict({"r": nn.ReLU()})
    out = seq(a) + seq[1:](b) + len(ml[1:])
    for flag in (isinstance(seq, nn.Sequential), isinstance(ml, nn.ModuleList), isinstance(md, nn.ModuleDict),
                 isinstance(ml, tuple), isinstance(md, dict), isinstance(seq[1:], nn.Sequential)):
        out = out * 2 + flag
    return out
def rp12_requires_grad_in_frame(a, b):
    x = a.detach().clone().requires_grad_(True)
    y = (x * b).sum()
    return y.detach() + x.requires_grad
def rp12_autograd_grad_in_frame(a, b):
    x = a.detach().requires_grad_()
    (g,) = torch.autograd.grad((x * x * b).sum(), x)
    return g
def rp12_str_methods_chain(a, b):
    s = "  Hello_World  ".strip().lower().replace("_", " ")
    return a * len(s.split()) + b * s.count("o") + s.startswith("hello")
def rp12_bool_tensor_any_branch(a, b):
    if (a > 100).any():
        return a
    return b * 2
def rp12_tolist_sum(a, b):
    return sum(a.tolist()) + b
def rp12_nonzero_count(a, b):
    return a.nonzero().shape[0] * b
def rp12_while_loop_with_tensor_cond(a, b):
    out = a
    n = 0
    while n < 3 and out.sum() < 100:
        out = out + b.abs() + 1
        n += 1
    return out
def rp12_partial_of_method(a, b):
    f = functools.partial(torch.add, alpha=2)
    return f(a, b) + functools.partial(a.mul)(b)
'''

DYNAMIC_SRC = r'''
import math


def dy12_shape_in_fstring(a, b):
    s = f"{a.shape[0]}"
    return a + len(s) + b
def dy12_size_times_float(a, b):
    return a * (a.size(0) * 0.5) + b
def dy12_view_by_size(a, b):
    return a.view(a.shape[0], 1).sum(-1) + b
def dy12_new_zeros_of_size(a, b):
    return a.new_zeros(a.shape[0]) + b * 2
def dy12_arange_like(a, b):
    return torch.arange(a.numel(), dtype=a.dtype) * a + b
def dy12_linspace_count(a, b):
    return torch.linspace(0, 1, a.shape[0]) + a * b
def dy12_slice_to_half(a, b):
    n = a.shape[0] // 2
    return torch.cat([a[:n], b[n:]])
def dy12_size_loop_bound(a, b):
    out = a
    for i in range(2):
        out = out + b * (a.shape[0] - i)
    return out
def dy12_reshape_pair(a, b):
    x = torch.stack([a, b])
    return x.reshape(-1).view(2, -1).sum(0)
def dy12_expand_to_square(a, b):
    n = a.shape[0]
    return a.unsqueeze(0).expand(n, n).sum(0) + b
def dy12_roll_by_one(a, b):
    return torch.roll(a, 1) + b.flip(0)
def dy12_cumsum_over_size(a, b):
    return a.cumsum(0) / a.shape[0] + b
def dy12_matmul_outer_trace(a, b):
    return torch.outer(a, b).diagonal() + a
def dy12_size_compare_branch(a, b):
    if a.shape[0] > 4:
        return a * 2 + b
    return a - b
def dy12_size_eq_other(a, b):
    if a.shape == b.shape:
        return a + b
    return a
def dy12_numel_as_divisor(a, b):
    return a.sum() / a.numel() + b
def dy12_mean_std_like(a, b):
    return (a - a.mean()) / (a.std() + 1) + b
def dy12_pad_by_one(a, b):
    return F.pad(a, (1, 0))[: a.shape[0]] + b
def dy12_topk_two(a, b):
    v, i = a.topk(2)
    return v.sum() + b
def dy12_sort_then_gather(a, b):
    v, i = a.sort()
    return b.gather(0, i) + v
def dy12_where_scalar(a, b):
    return torch.where(a > b, a, 0.0) + b
def dy12_full_of_size(a, b):
    return torch.full((a.shape[0],), 2.0) * a + b
def dy12_split_in_two(a, b):
    x = torch.cat([a, b])
    p, q = x.split(a.shape[0])
    return p * q
def dy12_chunk_cat(a, b):
    p, q = torch.cat([a, b]).chunk(2)
    return q - p
def dy12_index_select_first(a, b):
    return a.index_select(0, torch.tensor([0])) + b
def dy12_narrow_start(a, b):
    return a.narrow(0, 1, a.shape[0] - 1).sum() + b
def dy12_softmax_scaled(a, b):
    return F.softmax(a / math.sqrt(a.shape[0]), dim=0) + b
def dy12_shape_tuple_unpack(a, b):
    (n,) = a.shape
    return a * n + b
def dy12_size_as_tensor(a, b):
    return a + torch.tensor(a.shape[0]) + b
def dy12_diff_prepend(a, b):
    return torch.diff(a, prepend=b[:1]) + b
def dy12_repeat_then_slice(a, b):
    return a.repeat(2)[: a.shape[0]] * b
def dy12_list_of_size_range(a, b):
    idx = list(range(a.shape[0]))
    return a[idx[-1]] + b
def dy12_max_of_sizes(a, b):
    return a * max(a.shape[0], 4) + b
def dy12_layer_norm_over_size(a, b):
    return F.layer_norm(a, (a.shape[0],)) + b
def dy12_cos_of_size_product(a, b):
    return a * a.shape[0] * b.shape[0] + b.cos()
def dy12_clone_then_index_last(a, b):
    c = a.clone()
    c[-1] = 0.0
    return c + b
def dy12_ceil_half_of_size(a, b):
    k = math.ceil(a.shape[0] / 2)
    return a[:k].sum() + b
def dy12_int_of_true_division(a, b):
    k = int(a.shape[0] / 2)
    return a[k:].sum() * b
def dy12_loop_over_size(a, b):
    out = b
    for i in range(a.shape[0]):
        out = out + a[i]
    return out
def dy12_size_as_dict_key(a, b):
    cache = {a.shape[0]: a * 2}
    return cache[b.shape[0]] + b
def dy12_negative_slice_by_size(a, b):
    return a[-(a.shape[0] - 1):].sum() + b
def dy12_zeros_of_size_plus_one(a, b):
    return torch.zeros(a.shape[0] + 1)[1:] + a * b
def dy12_size_mod_branch(a, b):
    if a.shape[0] % 2 == 1:
        return a + b
    return a - b
def dy12_unsqueeze_matmul(a, b):
    return (a.unsqueeze(1) @ b.unsqueeze(0)).sum(0)
def dy12_min_size_two(a, b):
    return a[: min(a.shape[0], 2)].sum() + b
'''

RECOMPILE_SRC = r'''
_STATE = {"k": 1}


def rc12_float_constant_in_branch(a, k):
    if k > 1.0:
        return a * k
    return a - k
def rc12_list_of_strings(a, names):
    out = a
    for n in names:
        out = out + len(n)
    return out
def rc12_tuple_of_floats(a, t):
    return a * t[0] + t[1]
def rc12_none_or_tensor(a, m):
    if m is None:
        return a * 2
    return a + m
def rc12_dict_key_presence(a, d):
    if "s" in d:
        return a * d["s"]
    return a - 1
def rc12_string_compare(a, mode):
    if mode == "train":
        return a * 2
    return a / 2
def rc12_nested_list_sizes(a, rows):
    return a * sum(len(r) for r in rows)
def rc12_global_state_written(a, n):
    _STATE["k"] = _STATE["k"] + n
    return a * _STATE["k"]
def rc12_bool_and_int_mixed(a, v):
    if v is True:
        return a + 10
    return a * v
def rc12_deque_input(a, d):
    return a * sum(d) + len(d)
def rc12_namedtuple_field_changes(a, p):
    return a * p.x + p.y
def rc12_tensor_in_list_shape_changes(a, ts):
    return a.sum() + sum(t.sum() for t in ts)
def rc12_callable_arg_changes(a, fn):
    return fn(a) + 1
def rc12_dtype_of_input(a, t):
    return a.to(t.dtype) + t
'''
