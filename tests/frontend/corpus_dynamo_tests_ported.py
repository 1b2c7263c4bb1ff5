"""Programs written in the style of Dynamo's own tests (test_functions.py's `@make_test` functions, test_misc.py,
test_repros.py, test_list.py, test_dicts.py, test_sets.py, test_generator.py): small functions of two (3,) float
tensors `a`, `b` that reach for math, operator, itertools, functools, collections, dataclasses, enum and typing,
string formatting, dict views and set algebra, key functions, closures and nonlocal, default and forwarded
arguments, user classes (properties, __getattr__, __call__, class- and staticmethods, super()), tensor attributes,
tensor methods and torch functions with keywords, and graph breaks inside loops and with-blocks.

Our own programs, not copies; test_dynamo_tests_ported.py runs each through torch.compile and minitorch2.compile
under a CompileCounter and compares values, frame_count, op_count and the graph-break count. RECOMPILE_SRC holds
programs called several times with changing constants or shapes (the recompile count is compared too). The names
given to exec are `torch` (minitorch2 or torch), `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import collections, dataclasses, enum, functools, itertools, math, operator, typing

# ---- math and operator
def mo_math_constants(a, b):
    return a * math.pi + b * math.e - math.tau / 4
def mo_math_floor_ceil_trunc(a, b):
    return a * math.floor(2.7) + b * math.ceil(2.1) + math.trunc(-1.5)
def mo_math_gcd_isqrt_comb(a, b):
    return a * math.gcd(12, 18) + math.isqrt(17) + math.comb(5, 2) + math.perm(4, 2)
def mo_math_log_variants(a, b):
    return a * math.log2(8) + math.log10(100) + math.log(math.e ** 2) + math.log1p(0.0)
def mo_math_isclose_copysign(a, b):
    if math.isclose(0.1 + 0.2, 0.3) and math.copysign(2.0, -1.0) < 0:
        return a + b
    return a - b
def mo_math_hypot_degrees(a, b):
    return a * math.hypot(3, 4) + math.degrees(math.pi) / 180 + math.radians(180)
def mo_math_isfinite_isnan(a, b):
    vals = [1.0, float("inf"), float("nan")]
    return a * sum(1 for v in vals if math.isfinite(v)) + b * sum(1 for v in vals if math.isnan(v))
def mo_math_fmod_modf(a, b):
    frac, whole = math.modf(3.25)
    return a * math.fmod(7, 3) + b * frac + whole
def mo_operator_arith(a, b):
    return operator.sub(operator.mul(a, 3), operator.truediv(b, 2)) + operator.neg(a)
def mo_operator_contains_not(a, b):
    if operator.contains([1, 2, 3], 2) and operator.not_(0) and operator.truth(5):
        return operator.add(a, b)
    return a
def mo_operator_index_concat(a, b):
    xs = operator.concat([a], [b])
    return xs[operator.index(1)] * len(xs)
def mo_operator_setitem_delitem(a, b):
    d = {"x": a}
    operator.setitem(d, "y", b)
    operator.delitem(d, "x")
    return operator.getitem(d, "y") * 2
def mo_operator_itemgetter_multiple(a, b):
    get = operator.itemgetter(0, 2)
    first, third = get([a, b, a * b])
    return first + third
def mo_operator_attrgetter_dotted(a, b):
    return a * operator.attrgetter("shape.__len__")(a)() + b
def mo_operator_pow_matmul(a, b):
    return operator.pow(a, 2) + operator.matmul(a, b) + operator.mod(7, 4)
def mo_operator_comparisons_on_tensors(a, b):
    return operator.lt(a, b).float() + operator.ge(a, b).float() * 2
def mo_operator_bitwise_ints(a, b):
    return a * (operator.and_(6, 3) + operator.or_(4, 1) + operator.xor(5, 1) + operator.lshift(1, 2))
def mo_divmod_floor_negative(a, b):
    q, r = divmod(-7, 3)
    return a * q + b * r + (-7 // 2) + (-7 % 2)

# ---- itertools
def it_accumulate_default(a, b):
    return a * list(itertools.accumulate([1, 2, 3, 4]))[-1]
def it_accumulate_tensors(a, b):
    out = list(itertools.accumulate([a, b, a]))
    return out[-1] + out[0]
def it_accumulate_with_func(a, b):
    return a * list(itertools.accumulate([3, 1, 4, 1], max))[2]
def it_chain_of_tuples_and_lists(a, b):
    return sum(itertools.chain((a,), [b, a * 2], ()))
def it_product_of_ranges(a, b):
    total = a
    for i, j in itertools.product(range(2), range(3)):
        total = total + i * j
    return total
def it_combinations_with_replacement(a, b):
    return a * len(list(itertools.combinations_with_replacement("abc", 2)))
def it_permutations_of_tensors(a, b):
    out = a * 0
    for x, y in itertools.permutations([a, b], 2):
        out = out + x * 2 - y
    return out
def it_islice_start_stop(a, b):
    return sum(itertools.islice([a, b, a * 2, b * 2, a * 3], 1, 4))
def it_count_step(a, b):
    xs = []
    for n, t in zip(itertools.count(5, 2), [a, b]):
        xs.append(t * n)
    return xs[0] + xs[1]
def it_repeat_in_map(a, b):
    return sum(map(operator.mul, [a, b, a], itertools.repeat(2)))
def it_zip_longest_fill(a, b):
    out = a
    for x, y in itertools.zip_longest([1, 2, 3], [10], fillvalue=0):
        out = out + x * y
    return out
def it_groupby_with_key(a, b):
    words = ["apple", "avocado", "bean", "beet", "corn"]
    counts = [len(list(g)) for _, g in itertools.groupby(words, key=lambda w: w[0])]
    return a * counts[0] + b * counts[1] + counts[2]
def it_starmap_over_zip(a, b):
    return sum(itertools.starmap(lambda x, k: x * k, zip([a, b], [3, 4])))

# ---- functools
def _add3(x, y, z=1):
    return x + y * z
def ft_partial_keyword_override(a, b):
    p = functools.partial(_add3, z=2)
    return p(a, b) + p(a, b, z=3)
def ft_partial_attributes(a, b):
    p = functools.partial(_add3, a, z=5)
    return p(b) * len(p.args) + len(p.keywords)
def ft_reduce_tensors(a, b):
    return functools.reduce(torch.add, [a, b, a * b])
def ft_reduce_operator_mul(a, b):
    return a * functools.reduce(operator.mul, range(1, 5))
def ft_reduce_lambda_initial(a, b):
    return functools.reduce(lambda acc, t: acc * 2 + t, [a, b], a * 0)
def _square_cached_seen():
    return []
@functools.lru_cache(maxsize=None)
def _pow_cached(n):
    return 2 ** n
def ft_lru_cache_constant(a, b):
    return a * _pow_cached(3) + b * _pow_cached(2)
def _logged(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        return fn(*args, **kwargs) + 1
    return inner
@_logged
def _scaled(t, k=2):
    return t * k
def ft_wraps_forwarding_kwargs(a, b):
    return _scaled(a, k=3) + _scaled(b) + len(_scaled.__name__)
def ft_partial_of_torch_function(a, b):
    clamp01 = functools.partial(torch.clamp, min=-0.5, max=0.5)
    return clamp01(a) + clamp01(b * 2)
def ft_partial_of_lambda(a, b):
    f = functools.partial(lambda x, y, s: (x - y) * s, s=4)
    return f(a, b)
def ft_partial_method_of_tensor(a, b):
    f = functools.partial(a.add, alpha=2)
    return f(b)

# ---- collections
def co_ordereddict_iteration(a, b):
    d = collections.OrderedDict()
    d["second"] = b
    d["first"] = a
    return list(d.values())[0] * 2 + list(d.keys()).index("first")
def co_ordereddict_equality(a, b):
    x = collections.OrderedDict([("p", 1), ("q", 2)])
    y = collections.OrderedDict([("q", 2), ("p", 1)])
    return a + 1 if x != y and dict(x) == dict(y) else b
def co_defaultdict_list_append(a, b):
    groups = collections.defaultdict(list)
    for i, t in enumerate([a, b, a * 2, b * 2]):
        groups[i % 2].append(t)
    return sum(groups[0]) - sum(groups[1])
def co_defaultdict_lambda_factory(a, b):
    d = collections.defaultdict(lambda: 7)
    d["x"] += 1
    return a * d["x"] + b * d["y"]
def co_deque_maxlen(a, b):
    q = collections.deque(maxlen=2)
    for t in (a, b, a * 3):
        q.append(t)
    return q[0] + q[-1] + len(q)
def co_deque_appendleft_popleft(a, b):
    q = collections.deque([a])
    q.appendleft(b)
    first = q.popleft()
    return first * 2 + q.pop()
def co_namedtuple_fields_and_index(a, b):
    Pair = collections.namedtuple("Pair", ["left", "right"])
    p = Pair(a, right=b)
    return p.left * len(Pair._fields) + p[1] + p.count(None)
def co_namedtuple_defaults(a, b):
    Cfg = collections.namedtuple("Cfg", "scale shift", defaults=[1.0])
    c = Cfg(2.0)
    return a * c.scale + c.shift + b
def co_namedtuple_unpack_iterate(a, b):
    Pt = collections.namedtuple("Pt", "x y")
    x, y = Pt(a, b)
    return sum(Pt(x * 2, y * 3))
def co_counter_arith(a, b):
    c = collections.Counter("aab") + collections.Counter("abb")
    return a * c["a"] + b * c["b"]
def co_counter_keys_sorted(a, b):
    c = collections.Counter(["z", "y", "z"])
    return a * len(sorted(c)) + b * c["z"]
def co_chainmap_new_child(a, b):
    base = collections.ChainMap({"x": a})
    child = base.new_child({"y": b})
    return child["x"] + child["y"] * len(child.maps)

# ---- dataclasses, enum, typing
@dataclasses.dataclass
class _Point:
    x: float
    y: float = 2.0
    def norm1(self):
        return abs(self.x) + abs(self.y)
@dataclasses.dataclass(frozen=True)
class _Frozen:
    k: int
    name: str = "f"
@dataclasses.dataclass
class _WithFactory:
    items: list = dataclasses.field(default_factory=list)
def dt_dataclass_method_default(a, b):
    p = _Point(-3.0)
    return a * p.norm1() + b * p.y
def dt_dataclass_holding_tensors(a, b):
    p = _Point(a, b)
    p.x = p.x + 1
    return p.x * p.y
def dt_dataclass_astuple_asdict_constants(a, b):
    p = _Point(1.0, 4.0)
    return a * sum(dataclasses.astuple(p)) + b * len(dataclasses.asdict(p))
def dt_frozen_hash_in_set(a, b):
    s = {_Frozen(1), _Frozen(1), _Frozen(2)}
    return a * len(s)
def dt_field_default_factory(a, b):
    w = _WithFactory()
    w.items.append(a)
    w.items.append(b)
    return sum(w.items)
def dt_is_dataclass_fields(a, b):
    names = [f.name for f in dataclasses.fields(_Point)]
    return a * len(names) if dataclasses.is_dataclass(_Point) else b
class _Color(enum.Enum):
    RED = 1
    GREEN = 2
class _Level(enum.IntEnum):
    LOW = 1
    HIGH = 3
def en_enum_value_lookup(a, b):
    c = _Color(2)
    return a * c.value if c is _Color.GREEN else b
def en_enum_members_iteration(a, b):
    return a * sum(m.value for m in _Color) + len(_Color)
def en_intenum_compare_arith(a, b):
    return a * (_Level.HIGH - _Level.LOW) + b if _Level.HIGH > _Level.LOW else a
def en_enum_in_dict_key(a, b):
    scales = {_Color.RED: 2, _Color.GREEN: 5}
    return a * scales[_Color.RED] + b * scales[_Color.GREEN]
def en_enum_name_string(a, b):
    return a * len(_Color.RED.name) + b * len(_Color["GREEN"].name)
class _Shape(typing.NamedTuple):
    rows: int
    cols: int = 3
    def area(self):
        return self.rows * self.cols
def ty_typed_namedtuple_method(a, b):
    s = _Shape(2)
    return a * s.area() + b * s._replace(cols=5).cols
def ty_cast_and_optional(a, b):
    x: typing.Optional[int] = None
    y = typing.cast(int, 4)
    return a * y if x is None else b
def ty_annotated_locals(a, b):
    scale: float = 2.5
    items: typing.List[torch.Tensor] = [a, b]
    return sum(items) * scale

# ---- strings and formatting
def sf_fstring_numbers(a, b):
    s = f"{3:03d}-{2.5:.2f}-{'x':>3}"
    return a * len(s) + b
def sf_fstring_with_shape(a, b):
    tag = f"t{a.shape[0]}x{a.dim()}"
    return a * len(tag) if tag.startswith("t3") else b
def sf_format_method_named(a, b):
    s = "{name}:{val:.1f}".format(name="k", val=1.25)
    return a * len(s) + b
def sf_percent_tuple(a, b):
    s = "%s-%d-%.2f" % ("ab", 7, 0.5)
    return a * len(s)
def sf_string_methods(a, b):
    s = "  Hello_World  ".strip().lower().replace("_", " ")
    parts = s.split(" ")
    return a * len(parts) + b * len(parts[1]) + s.count("o") + int(s.endswith("world"))
def sf_join_and_contains(a, b):
    s = "-".join(str(i) for i in range(4))
    return a * len(s) if "2-3" in s else b
def sf_string_indexing_and_ord(a, b):
    s = "torch"
    return a * (ord(s[0]) - ord("a")) + len(s[::-1]) + s.find("r")
def sf_str_repr_of_numbers(a, b):
    return a * len(str(123) + repr(1.5) + str(True) + str(None))
def sf_string_compare_sorted(a, b):
    words = sorted(["pear", "apple", "fig"])
    return a * len(words[0]) if words[0] < words[1] else b
def sf_isdigit_zfill_upper(a, b):
    s = "7".zfill(3)
    return a * int(s) + len("abc".upper()) if s.isdigit() else b

# ---- dict views and set algebra
def dv_keys_set_ops(a, b):
    d1, d2 = {"x": 1, "y": 2}, {"y": 3, "z": 4}
    common = d1.keys() & d2.keys()
    union = d1.keys() | d2.keys()
    return a * len(common) + b * len(union)
def dv_items_contains(a, b):
    d = {"k": 1, "j": 2}
    return a + 1 if ("k", 1) in d.items() and ("j", 5) not in d.items() else b
def dv_values_of_tensors_summed(a, b):
    d = {"p": a, "q": b}
    return sum(d.values()) * 2
def dv_view_sees_later_insert(a, b):
    d = {"p": a}
    keys = d.keys()
    d["q"] = b
    return a * len(keys) + b * len(list(keys))
def dv_dict_comprehension_filter(a, b):
    d = {k: v for k, v in zip("abcd", range(4)) if v % 2}
    return a * sum(d.values()) + len(d)
def dv_dict_from_kwargs_and_update(a, b):
    d = dict(alpha=a, beta=b)
    d.update({"gamma": a * b}, delta=2)
    return d["gamma"] + d["alpha"] * d["delta"]
def dv_dict_pop_default_get(a, b):
    d = {"x": a}
    return d.pop("x") + d.pop("missing", b) + d.get("nope", 1)
def dv_dict_or_merge(a, b):
    d = {"x": a} | {"y": b}
    d |= {"x": b}
    return d["x"] * d["y"]
def dv_reversed_dict(a, b):
    d = {"first": a, "second": b}
    return d[next(iter(reversed(d)))] * 3
def dv_dict_keys_equality(a, b):
    return a * 2 if {"a": 1, "b": 2}.keys() == {"b", "a"} else b
def se_set_algebra(a, b):
    s, t = {1, 2, 3}, {3, 4}
    return a * len(s | t) + b * len(s & t) + len(s - t) + len(s ^ t)
def se_set_methods(a, b):
    s = set()
    s.add(3)
    s.update([4, 5])
    s.discard(9)
    s.remove(4)
    return a * len(s) + b * max(s)
def se_subset_superset_disjoint(a, b):
    s = {1, 2}
    if s.issubset({1, 2, 3}) and {1, 2, 3}.issuperset(s) and s.isdisjoint({7}):
        return a + b
    return a
def se_frozenset_membership(a, b):
    fs = frozenset(["relu", "gelu"])
    return a.relu() if "relu" in fs else b
def se_set_comprehension_sorted(a, b):
    s = {n % 3 for n in range(10)}
    return a * sum(sorted(s)) + len(s)
def se_set_of_strings_loop(a, b):
    out = a
    for name in sorted({"b", "a", "c"}):
        out = out * 2 if name == "a" else out + 1
    return out

# ---- sorted / reversed / zip / enumerate with key functions
def kf_sorted_by_item(a, b):
    pairs = sorted([("b", 2), ("a", 3), ("c", 1)], key=operator.itemgetter(1))
    return a * pairs[0][1] + b * pairs[-1][1]
def kf_sorted_tensors_by_index(a, b):
    ts = [b, a]
    order = sorted(range(len(ts)), key=lambda i: -i)
    return ts[order[0]] * 2 + ts[order[1]]
def kf_sorted_reverse_stable(a, b):
    words = sorted(["bb", "a", "cc", "d"], key=len, reverse=True)
    return a * len(words[0]) + b * len("".join(words))
def kf_max_by_dict_get(a, b):
    scores = {"x": 2, "y": 7, "z": 5}
    best = max(scores, key=scores.get)
    return a * scores[best] if best == "y" else b
def kf_min_default_empty(a, b):
    return a * min([], default=4) + max([1, 9], default=0)
def kf_reversed_range_enumerate(a, b):
    out = a
    for i, n in enumerate(reversed(range(3)), start=1):
        out = out + b * i * n
    return out
def kf_zip_three_strict(a, b):
    total = a * 0
    for x, y, k in zip([a, b], [b, a], [1, 2], strict=True):
        total = total + x * y * k
    return total
def kf_unzip_with_star(a, b):
    xs, ks = zip(*[(a, 1), (b, 2)])
    return xs[0] * ks[1] + xs[1] * ks[0]
def kf_enumerate_tensors_with_start(a, b):
    return sum(t * i for i, t in enumerate([a, b], start=2))
def kf_sorted_dict_items(a, b):
    d = {"b": b, "a": a}
    return [v * 2 for _, v in sorted(d.items())][0]

# ---- closures, nonlocal, defaults, forwarding
def cn_nonlocal_accumulate(a, b):
    total = a * 0
    def add(t):
        nonlocal total
        total = total + t
    add(a)
    add(b)
    return total
def cn_closure_captures_loop_value(a, b):
    fns = [lambda t, k=k: t * k for k in range(1, 4)]
    return sum(f(a) for f in fns)
def cn_late_binding_closure(a, b):
    fns = [lambda t: t * k for k in range(1, 4)]
    return fns[0](a) + fns[1](b)
def cn_nested_three_levels(a, b):
    def outer(x):
        def middle(y):
            def inner(z):
                return x + y * z
            return inner
        return middle
    return outer(a)(b)(3)
def cn_nonlocal_in_nested_two(a, b):
    count = 0
    def outer():
        def inner():
            nonlocal count
            count += 1
        inner()
        inner()
    outer()
    return a * count
def cn_closure_modifying_list(a, b):
    seen = []
    def record(t):
        seen.append(t * 2)
        return t
    record(a)
    record(b)
    return seen[0] + seen[1] + len(seen)
def cn_default_arg_evaluated(a, b):
    def f(t, scale=2, *, shift=1):
        return t * scale + shift
    return f(a) + f(b, 3, shift=0)
def cn_varargs_forwarding(a, b):
    def inner(*ts, scale=1):
        return sum(ts) * scale
    def outer(*args, **kwargs):
        return inner(*args, **kwargs)
    return outer(a, b, scale=2)
def cn_kwargs_dict_forwarding(a, b):
    def inner(x, y, alpha=1.0):
        return x + y * alpha
    opts = {"alpha": 0.5}
    return inner(a, y=b, **opts)
def cn_args_tuple_len(a, b):
    def count(*args, **kwargs):
        return len(args) * 10 + len(kwargs)
    return a * count(1, 2, 3, k=4)
def cn_keyword_only_and_positional_only(a, b):
    def f(x, /, y, *, z):
        return x * y + z
    return f(a, b, z=1) + f(a, y=2, z=b)
def cn_lambda_returning_tuple(a, b):
    split = lambda t: (t * 2, t + 1)
    x, y = split(a)
    return x + y + b
def cn_closure_cell_updated_after_definition(a, b):
    k = 1
    def scale(t):
        return t * k
    k = 5
    return scale(a) + b
def cn_recursive_inner_function(a, b):
    def power(t, n):
        return t if n == 1 else t * power(t, n - 1)
    return power(a, 3) + b
def cn_function_attributes(a, b):
    def f(t):
        return t
    f.scale = 4
    return f(a) * f.scale + len(f.__name__)

# ---- user classes
class _Base:
    kind = "base"
    def __init__(self, scale):
        self.scale = scale
    def apply(self, t):
        return t * self.scale
    @classmethod
    def make(cls, scale):
        return cls(scale)
    @staticmethod
    def helper(t):
        return t + 1
class _Child(_Base):
    kind = "child"
    def apply(self, t):
        return super().apply(t) + 10
class _GrandChild(_Child):
    def apply(self, t):
        return super().apply(t) * 2
class _Lazy:
    def __init__(self):
        self.values = {"w": 3}
    def __getattr__(self, name):
        if name.startswith("get_"):
            return self.values[name[4:]]
        raise AttributeError(name)
class _Scaler:
    def __init__(self, k):
        self._k = k
    @property
    def k(self):
        return self._k * 2
    @k.setter
    def k(self, v):
        self._k = v
    def __call__(self, t):
        return t * self.k
class _Vec:
    def __init__(self, t):
        self.t = t
    def __add__(self, other):
        return _Vec(self.t + other.t)
    def __mul__(self, k):
        return _Vec(self.t * k)
    def __rmul__(self, k):
        return _Vec(self.t * k + 1)
    def __neg__(self):
        return _Vec(-self.t)
    def __eq__(self, other):
        return self.t is other.t
    def __len__(self):
        return 3
    def __bool__(self):
        return True
class _Registry:
    items = []
    @classmethod
    def register(cls, name):
        cls.items = cls.items + [name]
        return len(cls.items)
def uc_classmethod_constructs_subclass(a, b):
    obj = _Child.make(2)
    return obj.apply(a) + len(obj.kind)
def uc_staticmethod_via_instance_and_class(a, b):
    return _Base.helper(a) + _Base(1).helper(b)
def uc_super_two_levels(a, b):
    return _GrandChild(3).apply(a)
def uc_getattr_dynamic_name(a, b):
    return a * _Lazy().get_w
def uc_hasattr_on_getattr_object(a, b):
    lazy = _Lazy()
    return a + 1 if hasattr(lazy, "get_w") and not hasattr(lazy, "other") else b
def uc_property_and_setter_call(a, b):
    s = _Scaler(1)
    first = s(a)
    s.k = 3
    return first + s(b)
def uc_dunder_operators(a, b):
    v = -(_Vec(a) + _Vec(b) * 2)
    w = 3 * _Vec(a)
    return v.t + w.t + len(v)
def uc_dunder_eq_identity(a, b):
    v = _Vec(a)
    return a * 2 if v == _Vec(a) and bool(v) else b
def uc_type_of_instance_and_name(a, b):
    obj = _GrandChild(1)
    return a * len(type(obj).__name__) + b * len(type(obj).__mro__)
def uc_isinstance_issubclass_chain(a, b):
    obj = _Child(1)
    ok = isinstance(obj, _Base) and issubclass(_GrandChild, _Base) and not isinstance(obj, _GrandChild)
    return a * 2 if ok else b
def uc_class_attribute_shadowed(a, b):
    obj = _Base(2)
    obj.kind = "instance"
    return a * len(obj.kind) + b * len(_Base.kind)
def uc_instance_dict_and_setattr(a, b):
    obj = _Base(1)
    setattr(obj, "extra", b)
    return obj.__dict__["extra"] + a * len(obj.__dict__)
def uc_bound_method_stored(a, b):
    apply = _Child(2).apply
    return apply(a) + apply(b)
def uc_method_calls_other_method(a, b):
    class Model:
        def __init__(self, w):
            self.w = w
        def scale(self, t):
            return t * self.w
        def forward(self, t):
            return self.scale(t) + self.scale(t * 2)
    return Model(b).forward(a)
def uc_object_with_list_attribute(a, b):
    class Bag:
        def __init__(self):
            self.items = []
        def add(self, t):
            self.items.append(t)
            return self
    bag = Bag().add(a).add(b)
    return sum(bag.items) * len(bag.items)
def uc_iter_protocol(a, b):
    class Three:
        def __iter__(self):
            return iter([1, 2, 3])
    return a * sum(Three()) + b * len(list(Three()))
def uc_getitem_slicing_protocol(a, b):
    class Seq:
        def __init__(self, *ts):
            self.ts = ts
        def __getitem__(self, i):
            return self.ts[i]
        def __len__(self):
            return len(self.ts)
    s = Seq(a, b, a * b)
    return s[-1] + s[0] * len(s)
def uc_contains_protocol(a, b):
    class Evens:
        def __contains__(self, n):
            return n % 2 == 0
    return a * 2 if 4 in Evens() and 3 not in Evens() else b
def uc_classmethod_mutating_class_state(a, b):
    _Registry.items = []
    n = _Registry.register("x")
    return a * n + len(_Registry.items) + b * _Registry.register("y")
def uc_class_with_slots_and_default(a, b):
    class P:
        __slots__ = ("x", "y")
        def __init__(self, x, y=1):
            self.x, self.y = x, y
    p = P(a)
    return p.x * p.y + P(b, 3).y
def uc_abstract_like_dispatch(a, b):
    class Op:
        def run(self, t):
            return self.fn(t)
    class Double(Op):
        def fn(self, t):
            return t * 2
    class Inc(Op):
        def fn(self, t):
            return t + 1
    return sum(op.run(a) for op in (Double(), Inc()))
class _Empty:
    def __len__(self):
        return 0
class _Plain:
    pass
def uc_truth_from_len_and_default(a, b):
    if not _Empty() and _Plain() and bool([a]) and not bool() and not bool(0.0):
        return a + 1
    return b
def uc_truth_of_vec_in_while(a, b):
    out, v, n = a, _Vec(b), 0
    while v and n < 2:
        out, n = out + v.t, n + 1
    return out
def uc_callable_object_in_list(a, b):
    fs = [_Scaler(1), _Scaler(2)]
    return fs[0](a) + fs[1](b)

# ---- tensor attribute introspection
def ti_shape_dtype_device_branch(a, b):
    if a.shape == (3,) and a.dtype == torch.float32 and a.device.type == "cpu":
        return a + b
    return a - b
def ti_ndim_dim_numel(a, b):
    return a * (a.ndim + a.dim() + a.numel() + b.nelement())
def ti_requires_grad_false_input(a, b):
    return a * 2 if not a.requires_grad else b
def ti_is_leaf_of_inputs_and_results(a, b):
    c = a + b
    return c * 2 if a.is_leaf and c.is_leaf else c
def ti_size_method_negative_dim(a, b):
    return a * a.size(-1) + b * a.size()[0]
def ti_dtype_is_floating_point(a, b):
    if a.is_floating_point() and not a.dtype.is_complex and a.dtype.is_floating_point:
        return a + 1
    return b
def ti_element_size_itemsize(a, b):
    return a * a.element_size() + b
def ti_is_contiguous_after_view(a, b):
    m = torch.stack([a, b])
    return m.t().contiguous().sum(0) if not m.t().is_contiguous() else m.sum(0)
def ti_shape_unpack_in_view(a, b):
    n, = a.shape
    return torch.stack([a, b]).view(2, n).sum(0)
def ti_grad_fn_is_none_no_grad_inputs(a, b):
    c = a * b
    return c + 1 if c.grad_fn is None else c

# ---- tensor methods and torch functions with keywords
def tm_sum_dim_keepdim_dtype(a, b):
    m = torch.stack([a, b])
    return m.sum(dim=1, keepdim=True, dtype=torch.float64).float() + m.mean(0, keepdim=True)
def tm_max_with_dim_namedtuple(a, b):
    m = torch.stack([a, b])
    res = m.max(dim=0)
    return res.values + res.indices.float()
def tm_topk_sort_kwargs(a, b):
    v, i = torch.sort(a, descending=True)
    return v + torch.topk(b, k=2, largest=False).values.sum()
def tm_clamp_min_only(a, b):
    return a.clamp(min=0.0) + torch.clamp(b, max=0.1)
def tm_where_with_scalars(a, b):
    return torch.where(a > 0, a, 0.0) + torch.where(b > 0, 1.0, b)
def tm_full_like_kwargs(a, b):
    return torch.full_like(a, 2.5) * torch.ones_like(b, dtype=torch.float32) + torch.zeros_like(a)
def tm_arange_with_dtype(a, b):
    return a * torch.arange(3, dtype=torch.float32) + torch.arange(0, 6, 2).float()
def tm_cumsum_flip_roll(a, b):
    return torch.cumsum(a, dim=0) + torch.flip(b, dims=[0]) + torch.roll(a, shifts=1, dims=0)
def tm_norm_p(a, b):
    return a / torch.linalg.vector_norm(a) + b.norm(p=1)
def tm_softmax_dim_kwarg(a, b):
    return F.softmax(a, dim=-1) + torch.log_softmax(b, dim=0)
def tm_cat_with_out_of_range_negative_dim(a, b):
    return torch.cat([a.unsqueeze(0), b.unsqueeze(0)], dim=-2).sum(dim=-2)
def tm_std_var_correction(a, b):
    return a * torch.var(b, unbiased=False) + a.std(0)
def tm_einsum_strings(a, b):
    return torch.einsum("i,j->ij", a, b).sum(1) + torch.einsum("i,i->", a, b)
def tm_pow_exponent_forms(a, b):
    return torch.pow(a, 2) + torch.pow(2.0, b) + a.pow(exponent=3)
def tm_lerp_addcmul_value(a, b):
    return torch.lerp(a, b, 0.25) + torch.addcmul(a, a, b, value=0.5)
def tm_split_sizes_list(a, b):
    x = torch.cat([a, b])
    first, second = torch.split(x, [2, 4])
    return first.sum() + second[:3]
def tm_chunk_and_unbind(a, b):
    c1, c2 = torch.chunk(torch.stack([a, b]), 2, dim=0)
    return sum(torch.unbind(c1.squeeze(0) + c2.squeeze(0)))
def tm_tensor_to_dtype_and_back(a, b):
    return a.to(torch.float64).to(dtype=torch.float32) + b.type(torch.float32)
def tm_new_ones_new_zeros(a, b):
    return a + a.new_ones(3) * 2 + b.new_zeros((3,)) + a.new_full((3,), 0.5)
def tm_argmax_keepdim(a, b):
    return a * torch.argmax(b, dim=0, keepdim=True).float()
def tm_masked_fill_bool_scalar(a, b):
    return a.masked_fill(b > 0, -1.0) + torch.masked_fill(b, a < 0, 2.0)
def tm_tril_diagonal(a, b):
    return torch.tril(torch.outer(a, b), diagonal=-1).sum(0) + torch.triu(torch.outer(a, b), 1).sum(1)

# ---- graph breaks in loops and with-blocks
def gb_break_in_middle_of_loop(a, b):
    out = a
    for i in range(3):
        out = out * 2
        if i == 1:
            dynamo.graph_break()
        out = out + b
    return out
def gb_break_inside_no_grad(a, b):
    with torch.no_grad():
        c = a * 2
        dynamo.graph_break()
        d = c + b
    return d * 3
def gb_break_then_closure_call(a, b):
    k = 3
    def scale(t):
        return t * k
    c = scale(a)
    dynamo.graph_break()
    return scale(c) + b
def gb_break_with_dict_alive(a, b):
    d = {"x": a * 2, "n": 4}
    dynamo.graph_break()
    return d["x"] * d["n"] + b
def gb_break_in_helper_called_in_loop(a, b):
    def step(t):
        t = t + 1
        dynamo.graph_break()
        return t * 2
    out = a
    for _ in range(2):
        out = step(out)
    return out + b
def gb_break_in_while_loop(a, b):
    n, out = 0, a
    while n < 3:
        out = out - b
        if n == 0:
            dynamo.graph_break()
        n += 1
    return out
def gb_break_with_list_of_tensors(a, b):
    xs = [a + 1, b + 2]
    dynamo.graph_break()
    xs.append(xs[0] * xs[1])
    return sum(xs)
def gb_break_inside_enable_grad_in_no_grad(a, b):
    with torch.no_grad():
        c = a + 1
        with torch.enable_grad():
            d = c * b
            dynamo.graph_break()
            e = d + 1
    return e
def gb_two_breaks(a, b):
    c = a + b
    dynamo.graph_break()
    d = c * 2
    dynamo.graph_break()
    return d - a
def gb_break_after_loop_of_kwargs(a, b):
    cfg = dict(scale=2, shift=1)
    out = a
    for key in sorted(cfg):
        out = out * cfg[key]
    dynamo.graph_break()
    return out + b
def gb_break_in_for_over_enumerate(a, b):
    out = a * 0
    for i, t in enumerate([a, b, a]):
        out = out + t * i
        if i == 1:
            dynamo.graph_break()
    return out
def gb_break_with_cell_rebound_after(a, b):
    k = 3
    def scale(t):
        return t * k
    c = scale(a)
    dynamo.graph_break()
    k = 4
    return scale(c) + b
def gb_break_with_list_in_a_cell(a, b):
    n = [0]
    def bump(t):
        n[0] += 1
        return t + n[0]
    c = bump(a)
    dynamo.graph_break()
    return bump(c) * b
def gb_break_with_nonlocal_counter(a, b):
    n = 0
    def bump():
        nonlocal n
        n += 1
    bump()
    c = a * n
    dynamo.graph_break()
    bump()
    return c + n
def gb_break_with_parameter_in_a_cell(a, b):
    def shift(t):
        return t + b
    c = shift(a) * 2
    dynamo.graph_break()
    return shift(c)
def gb_break_with_lambda_over_a_cell(a, b):
    w = a * 2
    f = lambda t: t * w
    dynamo.graph_break()
    return f(b) + w

# ---- repro-style mixtures
def rp_shape_arith_to_view(a, b):
    m = torch.cat([a, b]).view(2, -1)
    rows, cols = m.shape
    return m.reshape(cols, rows).sum(1) * (rows * cols)
def rp_list_of_shapes_max(a, b):
    shapes = [t.shape[0] for t in (a, b, torch.cat([a, b]))]
    return a * max(shapes) + b * min(shapes)
def rp_tuple_concat_of_sizes(a, b):
    size = a.size() + (1,)
    return a.view(size).squeeze(-1) + b.reshape(*size).sum(-1)
def rp_config_dict_default_get(a, b):
    cfg = {"act": "tanh", "eps": 1e-3}
    act = getattr(torch, cfg.get("act", "relu"))
    return act(a) + cfg["eps"] + b
def rp_conditional_on_python_list_len(a, b):
    layers = [lambda t: t * 2, lambda t: t + 1]
    out = a
    for f in layers[: len(layers) - 0]:
        out = f(out)
    return out + (b if len(layers) > 1 else 0)
def rp_nested_dict_of_lists(a, b):
    data = {"xs": [a, b], "meta": {"k": 2}}
    return sum(data["xs"]) * data["meta"]["k"]
def rp_tensor_in_tuple_compare_is(a, b):
    pair = (a, b)
    return pair[0] * 2 if pair[0] is a and pair[1] is not a else b
def rp_any_over_tensor_shapes(a, b):
    return a + b if any(t.dim() == 1 for t in (a, b)) and all(t.numel() == 3 for t in (a, b)) else a
def rp_int_of_float_of_shape(a, b):
    return a * int(float(a.shape[0]) / 2) + b * math.sqrt(a.numel() + 1)
def rp_ternary_chain(a, b):
    n = 3
    k = 1 if n < 2 else 2 if n < 5 else 3
    return a * k + b
def rp_global_constant_tuple(a, b):
    return a * _WEIGHTS[0] + b * _WEIGHTS[-1]
_WEIGHTS = (0.5, 1.5, 2.5)
def rp_inplace_on_intermediate_in_loop(a, b):
    out = a.clone()
    for k in (1, 2):
        out.mul_(k).add_(b)
    return out
def rp_list_index_and_count(a, b):
    xs = [3, 1, 3, 2]
    return a * xs.index(2) + b * xs.count(3)
def rp_enumerate_zip_dict_build(a, b):
    d = {}
    for i, (name, t) in enumerate(zip(["u", "v"], [a, b])):
        d[name] = t * (i + 1)
    return d["u"] + d["v"]
'''

# Programs called several times: each entry is (name, calls), a call being argument arrays (numpy) and Python values.
RECOMPILE_SRC = r'''
def rc_python_int_arg(x, n):
    return x * n + 1
def rc_python_float_arg(x, s):
    return x * s
def rc_bool_flag(x, flag):
    return x + 1 if flag else x - 1
def rc_string_mode(x, mode):
    return x.relu() if mode == "relu" else x.tanh()
def rc_changing_shape(x, n):
    return x.sum(0) * n
def rc_list_of_ints_arg(x, dims):
    return x.sum() * len(dims) + sum(dims)
def rc_none_or_tensor(x, y):
    return x if y is None else x + y
def rc_rank_changes_then_sizes(x, n):
    return (x * n).sum(-1) + x.shape[-1]
def rc_size_changes_then_rank(x, n):
    return x.flatten()[:2] * x.dim() + n
def rc_tuple_arg_unpacked(x, pair):
    lo, hi = pair
    return x.clamp(lo, hi)
'''
