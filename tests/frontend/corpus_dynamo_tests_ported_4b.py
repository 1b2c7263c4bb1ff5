"""The second half of the fourth batch of programs in the style of Dynamo's own tests (the first half:
corpus_dynamo_tests_ported_4.py, whose docstring says what the batch aims at): tensor properties, grad mode switched
inside the frame, indexing with lists, bool masks, None and Ellipsis, stores and in-place ops through views of
intermediates, manual_seed and rand, .item() and .tolist(), graph breaks in loops and nested calls, breaks at
non-call instructions, torch._dynamo.disable / allow_in_graph / graph_break, the match statement; and RECOMPILE_SRC,
programs called several times with changing dtypes, shapes and Python constants (the calls are in
test_dynamo_tests_ported_4.py). Our own programs; the names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import dataclasses


@dataclasses.dataclass
class _Pair4:  # (a match class pattern reads its __match_args__: x, y)
    x: int
    y: int


# ---- tensor properties
def tp4_is_floating_point_branch(a, b):
    return a * 2 if a.is_floating_point() and not b.is_complex() else b
def tp4_requires_grad_branch(a, b):
    return a.sin() if not a.requires_grad else a.cos() + b
def tp4_dtype_queries(a, b):
    return a * a.dtype.is_floating_point + b * (a.dtype == torch.float32) + a.dtype.itemsize
def tp4_device_type_compare(a, b):
    return a + b if a.device.type == "cpu" and b.device == a.device else a - b
def tp4_shape_ndim_arith(a, b):
    m = a.reshape(a.shape[0], 1).expand(a.shape[0], a.ndim * 2)
    return m + b[: m.shape[-1] - 1].sum()
def tp4_shape_as_list_concat(a, b):
    dims = list(a.shape) + [1]
    return a.reshape(dims) * b.reshape(*dims)
def tp4_transpose_property(a, b):
    m = torch.stack([a, b])
    return m.T.sum(1) + m.mT.shape[0]


# ---- grad mode inside the frame
def gm4_no_grad_block_result_flag(a, b):
    with torch.no_grad():
        c = a * 2
    return c + b, c.requires_grad
def gm4_enable_grad_inside_no_grad(a, b):
    with torch.no_grad():
        with torch.enable_grad():
            on = torch.is_grad_enabled()
        off = torch.is_grad_enabled()
    return a * on + b * off
def gm4_set_grad_enabled_block(a, b):
    with torch.set_grad_enabled(False):
        c = a + b
        flag = torch.is_grad_enabled()
    return c * 2 + flag
def gm4_set_grad_enabled_as_function(a, b):
    torch.set_grad_enabled(False)
    c = a * b
    torch.set_grad_enabled(True)
    return c + torch.is_grad_enabled()
def gm4_no_grad_around_graph_break(a, b):
    with torch.no_grad():
        c = a.cos()
        dynamo.graph_break()
        d = c * b
    return d + torch.is_grad_enabled()


# ---- indexing and stores through views
def ix4_index_with_list(a, b):
    return a[[0, 2]] + b[[2, 0]]
def ix4_index_with_none_and_ellipsis(a, b):
    return a[None, ...] * b[..., None]
def ix4_bool_mask_select(a, b):
    return a[a > 0].sum() + b
def ix4_setitem_through_view(a, b):
    c = a.clone()
    v = c[1:]
    v[0] = 5.0
    return c + b
def ix4_setitem_with_mask(a, b):
    c = a.clone()
    c[c < 0] = 0.0
    return c * b
def ix4_setitem_with_list_index(a, b):
    c = a * 1
    c[[0, 2]] = b[[0, 2]]
    return c
def ix4_inplace_on_view_of_intermediate(a, b):
    c = a * 2
    c[:2].add_(b[:2])
    return c
def ix4_inplace_mul_on_reshaped_view(a, b):
    c = a + b
    c.view(3, 1).mul_(3)
    return c
def ix4_index_with_long_tensor(a, b):
    return a[torch.tensor([2, 0])] * b[:2]
def ix4_two_d_mixed_index(a, b):
    m = torch.stack([a, b, a * b])
    return m[1, ::2].sum() + m[:, [0, 2]].sum(0) + m[..., -1][:2]


# ---- manual_seed and rand
def rn4_manual_seed_then_rand(a, b):
    torch.manual_seed(0)
    r = torch.rand(3)
    return a + (r >= 0).float() + b
def rn4_rand_like_bounds(a, b):
    r = torch.rand_like(a)
    return a * (r < 1).to(a.dtype) + b


# ---- .item() and .tolist()
def it4_item_then_multiply(a, b):
    s = a.sum().item()
    return b * s
def it4_tolist_then_index(a, b):
    vals = a.tolist()
    return b * vals[0] + len(vals)
def it4_item_in_branch(a, b):
    if (a * b).max().item() > 100:
        return a
    return b - a


# ---- graph breaks in loops and nested calls
def _inner_break4(x):
    y = x + 1
    dynamo.graph_break()
    return y * 2
def _outer_break4(x):
    return _inner_break4(x.sin()) - 1
def gb4_break_two_calls_deep(a, b):
    return _outer_break4(a) + b
def gb4_break_in_loop_over_dict_items(a, b):
    out = a
    for k, v in {"x": 1, "y": 2}.items():
        out = out + b * v
        dynamo.graph_break()
    return out
def _pair_with_break4(x):
    dynamo.graph_break()
    return x.cos(), x.sin()
def gb4_break_in_helper_returning_tuple(a, b):
    c, s = _pair_with_break4(a + b)
    return c * s
def gb4_break_in_loop_collecting_list(a, b):
    outs = []
    for i in range(3):
        outs.append(a * i)
        if i == 1:
            dynamo.graph_break()
    return torch.stack(outs).sum(0) + b
def gb4_print_in_helper(a, b):
    def log(t):
        print("value")
        return t
    return log(a + 1) * b
def gb4_break_after_return_values_in_helper(a, b):
    def compute(x):
        y = x * 3
        dynamo.graph_break()
        return y, y.sum()
    y, s = compute(a)
    return y + s + b


# ---- breaks at non-call instructions
class _Breaky4:
    def __getitem__(self, i):
        dynamo.graph_break()
        return i * 2
    def __eq__(self, other):
        dynamo.graph_break()
        return True
    def __str__(self):
        dynamo.graph_break()
        return "brk"
    __hash__ = object.__hash__
class _Sink4:
    @property
    def v(self):
        return self._v
    @v.setter
    def v(self, x):
        dynamo.graph_break()
        self._v = x
def nc4_break_at_binary_subscr(a, b):
    c = a + 1
    k = _Breaky4()[3]
    return c * k + b
def nc4_break_at_compare_op(a, b):
    c = a * 2
    same = _Breaky4() == 1
    return c + b if same else c - b
def nc4_break_at_fstring(a, b):
    c = a.cos()
    s = f"{_Breaky4()}!"
    return c * len(s) + b
def nc4_break_at_store_attr(a, b):
    c = a.exp()
    sink = _Sink4()
    sink.v = 3
    return c * sink.v + b


class _Ordered4:
    def __init__(self, k):
        self.k = k
    def __lt__(self, other):
        dynamo.graph_break()
        return self.k < other
class _Named4:
    def __init__(self, name):
        self.name = name
    def __str__(self):
        return self.name.upper()
    def __repr__(self):
        return f"_Named4({self.name!r})"
_NAMED4 = _Named4("ab")
def nc4_break_at_less_than(a, b):
    c = a * 3
    d = c - 1
    if _Ordered4(2) < 3:
        return d + b
    return d - b
def nc4_fstring_of_user_str_and_repr(a, b):
    n = _NAMED4
    return a * (f"{n}" == "AB") + b * (f"{n!r}" == "_Named4('ab')")
def nc4_break_at_store_attr_after_two_ops(a, b):
    c = a.exp() + 1
    d = c * b
    sink = _Sink4()
    sink.v = 2
    return d * sink.v


# ---- disable, allow_in_graph, graph_break
@dynamo.disable
def _eager_only4(x):
    return x * 2
def dz4_disable_decorated_helper(a, b):
    return _eager_only4(a + 1) + b
def _plain4(x):
    return x.relu()
def dz4_disable_applied_at_call(a, b):
    return dynamo.disable(_plain4)(a) * b
def _fused4(x, y):
    return x * y + y
_fused4.__module__ = 'ported4'  # exec gives it no module, which FX's code printer needs
_ALLOWED4 = dynamo.allow_in_graph(_fused4)
def dz4_allow_in_graph_helper(a, b):
    return _ALLOWED4(a.sin(), b) + 1
def dz4_two_explicit_breaks_in_loop(a, b):
    out = a
    for _ in range(2):
        out = out * b
        dynamo.graph_break()
    return out
class _Model4:
    def __init__(self):
        self.k = 3
    @dynamo.disable
    def eager_step(self, x):
        return x * self.k
    def run(self, x):
        return self.eager_step(x) + x
def dz4_disable_on_method(a, b):
    return _Model4().run(a) - b


# ---- miscellany from test_misc / test_repros
def mi4_chained_comparison_of_ints(a, b):
    n = a.shape[0]
    return a if 1 < n <= 3 else b
def mi4_walrus_in_condition(a, b):
    if (n := len([a, b])) > 1:
        return a * n
    return b
def mi4_match_on_tuple(a, b):
    match (1, "x"):
        case (1, name):
            return a * len(name) + b
        case _:
            return b
def mi4_match_mapping_pattern(a, b):
    match {"scale": 3, "mode": "add"}:
        case {"scale": k, "mode": "mul"}:
            return a * k
        case {"scale": k, "mode": "add"}:
            return a + k + b
    return b
def mi4_match_class_pattern_on_dataclass(a, b):
    match _Pair4(2, 5):
        case _Pair4(1, y):
            return a * y
        case _Pair4(x, y=5):
            return a * x + b
    return b
def mi4_match_shape_with_star(a, b):
    match [a.shape[0], 4, 5]:
        case [n, *rest] if n == 3:
            return a * len(rest) + b
        case _:
            return a
def mi4_match_builtin_class_and_or(a, b):
    for item in (2, "x", 1.5):
        match item:
            case int(n) | float(n):
                a = a * n
            case str():
                a = a + b
    return a
def mi4_star_into_cat(a, b):
    xs = [a, b]
    return torch.cat([*xs, a * b]) + torch.stack((*xs,)).sum()
def mi4_for_else(a, b):
    for i in range(3):
        if i == 5:
            break
    else:
        return a + b
    return a - b
def mi4_getattr_torch_and_tensor_by_name(a, b):
    return getattr(torch, "tanh")(a) + getattr(b, "cos")()
def mi4_tensor_method_through_class(a, b):
    return torch.Tensor.add(a, b) * torch.Tensor.neg(b)
def mi4_type_of_tensor_checks(a, b):
    return a * isinstance(b, torch.Tensor) + b * (type(a) is torch.Tensor)
def mi4_assert_on_shape(a, b):
    assert a.shape == b.shape, "shapes differ"
    return a - b
def mi4_return_tuple_with_numbers(a, b):
    return a + b, 3, 2.5
'''

RECOMPILE_SRC = r'''
def rc4_dtype_changes(a, k):
    return a * k + 1
def rc4_shape_changes_three_times(a, k):
    return a.sum() * k + a
def rc4_string_constant_changes(a, mode):
    return a.relu() if mode.startswith("r") else a.sin()
def rc4_list_length_changes(a, ks):
    out = a
    for k in ks:
        out = out * k
    return out
def rc4_dtype_argument(a, dtype):
    return a.to(dtype) * 2
def rc4_none_then_int(a, k):
    return a if k is None else a * k
'''
