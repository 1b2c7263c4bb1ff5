"""The twelfth batch of Dynamo-style programs, first half: test/dynamo/test_functions.py's make_test one-liners not
taken before (starred unpacking, tuple and list comparisons, dict.update from pairs and zips, number methods,
defaultdict/OrderedDict construction, sorted with keys, set algebra, f-strings of shapes, callable(), globals and
closures), test_misc.py (tensor attributes read as Python values, dtype and device queries, torch.Size arithmetic)
and test_ctx_manager.py (no_grad/enable_grad/set_grad_enabled nested and as decorators). Each program takes two (3,)
float tensors `a`, `b`; test_dynamo_tests_ported_9on.py runs it under torch.compile and minitorch2.compile and
compares values and (frames, ops, graph breaks). Our own programs; the names given to exec are `torch`, `nn`, `F` and
`dynamo`.
"""

PORTED_SRC = r'''
import collections, functools, itertools, math, operator


_FLAG = True
_SCALE = 3
_CONST_LIST = [1, 2, 3]


def _minus_plus(a, b):
    return a - b + (1.0 + 2)
def _with_default(a, b, use=True):
    if use:
        return a - b
    return a + b


# ---- make_test one-liners of test_functions.py
def fn12_unpack_star_tail(a, b):
    out = (a, a + 1, b, b + 2)
    first, second, *rest = out
    return first - second / rest[0] + rest[1]
def fn12_unpack_star_head(a, b):
    *head, c, d = (a, a + 1, b, b + 2)
    return c - d / head[0] + head[1]
def fn12_unpack_star_middle(a, b):
    first, *mid, last = (a, b, a * b, b - 1)
    return first - last / mid[0] + mid[1]
def fn12_const_tuple_concat_empty(a, b):
    t = () + (a, a + 1, b) + ()
    return t[1] + t[2]
def fn12_const_tuple_concat_none(a, b):
    t = (None,) + (a, b, a + b) + (None,)
    return t[2] * t[3]
def fn12_tuple_iadd(a, b):
    out = (a, b)
    out += (a + b, a - b)
    return out
def fn12_tuple_compare_polyfill(a, b):
    x = a
    for p, q, c in [((1, 2), (1, 2), 0.5), ((1, 4), (1, 2), 0.25), ((1,), (1, 2), 2.0), ((2, -1), (1, 5), 1.5)]:
        if p != q:
            x = x + c
        if p < q:
            x = x * c
        if p >= q:
            x = x - c
    return x + b
def fn12_list_compare(a, b):
    if [1, 2, 3] < [1, 2, 4] and [2] > [1, 9] and [1, 2] <= [1, 2]:
        return a + b
    return a - b
def fn12_list_truth_empty(a, b):
    tmp = []
    if tmp:
        return a + b
    return a - b
def fn12_not_list_of_tensor(a, b):
    return not [a + 1], b * 2
def fn12_reversed_list_next(a, b):
    tmp = [a + 1, a + 2, b + 3]
    return a + next(iter(reversed(tmp)))
def fn12_sorted_tuples_by_key(a, b):
    rows = [("x", 3, 0.5), ("y", 1, 1.5), ("z", 2, 2.5)]
    order = sorted(rows, key=lambda r: r[1], reverse=True)
    return a * order[0][2] + b * order[-1][2]
def fn12_sorted_dict_keys(a, b):
    d = {4: "p", 1: "q", 3: "r"}
    return a + sorted(d)[0] + sorted(d, reverse=True)[0] * b
def fn12_dict_update_pairs_and_zip(a, b):
    d = {"p": a, "q": b}
    d.update({"p": b - 1})
    d.update([("q", a + 1), ["r", a]])
    d.update(zip("pq", [a + 3, b + 2]))
    return d["p"] * d["q"] + d["r"]
def fn12_ordered_dict_update_kwargs(a, b):
    od = collections.OrderedDict(p=a * 3, q=b + 2)
    od.update({"p": b + 5})
    od.update(q=a - 1)
    return od["p"] * od["q"]
def fn12_dict_update_kwargs(a, b):
    d = {"p": 2}
    d.update(q=4)
    return a * d["p"] * d["q"] + b
def fn12_dict_fromkeys_variants(a, b):
    keys = ["p", "q"]
    d = dict.fromkeys(keys)
    d1 = dict.fromkeys(d, a + 1)
    d2 = collections.OrderedDict.fromkeys(tuple(keys), b)
    return d1["p"] * d2["q"] + d1["q"] + (0 if d["p"] is None else 1)
def fn12_dict_copy_then_mutate(a, b):
    d1 = dict([("p", a), ("q", a + 1)])
    d2 = d1.copy()
    d2["p"] = b - 5
    return d1["p"] * d2["p"] + d2["q"]
def fn12_call_dict_from_iter(a, b):
    pairs = iter([("p", a), ("q", b + 1), ("r", a + 2)])
    d1 = dict(pairs)
    d1["p"] = a + 10
    return d1["p"] + d1["r"] * b
def fn12_ordered_dict_from_dict(a, b):
    d1 = {"x": a}
    d2 = collections.OrderedDict(d1)
    if isinstance(d2, collections.OrderedDict):
        return a + b
    return a - b
def fn12_dict_setdefault_none(a, b):
    d = {"p": 1}
    d.setdefault("q")
    if d["q"] is None:
        return a + b
    return a - b
def fn12_defaultdict_fromkeys_setdefault(a, b):
    d = collections.defaultdict.fromkeys("p", "s")
    d["p"] = 1
    d.setdefault("q", 10)
    return a * d["q"] + b * d["p"]
def fn12_dict_keys_view_membership(a, b):
    d = {3: a}
    keys = d.keys()
    d[4] = b + 1
    return a * (4 in keys) + b * (5 in keys) + ({3: 1, 4: 2}.keys() == keys)
def fn12_dict_values_len_live(a, b):
    d = {3: a}
    values = d.values()
    d[4] = b + 2
    return a * len(values) + b
def fn12_dict_ops_pop_get(a, b):
    tmp = {"p": a + 1, "q": b + 2}
    v = tmp.pop("q") + tmp.get("p") + tmp.get("missing", 3) + tmp.pop("missing", 4)
    tmp["r"] = v
    return tmp["r"] - tmp["p"] + len(tmp)
def fn12_min_max_of_sums(a, b):
    c = a + b
    x = min(max(a.sum(), 0), 1)
    y = max(0, min(1, b.sum()))
    return max(x, y) - min(x, y) + c
def fn12_sum_with_start_kwarg(a, b):
    return sum([b, a * 2, b * 3], start=a)
def fn12_sum_of_map_lambda(a, b):
    return sum(map(lambda t: t + 1, [a, b, a * b]))
def fn12_reduce_with_initial(a, b):
    return functools.reduce(operator.mul, [b, b + 1], a)
def fn12_tuple_contains_str(a, b):
    vals = ("p", "q", "r")
    if "p" in vals and "s" not in vals:
        return a + b
    return a - b
def fn12_set_from_starred_lists(a, b):
    x = ["p", "q", "p"]
    y = ["r", "q"]
    if len({*x, *y}) == 3:
        return a + b
    return a - b
def fn12_set_algebra(a, b):
    s1 = {"p", "q", "r"}
    s2 = {"s", "t", "p"}
    both = s1.intersection(s2)
    either = s1.union(s2)
    only = s1.difference(s2)
    return a * len(both) + b * len(either) - len(only) + ("p" in both)
def fn12_set_isdisjoint_symmetric(a, b):
    s1, s2 = {1, 2, 3}, {3, 4}
    k = len(s1.symmetric_difference(s2))
    return a * k if not s1.isdisjoint(s2) else b
def fn12_fstring_of_float(a, b):
    x = 1.229
    s = f"{x:.2f} units"
    if s.startswith("1.23"):
        return a + b
    return a - b
def fn12_fstring_of_shape(a, b):
    s = f"{a.shape[0]} wide"
    if "3" in s + "!":
        return a + 1
    return b
def fn12_fstring_of_class_name(a, b):
    s = f"{a.__class__.__name__} x"
    if s.startswith("Tensor"):
        return a + b
    return a - b
def fn12_callable_builtins(a, b):
    if callable(sum) and callable(torch.abs) and callable(lambda t: t) and not callable(3):
        return a + b
    return a - b
def fn12_global_flag_and_scale(a, b):
    if _FLAG:
        return a * _SCALE + b
    return a
def fn12_global_list_len(a, b):
    return a + len(_CONST_LIST) * b
def fn12_helper_with_kwargs_swapped(a, b):
    return _minus_plus(a=b, b=a) + 1
def fn12_helper_with_default_arg(a, b):
    return _with_default(a, b) * _with_default(a, b, use=False)
def fn12_indirect_method_star(a, b):
    t = a.sub
    args = (b,)
    kwargs = {}
    return t(*args, **kwargs)
def fn12_cat_kwargs_dict(a, b):
    kwargs = {"tensors": (a, b), "dim": 0}
    return torch.cat(**kwargs)
def fn12_cat_star_args(a, b):
    args = [(a, b)]
    return torch.cat(*args, **{"dim": 0})
def fn12_list_index_by_tensor(a, b):
    items = [a, b, a + 1, b + 1]
    return items[torch.as_tensor(2)]
def fn12_str_startswith_module(a, b):
    x = a + b
    if "abcdef".startswith("abc") and "dynamo" not in _minus_plus.__name__:
        x = x + 1
    return x
def fn12_funcdef_closure_nonlocal(a, b):
    x = a + b + 1.0
    y = b
    def inner(z):
        nonlocal x, y
        y = x + z + 20.0
        x = y + z + 10.0
    inner(2.0)
    inner(3.0)
    return x, y
def fn12_del_locals(a, b):
    c = a + 1
    d = c + 2
    del c, a
    return b + d
def fn12_float_from_string(a, b):
    y = float(1.5)
    y += float("2.5")
    return a + y + b
def fn12_int_methods(a, b):
    n = 12
    return a * n.bit_length() + b * (n.conjugate() + sum(n.as_integer_ratio()))
def fn12_float_methods(a, b):
    f = 2.5
    num, den = f.as_integer_ratio()
    return a * num / den + b * (1 if (3.0).is_integer() else 0)
def fn12_namedtuple_defaults(a, b):
    Row = collections.namedtuple("Row", ["x", "y", "xy"], defaults=(None, 1, None))
    r = Row(a, xy=b)
    return Row(r.x, r[1], r.xy + b)
def fn12_namedtuple_replace_asdict(a, b):
    P = collections.namedtuple("P", "x y")
    p = P(a, b)._replace(y=a * 2)
    d = p._asdict()
    return d["x"] + d["y"] + len(P._fields)
def fn12_deque_ops(a, b):
    d = collections.deque([a, b])
    d.append(a + 1)
    d.appendleft(b - 1)
    last = d.pop()
    d.rotate(1)
    return list(d), last
def fn12_deque_mutated_after_break(a, b):
    d = collections.deque([a, b])
    d.rotate(1)
    d.append(a * 2)
    d.appendleft(b * 2)
    first = d.popleft()
    return list(d), first
def fn12_deque_maxlen_after_break(a, b):
    d = collections.deque([a, b], maxlen=3)
    d.rotate(1)
    d.append(a * 2)
    d.append(b * 2)
    first = d.popleft()
    return list(d), first
def fn12_islice_of_chain(a, b):
    t1 = [a + 1, a + 2]
    t2 = [b + 3, b + 4]
    x, y = list(itertools.islice(itertools.chain(t1, t2), 1, 3))
    return x - y / next(itertools.islice(t1, 1, None))
def fn12_itertools_accumulate(a, b):
    return list(itertools.accumulate([a, b, a * b]))[-1]
def fn12_itertools_pairwise(a, b):
    out = a
    for p, q in itertools.pairwise([a, b, a + b]):
        out = out + p * q
    return out
def fn12_zip_strict_lists(a, b):
    return [x * y for x, y in zip([a, b], [2, 3], strict=True)]
def fn12_enumerate_start(a, b):
    out = b
    for i, t in enumerate([a, b], start=2):
        out = out + t * i
    return out


# ---- tensor attributes and queries (test_misc.py)
def ms12_element_size_branch(a, b):
    if a.element_size() > 1:
        return a + a.element_size(), b - a.element_size()
    return a, b
def ms12_ndim_dim_ndimension(a, b):
    if a.ndim == 1 and a.ndimension() == 1 and a.dim() == 1:
        return a + b
    return a - b
def ms12_is_floating_point_both_forms(a, b):
    y = a + 1
    return torch.is_floating_point(y), torch.is_floating_point(input=b), y
def ms12_promote_types(a, b):
    if a.dtype == torch.promote_types(torch.int32, torch.float32):
        return a + b
    return a - b
def ms12_default_dtype(a, b):
    if a.dtype == torch.get_default_dtype():
        return a + 1
    return b - 1
def ms12_is_complex_both_forms(a, b):
    if torch.is_complex(a) or b.is_complex():
        return a - b
    return a + b
def ms12_is_sparse_quantized(a, b):
    if not a.is_sparse and not b.is_quantized:
        return a * b
    return a
def ms12_device_type_cpu(a, b):
    if a.device.type == "cpu" and not a.is_cuda:
        return a + b
    return a
def ms12_size_add_tuple(a, b):
    s = a.size() + (1,)
    return a.view(s).squeeze(-1) * len(s) + b
def ms12_size_index_and_numel(a, b):
    s = a.shape
    return a * s[0] + b * s.numel() + a.numel()
def ms12_size_hasattr_fields(a, b):
    if hasattr(a.shape, "_fields"):
        return a + 1
    return b - 1
def ms12_dtype_itemsize_and_flags(a, b):
    dt = a.dtype
    return a * dt.itemsize + b * dt.is_floating_point + (not dt.is_complex)
def ms12_finfo_eps_tiny(a, b):
    fi = torch.finfo(a.dtype)
    return a + fi.eps * 1e6 + b * (fi.bits == 32)
def ms12_iinfo_bits_max(a, b):
    ii = torch.iinfo(torch.int16)
    return a * ii.bits + b * (ii.max > 100)
def ms12_ones_like_T(a, b):
    return torch.ones_like(a.unsqueeze(0).T) + b
def ms12_mT_of_matrix(a, b):
    m = torch.outer(a, b)
    return m.mT.sum(0) - m.sum(1)
def ms12_tensor_type_string(a, b):
    m = a.to(torch.float64)
    return b.type(m.type())
def ms12_new_with_size(a, b):
    z = a.new_empty(b.size()).fill_(2.0)
    return z * b
def ms12_stride_and_contiguous(a, b):
    m = torch.outer(a, b)
    t = m.t()
    return a * t.stride(0) + b * t.is_contiguous() + t.contiguous().sum(0)
def ms12_requires_grad_query(a, b):
    if a.requires_grad:
        return a - b
    return a + b
def ms12_tensor_len_and_dunder(a, b):
    return a + b + len(a) + b.__len__()
def ms12_range_of_size(a, b):
    return torch.tensor(range(a.size(0))) * a + b
def ms12_chunks_assert(a, b):
    x = torch.cat([a, b])
    assert x.shape[0] % 3 == 0
    return x[:3] - x[3:]
def ms12_data_ptr_free_clone(a, b):
    c = a.clone()
    c.add_(b)
    return c, a
def ms12_item_of_reduction_in_math(a, b):
    s = (a * 0 + 2).sum().item()
    return a * math.sqrt(s) + b


# ---- grad modes (test_ctx_manager.py)
def cm12_no_grad_nested_enable(a, b):
    with torch.no_grad():
        x = a * 2
        with torch.enable_grad():
            y = b * 3
        z = x + y
    return z + torch.is_grad_enabled()
def cm12_set_grad_enabled_false(a, b):
    with torch.set_grad_enabled(False):
        c = a + b
    return c * 2
def cm12_set_grad_enabled_call(a, b):
    prev = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    c = a * b
    torch.set_grad_enabled(prev)
    return c + 1
def cm12_no_grad_decorated_helper(a, b):
    @torch.no_grad()
    def helper(x):
        return x.sin()
    return helper(a) + b
def cm12_inference_mode_false(a, b):
    with torch.inference_mode(False):
        return a * b + 1
def cm12_grad_mode_in_loop(a, b):
    out = a
    for i in range(2):
        with torch.no_grad():
            out = out + b * i
    return out
def cm12_no_grad_early_return(a, b):
    with torch.no_grad():
        if a.sum() > 100:
            return a
        c = a - b
    return c * 2
'''
