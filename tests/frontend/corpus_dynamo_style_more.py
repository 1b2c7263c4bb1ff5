"""More programs in the style of Dynamo's own test functions (test_functions.py, test_misc.py, test_repros.py), written
for the oracle: builtins, operator, functools, itertools, collections, math, dataclasses, enum, contextlib, inspect,
user classes (properties and setters, special methods, classmethods, super(), class statements, __dict__ and
vars()), closures and nonlocal, generators and `yield from`, try/finally, exceptions raised and caught in the frame
(test_exceptions.py's shapes), grad modes, tensor attributes and torch.Size, container methods, globals (dicts
written too), torch functions with keywords and out=, in-place ops, module walks (modules(), named_parameters(),
state_dict(), Sequential slices), Counter and ChainMap.

Each is a function of two (3,) float tensors `a`, `b`, run by test_dynamo_style_more.py through torch.compile and
minitorch2.compile under a CompileCounter (values, frame_count and op_count compared). The names are those of
`torch` (minitorch2 or torch), `nn`, `F` and `dynamo` given to exec.
"""

MORE_SRC = r'''
import collections, contextlib, dataclasses, enum, functools, inspect, itertools, math, operator

# ---- builtins
def b_abs_round_divmod(a, b):
    q, r = divmod(17, 5)
    return a * abs(-3) + round(2.567, 1) + q * r + pow(2, 3) + b
def b_sum_start(a, b):
    return sum([a, b], start=a * 0 + 1)
def b_sum_generator_numbers(a, b):
    return a * sum(i * i for i in range(4))
def b_reversed_list(a, b):
    out = a
    for i, t in enumerate(reversed([a, b, a + b])):
        out = out + t * i
    return out
def b_sorted_key(a, b):
    names = sorted(["ccc", "a", "bb"], key=len, reverse=True)
    return a * len(names[0]) + b * len(names[-1])
def b_sorted_tuple_numbers(a, b):
    xs = sorted((3, 1, 2))
    return a * xs[0] + b * xs[-1]
def b_min_max_key(a, b):
    w = max(["x", "yyy", "zz"], key=len)
    return a * len(w) + min(4, 7, key=lambda v: -v)
def b_any_all_generators(a, b):
    if all(n > 0 for n in [1, 2, 3]) and not any(n > 5 for n in [1, 2]):
        return a + b
    return a - b
def b_range_arithmetic(a, b):
    r = range(2, 11, 3)
    return a * len(r) + r[1] + r[-1] + sum(r[1:])
def b_range_contains(a, b):
    return a * 2 if 5 in range(0, 10) and 11 not in range(10) else b
def b_slicing_lists(a, b):
    xs = [a, b, a * 2, b * 2, a * 3]
    return sum(xs[::2]) + xs[-2:][0] + sum(xs[1:4:2])
def b_tuple_slicing_negative(a, b):
    t = (a, b, a + b)
    return t[::-1][0] * t[-1]
def b_getattr_setattr(a, b):
    class_ = type("Holder", (), {})
    h = class_()
    setattr(h, "value", a)
    return getattr(h, "value") + getattr(h, "missing", b)
def b_isinstance_issubclass(a, b):
    ok = issubclass(bool, int) and isinstance(True, int) and isinstance(a, (torch.Tensor, int))
    return a * 2 if ok else b
def b_type_checks(a, b):
    return a + 1 if type(a) is torch.Tensor and type(3) is int and type([]) == list else b
def b_callable_id(a, b):
    f = lambda t: t
    return a * 2 if callable(f) and not callable(3) and id(f) == id(f) else b
def b_len_of_containers(a, b):
    return a * (len({"k": 1}) + len((1, 2)) + len("abc") + len({1, 2, 2}))
def b_bool_int_float_str(a, b):
    return a * int("3") + float("1.5") + int(2.9) + bool(0) + len(str(12.5))
def b_chr_ord_hex(a, b):
    return a * ord("a") + len(hex(255)) + len(chr(66))
def b_zip_unequal_dict(a, b):
    return dict(zip("abc", [a, b]))["b"] * 2
def b_map_with_builtin(a, b):
    return a * sum(map(len, ["a", "bb", "ccc"])) + max(map(abs, [-4, 2]))
def b_filter_lambda_numbers(a, b):
    evens = list(filter(lambda n: n % 2 == 0, range(7)))
    return a * len(evens) + evens[-1]
def b_enumerate_dict(a, b):
    d = {"x": a, "y": b}
    total = 0
    for i, k in enumerate(d):
        total = total + d[k] * (i + 1)
    return total
def b_pow_float(a, b):
    return a * pow(2.0, -1) + 3 ** 2 + 2 ** 0.5
def b_tensor_pow_builtin(a, b):
    return pow(a, 2) + abs(b) + round(a.sum().item() > 0)
def b_max_of_ints_len(a, b):
    return a * max(len(a), len([1, 2, 3, 4]))
def b_iter_unpack_star(a, b):
    first, *mid, last = [a, b, a * b, b - a]
    return first + last + len(mid)
def b_format_strings(a, b):
    name = f"{'layer'}_{3:02d}_{1.5:.2f}"
    return a * len(name) if name == "layer_03_1.50" else b
def b_str_methods(a, b):
    s = "Hello World".lower().replace("o", "0")
    parts = "a,b,c".split(",")
    return a * len(parts) + s.count("0") + len("-".join(parts)) + ("x".upper() == "X")
def b_percent_format(a, b):
    msg = "%s-%d" % ("k", 5)
    return a * len(msg) + len("{}:{}".format(1, 2))

# ---- operator module
def op_itemgetter_attrgetter(a, b):
    get = operator.itemgetter(1)
    return get([a, b]) * 2 + operator.attrgetter("shape")(a)[0]
def op_methodcaller(a, b):
    return operator.methodcaller("mul", 3)(a) + b
def op_functions_on_tensors(a, b):
    return operator.mul(operator.add(a, b), operator.neg(b)) + operator.truediv(a, 2)
def op_inplace_functions(a, b):
    c = a.clone()
    c = operator.iadd(c, b)
    c = operator.imul(c, 2)
    return c
def op_comparisons(a, b):
    return a * 2 if operator.lt(1, 2) and operator.contains([1, 2], 2) and operator.not_(0) else b
def op_getitem_on_tensor(a, b):
    return operator.getitem(a, 0) + operator.getitem(b, slice(1, None)).sum()

# ---- functools
@functools.lru_cache(maxsize=None)
def _cached_scale(n):
    return n * 2
def ft_lru_cache_number(a, b):
    return a * _cached_scale(3)
def _decorate(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) + 1
    return wrapper
@_decorate
def _wrapped_mul(t, k=2):
    return t * k
def ft_wraps_decorator(a, b):
    return _wrapped_mul(a, k=3) + _wrapped_mul(b) if _wrapped_mul.__name__ == "_wrapped_mul" else a
def ft_partial_positional_chain(a, b):
    f = functools.partial(torch.clamp, min=-0.5)
    g = functools.partial(f, max=0.5)
    return g(a) + g(b)
def ft_reduce_with_initial(a, b):
    return functools.reduce(lambda acc, t: acc + t * 2, [a, b], a * 0)
def ft_reduce_mul_numbers(a, b):
    return a * functools.reduce(operator.mul, [1, 2, 3, 4])

# ---- itertools
def it_zip_longest(a, b):
    out = []
    for u, v in itertools.zip_longest([a, b], [b], fillvalue=None):
        out.append(u if v is None else u * v)
    return out[0] + out[1]
def it_pairwise(a, b):
    return sum(u - v for u, v in itertools.pairwise([a, b, a * 2]))
def it_combinations(a, b):
    return sum(u * v for u, v in itertools.combinations([a, b, a + b], 2))
def it_permutations_len(a, b):
    return a * len(list(itertools.permutations([1, 2, 3], 2)))
def it_starmap(a, b):
    return sum(itertools.starmap(torch.mul, [(a, b), (b, b)]))
def it_takewhile_dropwhile(a, b):
    small = list(itertools.takewhile(lambda n: n < 3, [1, 2, 5, 1]))
    rest = list(itertools.dropwhile(lambda n: n < 3, [1, 2, 5, 1]))
    return a * len(small) + b * len(rest)
def it_cycle_islice(a, b):
    return sum(itertools.islice(itertools.cycle([a, b]), 5))
def it_product_repeat(a, b):
    return a * len(list(itertools.product([0, 1], repeat=3)))
def it_groupby(a, b):
    groups = [(k, len(list(g))) for k, g in itertools.groupby("aabbbc")]
    return a * groups[1][1] + len(groups)
def it_compress(a, b):
    return sum(itertools.compress([a, b, a * 3], [1, 0, 1]))
def it_tee(a, b):
    x, y = itertools.tee([a, b])
    return sum(x) * sum(y)
def it_filterfalse(a, b):
    return a * len(list(itertools.filterfalse(lambda n: n % 2, range(6))))

# ---- collections
def co_counter(a, b):
    c = collections.Counter("abracadabra")
    return a * c["a"] + c.most_common(1)[0][1]
def co_counter_update(a, b):
    c = collections.Counter()
    c.update(["x", "y", "x"])
    c["z"] += 2
    return a * c["x"] + b * c["z"]
def co_namedtuple_replace_asdict(a, b):
    P = collections.namedtuple("P", "u v")
    p = P(a, b)._replace(v=b * 2)
    d = p._asdict()
    return d["u"] + d["v"] + len(p._fields)
def co_namedtuple_make(a, b):
    P = collections.namedtuple("P", ["u", "v"])
    p = P._make([a, b])
    return p.u * p[1]
def co_defaultdict_int_counts(a, b):
    d = collections.defaultdict(int)
    for ch in "hello":
        d[ch] += 1
    return a * d["l"] + b * d["q"]
def co_ordered_dict_move_to_end(a, b):
    d = collections.OrderedDict(a=a, b=b)
    d.move_to_end("a")
    return list(d.values())[0] * 2 + list(d.keys()).index("a")
def co_ordered_dict_popitem(a, b):
    d = collections.OrderedDict(a=a, b=b, c=a + b)
    k, v = d.popitem()
    k2, v2 = d.popitem(last=False)
    return v * v2 + len(d)
def co_deque_rotate(a, b):
    q = collections.deque([a, b, a * 2])
    q.rotate(1)
    return q[0] + q[1]
def co_chainmap(a, b):
    m = collections.ChainMap({"x": a}, {"x": b, "y": b * 2})
    return m["x"] + m["y"]
def co_counter_of_a_list_updated_by_a_counter(a, b):
    c = collections.Counter(["x", "y", "x"])
    c.update(collections.Counter({"x": 1}))
    return a * c["x"] + len(c) + c["missing"] + sum(c.values())
def co_counter_update_string_total(a, b):
    c = collections.Counter()
    c.update("aab")
    return a * c["a"] + c.total()
def co_counter_kwargs_subtract_elements(a, b):
    c = collections.Counter(a=2, b=1)
    c["a"] += 1
    c.subtract({"b": 1})
    return a * c["a"] + sorted(c.elements()).count("a")
def co_counter_most_common_all(a, b):
    c = collections.Counter("hello")
    return a * c.most_common()[0][1]
def co_counter_is_a_dict(a, b):
    c = collections.Counter("ab")
    return a + 1 if isinstance(c, dict) and isinstance(c, collections.Counter) else b
def co_counter_of_a_generator(a, b):
    c = collections.Counter(len(w) for w in ["ab", "cd", "e"])
    return a * c[2] + b * c[1]
def co_chainmap_write_get_contains(a, b):
    cm = collections.ChainMap({"x": a}, {"x": b, "y": 3})
    cm["z"] = 4
    return cm["x"] * cm["y"] + len(cm) + cm.get("q", 5) + ("y" in cm)
def co_chainmap_iteration_order(a, b):
    cm = collections.ChainMap({"b": a}, {"a": b, "b": b * 2})
    keys = list(cm)
    return a * (keys.index("a") + 1) + b * (keys.index("b") + 1) + sum(cm.values())
def co_dict_methods_in_order(a, b):
    d = {"x": a}
    d.update({"y": b}, z=a * 2)
    d["w"] = b + 1
    s1 = d.setdefault("q")
    d.pop("q")
    s2 = d.setdefault("x", b)
    p = d.pop("w")
    p2 = d.pop("nope", a)
    k, v = d.popitem()
    n = len(d)
    d.clear()
    return p + p2 + v + s2 + n + (1 if s1 is None else 0) + len(d) + len(k) + d.get("gone", 2)
def co_ordered_dict_moves_and_pops(a, b):
    od = collections.OrderedDict([("a", a), ("b", b), ("c", a + b)])
    od.move_to_end("a")
    od.move_to_end("c", last=False)
    k1, v1 = od.popitem(last=False)
    k2, v2 = od.popitem()
    return v1 * len(k1) + v2 + len(od) + len(list(od)[0])
def co_defaultdict_setdefault_pop(a, b):
    dd = collections.defaultdict(list)
    dd["x"].append(a)
    dd.setdefault("y", []).append(b)
    return dd["x"][0] + dd["y"][0] + len(dd.pop("x"))
def co_list_methods_in_order(a, b):
    xs = [1, a, b]
    xs.append(a * 2)
    xs.extend((b, 3))
    xs.insert(1, b * 3)
    xs.remove(1)
    p = xs.pop()
    q = xs.pop(0)
    xs.reverse()
    n = len(xs)
    ys = list(xs)
    xs.clear()
    return q + p + ys[0] + ys[-1] * n + len(xs)
def co_chainmap_missing_key_caught(a, b):
    cm = collections.ChainMap({"x": a}, {"y": b})
    try:
        return cm["z"]
    except KeyError:
        return cm["x"] - cm["y"]

# ---- math
def m_math_functions(a, b):
    return a * math.sqrt(16) + math.floor(2.7) + math.ceil(2.1) + math.log(math.e) + math.pi
def m_math_trig_and_inf(a, b):
    return a * math.cos(0) + math.isinf(math.inf) + math.isnan(0.0) + math.gcd(12, 18)
def m_math_prod_fsum(a, b):
    return a * math.prod([1, 2, 3]) + math.fsum([0.1, 0.2]) + math.factorial(4)
def m_math_on_shape(a, b):
    return a * math.sqrt(a.shape[0]) + math.log2(b.numel())

# ---- dataclasses and enum
@dataclasses.dataclass
class _Cfg:
    scale: float = 2.0
    shift: int = 1
    names: list = dataclasses.field(default_factory=list)
def dc_dataclass_in_frame(a, b):
    cfg = _Cfg(scale=3.0)
    return a * cfg.scale + cfg.shift + len(cfg.names)
_GLOBAL_CFG = _Cfg(4.0, 2)
def dc_dataclass_global(a, b):
    return a * _GLOBAL_CFG.scale - _GLOBAL_CFG.shift
def dc_fields_and_replace(a, b):
    cfg = dataclasses.replace(_GLOBAL_CFG, shift=5)
    return a * len(dataclasses.fields(cfg)) + cfg.shift
@dataclasses.dataclass(frozen=True)
class _Frozen:
    k: int
def dc_frozen_eq(a, b):
    return a * 2 if _Frozen(1) == _Frozen(1) else b
class _Color(enum.Enum):
    RED = 1
    GREEN = 2
def en_enum_compare(a, b):
    c = _Color.GREEN
    return a * c.value if c is _Color.GREEN and c != _Color.RED else b
def en_enum_name(a, b):
    return a * len(_Color.RED.name) + len(list(_Color))
class _Mode(enum.IntEnum):
    TRAIN = 0
    EVAL = 1
def en_intenum_arith(a, b):
    return a * (_Mode.EVAL + 1)

# ---- contextlib / inspect
def cl_nullcontext(a, b):
    with contextlib.nullcontext():
        c = a * 2
    with contextlib.nullcontext(b) as v:
        return c + v
def cl_suppress_no_raise(a, b):
    with contextlib.suppress(KeyError):
        c = a + b
    return c
def _sig_fn(x, y=2, *, z=3):
    return x
def in_signature_params(a, b):
    params = inspect.signature(_sig_fn).parameters
    return a * len(params) + params["y"].default
def in_isfunction(a, b):
    return a * 2 if inspect.isfunction(_sig_fn) and not inspect.isclass(_sig_fn) else b


# ---- user classes
class _Box:
    scale = 3
    def __init__(self, t):
        self._t = t
    @property
    def t(self):
        return self._t * 2
    @t.setter
    def t(self, v):
        self._t = v
    @classmethod
    def make(cls, t):
        return cls(t + 1)
    @staticmethod
    def helper(t):
        return t - 1
    def __len__(self):
        return 4
    def __contains__(self, k):
        return k == "t"
    def __iter__(self):
        return iter([self._t, self._t * 2])
    def __call__(self, u):
        return self._t * u
    def __getitem__(self, i):
        return self._t[i]
def uc_property_get_set(a, b):
    x = _Box(a)
    x.t = b
    return x.t + _Box.scale
def uc_classmethod_staticmethod(a, b):
    return _Box.make(a).t + _Box.helper(b) + _Box(a).make(b)._t
def uc_dunder_len_contains(a, b):
    x = _Box(a)
    return a * len(x) if "t" in x and "q" not in x else b
def uc_dunder_iter(a, b):
    return sum(_Box(a)) + list(_Box(b))[1]
def uc_dunder_call_getitem(a, b):
    x = _Box(a)
    return x(b) + x[0] + x[1:].sum()
class _Lazy:
    def __init__(self):
        self.base = 2
    def __getattr__(self, name):
        if name.startswith("k"):
            return int(name[1:])
        raise AttributeError(name)
def uc_getattr_fallback(a, b):
    o = _Lazy()
    return a * o.k3 + o.base
class _Base:
    def __init__(self, k):
        self.k = k
    def f(self, t):
        return t * self.k
class _Child(_Base):
    def __init__(self):
        super().__init__(5)
    def f(self, t):
        return super().f(t) + 1
class _GrandChild(_Child):
    def f(self, t):
        return super().f(t) * 2
def uc_super_chain(a, b):
    return _GrandChild().f(a) + _Child().f(b)
def uc_isinstance_hierarchy(a, b):
    g = _GrandChild()
    return a * 2 if isinstance(g, _Base) and issubclass(_Child, _Base) and type(g) is _GrandChild else b
class _Vec:
    def __init__(self, t):
        self.t = t
    def __add__(self, o):
        return _Vec(self.t + o.t)
    def __mul__(self, k):
        return _Vec(self.t * k)
    def __rmul__(self, k):
        return _Vec(self.t * k)
    def __neg__(self):
        return _Vec(-self.t)
def uc_operator_overloads(a, b):
    v = (_Vec(a) + _Vec(b)) * 2 + 3 * -_Vec(a)
    return v.t
class _Hashable:
    def __init__(self, n):
        self.n = n
    def __eq__(self, o):
        return self.n == o.n
    def __hash__(self):
        return self.n
def uc_hash_in_dict(a, b):
    d = {_Hashable(1): a, _Hashable(2): b}
    return d[_Hashable(2)] * 2
def uc_object_dict_attr(a, b):
    o = _Box(a)
    return o.__dict__["_t"] + b if "_t" in vars(o) else b
class _Settings:
    def __init__(self):
        self.scale = 2.0
        self.shift = 1
        self.name = "settings"
_SETTINGS = _Settings()
def uc_vars_of_a_global_object(a, b):
    d = vars(_SETTINGS)
    return a * d["scale"] + d["shift"] * len(d)
def uc_dict_item_write_sets_attribute(a, b):
    o = _Box(a)
    o.__dict__["extra"] = b
    return o.extra + o._t
def uc_sorted_vars_keys(a, b):
    o = _Box(a)
    o.w = b
    keys = sorted(vars(o))
    return getattr(o, keys[0]) * len(keys)
def uc_vars_items_of_a_made_object(a, b):
    o = _Box(a)
    o.u = b
    total = a * 0
    for k, v in vars(o).items():
        total = total + v
    return total
def uc_class_attribute_update(a, b):
    class Local:
        n = 1
    Local.n = Local.n + 2
    return a * Local.n
def uc_class_statement_with_method(a, b):
    class Scale:
        k = 3
        def apply(self, t):
            return t * self.k
    return Scale().apply(a) + b
def uc_class_statement_after_ops(a, b):
    c = a.sin() + b
    class Holder:
        pass
    h = Holder()
    h.t = c
    return h.t * 2
def uc_class_statement_closing_over(a, b):
    k = 2
    class K:
        factor = k
    return a * K.factor + b
def uc_class_made_in_a_helper(a, b):
    def make():
        class C:
            v = 4
        return C
    return a * make().v
def uc_class_with_init_after_ops(a, b):
    c = a * 2
    class P:
        def __init__(self, x):
            self.x = x
    return P(c).x + b
class _Slots:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
def uc_slots(a, b):
    s = _Slots(a, b)
    s.x = s.x * 2
    return s.x + s.y

# ---- closures / nonlocal
def cl_nonlocal_counter(a, b):
    count = 0
    def bump(t):
        nonlocal count
        count += 1
        return t * count
    return bump(a) + bump(b) + count
def cl_closure_factory(a, b):
    def make(k):
        def f(t):
            return t * k
        return f
    fs = [make(i) for i in range(1, 4)]
    return sum(f(a) for f in fs) + b
def cl_lambda_default_capture(a, b):
    fs = [lambda t, i=i: t + i for i in range(3)]
    return fs[2](a) * fs[0](b)
def cl_closure_over_tensor(a, b):
    c = a * 2
    def f(t):
        return t + c
    return f(b) + f(a)
def cl_nested_nonlocal_two_levels(a, b):
    acc = []
    def outer(t):
        def inner(u):
            acc.append(u)
            return u * 2
        return inner(t) + 1
    return outer(a) + outer(b) + len(acc)

# ---- generators
def _gen(t, n):
    for i in range(n):
        yield t * i
def gen_sum(a, b):
    return sum(_gen(a, 3)) + b
def _gen_from(t):
    yield from _gen(t, 2)
    yield t + 100
def gen_yield_from(a, b):
    return list(_gen_from(a))[-1] + b
def gen_next_manual(a, b):
    g = _gen(a, 4)
    next(g)
    return next(g) + next(g)
def gen_expression_tuple(a, b):
    return tuple(t * 2 for t in (a, b))
def gen_send_none(a, b):
    def g():
        x = yield 1
        yield 2
    it = g()
    return a * next(it) + b * it.send(None)

# ---- try/except/finally
def te_try_finally(a, b):
    try:
        c = a + b
    finally:
        c = c * 2
    return c
def te_try_except_else(a, b):
    try:
        c = a * b
    except ValueError:
        c = a
    else:
        c = c + 1
    return c
def te_caught_key_error(a, b):
    d = {"x": a}
    try:
        return d["y"]
    except KeyError:
        return b * 3
def te_caught_stop_iteration(a, b):
    it = iter([a])
    next(it)
    try:
        next(it)
    except StopIteration:
        return b + 1
    return a

# ---- exceptions raised and caught in the frame (Dynamo 2.13 traces them: test_exceptions.py's shapes)
class _Stop(Exception):
    pass
def _lookup(d, k):
    return d[k]
def te_key_error_in_helper(a, b):
    try:
        return _lookup({"x": a}, "y")
    except KeyError:
        return b - 1
def te_user_exception_caught(a, b):
    try:
        if a.dim() == 1:
            raise _Stop("done")
        c = a
    except _Stop:
        c = b * 2
    return c + 1
def te_exception_args(a, b):
    try:
        raise ValueError(3, "x")
    except ValueError as e:
        return a * e.args[0] + len(e.args)
def te_except_tuple_and_order(a, b):
    try:
        {}["k"]
    except (IndexError, TypeError):
        return a
    except LookupError:
        return b * 4
def te_reraise_to_outer(a, b):
    try:
        try:
            raise KeyError("k")
        except KeyError:
            a = a + 1
            raise
    except KeyError:
        return a * 2
def te_finally_runs_on_raise(a, b):
    out = [a]
    try:
        try:
            next(iter([]))
        finally:
            out.append(b)
    except StopIteration:
        pass
    return out[-1] + out[0]
def te_manual_iteration(a, b):
    it = iter([a, b])
    total = a * 0
    while True:
        try:
            total = total + next(it)
        except StopIteration:
            break
    return total
def te_raise_from(a, b):
    try:
        try:
            {}["k"]
        except KeyError as e:
            raise RuntimeError("wrapped") from e
    except RuntimeError as e:
        return a + (1 if isinstance(e.__cause__, KeyError) else 2)
def te_dict_pop_missing(a, b):
    d = {"x": a}
    try:
        d.pop("y")
    except KeyError:
        d["y"] = b
    return d["x"] + d["y"]
def te_exception_class_raised(a, b):
    try:
        raise _Stop
    except Exception:
        return a - b
def te_else_and_finally_after_catch(a, b):
    c = a
    try:
        c = c + {"k": b}["k"]
    except KeyError:
        c = c * 0
    else:
        c = c * 2
    finally:
        c = c + 1
    return c
def te_caught_in_a_loop_of_helper_calls(a, b):
    total = a
    for k in ["x", "y", "x"]:
        try:
            total = total + _lookup({"x": b}, k)
        except KeyError:
            total = total - 1
    return total
def te_raise_leaves_no_grad_block(a, b):
    try:
        with torch.no_grad():
            c = a * 2
            raise _Stop()
    except _Stop:
        c = b + 1
    return c
def te_generator_exhausted_by_next(a, b):
    g = _count_up(a, 1)
    first = next(g)
    try:
        next(g)
    except StopIteration:
        return first * b
    return first
def te_str_of_caught_exception(a, b):
    try:
        raise ValueError("abc")
    except ValueError as e:
        return a * len(str(e))
def te_graph_break_in_except(a, b):
    c = a * 2
    try:
        {}["k"]
    except KeyError:
        dynamo.graph_break()
        c = c + 1
    return c * 3
def te_break_after_a_handled_exception(a, b):
    try:
        x = {}["k"]
    except KeyError:
        x = a + 1
    dynamo.graph_break()
    return x * 2
def _yield_then_raise(t):
    yield t
    raise _Stop("stop")
def te_generator_raises_mid_loop(a, b):
    out = a
    try:
        for t in _yield_then_raise(b):
            out = out + t
    except _Stop:
        out = out * 2
    return out
def te_raise_in_a_no_grad_block_of_a_helper(a, b):
    def inner(t):
        with torch.no_grad():
            t * 2
            raise _Stop()
    try:
        inner(a)
    except _Stop:
        pass
    return a + torch.is_grad_enabled()
def te_continue_from_a_handler_in_a_loop(a, b):
    total = a
    for k in ["x", "y", "z"]:
        try:
            total = total + {"x": b, "z": a}[k]
        except KeyError:
            continue
    return total
def te_isinstance_of_a_caught_exception(a, b):
    try:
        raise _Stop("m")
    except Exception as e:
        return a * (2 if isinstance(e, _Stop) else 3) + len(e.args)
def te_suppress_a_key_error(a, b):
    c = a * 2
    with contextlib.suppress(KeyError):
        c = c + {}["k"]
    return c + 1
def te_try_inside_nullcontext(a, b):
    c = a * 2
    with contextlib.nullcontext():
        try:
            {}["k"]
        except KeyError:
            c = c - 1
    return c + 1
def te_suppress_another_class_caught_outside(a, b):
    c = a * 2
    try:
        with contextlib.suppress(ValueError):
            c = c + {}["k"]
    except KeyError:
        c = c - b
    return c
def te_suppress_nothing_raised(a, b):
    with contextlib.suppress(KeyError, IndexError):
        c = a + b
    return c

# ---- grad modes
def gm_no_grad(a, b):
    with torch.no_grad():
        c = a * 2
    return c + b
def gm_enable_inside_no_grad(a, b):
    with torch.no_grad():
        with torch.enable_grad():
            c = a * 2
        d = b + 1
    return c + d
def gm_set_grad_enabled(a, b):
    with torch.set_grad_enabled(False):
        c = a.sin()
    return c + torch.is_grad_enabled()
def gm_is_grad_enabled_branch(a, b):
    if torch.is_grad_enabled():
        return a + 1
    return b
@torch.no_grad()
def _nograd_helper(t):
    return t * 4
def gm_decorated_helper(a, b):
    return _nograd_helper(a) + b
def gm_inference_mode(a, b):
    with torch.inference_mode():
        c = a + 1
    return c * 2
def gm_inference_mode_false_inside_no_grad(a, b):
    with torch.no_grad():
        with torch.inference_mode(False):
            c = a * b
    return c.sum() + 1
def gm_inference_mode_then_grad_question(a, b):
    with torch.inference_mode():
        c = a.relu() + b
        enabled = torch.is_grad_enabled()
    return c * 2 if not enabled else c
def gm_inference_mode_around_helper(a, b):
    def helper(x):
        return x.sin() * 3
    with torch.inference_mode(True):
        c = helper(a) + helper(b)
    return c.mean(), torch.is_inference_mode_enabled()

# ---- tensor attributes
def ta_shape_size_dim(a, b):
    return a * a.shape[0] + a.size(0) + a.size()[-1] + a.dim() + a.ndim + len(a.shape)
def ta_dtype_device(a, b):
    if a.dtype == torch.float32 and a.device.type == "cpu" and a.is_floating_point():
        return a.to(b.dtype) + 1
    return b
def ta_requires_grad_flag(a, b):
    return a + 1 if not a.requires_grad and a.grad is None and a.is_leaf else b
def ta_is_leaf_of_a_result(a, b):
    c = a * 2
    return c + 1 if c.is_leaf else b
def ta_is_leaf_read_twice(a, b):
    n = int(a.is_leaf) + int(b.is_leaf)
    return a * n
def ta_grad_is_none(a, b):
    return a + 1 if a.grad is None and not b.requires_grad else b
def ta_contiguous_numel(a, b):
    c = a.view(3, 1).expand(3, 2)
    return c.sum() + c.is_contiguous() + c.numel() + c.contiguous().is_contiguous() + a.element_size()
def ta_stride_storage_offset(a, b):
    v = a.view(1, 3).t()
    return a * v.stride(0) + v.stride()[1] + a[1:].storage_offset()
def ta_size_arithmetic(a, b):
    s = a.view(1, 3).shape
    n = s[0] * s[1] + s.numel()
    return torch.zeros(s + (2,)).sum() + a * n + len(s[1:])
def ta_size_compare_unpack(a, b):
    h, = a.shape
    return a * h if a.shape == b.shape and a.shape == (3,) and a.size() == torch.Size([3]) else b
def ta_new_tensor_from_size(a, b):
    return a.new_zeros(a.shape) + a.new_ones((2, 3)).sum(0) + torch.ones(*a.shape)
def ta_dtype_properties(a, b):
    return a * a.dtype.itemsize + a.dtype.is_floating_point + (torch.float16 != a.dtype)

# ---- containers
def ct_list_methods(a, b):
    xs = [a]
    xs.extend([b, a * 2])
    xs.insert(1, b * 3)
    y = xs.pop()
    ns = [3, 1, 3]
    ns.remove(3)
    return y + xs[0] + ns.index(3) + ns.count(1) + len(xs)
def ct_list_remove_forms(a, b):
    xs = [(1, 2), a, 3, b]
    xs.remove((1, 2))
    xs.remove(a)
    return xs[0] + xs[1] * len(xs)
def ct_list_sort_numbers(a, b):
    ns = [3, 1, 2]
    ns.sort(reverse=True)
    return a * ns[0] + ns[-1]
def ct_list_mul_add(a, b):
    xs = [a] * 2 + [b]
    return sum(xs) + len(xs * 2)
def ct_dict_methods(a, b):
    d = {"x": a}
    d.setdefault("y", b)
    d.setdefault("x", b)
    v = d.pop("x")
    w = d.get("z", a * 0)
    d2 = d.copy()
    d2.update(z=v)
    return v + w + d2["y"] + d2["z"] + len(d)
def ct_dict_items_loop(a, b):
    d = {"x": a, "y": b}
    return {k + "_2": v * 2 for k, v in d.items() if k != "y"}
def ct_dict_merge_ops(a, b):
    d = {"x": a} | {"y": b}
    d |= {"z": a + b}
    return d["z"] + len(d) + list(d.values())[1]
def ct_dict_in_keys_values(a, b):
    d = {"x": 1, "y": 2}
    return a * sum(d.values()) if "x" in d and 3 not in d.values() else b
def ct_set_methods(a, b):
    s = {1, 2, 3}
    s.discard(2)
    s.update({4, 5})
    s2 = s - {1}
    return a * len(s2) + max(s) + (s2 <= s) + len(s ^ {9})
def ct_tuple_methods(a, b):
    t = (1, 2, 2, 3)
    return a * t.count(2) + t.index(3) + (t < (1, 3))
def ct_list_comprehension_filter(a, b):
    return torch.cat([t * i for i, t in enumerate([a, b, a]) if i != 1])
def ct_set_comprehension(a, b):
    return a * len({i % 3 for i in range(10)})
def ct_nested_unpack(a, b):
    (p, q), r = (a, b), a + b
    return p * q + r
def ct_tensor_identity_in_list(a, b):
    xs = [a, b]
    return a * 2 if any(t is b for t in xs) and xs[0] is a else b
def ct_list_equal(a, b):
    return a * 2 if [1, 2] == [1, 2] and (1, 2) != (2, 1) and [1] < [2] else b
def ct_del_items(a, b):
    xs = [a, b, a * 2]
    del xs[0]
    d = {"x": a, "y": b}
    del d["x"]
    return xs[0] + d["y"] + len(xs)

# ---- globals
_COUNT = 3
_TABLE = {"scale": 2.0}
_LIST = [1, 2]
def gl_read_globals(a, b):
    return a * _COUNT + _TABLE["scale"] + len(_LIST)
def gl_mutate_global_dict(a, b):
    _TABLE["last"] = 5
    return a * _TABLE["last"]
_REGISTRY = {"w": 2}
_SEEN = {}
_OPTIONS = {"scale": 3, "old": 1}
def gl_global_dict_updated_then_measured(a, b):
    _REGISTRY.update(extra=1)
    return a * len(_REGISTRY) + _REGISTRY["w"]
def gl_global_dict_written_then_graph_break(a, b):
    _SEEN["seen"] = 1
    c = a + 1
    dynamo.graph_break()
    return c * _SEEN["seen"] + len(_SEEN)
def gl_global_dict_pop_and_setdefault(a, b):
    old = _OPTIONS.pop("old", 0)
    scale = _OPTIONS.setdefault("scale", 5)
    _OPTIONS["old"] = old
    return a * scale + old
def gl_global_dict_item_added_and_deleted(a, b):
    d = _OPTIONS
    d["tmp"] = 4
    del d["tmp"]
    return a * len(d)
def gl_global_statement(a, b):
    global _G_OUT
    _G_OUT = 7
    return a * _G_OUT
_G_OUT = 0
import math as _m
def gl_module_attribute(a, b):
    return a * _m.pi + torch.pi

# ---- torch functions with kwargs and out=
def tk_kwargs(a, b):
    return torch.sum(input=a, dim=0, keepdim=True) + torch.clamp(b, min=-0.1, max=0.1) + torch.add(a, b, alpha=2)
def tk_out(a, b):
    out = torch.empty(3)
    torch.add(a, b, out=out)
    return out * 2
def tk_out_mul(a, b):
    out = torch.empty(3)
    torch.mul(a, 2, out=out)
    torch.sin(out, out=out)
    return out
def tk_factory_kwargs(a, b):
    return a + torch.zeros(3, dtype=torch.float32) + torch.arange(3, dtype=torch.float32) + torch.full((3,), 2.0)
def tk_linspace_kwargs(a, b):
    return a * torch.linspace(0, 1, steps=3) + torch.eye(3)[0]
def tk_reductions_kw(a, b):
    v, i = torch.max(torch.stack([a, b]), dim=0)
    return v + i + torch.mean(a, dim=-1, keepdim=True) + a.std(unbiased=False)
def tk_tensor_methods_kw(a, b):
    return a.sum(dim=0) + a.softmax(dim=-1) + b.cumsum(dim=0) + a.to(dtype=torch.float64).float()

# ---- in-place ops
def ip_inplace_methods(a, b):
    c = a.clone()
    c.add_(b)
    c.mul_(2)
    c.sub_(1)
    c.div_(3)
    return c
def ip_inplace_operators(a, b):
    c = a * 1
    c += b
    c *= 2
    c -= a
    c /= 2
    return c
def ip_inplace_unary(a, b):
    c = a.clone()
    c.sin_().abs_().sqrt_()
    c.clamp_(min=0.1)
    return c
def ip_inplace_index_put(a, b):
    c = a.clone()
    c[0] = 5
    c[1:] += b[1:]
    c[b > 0] = 0
    return c
def ip_zero_fill(a, b):
    c = a.clone()
    c.zero_()
    c.fill_(2)
    return c + b
def ip_copy_(a, b):
    c = torch.empty(3)
    c.copy_(a)
    return c * b
def ip_addcdiv_(a, b):
    c = a.clone()
    c.addcdiv_(a, b.abs() + 1)
    c.lerp_(b, 0.5)
    return c
def ip_inplace_on_input(a, b):
    a.add_(1)
    return a * b

# ---- nn.Module: Sequential, ModuleDict, ParameterList, attributes, parameters, super().forward
torch.manual_seed(0)
class _Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 3))
        self.scale = nn.Parameter(torch.ones(3))
        self.register_buffer("offset", torch.full((3,), 0.5))
    def forward(self, x):
        return self.body(x) * self.scale + self.offset
_SEQ = _Seq()
def nm_sequential_param_buffer(a, b):
    return _SEQ(a) + b
class _Dict(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({"p": nn.Linear(3, 3), "q": nn.Linear(3, 3)})
    def forward(self, x):
        return sum(h(x) for h in self.heads.values()) + self.heads["q"](x) * len(self.heads)
_DICT = _Dict()
def nm_moduledict(a, b):
    return _DICT(a)
class _PList(nn.Module):
    def __init__(self):
        super().__init__()
        self.ws = nn.ParameterList([nn.Parameter(torch.ones(3) * i) for i in range(3)])
    def forward(self, x):
        for w in self.ws:
            x = x * w + 1
        return x + self.ws[-1]
_PLIST = _PList()
def nm_parameterlist(a, b):
    return _PLIST(a)
class _Attrs(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.k = 3
        self.names = ["a", "b"]
    def forward(self, x):
        y = self.lin(x)
        if self.training and isinstance(self.lin, nn.Linear) and hasattr(self, "k"):
            y = y * self.k
        return y + len(self.names) + self.lin.weight.shape[0] + self.lin.in_features
_ATTRS = _Attrs()
def nm_module_attributes(a, b):
    return _ATTRS(a)
def nm_named_parameters(a, b):
    total = a
    for name, p in _SEQ.named_parameters():
        if "weight" in name:
            total = total + p.sum()
    return total + sum(1 for _ in _SEQ.parameters())
def nm_children_modules(a, b):
    n = len(list(_SEQ.children())) + len(list(_SEQ.modules()))
    return a * n
def nm_sequential_indexing(a, b):
    return _SEQ.body[0](a).sum() + _SEQ.body[-1](_SEQ.body[:2](a)) + len(_SEQ.body)
class _Sub(_Seq):
    def forward(self, x):
        return super().forward(x) * 2
_SUB = _Sub()
def nm_subclass_super_forward(a, b):
    return _SUB(a)
class _Helper(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
    def _act(self, t):
        return F.gelu(t)
    @property
    def width(self):
        return self.lin.out_features
    def forward(self, x):
        return self._act(self.lin(x)) * self.width
_HELPER = _Helper()
def nm_helper_method_property(a, b):
    return _HELPER(a)
def nm_functional_kwargs(a, b):
    return F.softmax(a, dim=0) + F.dropout(b, p=0.0, training=False) + F.layer_norm(a, (3,)) + F.linear(a, _HELPER.lin.weight, bias=None)
def nm_modules_in_frame(a, b):
    return nn.Tanh()(a) + nn.Identity()(b) + nn.LeakyReLU(0.1)(a)
class _Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
    def forward(self, x):
        return self.lin(x).relu().sum(dim=-1, keepdim=True).expand(3)
_CNT = _Counter()
def nm_chained_methods(a, b):
    return _CNT(a) + _CNT(b)
def nm_no_grad_module(a, b):
    with torch.no_grad():
        y = _HELPER(a)
    return y + b
def nm_state_dict_keys(a, b):
    return a * len(_SEQ.state_dict())
class _DictRead(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
        self.k = 3
    def forward(self, x):
        return self.lin(x) * self.__dict__["k"] + len(self.__dict__["_modules"])
_DICT_READ = _DictRead()
def nm_module_dict_read_in_forward(a, b):
    return _DICT_READ(a) + b
def nm_named_modules_with_prefix(a, b):
    names = [n for n, _ in _SEQ.named_modules(prefix="root")]
    return a * len(names) + b * len(names[-1])
def nm_buffers_summed(a, b):
    return a + sum(buf.sum() for buf in _SEQ.buffers())
def nm_parameters_not_recursing(a, b):
    return a * len(list(_SEQ.parameters(recurse=False))) + len(list(_SEQ.body.parameters(False)))
def nm_state_dict_values(a, b):
    sd = _SEQ.state_dict()
    kept = _SEQ.state_dict(keep_vars=True)
    return a * sd["scale"] + kept["offset"] + sd["body.2.bias"].sum() + len(list(sd.keys()))
def nm_walk_in_forward_isinstance(a, b):
    x = a
    for m in _SEQ.modules():
        if isinstance(m, nn.Linear):
            x = m(x)
    return x + b
def nm_named_children_loop(a, b):
    out = a
    for name, child in _SEQ.body.named_children():
        if name != "1":
            out = out + child.weight.sum()
    return out
class _Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(3, 3)
        self.dec = self.enc
    def forward(self, x):
        n = len(list(self.parameters())) + len(list(self.modules()))
        n = n + len(list(self.named_parameters(remove_duplicate=False)))
        return self.dec(self.enc(x)) * n
_TIED = _Tied()
def nm_tied_weights_walked_once(a, b):
    return _TIED(a) + b
class _Skip(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 3), nn.Sigmoid())
    def forward(self, x):
        head = self.body[0](x)
        return self.body[1:](head) + self.body[::2][1](head) + len(self.body[1:3])
_SKIP = _Skip()
def nm_sequential_slices_in_forward(a, b):
    return _SKIP(a) * b

# ---- torch.Size arithmetic, control flow, tensor introspection, in-place and out= counts, partials, strings, nesting
def sz_shape_arith(a, b):
    m = a.view(1, 3)
    return m.reshape(m.shape[1] * m.shape[0]) + max(m.shape) + sum(m.shape) + math.prod(m.shape) + m.size(-1) // 2
def sz_size_concat(a, b):
    s = a.view(1, 3).shape + (1,)
    return a.view(*s).sum(-1).flatten() + len(s) + s[-2]
def sz_permute_reversed(a, b):
    m = a.view(1, 3, 1)
    return m.permute(*reversed(range(m.dim()))).flatten() + b
def sz_unbind_chunk_split(a, b):
    x, y, z = a.unbind()
    p, q = b.split([1, 2])
    c = a.chunk(3)
    return x + y * z + p.sum() + q.sum() + len(c)
def cf_walrus_chain_compare(a, b):
    if (n := a.shape[0]) > 2 and 0 < n < 10:
        return a * n
    return b
def cf_while_break_continue(a, b):
    i, out = 0, a
    while True:
        i += 1
        if i % 2 == 0:
            continue
        out = out + i
        if i > 4:
            break
    return out
def cf_for_else(a, b):
    for k in range(3):
        if k == 5:
            break
    else:
        a = a + 10
    return a
def cf_assert_constant(a, b):
    assert a.dim() == 1, "expected a vector"
    assert isinstance(b, torch.Tensor)
    return a + b
def _fib(n):
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)
def cf_recursion_constant(a, b):
    return a * _fib(6)
_ACTS = {"relu": torch.relu, "tanh": torch.tanh, "id": lambda t: t}
def cf_function_table(a, b):
    return sum(f(a) for f in _ACTS.values()) + _ACTS["relu"](b)
def cf_getattr_torch(a, b):
    return getattr(torch, "sigmoid")(a) + getattr(a, "cos")()
def ts_is_tensor_numel(a, b):
    return a * torch.numel(b) if torch.is_tensor(a) and not torch.is_tensor(3) else b
def ts_type_string(a, b):
    return a + 1 if a.type() == "torch.FloatTensor" and not a.is_cuda and a.layout == torch.strided else b
def ts_isinstance_parameter(a, b):
    return a * 2 if not isinstance(a, torch.nn.Parameter) and isinstance(a, torch.Tensor) else b
def ts_cat_stack_kw(a, b):
    return torch.cat([a, b], dim=0).view(2, 3).sum(dim=1) + torch.stack([a, b], dim=1).sum(dim=0)
def ts_fstring_shape(a, b):
    msg = f"shape={tuple(a.shape)} n={a.numel()}"
    return a * len(msg)
def ts_new_tensor(a, b):
    return a + a.new_tensor([1.0, 2.0, 3.0]) + a.new_full((3,), 2.0)
def ts_zip_star(a, b):
    rows = [[a, b], [b, a]]
    cols = list(zip(*rows))
    return cols[0][1] * cols[1][0]
def ts_sorted_by_shape(a, b):
    xs = sorted([a.view(1, 3), b], key=lambda t: t.dim())
    return xs[0] + xs[1].flatten()
def ip_op_counts(a, b):
    c = a.clone()
    c.add_(b).mul_(2)
    c.addcmul_(a, b)
    c.clamp_(-1, 1)
    c.masked_fill_(c > 0.5, 0.5)
    return c
def ip_setitem_counts(a, b):
    c = torch.zeros(3, 3)
    c[0] = a
    c[:, 1] += b
    c[2, 2] = 7
    return c
def ip_out_variants(a, b):
    out = torch.empty(3)
    torch.mul(a, b, out=out)
    torch.exp(out, out=out)
    res = torch.empty(3)
    torch.add(out, 1, alpha=2, out=res)
    return res
def pt_partial_many(a, b):
    add2 = functools.partial(torch.add, alpha=2)
    mm = functools.partial(operator.mul, 3)
    return add2(a, b) + mm(b) + functools.partial(torch.clamp, max=0.2)(a)
def pt_partial_in_loop(a, b):
    fs = [functools.partial(torch.mul, other=k) for k in (1, 2)]
    return sum(f(a) for f in fs) + b
def st_str_formatting(a, b):
    key = "{}_{}".format("w", 2)
    tag = "%.1f|%s" % (1.25, [1, 2])
    return a * (len(key) + len(tag)) + float(str(2.5)) + int("1" + "0")
def st_join_split_strip(a, b):
    words = " alpha beta ".strip().split()
    return a * len("/".join(w.upper() for w in words)) + words.index("beta")
def dc_nested_structures(a, b):
    cfg = {"layers": [{"w": a, "k": 2}, {"w": b, "k": 3}], "name": "x"}
    return sum(l["w"] * l["k"] for l in cfg["layers"]) + len(cfg["name"])
def dc_dict_sorted_keys(a, b):
    d = {"z": a, "a": b, "m": a + b}
    return torch.stack([d[k] for k in sorted(d)]).sum(0)
def dc_list_of_tuples_unpack(a, b):
    pairs = [(a, 1), (b, 2)]
    return sum(t * k for t, k in pairs) + max(k for _, k in pairs)
def gm_requires_grad_in_no_grad(a, b):
    w = a.detach().requires_grad_(True) if False else a
    with torch.no_grad():
        c = w * 2
    return c + torch.is_grad_enabled() + (not c.requires_grad)

# ---- modules by getattr(self, f"fc{i}"), keyword calls, @no_grad methods; indexing forms; sizes; constants; nesting
torch.manual_seed(0)
class _Named(nn.Module):
    def __init__(self):
        super().__init__()
        for i in range(3):
            setattr(self, f"fc{i}", nn.Linear(3, 3))
    def forward(self, x):
        for i in range(3):
            x = getattr(self, f"fc{i}")(x).tanh()
        return x
_NAMED = _Named()
def nm_getattr_named_layers(a, b):
    return _NAMED(a) + b
class _Kw(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
    def forward(self, x, scale=1.0, *, shift=None):
        y = self.lin(x) * scale
        return y if shift is None else y + shift
_KW = _Kw()
def nm_module_call_kwargs(a, b):
    return _KW(a, scale=2.0, shift=b) + _KW(b)
def nm_inplace_functional(a, b):
    c = a.clone()
    F.relu(c, inplace=True)
    c.relu_()
    return F.leaky_relu(c, 0.1, inplace=False) + b
class _NoGradMethod(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)
    @torch.no_grad()
    def stats(self, x):
        return self.lin(x).mean()
    def forward(self, x):
        return x * self.stats(x)
_NGM = _NoGradMethod()
def nm_no_grad_method(a, b):
    return _NGM(a)
def ix_indexing_forms(a, b):
    m = a.view(1, 3)
    return m[None, :, None].sum() + m[..., 0] + a[[0, 2]].sum() + a[-1] + m[0, 1:].sum()
def ix_where_scalar(a, b):
    return torch.where(a > 0, a, 0.0) + torch.where(b > 0, 1.0, b)
def sz_size_constructors(a, b):
    s = torch.Size([3])
    return a * 2 if a.size() == s and tuple(a.shape) == (3,) and isinstance(a.shape, tuple) else b
def sz_float_of_size(a, b):
    return a * float(a.shape[0]) + math.floor(a.shape[0] / 2) + a.shape[0] % 2
def ct_constant_tensor_in_frame(a, b):
    return a + torch.tensor([1.0, 2.0, 3.0]) + torch.ones_like(b) * torch.tensor(2.0)
def ct_sum_with_tensor_start(a, b):
    return sum([a, b], torch.zeros(3))
def ct_enumerate_reversed(a, b):
    out = a
    for i, t in enumerate(reversed([a, b])):
        out = out * (i + 1) + t
    return out
def ct_dict_kwargs_items(a, b):
    total = a
    for k, v in dict(x=1, y=2).items():
        total = total + v * len(k)
    return total
def ct_list_sort_key(a, b):
    xs = [(2, a), (1, b)]
    xs.sort(key=lambda p: p[0])
    return xs[0][1] - xs[1][1]
def ct_map_index_lambda(a, b):
    ts = [a, b]
    return sum(map(lambda i: ts[i] * i, range(2)))
def np_numpy_functions_on_tensors(a, b):
    import numpy as np
    return torch.from_numpy(np.sin(a.numpy())) + b
def cm_nested_with(a, b):
    with torch.no_grad():
        with torch.enable_grad():
            with torch.set_grad_enabled(False):
                c = a * 2
    return c + b

# ---- in-place methods and out= (op counts), an in-place method's result is its receiver, numpy functions on tensors
def ip_scatter_index_add(a, b):
    c = torch.zeros(3)
    c.index_add_(0, torch.tensor([0, 2]), b[:2])
    c.scatter_(0, torch.tensor([1]), a[:1])
    return c
def ip_lerp_pow_exp(a, b):
    c = a.clone()
    c.lerp_(b, 0.3).pow_(2).exp_()
    return c
def ip_addmm_baddbmm(a, b):
    m = torch.ones(3, 3)
    m.addmm_(a.view(3, 1), b.view(1, 3), beta=0.5, alpha=2)
    return m.sum(0)
def ip_t_unsqueeze_(a, b):
    m = a.clone().view(1, 3)
    m.t_()
    m.unsqueeze_(0)
    m.squeeze_()
    return m + b
def ip_div_mode(a, b):
    c = a.clone()
    c.div_(b.abs() + 1, rounding_mode="floor")
    return c + torch.div(a, 2, rounding_mode="trunc")
def ip_div_trunc_by_a_number(a, b):
    c = a * 10
    c.div_(3, rounding_mode="trunc")
    return c + b
def ip_div_floor_of_an_integer_tensor(a, b):
    n = (a * 10).long()
    n.div_(3, rounding_mode="floor")
    return b * n
def ip_sub_rsub_alpha(a, b):
    return torch.sub(a, b, alpha=3) + torch.rsub(a, 1) + a.sub(b, alpha=0.5)
def ip_partial_inplace_chain(a, b):
    c = a.clone()
    step = functools.partial(c.add_, alpha=-0.1)
    step(b)
    step(b)
    return c
def ip_out_kw_family(a, b):
    out = torch.empty(3)
    torch.clamp(a, min=0.0, out=out)
    o2 = torch.empty(3)
    torch.maximum(out, b, out=o2)
    o3 = torch.empty(1)
    torch.sum(o2, dim=0, keepdim=True, out=o3)
    return o3 + o2
def ip_matmul_out(a, b):
    out = torch.empty(1, 1)
    torch.matmul(a.view(1, 3), b.view(3, 1), out=out)
    return out.sum() + a
def ip_kwargs_methods(a, b):
    return a.clamp(min=-0.1, max=0.1) + a.add(b, alpha=2) + a.sum(dim=0, keepdim=True) + b.norm(p=2)
def ip_inplace_returns_self(a, b):
    c = a.clone()
    d = c.mul_(2)
    return d is c, d + 1
def np_sin_on_tensor(a, b):
    import numpy as np
    return np.sin(a) + 1
def np_mean_axis(a, b):
    import numpy as np
    return torch.as_tensor(np.mean(a.numpy().reshape(1, 3), axis=0)) + b
def np_clip_where(a, b):
    import numpy as np
    return torch.from_numpy(np.where(a.numpy() > 0, np.clip(a.numpy(), 0, 0.5), 0.0)) * b

# ---- dataclasses with methods, typing.NamedTuple, type(self).__name__, object trees, stateful callables, decorators
import typing
@dataclasses.dataclass
class _Pt:
    x: object
    y: object
    def __post_init__(self):
        self.s = 2
    def norm(self):
        return self.x * self.x + self.y * self.y
    @property
    def total(self):
        return (self.x + self.y) * self.s
def uc_dataclass_methods(a, b):
    p = _Pt(a, b)
    return p.norm() + p.total
class _TNT(typing.NamedTuple):
    u: object
    v: object = None
    def both(self):
        return self.u if self.v is None else self.u + self.v
def uc_typing_namedtuple(a, b):
    return _TNT(a, b).both() + _TNT(a).both()
class _Named2:
    def kind(self):
        return type(self).__name__ + self.__class__.__name__
    @staticmethod
    def k():
        return 3
    def scaled(self, t):
        return t * self.k()
def uc_type_name_staticmethod_self(a, b):
    o = _Named2()
    return o.scaled(a) * len(o.kind())
class _Node:
    def __init__(self, t, children=()):
        self.t = t
        self.children = list(children)
    def total(self):
        return self.t + sum(c.total() for c in self.children) if self.children else self.t
def uc_object_tree(a, b):
    tree = _Node(a, [_Node(b), _Node(a * 2, [_Node(b * 3)])])
    return tree.total()
def uc_objects_in_dict(a, b):
    reg = {"p": _Node(a), "q": _Node(b)}
    return sum(n.t for n in reg.values()) * len(reg)
class _Stateful:
    def __init__(self):
        self.calls = 0
        self.hist = []
    def __call__(self, t):
        self.calls += 1
        self.hist.append(t)
        return t * self.calls
def uc_stateful_callable(a, b):
    f = _Stateful()
    return f(a) + f(b) + len(f.hist)
class _WithDefaults:
    def __init__(self, t, scale=2, *args, **kw):
        self.t, self.scale, self.extra = t, scale, kw.get("bias", 0)
def uc_init_defaults_kwargs(a, b):
    o = _WithDefaults(a, bias=1)
    p = _WithDefaults(b, 3)
    return o.t * o.scale + o.extra + p.t * p.scale
def cl_closure_counter_list(a, b):
    seen = []
    def record(t):
        seen.append(t)
        return t
    record(a)
    record(b * 2)
    return sum(seen)
def cl_decorator_in_frame(a, b):
    def double(fn):
        def inner(t):
            return fn(t) * 2
        return inner
    @double
    def add1(t):
        return t + 1
    return add1(a) + b
def cl_recursive_nested(a, b):
    def depth(t, n):
        return t if n == 0 else depth(t * 2, n - 1)
    return depth(a, 3) + b

# ---- generators: __iter__ that yields, generators zipped and sliced, yield from's value, a break mid-consumption
class _Bag:
    def __init__(self, *ts):
        self.ts = ts
    def __iter__(self):
        for t in self.ts:
            yield t * 2
def gen_user_iter_yield(a, b):
    return sum(_Bag(a, b)) + len(list(_Bag(a)))
def _count_up(t, n):
    i = 0
    while i < n:
        yield t + i
        i += 1
    return "done"
def gen_zip_enumerate_generators(a, b):
    out = a * 0
    for i, (u, v) in enumerate(zip(_count_up(a, 3), _count_up(b, 2))):
        out = out + u * v * i
    return out
def gen_itertools_over_generator(a, b):
    return sum(itertools.islice(_count_up(a, 10), 2, 4)) + b
def gen_break_mid_consumption(a, b):
    g = _count_up(a, 3)
    first = next(g)
    dynamo.graph_break()
    return first + sum(g)
def gen_filtered_genexpr(a, b):
    return sum(t for t in _count_up(b, 4) if t is not None) * 2
def gen_return_value_yield_from(a, b):
    def outer(t):
        result = yield from _count_up(t, 2)
        yield t * len(result)
    return list(outer(a))[-1] + b
'''

MORE_PROGRAMS = tuple(line[4:line.index("(")] for line in MORE_SRC.splitlines()
                      if line.startswith("def ") and not line.startswith("def _"))

# Programs whose exception no handler in the frame catches: Dynamo runs the frame eagerly (its "Observed exception").
UNCAUGHT_SRC = r'''
class _Stop(Exception):
    pass
def _lookup(d, k):
    return d[k]
def missing_key_after_an_op(a):
    c = a + 1
    return {"x": c}["y"]
def raise_after_an_op(a):
    c = a + 1
    if c.dim() == 1:
        raise _Stop("x")
    return c
def raise_through_finally(a):
    c = a * 2
    try:
        raise ValueError("v")
    finally:
        c = c + 1
def handler_of_another_class(a):
    c = a * 2
    try:
        _lookup({}, "k")
    except ValueError:
        c = c + 1
    return c
'''
