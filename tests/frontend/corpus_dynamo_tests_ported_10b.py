"""The tenth batch of Dynamo-style programs goes on: test/dynamo/test_modules.py (modules with fixed parameters and
buffers, their iterators and named dicts, training flags, Sequential indexing, forward and forward-pre hooks),
test_model_output.py (dataclasses with defaults and fields(), namedtuples as results), test_autograd_function.py
(Functions with ctx attributes, Python-number arguments, several outputs, used inside modules), test_misc.py and
test_repros.py (small shapes of code users hit), DYNAMIC_SRC (test_dynamic_shapes: programs run with dynamic=True on
inputs whose length changes between calls) and RECOMPILE_SRC (test_recompiles.py and test_guard_manager.py: guards
on Python values, object attributes and containers that change between calls). The calls are in
test_dynamo_tests_ported_9on.py. Our own programs; the names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import collections, dataclasses, functools, math, operator


# ---- modules with fixed parameters (test_modules.py)
class _Affine(nn.Module):
    def __init__(self, w, c):
        super().__init__()
        self.w = nn.Parameter(torch.tensor(w))
        self.register_buffer("c", torch.tensor(c))

    def forward(self, x):
        return x * self.w + self.c


class _Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = _Affine([1.0, 2.0, 3.0], [0.5, 0.5, 0.5])
        self.second = _Affine([-1.0, 0.5, 2.0], [1.0, 0.0, -1.0])
        self.calls = 0

    def forward(self, x):
        return self.second(self.first(x).relu())


class _Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2.0

    def forward(self, x):
        return x * self.scale if self.training else x / self.scale


_STACK = _Stack()
_SEQ = nn.Sequential(_Affine([1.0, 1.0, 2.0], [0.0, 1.0, 0.0]), nn.Tanh(), _Affine([0.5, 2.0, 1.0], [0.0, 0.0, 1.0]))
_EVAL = _Counter().eval()
_TRAIN = _Counter()
_HOOKED = _Affine([1.0, -1.0, 2.0], [0.0, 0.0, 0.5])
_HOOKED.register_forward_hook(lambda mod, inputs, out: out * 2)
_PRE_HOOKED = _Affine([0.5, 0.5, 0.5], [1.0, 1.0, 1.0])
_PRE_HOOKED.register_forward_pre_hook(lambda mod, inputs: (inputs[0] + 1,))


def md10_nested_submodules(a, b):
    return _STACK(a) + b
def md10_parameters_sum(a, b):
    return a * sum(p.sum() for p in _STACK.parameters()) + b
def md10_named_parameters_names(a, b):
    names = [n for n, _ in _STACK.named_parameters()]
    return a * len(names) + b * names[0].startswith("first")
def md10_buffers_iterated(a, b):
    return sum(buf for buf in _STACK.buffers()) * a + b
def md10_named_children_order(a, b):
    out = a
    for name, child in _STACK.named_children():
        out = child(out) if name == "second" else out
    return out + b
def md10_modules_count(a, b):
    return a * len(list(_STACK.modules())) + b
def md10_sequential_index_and_slice(a, b):
    return _SEQ[0](a) + _SEQ[1:](b)
def md10_sequential_len_and_call(a, b):
    return _SEQ(a) * len(_SEQ) + b
def md10_eval_flag_branch(a, b):
    return _EVAL(a) + _TRAIN(b)
def md10_training_attribute_read(a, b):
    return a * _EVAL.training + b * _TRAIN.training
def md10_module_attribute_float(a, b):
    return a * _TRAIN.scale + b
def md10_parameter_data_arith(a, b):
    return a * _STACK.first.w.data + b
def md10_state_dict_keys(a, b):
    return a * len(_STACK.first.state_dict()) + b
def md10_isinstance_of_module(a, b):
    return a * isinstance(_SEQ[1], nn.Tanh) + b * isinstance(_STACK, nn.Sequential)
def md10_module_called_in_loop(a, b):
    out = a
    for _ in range(3):
        out = _STACK.first(out)
    return out - b
def md10_functional_linear_with_param(a, b):
    return F.linear(a, torch.outer(_STACK.first.w, _STACK.second.w)) + b
def md10_getattr_submodule_by_name(a, b):
    return getattr(_STACK, "second")(a) * b
def md10_forward_hook_changes_output(a, b):
    return _HOOKED(a) + b
def md10_forward_pre_hook_changes_input(a, b):
    return _PRE_HOOKED(a) * b
def md10_numel_of_trainable_parameters(a, b):
    return a * sum(p.numel() for p in _STACK.parameters() if p.requires_grad) + b
def md10_named_parameters_into_dict(a, b):
    out = {name: p * a for name, p in _STACK.named_parameters()}
    return out["first.w"] + out["second.w"] * b
def md10_named_modules_as_dict(a, b):
    return a * len(dict(_STACK.named_modules())) + b
def md10_parameters_to_vector(a, b):
    return nn.utils.parameters_to_vector(_STACK.parameters()).sum() * a + b
def md10_children_as_list(a, b):
    mods = list(_SEQ.children())
    return mods[-1](mods[0](a)) + b


# ---- model outputs (test_model_output.py)
@dataclasses.dataclass
class _Out:
    logits: object
    loss: object = None
    extra: int = 3


_Pair = collections.namedtuple("_Pair", ["lo", "hi"], defaults=[None])


def mo10_dataclass_defaults(a, b):
    out = _Out(a * 2)
    return out.logits + b * out.extra
def mo10_dataclass_field_names(a, b):
    names = [f.name for f in dataclasses.fields(_Out)]
    return a * len(names) + b * (names[1] == "loss")
def mo10_dataclass_set_attribute(a, b):
    out = _Out(a)
    out.loss = (a - b).abs().sum()
    return out.logits * out.loss
def mo10_dataclass_replace(a, b):
    out = dataclasses.replace(_Out(a, b), extra=5)
    return out.logits * out.extra + out.loss
def mo10_dataclass_returned(a, b):
    return _Out(a + b, a * b).loss
def mo10_dataclass_equality(a, b):
    return a * (_Out(1, 2) == _Out(1, 2)) + b * (_Out(1) == _Out(2))
def mo10_namedtuple_defaults(a, b):
    p = _Pair(a)
    return p.lo * (p.hi is None) + b
def mo10_namedtuple_asdict(a, b):
    d = _Pair(a, b)._asdict()
    return d["lo"] - d["hi"] * len(d)
def mo10_namedtuple_index_and_len(a, b):
    p = _Pair(a, b)
    return p[0] * len(p) + p[-1]


# ---- autograd.Function (test_autograd_function.py)
class _Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x * x


class _ScaleBy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


class _TwoOuts(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y, x - y

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 + g2, g1 - g2


class _CubeModule(nn.Module):
    def forward(self, x):
        return _Cube.apply(x) + 1


_CUBE = _CubeModule()


def af10_cube_forward(a, b):
    return _Cube.apply(a) + b
def af10_scale_by_python_number(a, b):
    return _ScaleBy.apply(a, 2.5) + _ScaleBy.apply(b, 3)
def af10_two_outputs(a, b):
    s, d = _TwoOuts.apply(a, b)
    return s * d
def af10_function_inside_module(a, b):
    return _CUBE(a) * b
def af10_function_applied_twice(a, b):
    return _Cube.apply(_Cube.apply(a)) + b
def af10_function_in_helper(a, b):
    def helper(x):
        return _ScaleBy.apply(x, 0.5)
    return helper(a) + helper(b)
def af10_function_result_then_ops(a, b):
    return _Cube.apply(a).sum() * b


# ---- misc (test_misc.py)
def ms10_tensor_is_floating_point(a, b):
    return a * a.is_floating_point() + b * a.is_complex()
def ms10_dtype_itemsize_and_name(a, b):
    return a * a.element_size() + b * (str(a.dtype) == "torch.float32")
def ms10_clone_then_inplace(a, b):
    c = a.clone()
    c.mul_(2).add_(b)
    return c + a
def ms10_view_inplace_changes_base(a, b):
    m = torch.stack([a, b])
    m[0].zero_()
    return m.sum(0)
def ms10_t_of_matrix_and_contiguous(a, b):
    m = torch.stack([a, b]).t().contiguous()
    return m.sum(1) * m.is_contiguous()
def ms10_new_tensor_methods(a, b):
    return a.new_zeros(3) + a.new_full((3,), 2.0) * b
def ms10_type_as_and_to(a, b):
    return (a * 10).to(torch.int64).type_as(b) + b
def ms10_chained_comparisons(a, b):
    return ((a > -1) & (a < 1)).float() + b
def ms10_max_with_indices(a, b):
    values, idx = torch.stack([a, b]).max(dim=0)
    return values + idx
def ms10_sort_values_indices(a, b):
    s = a.sort(descending=True)
    return s.values * 2 + s.indices
def ms10_topk_named_fields(a, b):
    t = torch.cat([a, b]).topk(3)
    return t.values - t.indices
def ms10_einsum_dot(a, b):
    return torch.einsum("i,i->", a, b) * a
def ms10_clamp_min_max_methods(a, b):
    return a.clamp(min=-0.5) + b.clamp(max=0.5)
def ms10_sign_abs_rebuild(a, b):
    return a.sign() * a.abs() - a + b
def ms10_shape_index_negative(a, b):
    return a * a.shape[-1] + b * a.ndim
def ms10_tensor_list_of_lists(a, b):
    return a * torch.tensor([[1.0, 2.0, 3.0]])[0] + b
def ms10_lerp_and_addcmul(a, b):
    return torch.lerp(a, b, 0.25) + torch.addcmul(a, a, b, value=0.5)
def ms10_logical_ops(a, b):
    return torch.logical_and(a > 0, b > 0).float() + torch.logical_not(a > 0).float()


# ---- repros (test_repros.py)
def _normalize(x, eps=1e-5):
    return (x - x.mean()) / (x.std() + eps)


def rp10_normalize_helper(a, b):
    return _normalize(a) + _normalize(b, eps=1e-3)
def rp10_accumulate_in_dict_loop(a, b):
    acc = collections.defaultdict(lambda: 0)
    for k, t in (("x", a), ("y", b), ("x", b)):
        acc[k] = acc[k] + t
    return acc["x"] * acc["y"]
def rp10_list_of_results_stacked(a, b):
    outs = []
    for k in range(3):
        outs.append(a * k + b)
    return torch.stack(outs).sum(0)
def rp10_masked_fill_where(a, b):
    return a.masked_fill(a < 0, 0.0) + torch.where(b > 0, b, torch.zeros_like(b))
def rp10_gather_with_argsort(a, b):
    idx = a.argsort()
    return a.gather(0, idx) + b[idx]
def rp10_softplus_by_hand(a, b):
    return torch.log1p(torch.exp(-a.abs())) + a.clamp(min=0) + b
def rp10_index_put_bool(a, b):
    c = a.clone()
    c[b > 0] = 1.0
    return c
def rp10_cross_entropy_manual(a, b):
    logits = torch.stack([a, b])
    return -(logits.log_softmax(0)[0]).mean() + b
def rp10_scatter_add_counts(a, b):
    idx = torch.tensor([0, 1, 0])
    return torch.zeros(3).scatter_add(0, idx, a) + b
def rp10_repeat_interleave(a, b):
    return a.repeat_interleave(2)[:3] + b
def rp10_python_max_of_tensor_sums(a, b):
    return max(a.sum(), b.sum()) * a
def rp10_tensor_bool_in_if_breaks(a, b):
    if (a.sum() > b.sum()):
        return a - b
    return b - a
'''

DYNAMIC_SRC = r'''
import math


def dy10_size_times_two_view(a, b):
    return torch.cat([a, b]).view(2, a.shape[0]).sum(0)
def dy10_full_of_size(a, b):
    return torch.full((a.shape[0],), 2.0) * a + b
def dy10_ones_like_plus_size(a, b):
    return torch.ones_like(a) * a.size(0) + b
def dy10_linspace_steps_from_size(a, b):
    return a * torch.arange(a.shape[0]).float() / a.shape[0] + b
def dy10_flip_and_cumprod(a, b):
    return a.flip(0).cumprod(0) + b
def dy10_sum_over_numel(a, b):
    return a.sum() / a.numel() + b
def dy10_index_select_reverse(a, b):
    idx = torch.arange(a.shape[0] - 1, -1, -1)
    return a.index_select(0, idx) * b
def dy10_size_in_python_list(a, b):
    sizes = [a.shape[0], b.shape[0]]
    return a * sum(sizes) + b
def dy10_unbind_first(a, b):
    return a.unbind(0)[0] * b
def dy10_split_sizes_from_size(a, b):
    n = a.shape[0]
    x, y = torch.cat([a, b]).split([n, n])
    return x - y
def dy10_size_modulo(a, b):
    return a * (a.shape[0] % 2 + 1) + b
def dy10_reshape_to_pairs(a, b):
    return torch.stack([a, b], 1).reshape(-1).view(a.shape[0], 2).sum(1)
def dy10_cumsum_divided_by_positions(a, b):
    return a.cumsum(0) / torch.arange(1, a.shape[0] + 1) + b
def dy10_dot_over_size(a, b):
    return a * (a.dot(b) / a.shape[0])
def dy10_mean_and_var(a, b):
    return (a - a.mean()) / (a.var() + 1) + b
def dy10_max_size_of_two(a, b):
    return a * max(a.shape[0], b.shape[0]) + b
def dy10_size_eq_other(a, b):
    return a * (a.shape[0] == b.shape[0]) + b
def dy10_tensor_new_empty_size(a, b):
    return a.new_empty(a.shape).fill_(1.0) + b
def dy10_matrix_from_outer_diag(a, b):
    return torch.outer(a, b).diagonal() + a
def dy10_eye_of_size(a, b):
    return (torch.eye(a.shape[0]) @ a) + b
def dy10_tril_sum(a, b):
    return torch.outer(a, b).tril().sum(0)
def dy10_layer_norm(a, b):
    return F.layer_norm(a, a.shape) + b
def dy10_normalize_p2(a, b):
    return F.normalize(a, dim=0) * b
def dy10_conv_free_window_sum(a, b):
    return a[1:] + a[:-1] + b[1:]
def dy10_prod_over_shape(a, b):
    return a * math.prod(a.shape) + b
def dy10_size_int_to_float(a, b):
    return a * float(a.shape[0]) + b
def dy10_log_softmax(a, b):
    return F.log_softmax(a, dim=-1) + b
def dy10_where_size_index(a, b):
    return torch.where(torch.arange(a.shape[0]) < 2, a, b)
def dy10_stack_three(a, b):
    return torch.stack([a, b, a * b]).amax(0)
def dy10_diff_by_hand(a, b):
    return torch.cat([a[:1], a[1:] - a[:-1]]) + b
def dy10_unsqueeze_matmul(a, b):
    return (a.unsqueeze(1) @ b.unsqueeze(0)).sum(0)
def dy10_expand_as_and_add(a, b):
    return a.sum().expand_as(b) + b
def dy10_sort_by_values(a, b):
    return a.sort().values + b.sort(descending=True).values
def dy10_size_neg_slice(a, b):
    return torch.cat([a[-2:], a[:-2]]) + b
def dy10_clamp_by_size(a, b):
    return a.clamp(max=a.shape[0] / 4) + b
def dy10_argmax_as_float(a, b):
    return a * a.argmax().float() + b
def dy10_zeros_new_shape_tuple(a, b):
    return torch.zeros(b.shape) + torch.zeros(tuple(a.shape)) + a * b
def dy10_nonzero_free_mask_sum(a, b):
    return (a > 0).sum() * a + b
def dy10_sum_of_shape(a, b):
    return a * sum(a.shape) + b
def dy10_sum_of_sizes_and_int(a, b):
    return a * sum((a.shape[0], 2, b.shape[0])) - b
def dy10_sum_of_generator_of_sizes(a, b):
    return a * sum(t.shape[0] for t in (a, b)) + b
def dy10_size_list_appended_in_loop(a, b):
    sizes = []
    for t in (a, b):
        sizes.append(t.size(0))
    return a * sum(sizes) + b * len(sizes)
def dy10_hasattr_and_size(a, b):
    return a * a.shape[0] * hasattr(a, "shape") + b
def dy10_view_as_rows(a, b):
    return torch.cat([a, b]).view(2, -1).mean(0)
def dy10_index_with_size_minus_two(a, b):
    return a[a.shape[0] - 2] * b
def dy10_min_of_sizes(a, b):
    return a[: min(a.shape[0], 2)].sum() + b
def dy10_floor_div_size_arange(a, b):
    return torch.arange(a.shape[0] // 2 + 1).sum() * a + b
def dy10_size_times_float_scalar(a, b):
    return a * (a.shape[0] * 0.5) + b
def dy10_tensor_split_three(a, b):
    return sum(p.sum() for p in torch.cat([a, b, a]).tensor_split(3)) * b
def dy10_masked_select_free_where(a, b):
    return torch.where(a > b, a - b, b - a).sum() / a.shape[0] + a
'''

RECOMPILE_SRC = r'''
_STATE = {"k": 1}


class _Cfg:
    def __init__(self, k):
        self.k = k


def rc10_float_arg_changes(x, f):
    return x * f
def rc10_string_key_selects(x, key):
    return {"sin": x.sin(), "cos": x.cos()}[key]
def rc10_tuple_length_changes(x, t):
    return x * len(t) + sum(t)
def rc10_dict_value_changes(x, d):
    return x * d["k"]
def rc10_none_or_int(x, k):
    return x if k is None else x * k
def rc10_object_attribute_mutated(x, cfg):
    return x + cfg.k
def rc10_global_dict_read(x, k):
    _STATE["k"] = k
    return x * _STATE["k"]
def rc10_shape_rank_changes(x, k):
    return x.sum(-1) * k
'''
