"""The ninth batch of Dynamo-style programs goes on: test/dynamo/test_functions.py (builtins and functools over
tensors and Python values, keyword and star arguments, nested functions, operator module), test_misc.py and
test_repros.py (small shapes of code users hit: in-place ops on views, tensor attributes and methods, numel and
dim checks, module calls), test_model_output.py (dataclasses and namedtuples made, read, replaced), more of
test_generator.py and test_exceptions.py (close() and finally, generators raising into loops), DYNAMIC_SRC
(test_dynamic_shapes: test_misc's and test_functions' kind of program run with dynamic=True on inputs whose length
changes between calls) and RECOMPILE_SRC (test_recompiles.py: guards on Python values that change between calls).
The calls are in test_dynamo_tests_ported_9on.py. Our own programs; the names given to exec are `torch`, `nn`, `F`
and `dynamo`.
"""

PORTED_SRC = r'''
import collections, dataclasses, functools, math, operator


# ---- functions, builtins and functools (test_functions.py)
def _kw_only(x, *, scale=2, shift=0):
    return x * scale + shift


def _star_args(*xs, **kw):
    return sum(xs) * kw.get("k", 1)


def _plus_one(f):
    @functools.wraps(f)
    def wrapper(*args):
        return f(*args) + 1
    return wrapper


@_plus_one
def _add_one_more(x, y):
    return x + y


def fn9_keyword_only_defaults(a, b):
    return _kw_only(a) + _kw_only(b, shift=1)
def fn9_star_args_and_kwargs(a, b):
    return _star_args(a, b, k=3) + _star_args(a)
def fn9_call_with_unpacked_dict(a, b):
    kw = {"scale": 3, "shift": b}
    return _kw_only(a, **kw)
def fn9_call_with_unpacked_list(a, b):
    args = [a, b, a]
    return _star_args(*args)
def fn9_partial_with_keyword(a, b):
    f = functools.partial(_kw_only, scale=5)
    return f(a) + f(b, shift=2)
def fn9_reduce_operator_mul(a, b):
    return functools.reduce(operator.mul, [a, b, a + 1])
def fn9_map_lambda_over_tensors(a, b):
    return sum(map(lambda t: t.cos(), [a, b]))
def fn9_filter_ints(a, b):
    ks = list(filter(lambda k: k % 2 == 0, range(7)))
    return a * len(ks) + b * ks[-1]
def fn9_nested_function_default_from_outer(a, b):
    k = 4
    def inner(x, m=k):
        return x * m
    return inner(a) + inner(b, 1)
def fn9_recursive_helper(a, b):
    def power(x, n):
        return x if n == 1 else x * power(x, n - 1)
    return power(a, 3) + b
def fn9_operator_itemgetter(a, b):
    get = operator.itemgetter(0, 2)
    x, y = get((a, b, a * b))
    return x + y
def fn9_operator_methodcaller(a, b):
    return operator.methodcaller("add", b)(a) * 2
def fn9_abs_round_divmod(a, b):
    q, r = divmod(17, 5)
    return a * abs(-q) + b * round(2.567, 1) + r
def fn9_isinstance_tuple_of_types(a, b):
    return a * isinstance(3, (float, int)) + b * isinstance(a, (list, torch.Tensor))
def fn9_callable_and_getattr_default(a, b):
    return a * callable(len) + b * getattr(a, "missing_attr", 2)
def fn9_sum_with_start(a, b):
    return sum([a, b], b)
def fn9_min_with_key(a, b):
    pair = min([(3, a), (1, b)], key=lambda p: p[0])
    return pair[1] * 2
def fn9_all_over_tensor_shape(a, b):
    return a * all(d > 0 for d in a.shape) + b
def fn9_lru_cache_helper_called(a, b):
    @functools.lru_cache(None)
    def table(n):
        return n * n
    return a * table(3) + b
def fn9_wraps_decorated_global(a, b):
    return _add_one_more(a, b) * len(_add_one_more.__name__)


# ---- misc and repros (test_misc.py, test_repros.py)
def ms9_inplace_on_view(a, b):
    x = a.clone()
    x[1:].mul_(2)
    return x + b
def ms9_tensor_attributes(a, b):
    return a * (a.dim() + a.ndim + a.numel()) + b * a.is_floating_point()
def ms9_dtype_compare(a, b):
    if a.dtype == torch.float32 and b.dtype != torch.int64:
        return a + b
    return a - b
def ms9_shape_unpack(a, b):
    (n,) = a.shape
    return a * n + b
def ms9_size_method_negative_dim(a, b):
    return a * a.size(-1) + b * b.size()[0]
def ms9_tensor_to_same_dtype(a, b):
    return a.to(b.dtype) + b.to(dtype=torch.float32)
def ms9_new_tensor_from_list(a, b):
    return a + torch.tensor([1.0, 2.0, 3.0]) * b
def ms9_zeros_like_plus_ones_like(a, b):
    return torch.zeros_like(a) + torch.ones_like(b) * a
def ms9_full_factory(a, b):
    return torch.full((3,), 0.5) * a + b
def ms9_linspace_factory(a, b):
    return torch.linspace(0, 1, 3) * a + b
def ms9_chained_comparisons_of_ints(a, b):
    n = a.shape[0]
    return a * (0 < n < 5) + b * (1 <= n <= 2)
def ms9_tensor_bool_any(a, b):
    if (a > 10).any():
        return a
    return b * 2
def ms9_clone_detach(a, b):
    return a.clone().detach() + b.detach()
def ms9_contiguous_transpose(a, b):
    m = torch.stack([a, b]).t().contiguous()
    return m.sum(1)
def ms9_index_with_list(a, b):
    return a[[0, 2]].sum() + b[[1]]
def rp9_einsum_outer(a, b):
    return torch.einsum("i,j->ij", a, b).sum(0)
def rp9_matmul_of_stacked(a, b):
    m = torch.stack([a, b])
    return (m @ m.t()).diagonal()
def rp9_softmax_log_softmax(a, b):
    return F.softmax(a, dim=0) + F.log_softmax(b, dim=-1)
def rp9_cross_entropy_like(a, b):
    logits = torch.stack([a, b])
    return -(F.log_softmax(logits, dim=1) * F.softmax(logits, dim=1)).sum()
def rp9_mse_loss(a, b):
    return F.mse_loss(a, b) + F.l1_loss(a, b, reduction="sum")
def rp9_linear_functional(a, b):
    w = torch.stack([a, b, a - b])
    return F.linear(a, w) + b
def rp9_normalize(a, b):
    return F.normalize(a, dim=0) + b
def rp9_cumsum_reverse(a, b):
    return a.flip(0).cumsum(0).flip(0) + b
def rp9_topk_values(a, b):
    v, i = torch.cat([a, b]).topk(2)
    return v.sum() + i.sum()
def rp9_sort_descending(a, b):
    v, _ = a.sort(descending=True)
    return v * b


# ---- model outputs: dataclasses and namedtuples returned and read (test_model_output.py)



@dataclasses.dataclass
class _Output:
    logits: object
    loss: object = None

    def total(self):
        return self.logits.sum() if self.loss is None else self.logits.sum() + self.loss


_Pair = collections.namedtuple("_Pair", ["first", "second"])


def mo9_dataclass_made_and_read(a, b):
    out = _Output(a * 2)
    return out.logits + b
def mo9_dataclass_default_field_none(a, b):
    out = _Output(a)
    return a * (out.loss is None) + b
def mo9_dataclass_method(a, b):
    return _Output(a, b.sum()).total() + b
def mo9_dataclass_replace(a, b):
    out = dataclasses.replace(_Output(a), loss=b)
    return out.logits * out.loss
def mo9_dataclass_fields_names(a, b):
    names = [f.name for f in dataclasses.fields(_Output)]
    return a * len(names) + b * (names[0] == "logits")
def mo9_dataclass_astuple_like(a, b):
    out = _Output(a, b)
    return out.logits - out.loss
def mo9_namedtuple_fields_and_replace(a, b):
    p = _Pair(a, b)._replace(second=a * b)
    return p.first + p.second * len(p._fields)
def mo9_namedtuple_asdict(a, b):
    d = _Pair(a, b)._asdict()
    return d["first"] - d["second"]
def mo9_namedtuple_unpack_and_index(a, b):
    x, y = _Pair(a, b)
    return x * _Pair(a, b)[1] + y
def mo9_dataclass_attribute_set(a, b):
    out = _Output(a)
    out.loss = b * 3
    return out.total() + a


# ---- generators driven by hand (test_generator.py)
def _gen_with_finally(log):
    try:
        yield 1
        yield 2
    finally:
        log.append("closed")


def gn9_generator_close_runs_finally(a, b):
    log = []
    g = _gen_with_finally(log)
    next(g)
    g.close()
    return a * len(log) + b
def gn9_generator_exhausted_runs_finally(a, b):
    log = []
    total = sum(_gen_with_finally(log))
    return a * total + b * len(log)
def gn9_generator_in_dict_comprehension(a, b):
    def pairs():
        yield "x", a
        yield "y", b
    d = {k: v for k, v in pairs()}
    return d["x"] * d["y"]
def gn9_generator_of_tensor_slices(a, b):
    def rows(t):
        for i in range(t.shape[0]):
            yield t[i]
    return sum(rows(torch.stack([a, b])))


# ---- exceptions around loops and nested calls (test_exceptions.py)
def ex9_break_out_of_loop_in_try(a, b):
    out = b
    for k in range(5):
        try:
            if k == 2:
                break
            out = out + a
        finally:
            out = out * 1
    return out
def ex9_finally_in_inlined_helper(a, b):
    def helper(x, log):
        try:
            return x * 2
        finally:
            log.append(1)
    log = []
    return helper(a, log) + b * len(log)
def ex9_exception_type_name(a, b):
    try:
        raise IndexError
    except LookupError as e:
        return a * len(type(e).__name__) + b
def ex9_caught_index_error_from_list(a, b):
    xs = [a]
    try:
        return xs[3]
    except IndexError:
        return b
def ex9_raise_in_generator_caught_outside(a, b):
    def gen():
        yield a
        raise ValueError
    out = b
    try:
        for v in gen():
            out = out + v
    except ValueError:
        out = out * 2
    return out
'''

