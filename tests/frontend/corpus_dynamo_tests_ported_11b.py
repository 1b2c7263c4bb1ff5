"""The eleventh batch of Dynamo-style programs goes on: test/dynamo/test_misc.py's later half (tensor methods and
factories users call in small models: where, clamp, gather, topk, sort, masked_fill, einsum, type promotion),
test_repros.py (shapes of code from bug reports: accumulating in loops, in-place ops on views, chained comparisons,
early returns), test_modules.py (ModuleList and ModuleDict iteration, modules built in the frame, hooks removed),
test_autograd_function.py (Functions with mark_non_differentiable-free backward, called twice, with defaults),
test_decorators.py (disable and graph_break placed inside helpers), user protocols (__call__, __getitem__/__len__,
properties), match statements and the walrus operator, DYNAMIC_SRC (test_dynamic_shapes: programs run
with dynamic=True on inputs whose length changes between calls) and RECOMPILE_SRC (test_recompiles.py and
test_guard_manager.py: guards on Python values, containers and attributes that change between calls). The calls are
in test_dynamo_tests_ported_9on.py. Our own programs; the names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import collections, functools, math, operator


# ---- tensor methods (later half of test_misc.py)
def ms11_where_with_scalar(a, b):
    return torch.where(a > 0, a, 0.5) + torch.where(b < 0, b, b * 2)
def ms11_clamp_min_max_tensors(a, b):
    return a.clamp(min=-0.5, max=0.5) + torch.clamp(b, max=a)
def ms11_gather_index(a, b):
    idx = torch.tensor([2, 0, 1])
    return a.gather(0, idx) * b
def ms11_topk_values_indices(a, b):
    v, i = torch.cat([a, b]).topk(2)
    return v.sum() + i.float().sum() + a
def ms11_sort_descending(a, b):
    v, i = a.sort(descending=True)
    return v * b + i
def ms11_masked_fill(a, b):
    return a.masked_fill(b > 0, -1.0) + b
def ms11_einsum_outer_trace(a, b):
    return torch.einsum("i,j->ij", a, b).diagonal() + torch.einsum("i,i->", a, b)
def ms11_int_tensor_promotes(a, b):
    k = torch.tensor([1, 2, 3])
    return a * k + (k // 2) * b
def ms11_bool_tensor_sum(a, b):
    return (a > b).sum() * a + (a > 0).float().mean()
def ms11_argmax_argmin(a, b):
    return a * a.argmax() + b * b.argmin()
def ms11_cumsum_flip(a, b):
    return a.cumsum(0).flip(0) - b.cummax(0).values
def ms11_norm_and_normalize(a, b):
    return F.normalize(a, dim=0) * torch.linalg.norm(b)
def ms11_softmax_log_softmax(a, b):
    return F.softmax(a, dim=0) + F.log_softmax(b, dim=-1)
def ms11_new_zeros_ones(a, b):
    return a.new_zeros(3) + a.new_ones((3,)) * b + a.new_full((3,), 2.0)
def ms11_expand_and_repeat(a, b):
    return a.unsqueeze(0).expand(2, 3).sum(0) + b.repeat(2)[:3]
def ms11_chunk_and_cat(a, b):
    x, y = torch.cat([a, b]).chunk(2)
    return torch.cat([y, x])[:3] * 2
def ms11_roll_and_diff(a, b):
    return torch.roll(a, 1) + torch.diff(torch.cat([b, a[:1]]))
def ms11_addcmul_lerp(a, b):
    return torch.addcmul(a, a, b, value=0.5) + torch.lerp(a, b, 0.25)
def ms11_sign_abs_trunc(a, b):
    return a.sign() * b.abs() + (a * 3).trunc() + (b * 2).frac()
def ms11_dtype_and_device_checks(a, b):
    return a * (a.dtype == torch.float32) + b * (a.device.type == "cpu") + a.is_floating_point()
def ms11_tensor_dim_and_ndim(a, b):
    return a * a.dim() + b * a.ndim + len(a.size())
def ms11_shape_unpack(a, b):
    n, = a.shape
    return a * n + b
def ms11_tolist_of_constant(a, b):
    ks = torch.tensor([1.0, 2.0]).tolist()
    return a * ks[1] + b
def ms11_to_dtype_roundtrip(a, b):
    return (a * 10).to(torch.int64).to(torch.float32) / 10 + b.double().float()
def ms11_std_mean_tuple(a, b):
    s, m = torch.std_mean(a)
    return (b - m) / (s + 1)
def ms11_min_max_dim(a, b):
    m = torch.stack([a, b]).max(dim=0)
    return m.values + m.indices
def ms11_logsumexp_amax(a, b):
    return torch.logsumexp(a, 0) + b.amax() + a.amin()
def ms11_outer_matmul(a, b):
    return (torch.outer(a, b) @ a) + a @ b
def ms11_zeros_like_dtype(a, b):
    return torch.zeros_like(a, dtype=torch.float64).float() + torch.empty_like(b).fill_(2.0) * b
def ms11_isclose_allclose(a, b):
    return a * torch.isclose(a, a + 1e-9).all() + b * torch.allclose(a, b)
def ms11_nan_to_num_log(a, b):
    return torch.nan_to_num(torch.log(a), neginf=-5.0, nan=0.0) + b
def ms11_clone_detach_requires_grad(a, b):
    c = a.clone().detach()
    return c * (not c.requires_grad) + b
def ms11_tensor_bool_in_if(a, b):
    if (a.abs() < 100).all():
        return a + b
    return a - b
def ms11_index_put_with_mask(a, b):
    c = a.clone()
    c[b > 0] = 0.0
    return c + b
def ms11_scatter_add(a, b):
    idx = torch.tensor([0, 0, 2])
    return torch.zeros(3).scatter_add(0, idx, a) + b


# ---- repros (test_repros.py)
def rp11_accumulate_in_loop_with_inplace(a, b):
    acc = torch.zeros(3)
    for t in (a, b, a * b):
        acc += t
    return acc
def rp11_inplace_on_slice_view(a, b):
    c = a.clone()
    c[1:].mul_(2)
    return c + b
def rp11_chained_comparison_python(a, b):
    k = 3
    return a * (1 < k < 5) + b * (0 < k > 4)
def rp11_early_return_on_flag(a, b):
    flag = a.shape[0] == 3
    if flag:
        return a * 2
    return b
def rp11_tensor_from_list_of_floats(a, b):
    w = torch.tensor([0.1, 0.2, 0.3])
    return (a * w).sum() + b
def rp11_reuse_of_name_shadowing(a, b):
    x = a
    x = x + 1
    x = x * b
    return x
def rp11_conditional_expression_tensor(a, b):
    return (a if a.shape == b.shape else b) * 2
def rp11_unsqueeze_matmul_squeeze(a, b):
    return (a.unsqueeze(0) @ b.unsqueeze(1)).squeeze() + a
def rp11_view_then_inplace_base_read(a, b):
    c = a.clone()
    v = c.view(3)
    v.add_(b)
    return c * 2
def rp11_loss_mse_manual(a, b):
    return ((a - b) ** 2).mean() + F.mse_loss(a, b)
def rp11_dropout_eval_identity(a, b):
    return F.dropout(a, p=0.5, training=False) + b
def rp11_layer_norm_functional(a, b):
    return F.layer_norm(a, (3,)) + b
def rp11_gelu_silu_mix(a, b):
    return F.gelu(a) + F.silu(b) + F.leaky_relu(a, 0.1)
def rp11_cross_entropy_single(a, b):
    return F.cross_entropy(a.unsqueeze(0), torch.tensor([1])) * b


# ---- modules (test_modules.py)
class _Scale(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        return x * self.k


_LIST = nn.ModuleList([_Scale(1.0), _Scale(2.0), _Scale(-1.0)])
_DICT = nn.ModuleDict({"up": _Scale(3.0), "down": _Scale(0.5)})
_RELU = nn.ReLU()
_REMOVED = _Scale(2.0)
_HANDLE = _REMOVED.register_forward_hook(lambda mod, inputs, out: out + 100)
_HANDLE.remove()


def md11_module_list_iterate(a, b):
    out = a
    for m in _LIST:
        out = m(out)
    return out + b
def md11_module_list_index_len(a, b):
    return _LIST[-1](a) * len(_LIST) + b
def md11_module_list_enumerate(a, b):
    return sum(m(a) * i for i, m in enumerate(_LIST)) + b
def md11_module_dict_items(a, b):
    return sum(m(a) for _, m in _DICT.items()) + _DICT["down"](b)
def md11_module_dict_keys_contains(a, b):
    return a * ("up" in _DICT) + b * len(list(_DICT.keys()))
def md11_module_built_in_frame(a, b):
    m = _Scale(4.0)
    return m(a) + b
def md11_relu_module_and_functional(a, b):
    return _RELU(a) + F.relu(b)
def md11_removed_hook_not_run(a, b):
    return _REMOVED(a) + b
def md11_module_list_zip_inputs(a, b):
    return sum(m(t) for m, t in zip(_LIST, [a, b, a]))


# ---- autograd.Function (test_autograd_function.py)
class _Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g


class _AddK(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k=1.0):
        return x + k

    @staticmethod
    def backward(ctx, g):
        return g, None


def af11_apply_twice(a, b):
    return _Square.apply(_Square.apply(a)) + b
def af11_default_argument(a, b):
    return _AddK.apply(a) + _AddK.apply(b, 3.0)
def af11_function_in_helper(a, b):
    def helper(x):
        return _Square.apply(x) * 2
    return helper(a) - b
def af11_on_both_inputs_summed(a, b):
    return _Square.apply(a + b).sum() + a


# ---- decorators (test_decorators.py)
@dynamo.disable
def _eager_only(x):
    return x * 3


def _breaks_inside(x):
    y = x + 1
    dynamo.graph_break()
    return y * 2


def dc11_disabled_helper_middle(a, b):
    x = a + 1
    y = _eager_only(x)
    return y * b
def dc11_graph_break_in_helper(a, b):
    return _breaks_inside(a) + b
def dc11_graph_break_in_loop_body(a, b):
    out = a
    for _ in range(2):
        out = out * 2
        dynamo.graph_break()
    return out + b
def dc11_disabled_called_twice(a, b):
    return _eager_only(a) + _eager_only(b)

# ---- more shapes of user code (test_misc.py, test_repros.py, test_functions.py)
class _Callable:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return x * self.k


class _Box:
    def __init__(self, items):
        self.items = list(items)

    def __getitem__(self, i):
        return self.items[i]

    def __len__(self):
        return len(self.items)

    @property
    def first(self):
        return self.items[0]


def ms11_callable_object(a, b):
    return _Callable(3)(a) + _Callable(0.5)(b)
def ms11_getitem_len_protocol(a, b):
    box = _Box([a, b])
    return box[1] * len(box) + box.first
def ms11_iterate_getitem_protocol(a, b):
    return sum(t * 2 for t in _Box([a, b, a]))
def ms11_walrus_in_condition(a, b):
    if (n := a.shape[0]) > 2:
        return a * n + b
    return b
def ms11_match_on_tuple(a, b):
    match (1, "x"):
        case (1, name):
            return a * len(name) + b
        case _:
            return a
def ms11_star_unpack_middle(a, b):
    first, *middle, last = [a, b, a * 2, b * 2]
    return first + sum(middle) + last
def ms11_return_dict_of_tensors(a, b):
    return {"sum": a + b, "diff": a - b}["diff"]
def ms11_inplace_on_input_clone(a, b):
    c = a.clone()
    c.mul_(2).add_(b)
    return c
def ms11_while_with_counter(a, b):
    i, out = 0, a
    while i < 3:
        out = out + b * i
        i += 1
    return out
def ms11_for_else(a, b):
    for k in (1, 2, 3):
        if k > 5:
            break
    else:
        return a + b
    return a
def ms11_fstring_key_lookup(a, b):
    d = {f"w{i}": a * i for i in range(3)}
    return d[f"w{2}"] + b
def ms11_str_methods_on_names(a, b):
    names = "alpha,beta,gamma".split(",")
    return a * len(max(names, key=len)) + b * names.index("beta") + "ALPHA".lower().startswith("al")
def ms11_len_and_iter_of_tensor(a, b):
    return a * len(a) + sum(t for t in b)
def ms11_tensor_in_bool_and(a, b):
    return a * (a.shape[0] == 3 and b.shape[0] == 3) + b
def ms11_conditional_import_math(a, b):
    import math as m  # (an import inside the frame)
    return a * m.floor(2.5) + b
def ms11_sorted_dict_of_tensors_by_key(a, b):
    d = {"z": a, "m": b, "a": a * b}
    return sum(d[k] * i for i, k in enumerate(sorted(d)))
def ms11_nested_function_returns_closure(a, b):
    def make(k):
        return lambda x: x * k
    return make(2)(a) + make(3)(b)
def ms11_type_checks_on_values(a, b):
    return a * isinstance(3, int) + b * (type(2.0) is float) + isinstance(a, torch.Tensor)
def ms11_enumerate_dict_items(a, b):
    return sum(i * v for i, (k, v) in enumerate({"x": a, "y": b}.items()))
def ms11_no_grad_inside_then_add(a, b):
    with torch.no_grad():
        c = a * 2
    return c + b
def ms11_any_all_of_tensor_list(a, b):
    return a * any(t.shape[0] == 3 for t in (a, b)) + b * all(t.dim() == 1 for t in (a, b))
def ms11_zip_strict_lengths(a, b):
    return sum(x * y for x, y in zip([a, b], [2, 3], strict=True))
def ms11_reversed_list_of_tensors(a, b):
    return list(reversed([a, b]))[0] * 2 + a
def ms11_round_and_int_of_floats(a, b):
    return a * round(2.6) + b * int(-3.7) + float("1.5")
def ms11_bit_ops_on_ints(a, b):
    return a * (6 & 3) + b * (4 | 1) + (5 ^ 1) + (1 << 3) + (-16 >> 2)
def ms11_tuple_of_slices(a, b):
    m = torch.stack([a, b])
    return m[(slice(None), slice(1, None))].sum(0) + m[..., 0]
def ms11_none_index_unsqueeze(a, b):
    return (a[None, :] * b[:, None]).sum(0)
def ms11_bool_mask_index(a, b):
    return a[a > 0].sum() + b
def ms11_tensor_item_in_branch_breaks(a, b):
    if a.sum().item() > 100:
        return a
    return a + b


class _CountingModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.register_buffer("total", torch.zeros(3))

    def forward(self, x, scale=1.0):
        self.calls += 1
        return x * scale + self.total


_COUNTING = _CountingModule()
_SEQ_DICT = nn.Sequential(collections.OrderedDict([("act", nn.Tanh()), ("scale", _Scale(2.0))]))
_PARAM_LIST = nn.ParameterList([nn.Parameter(torch.tensor([1.0, 2.0, 3.0])), nn.Parameter(torch.tensor([0.5, 0.5, 0.5]))])


def md11_module_attribute_counter(a, b):
    before = _COUNTING.calls
    out = _COUNTING(a, scale=2.0)
    return out * (_COUNTING.calls - before) + b
def md11_module_kwargs_call(a, b):
    return _COUNTING(x=a) + _COUNTING(b, 0.5)
def md11_sequential_named_access(a, b):
    return _SEQ_DICT.act(a) + _SEQ_DICT.scale(b) + _SEQ_DICT(a)
def md11_parameter_list_sum(a, b):
    return sum(p * a for p in _PARAM_LIST) + _PARAM_LIST[1] * b
def md11_parameter_list_len_index(a, b):
    return a * len(_PARAM_LIST) + _PARAM_LIST[-1].detach() * b
def md11_module_apply_functional_with_buffer(a, b):
    return F.linear(a.unsqueeze(0), torch.diag(_COUNTING.total + 1)).squeeze(0) + b
def md11_named_buffers_dict(a, b):
    bufs = dict(_COUNTING.named_buffers())
    return a + bufs["total"] * b
def md11_modules_of_type(a, b):
    n = sum(1 for m in _SEQ_DICT.modules() if isinstance(m, _Scale))
    return a * n + b


class _Slotted:
    __slots__ = ("k",)

    def __init__(self, k):
        self.k = k


_SLOTTED = _Slotted(3)
def ms11_slots_member_read(a, b):
    return a * _SLOTTED.k + b
def ms11_slots_object_made_in_frame(a, b):
    s = _Slotted(2)
    s.k = s.k * 3
    return a * s.k + b
def ms11_set_of_tensors(a, b):
    return a * len({a, b, a}) + b
def ms11_cmath_sqrt(a, b):
    import cmath  # (an import in the frame)
    return a * abs(cmath.sqrt(-4)) + b
'''

DYNAMIC_SRC = r'''
import math


def dy11_arange_of_size_times(a, b):
    return a * torch.arange(a.shape[0]) + b
def dy11_view_minus_one(a, b):
    return a.view(-1, 1).sum(1) + b
def dy11_cat_then_narrow(a, b):
    return torch.cat([a, b]).narrow(0, a.shape[0], b.shape[0]) * a
def dy11_zeros_of_size_plus(a, b):
    return torch.zeros(a.size(0)) + a * b
def dy11_size_float_division(a, b):
    return a / a.shape[0] + b * (a.shape[0] / 2)
def dy11_slice_half(a, b):
    n = a.shape[0] // 2
    return a[:n].sum() + b
def dy11_last_element(a, b):
    return a[-1] * b + a[a.shape[0] - 1]
def dy11_pad_to_plus_one(a, b):
    return F.pad(a, (0, 1))[: a.shape[0]] + b
def dy11_eye_diag(a, b):
    return torch.eye(a.shape[0]) @ a + b
def dy11_outer_sum_rows(a, b):
    return torch.outer(a, b).sum(0) / a.shape[0]
def dy11_topk_one(a, b):
    return a.topk(1).values * b
def dy11_sort_values(a, b):
    return a.sort().values + b.sort(descending=True).values
def dy11_softmax_dim0(a, b):
    return F.softmax(a, 0) * b.shape[0]
def dy11_cumsum_mean(a, b):
    return a.cumsum(0).mean() + b
def dy11_size_comparison_branch(a, b):
    if a.shape[0] > 4:
        return a * 2 + b
    return a - b
def dy11_numel_in_math(a, b):
    return a * math.sqrt(a.numel()) + b
def dy11_stack_and_transpose(a, b):
    return torch.stack([a, b]).t().sum(1)
def dy11_repeat_interleave_fixed(a, b):
    return a.repeat_interleave(2)[::2] + b
def dy11_shape_in_python_range(a, b):
    out = a
    for i in range(2):
        out = out + b * i
    return out * a.shape[0]
def dy11_where_size_scalar(a, b):
    return torch.where(a > 0, a, 0.5 * a.shape[0]) + b
def dy11_roll_by_one(a, b):
    return a.roll(1) - b
def dy11_size_as_tensor(a, b):
    return a * torch.tensor(a.shape[0]) + b
def dy11_chunk_two(a, b):
    parts = torch.cat([a, b]).chunk(2)
    return parts[0] * parts[1]
def dy11_expand_as(a, b):
    return a.sum().expand_as(b) + b
def dy11_sum_keepdim_broadcast(a, b):
    return a - a.sum(0, keepdim=True) / a.shape[0] + b
def dy11_clone_index_set(a, b):
    c = a.clone()
    c[0] = b[-1]
    return c
def dy11_flatten_unflatten(a, b):
    return torch.stack([a, b]).flatten().unflatten(0, (2, a.shape[0])).sum(0)
def dy11_linspace_of_size(a, b):
    return torch.linspace(0, 1, a.shape[0]) * a + b
def dy11_mean_over_size_equals(a, b):
    return a * (a.mean() * a.shape[0] - a.sum()).abs().lt(1e-3) + b
def dy11_new_ones_of_size(a, b):
    return a.new_ones(a.shape) * b + a
def dy11_argsort_gather(a, b):
    return a.gather(0, a.argsort()) + b
def dy11_max_of_size_and_int(a, b):
    return a * min(a.shape[0], 4) + b
def dy11_matmul_self(a, b):
    return a.unsqueeze(1) @ b.unsqueeze(0) @ a
def dy11_cat_three(a, b):
    return torch.cat([a, b, a]).view(3, -1).prod(0)
def dy11_sub_size_minus_one(a, b):
    return a[1:] - b[:-1]
def dy11_empty_fill_size(a, b):
    return torch.empty(a.shape[0]).fill_(1.5) * a + b
def dy11_tensor_split_three(a, b):
    return sum(p.sum() for p in a.tensor_split(3)) + b
def dy11_layer_norm_dynamic(a, b):
    return F.layer_norm(a, a.shape) + b
def dy11_where_fill_with_size(a, b):
    return torch.where(a > 0, a, torch.full_like(a, a.shape[0])) + b
def dy11_full_of_size_value(a, b):
    return torch.full((2,), a.shape[0]).sum() * a + b
def dy11_fill_with_size(a, b):
    return torch.ones_like(a).fill_(b.shape[0]) * a
def dy11_new_full_size_value(a, b):
    return a.new_full((a.shape[0],), a.shape[0] / 2) - b
def dy11_masked_fill_size(a, b):
    return a.masked_fill(b > 0, a.shape[0]) + b
def dy11_clamp_by_size(a, b):
    return a.clamp(max=a.shape[0] - 2) + b
def dy11_pow_size(a, b):
    return a.abs().pow(1 / a.shape[0]) + b
def dy11_isclose_shapes(a, b):
    return torch.isclose(a, a + 1e-9).float() * b
def dy11_add_alpha_size(a, b):
    return torch.add(a, b, alpha=a.shape[0])
def dy11_sum_of_halves(a, b):
    n = a.shape[0]
    return a[: n // 2].sum() + a[n // 2:].sum() + b
def dy11_gather_last_index(a, b):
    return a.gather(0, torch.full((a.shape[0],), a.shape[0] - 1)) * b
def dy11_index_by_arange_reverse(a, b):
    return a[torch.arange(a.shape[0] - 1, -1, -1)] + b
def dy11_cat_zeros_size(a, b):
    return torch.cat([a, torch.zeros(b.shape[0])]).view(2, -1).sum(0)
def dy11_scatter_into_zeros(a, b):
    return torch.zeros(a.shape[0]).scatter(0, torch.arange(a.shape[0]), b) * a
def dy11_cumprod_scaled(a, b):
    return (a / a.shape[0]).cumprod(0) + b
def dy11_matmul_ones_of_size(a, b):
    return torch.ones(a.shape[0], a.shape[0]) @ a * b
def dy11_size_list_to_tensor(a, b):
    return a * torch.tensor([a.shape[0], b.shape[0]]).sum() + b
def dy11_triu_of_outer(a, b):
    return torch.outer(a, b).triu().sum(1)
def dy11_lerp_by_size(a, b):
    return torch.lerp(a, b, 1.0 / a.shape[0])
def dy11_float_of_size_in_math(a, b):
    return a * math.log(float(a.shape[0])) + b
'''

RECOMPILE_SRC = r'''
_TABLE = {"k": 1}


class _Obj:
    def __init__(self, k):
        self.k = k


def rc11_int_changes_each_call(x, k):
    return x * k
def rc11_list_contents_change(x, ks):
    return x * ks[0] + ks[-1]
def rc11_set_size_changes(x, s):
    return x * len(s)
def rc11_dict_keys_change(x, d):
    return x * len(d) + sum(d.values())
def rc11_object_attr_type_changes(x, obj):
    return x * obj.k
def rc11_bool_then_none(x, flag):
    return x * 2 if flag else x
def rc11_global_table_written(x, k):
    _TABLE["k"] = _TABLE["k"] + k
    return x * k
def rc11_contiguous_vs_transposed(x, k):
    return x.sum(0) * k
def rc11_float_then_int(x, k):
    return x * k + 1
def rc11_string_in_tuple(x, t):
    return x * len(t[0]) + t[1] if t[0] == "a" else x - t[1]
def rc11_int_used_as_slice_end(x, k):
    return x[:k].sum() + k
def rc11_int_as_range_bound(x, k):
    out = x
    for i in range(k):
        out = out + i
    return out
def rc11_int_in_reshape(x, k):
    return x.reshape(k, -1).sum(0)
'''
