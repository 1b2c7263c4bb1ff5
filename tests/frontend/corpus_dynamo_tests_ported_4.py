"""A fourth batch of programs in the style of Dynamo's own tests (test/dynamo/test_misc.py, test_functions.py,
test_repros.py, test_ctx_manager.py, test_generator.py, test_recompiles.py), aimed at what the first three batches
left out: generators with yield from (and its return value), closures writing nonlocals, globals written and read
later in the frame, dataclasses (replace, order, __post_init__) and enums (auto, Flag, str mixins, methods), sets and
frozensets, str methods and format specs, sorted/reversed/zip/enumerate with keys, dict views and dict mutation in
the frame, class attributes and classmethods, tensor properties, grad mode switched inside the frame, indexing with
lists, bool masks, None and Ellipsis, __setitem__ and in-place ops on views of intermediates, manual_seed and rand,
.item() and .tolist(), graph breaks inside loops and nested calls, breaks at non-call instructions (a subscript, a
comparison, an f-string or an attribute store on a user object whose dunder breaks: Dynamo resumes from the last
checkpoint), and torch._dynamo.disable / allow_in_graph / graph_break.

Our own programs, not copies of corpus_dynamo_tests_ported*.py nor corpus_dynamo_style*.py. Each PORTED program is a
function of two (3,) float tensors `a`, `b`; test_dynamo_tests_ported_4.py runs it under torch.compile and
minitorch2.compile with a CompileCounter and compares values, frame_count, op_count and the graph-break count.
RECOMPILE_SRC holds programs called several times with changing dtypes, shapes and Python constants. The names given
to exec are `torch` (minitorch2 or torch), `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import dataclasses, enum, operator


# ---- generators and yield from
def _running(xs):
    total = 0
    for x in xs:
        total = total + x
        yield total
def gn4_running_sum_generator(a, b):
    sums = list(_running([a, b, a * b]))
    return sums[-1] - sums[0]
def _evens(n):
    for i in range(0, n, 2):
        yield i
def _evens_then_range(n):
    yield from _evens(n)
    yield from range(3)
def gn4_yield_from_two_sources(a, b):
    return a * sum(_evens_then_range(6)) + b
def gn4_next_on_two_generators(a, b):
    g1, g2 = _evens(10), _evens(10)
    next(g1)
    x, y = next(g1), next(g2)
    return a * x + b * y + next(g1, -1)
def gn4_generator_over_stacked_rows(a, b):
    return sum(row * row for row in torch.stack([a, b]))
def _naturals():
    n = 0
    while True:
        yield n
        n += 1
def gn4_infinite_generator_break(a, b):
    out = a
    for n in _naturals():
        if n >= 3:
            break
        out = out + b * n
    return out
def gn4_sorted_generator_reverse(a, b):
    lengths = sorted((len(s) for s in ["aaa", "b", "cc"]), reverse=True)
    return a * lengths[0] + b * lengths[-1]
def gn4_dict_from_generator_of_pairs(a, b):
    d = dict((k, t * 2) for k, t in zip("xy", [a, b]))
    return d["x"] - d["y"]
def gn4_unpack_generator(a, b):
    x, y = (t.sin() for t in (a, b))
    return x * y
def _tensors_gen(a, b):
    yield a
    yield from (b * k for k in (2, 3))
def gn4_yield_from_generator_expression(a, b):
    return torch.stack(list(_tensors_gen(a, b))).sum(0)


# ---- closures writing nonlocals
def cl4_nonlocal_tensor_accumulator(a, b):
    acc = a
    def add(t):
        nonlocal acc
        acc = acc + t
    add(b)
    add(b * 2)
    return acc
def cl4_two_independent_counters(a, b):
    def make():
        count = 0
        def step():
            nonlocal count
            count += 1
            return count
        return step
    s1, s2 = make(), make()
    s1(); s1(); s2()
    return a * s1() + b * s2()
def cl4_nonlocal_swap(a, b):
    x, y = a, b
    def swap():
        nonlocal x, y
        x, y = y, x
    swap()
    return x - y
def cl4_nonlocal_write_then_graph_break(a, b):
    scale = 1
    def bump():
        nonlocal scale
        scale = scale * 3
    bump()
    dynamo.graph_break()
    return a * scale + b
def cl4_lambdas_with_default_bound_loop_var(a, b):
    fns = [lambda x, k=k: x * k for k in range(1, 4)]
    return sum(f(a) for f in fns) + b
def cl4_nonlocal_list_rebound_in_loop(a, b):
    items = []
    def push(t):
        nonlocal items
        items = items + [t]
    for t in (a, b, a - b):
        push(t.relu())
    return torch.cat(items)


# ---- globals written, read later in the frame
_G4_SCALE = 1
_G4_LOG = []
_G4_TABLE = {"k": 1}
def gl4_global_rebound_then_read(a, b):
    global _G4_SCALE
    _G4_SCALE = 4
    out = a * _G4_SCALE
    _G4_SCALE = 1
    return out + b
def gl4_global_list_append_then_len(a, b):
    _G4_LOG.append("x")
    _G4_LOG.append("y")
    n = len(_G4_LOG)
    _G4_LOG.clear()
    return a * n + b
def gl4_global_dict_update_then_get(a, b):
    _G4_TABLE.update(k=5, j=2)
    out = a * _G4_TABLE["k"] + b * _G4_TABLE.get("j", 0)
    del _G4_TABLE["j"]
    _G4_TABLE["k"] = 1
    return out
def _set_scale_global(v):
    global _G4_SCALE
    _G4_SCALE = v
def gl4_global_written_by_helper(a, b):
    _set_scale_global(7)
    out = b * _G4_SCALE
    _set_scale_global(1)
    return a + out


# ---- dataclasses and enums
@dataclasses.dataclass
class _Cfg4:
    scale: float = 2.0
    shift: int = 1
def dc4_dataclass_replace(a, b):
    c = dataclasses.replace(_Cfg4(), shift=3)
    return a * c.scale + c.shift + b
@dataclasses.dataclass
class _Pair4:
    x: int
    y: int
def dc4_dataclass_equality(a, b):
    same = _Pair4(1, 2) == _Pair4(1, 2)
    diff = _Pair4(1, 2) != _Pair4(2, 1)
    return a * same + b * diff
@dataclasses.dataclass(order=True)
class _Version4:
    major: int
    minor: int
def dc4_dataclass_order(a, b):
    return a if _Version4(1, 2) < _Version4(1, 10) else b
@dataclasses.dataclass
class _Scaled4:
    base: float
    double: float = dataclasses.field(init=False)
    def __post_init__(self):
        self.double = self.base * 2
def dc4_dataclass_post_init(a, b):
    s = _Scaled4(1.5)
    return a * s.double + b * s.base
@dataclasses.dataclass
class _Holder4:
    t: object
    k: int = 2
def dc4_dataclass_field_mutated_in_frame(a, b):
    h = _Holder4(a)
    h.t = h.t * h.k + b
    h.k += 1
    return h.t * h.k
class _Color4(enum.Enum):
    RED = enum.auto()
    GREEN = enum.auto()
def en4_enum_auto_values(a, b):
    return a * _Color4.RED.value + b * _Color4.GREEN.value
class _Perm4(enum.Flag):
    R = 1
    W = 2
    X = 4
def en4_flag_combination(a, b):
    p = _Perm4.R | _Perm4.W
    return a * (_Perm4.W in p) + b * (_Perm4.X in p)
class _Act4(enum.Enum):
    DOUBLE = 2
    HALF = 3
    def apply(self, t):
        return t * 2 if self is _Act4.DOUBLE else t / 2
def en4_enum_method(a, b):
    return _Act4.DOUBLE.apply(a) + _Act4.HALF.apply(b)
class _Mode4(str, enum.Enum):
    TRAIN = "train"
    EVAL = "eval"
def en4_str_enum_compares_to_string(a, b):
    return a + b if _Mode4.TRAIN == "train" else a - b


# ---- sets and frozensets
def se4_set_from_shape_union(a, b):
    s = set(a.shape) | {5}
    return a * len(s) + b * max(s)
def se4_set_difference_update(a, b):
    s = {1, 2, 3, 4}
    s.difference_update({2, 4})
    s.add(7)
    return a * sum(s) + b * len(s)
def se4_frozenset_union_sorted(a, b):
    f = frozenset([3, 1]) | frozenset([2])
    out = a
    for i in sorted(f):
        out = out * i + b
    return out
def se4_set_from_dict_values(a, b):
    d = {"x": 1, "y": 2, "z": 1}
    vals = {v for v in d.values()}
    return a * len(vals) + b
def se4_frozenset_issuperset_isdisjoint(a, b):
    f = frozenset({1, 2, 3})
    return a * f.issuperset({1, 2}) + b * f.isdisjoint({4, 5})
def se4_set_of_strings_membership_loop(a, b):
    seen = set()
    out = a
    for w in ["sin", "cos", "sin", "tanh"]:
        if w not in seen:
            seen.add(w)
            out = out + getattr(torch, w)(b)
    return out


# ---- str methods and formatting
def st4_format_spec_alignment(a, b):
    s = f"{3:>5}|{'x':<3}|{2.5:08.3f}"
    return a * len(s) + b * s.count(" ")
def st4_format_with_mapping(a, b):
    d = {"n": 2, "m": "ab"}
    s = "{n}-{m}".format(**d)
    return a * len(s) + b
def st4_splitlines_strip(a, b):
    lines = " one \ntwo\n three ".splitlines()
    return a * len([ln.strip() for ln in lines if ln.strip()]) + b * len(lines[0].strip())
def st4_swapcase_casefold(a, b):
    s = "AbC"
    return a * (s.swapcase() == "aBc") + b * (s.casefold() == "abc")
def st4_string_built_in_loop(a, b):
    s = ""
    for i in range(1, 4):
        s += str(i)
    return a * int(s) + b
def st4_rsplit_maxsplit_and_join(a, b):
    parts = "a.b.c.d".rsplit(".", 1)
    return a * len(parts[0]) + b * len("-".join(parts))
def st4_str_of_float_and_int_conversion(a, b):
    return a * float("2.5") + b * int("12", 8)
def st4_removeprefix_removesuffix(a, b):
    name = "layer_norm_weight".removeprefix("layer_").removesuffix("_weight")
    return a * len(name) + b


# ---- sorted / reversed / zip / enumerate with keys
def ks4_sorted_by_two_level_key(a, b):
    rows = [("b", 2), ("a", 2), ("c", 1)]
    order = sorted(rows, key=lambda r: (r[1], r[0]))
    return a * order[0][1] + b * len(order[-1][0])
def ks4_sorted_with_itemgetter(a, b):
    rows = [(3, a), (1, b), (2, a * b)]
    return sorted(rows, key=operator.itemgetter(0))[0][1]
def ks4_reversed_enumerate(a, b):
    out = a * 0
    for i, t in reversed(list(enumerate([a, b, a + b]))):
        out = out * 2 + t * i
    return out
def ks4_zip_keys_values(a, b):
    d = {"p": a, "q": b}
    out = a * 0
    for k, v in zip(d.keys(), d.values()):
        out = out + v * len(k)
    return out
def ks4_sorted_strings_key_lower(a, b):
    names = sorted(["beta", "Alpha", "gamma"], key=str.lower)
    return a * len(names[0]) + b * names.index("gamma")
def ks4_min_max_key_on_tuples(a, b):
    pairs = [(1, 5), (3, 2), (2, 9)]
    lo = min(pairs, key=lambda p: p[1])
    hi = max(pairs, key=lambda p: p[1])
    return a * lo[0] + b * hi[0]
def ks4_enumerate_zip_with_start(a, b):
    out = a
    for i, (x, y) in enumerate(zip([a, b], [b, a]), 1):
        out = out + x * y * i
    return out


# ---- dict views and mutation in the frame
def dm4_keys_view_after_delete(a, b):
    d = {"x": 1, "y": 2, "z": 3}
    ks = d.keys()
    del d["x"]
    return a * len(ks) + b * ("x" in ks)
def dm4_items_view_after_update(a, b):
    d = {"x": a}
    items = d.items()
    d.update({"y": b})
    return sum(v for _, v in items)
def dm4_pop_while_iterating_copy(a, b):
    d = {"p": a, "q": b, "r": a * b}
    for k in list(d):
        if k != "q":
            d.pop(k)
    return d["q"] * len(d)
def dm4_update_from_pairs(a, b):
    d = {"a": 1}
    d.update([("b", 2), ("c", 3)])
    return a * sum(d.values()) + b * len(d)
def dm4_setdefault_list_append(a, b):
    groups = {}
    for name, t in [("x", a), ("y", b), ("x", b)]:
        groups.setdefault(name, []).append(t)
    return torch.stack(groups["x"]).sum(0) * len(groups["y"])
def dm4_popitem_then_reinsert(a, b):
    d = {"x": a, "y": b}
    k, v = d.popitem()
    d[k + k] = v * 2
    return d["x"] + d["yy"]
def dm4_nested_dict_mutation(a, b):
    cfg = {"inner": {"k": 1}}
    cfg["inner"]["k"] += 2
    cfg["inner"]["t"] = b
    return a * cfg["inner"]["k"] + cfg["inner"]["t"]
def dm4_dict_of_tensors_returned(a, b):
    d = {"sum": a + b}
    d["prod"] = a * b
    d.pop("sum")
    return d


# ---- class attributes and classmethods
class _Registry4:
    count = 0
    @classmethod
    def bump(cls):
        cls.count += 1
        return cls.count
def ca4_classmethod_mutates_class_attribute(a, b):
    _Registry4.count = 0
    _Registry4.bump()
    n = _Registry4.bump()
    return a * n + b * _Registry4.count
class _Point4:
    dims = 2
    def __init__(self, x, y):
        self.x, self.y = x, y
    @classmethod
    def from_pair(cls, pair):
        return cls(*pair)
    @staticmethod
    def norm2(x, y):
        return x * x + y * y
    @classmethod
    def unit_norm(cls):
        return cls.norm2(1, 0)
def ca4_classmethod_alternate_constructor(a, b):
    p = _Point4.from_pair((a, b))
    return p.x * _Point4.dims - p.y
def ca4_staticmethod_from_classmethod(a, b):
    return a * _Point4.unit_norm() + _Point4.norm2(a, b)
class _Base4:
    factor = 2
    def scale(self, t):
        return t * self.factor
class _Child4(_Base4):
    factor = 5
def ca4_class_attribute_overridden_in_subclass(a, b):
    return _Child4().scale(a) + _Base4().scale(b) + type(_Child4()).factor
class _Lookup4:
    table = {"relu": 1, "tanh": 2}
def ca4_class_level_dict_lookup(a, b):
    return a * _Lookup4.table["tanh"] + b * _Lookup4().table.get("relu")


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