DYNAMIC_SRC = r'''
import math


def dy9_size_arithmetic(a, b):
    n = a.shape[0]
    return a * (n + 1) + b * (n // 2)
def dy9_view_with_size(a, b):
    return a.view(a.size(0), 1).sum(1) + b
def dy9_reshape_minus_one(a, b):
    return (a.reshape(-1, 1) * b.reshape(1, -1)).sum(0)
def dy9_arange_of_size(a, b):
    return a + torch.arange(a.shape[0])
def dy9_zeros_of_size(a, b):
    return torch.zeros(a.shape[0]) + a * b
def dy9_new_ones_of_shape(a, b):
    return a.new_ones(b.shape) * a
def dy9_slice_to_size_minus_one(a, b):
    return a[: a.shape[0] - 1].sum() + b
def dy9_cat_then_split_half(a, b):
    x, y = torch.cat([a, b]).split(a.shape[0])
    return x * y
def dy9_numel_float(a, b):
    return a * (a.numel() / 2.0) + b
def dy9_mean_by_hand(a, b):
    return a.sum() / a.shape[0] + b
def dy9_len_of_tensor(a, b):
    return a * len(a) + b
def dy9_range_over_size_sum(a, b):
    out = b
    for i in range(2):
        out = out + a[i]
    return out
def dy9_size_compare_branch(a, b):
    if a.shape[0] > 1:
        return a * 2 + b
    return a
def dy9_expand_to_other(a, b):
    return a[:1].expand(b.shape[0]) + b
def dy9_stack_and_transpose(a, b):
    return torch.stack([a, b], dim=1).t().sum(0)
def dy9_outer_sum(a, b):
    return torch.outer(a, b).sum(1)
def dy9_matmul_vector(a, b):
    return (a @ b) * a
def dy9_softmax_dim0(a, b):
    return F.softmax(a, dim=0) * b
def dy9_cumsum_and_flip(a, b):
    return a.cumsum(0).flip(0) + b
def dy9_roll_by_one(a, b):
    return torch.roll(a, 1) * b
def dy9_narrow_from_one(a, b):
    return a.narrow(0, 1, a.shape[0] - 1).sum() + b
def dy9_pad_functional(a, b):
    return F.pad(a, (1, 1))[1:-1] + b
def dy9_shape_tuple_to_tensor(a, b):
    return a * torch.tensor(a.shape[0]) + b
def dy9_size_as_float_in_math(a, b):
    return a / math.sqrt(a.shape[0]) + b
def dy9_unsqueeze_repeat(a, b):
    return a.unsqueeze(0).repeat(2, 1).sum(0) + b
def dy9_index_last(a, b):
    return a[-1] * b + a[a.shape[0] - 1]
def dy9_where_with_size_scalar(a, b):
    return torch.where(a > 0, a, a.shape[0] * 1.0) + b
def dy9_linear_of_square(a, b):
    w = torch.outer(a, b)
    return F.linear(a, w)
def dy9_sum_keepdim_broadcast(a, b):
    m = torch.stack([a, b])
    return (m - m.mean(1, keepdim=True)).sum(0)
def dy9_chunk_two(a, b):
    parts = torch.cat([a, b]).chunk(2)
    return parts[0] - parts[1]
def dy9_mul_by_size_product(a, b):
    n, = b.size()
    return a * (n * n) - b
def dy9_empty_like_fill(a, b):
    return torch.empty_like(a).fill_(2.0) * b
def dy9_masked_sum(a, b):
    return (a * (b > 0)).sum() + b
def dy9_gather_by_argsort(a, b):
    return a.gather(0, b.argsort()) + b
def dy9_full_of_size_value(a, b):
    return torch.full((a.shape[0],), float(2)) * a + b
def dy9_view_as_two_rows(a, b):
    return torch.cat([a, b]).view(2, -1).sum(0)
def dy9_max_reduction_dim(a, b):
    return torch.stack([a, b]).max(dim=0).values + a.shape[0]
def dy9_clamp_by_size(a, b):
    return a.clamp(max=a.shape[0] / 4) + b
def dy9_size_tuple_equality(a, b):
    if a.shape == b.shape:
        return a + b
    return a
def dy9_sum_over_halves(a, b):
    h = a.shape[0] // 2
    return a[:h].sum() + a[h:].sum() + b
def dy9_numel_in_python_loop_bound(a, b):
    out = b
    for _ in range(min(a.numel(), 2)):
        out = out + a
    return out
def dy9_size_in_fstring_free_arith(a, b):
    n = a.size(0)
    return a * (n * 2 - n) + b * (n % 2)
def dy9_index_with_size_symbol(a, b):
    return a[a.shape[0] // 2] * b
def dy9_select_method_symbolic(a, b):
    return a.select(0, a.shape[0] - 2) + b
def dy9_view_as_column_matmul(a, b):
    return (a.view(-1, 1) @ b.view(1, -1)).diagonal()
def dy9_new_zeros_twice_size(a, b):
    return torch.cat([a, b]) + a.new_zeros(a.shape[0] * 2)
def dy9_linspace_steps_of_size(a, b):
    return torch.linspace(0, 1, a.shape[0]) * a + b
def dy9_setitem_at_size_minus_one(a, b):
    x = a.clone()
    x[a.shape[0] - 1] = 0.0
    return x + b
def dy9_size_as_dict_key(a, b):
    d = {a.shape[0]: 1, "k": 2}
    return a * sum(d.values()) + b
def dy9_dict_lookup_by_size(a, b):
    scale = {3: 2.0, 5: 3.0, 8: 4.0}
    return a * scale[a.shape[0]] + b
def dy9_math_prod_of_shape(a, b):
    return a * math.prod(a.shape) + b
def dy9_math_prod_of_stacked_shape(a, b):
    return a * math.prod(torch.stack([a, b]).shape) - b
def dy9_math_ceil_of_size_ratio(a, b):
    return a * math.ceil(a.shape[0] / 2) + b
def dy9_round_of_size_ratio(a, b):
    return a * round(a.shape[0] / 2) + b
def dy9_str_of_size(a, b):
    return a * len(str(a.shape[0])) + b
def dy9_star_unpack_of_tensor(a, b):
    first, *rest = a
    return first * b + len(rest)
def dy9_setitem_first_half(a, b):
    x = a.clone()
    x[: a.shape[0] // 2] = b[: a.shape[0] // 2]
    return x
def dy9_bool_of_size(a, b):
    return a * bool(a.shape[0]) + b
def dy9_unbind_first_two(a, b):
    x, y = torch.stack([a, b]).unbind(0)
    return x * y
'''

RECOMPILE_SRC = r'''
def rc9_bool_from_kwargs(x, flag):
    return x * 2 if flag else x - 2
def rc9_list_length_changes(x, xs):
    return x * len(xs)
def rc9_attribute_value_changes(x, obj):
    return x * obj.k
def rc9_dtype_changes(x, name):
    return x.to(getattr(torch, name)) * 2
def rc9_nested_tuple_structure(x, t):
    return x * t[0] + t[1][0]
def rc9_global_int_changes(x, k):
    _STATE["k"] = k
    return _read_state(x)


_STATE = {"k": 0}


def _read_state(x):
    return x * _STATE["k"]
'''
