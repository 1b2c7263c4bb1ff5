"""The second half of the sixth batch (corpus_dynamo_tests_ported_6.py has the first), in the style of Dynamo's
test_misc.py, test_functions.py, test_repros.py and test_unspec.py: user classes (properties, classmethods and
staticmethods reached through instances and subclasses, three-level super() chains, class attributes overridden,
__getattr__ fallbacks, __slots__, operator dunders, classes defined inside the frame), dataclasses (default
factories, frozen ones as dict keys and their FrozenInstanceError, fields(), asdict, replace) and namedtuples
(_replace, _asdict, _fields, _make); strings (split, join, format specs, %-formatting, str methods); sorted with keys,
star unpacking, walrus, closures three cells deep, global counters; functools (lru_cache, wraps, reduce, partial of
partial), operator (itemgetter of several, attrgetter, methodcaller); math on sizes, torch.Size arithmetic and
unpacking, dtype and device checks, isinstance over tuples of types, finfo/iinfo; random.Random seeded in the frame;
numpy arrays made from tensors and numpy constants; and RECOMPILE_SRC (the calls are in test_dynamo_tests_ported_6.py).
Our own programs; the names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import collections, dataclasses, functools, itertools, math, operator, random
import numpy as np


class _Base:
    scale = 2
    def __init__(self, k):
        self.k = k
    @property
    def double(self):
        return self.k * 2
    @classmethod
    def make(cls, k):
        return cls(k + 1)
    @staticmethod
    def shift(x):
        return x + 1
    def apply(self, x):
        return x * self.k
class _Mid(_Base):
    def apply(self, x):
        return super().apply(x) + 1
class _Leaf(_Mid):
    scale = 3
    def apply(self, x):
        return super().apply(x) * self.scale
class _Lazy:
    def __init__(self):
        self.base = 3
    def __getattr__(self, name):
        if name.startswith("w"):
            return len(name)
        raise AttributeError(name)
class _Slotted:
    __slots__ = ("u", "v")
    def __init__(self, u, v):
        self.u, self.v = u, v
class _Vec:
    def __init__(self, t):
        self.t = t
    def __add__(self, other):
        return _Vec(self.t + other.t)
    def __mul__(self, k):
        return _Vec(self.t * k)
    __rmul__ = __mul__
    def __neg__(self):
        return _Vec(-self.t)
    def __len__(self):
        return self.t.shape[0]
@dataclasses.dataclass
class _Cfg:
    width: int = 2
    scale: float = 0.5
    tags: list = dataclasses.field(default_factory=list)
@dataclasses.dataclass(frozen=True)
class _Frozen:
    k: int
    m: int = 3
_Point = collections.namedtuple("_Point", "x y")
_COUNT = 0


# ---- user classes
def uc6_property_read(a, b):
    return a * _Base(2).double + b
def uc6_classmethod_constructor_on_subclass(a, b):
    o = _Leaf.make(1)
    return o.apply(a) + b * (type(o) is _Leaf)
def uc6_staticmethod_via_instance(a, b):
    return _Mid(1).shift(a) * b
def uc6_super_chain_three_levels(a, b):
    return _Leaf(2).apply(a) - _Mid(3).apply(b)
def uc6_class_attribute_overridden(a, b):
    return a * _Leaf.scale + b * _Base(1).scale
def uc6_getattr_fallback(a, b):
    o = _Lazy()
    return a * o.width + b * o.base
def uc6_hasattr_through_getattr_raising(a, b):
    o = _Lazy()
    return a * hasattr(o, "wide") + b * hasattr(o, "missing")
def uc6_slots_class(a, b):
    s = _Slotted(a, 2)
    s.v = s.v + 1
    return s.u * s.v + b
def uc6_operator_dunders(a, b):
    v = -(2 * _Vec(a) + _Vec(b) * 3)
    return v.t * len(v)
def uc6_class_defined_in_frame(a, b):
    class Local:
        k = 4
    return a * Local.k + b
def uc6_instance_attribute_set_in_frame(a, b):
    o = _Base(1)
    o.extra = b * 2
    o.k = 5
    return o.apply(a) + o.extra
def uc6_isinstance_over_tuple(a, b):
    o = _Leaf(1)
    return a * isinstance(o, (int, _Mid)) + b * isinstance(3, (float, str))
def uc6_issubclass_chain(a, b):
    return a * issubclass(_Leaf, _Base) + b * issubclass(_Base, _Leaf)
def uc6_type_name_length(a, b):
    return a * len(type(_Leaf(1)).__name__) + b
def uc6_dataclass_default_factory(a, b):
    c = _Cfg()
    c.tags.append("x")
    return a * c.width * len(c.tags) + b * c.scale
def uc6_frozen_dataclass_as_key(a, b):
    table = {_Frozen(1): a, _Frozen(2, 4): b}
    return table[_Frozen(1)] + table[_Frozen(2, 4)] * 2
def uc6_frozen_dataclass_assign_raises(a, b):
    f = _Frozen(1)
    try:
        f.k = 2
    except dataclasses.FrozenInstanceError:
        return a * f.k + b
    return a
def uc6_dataclass_fields_loop(a, b):
    c = _Cfg(width=3)
    names = [f.name for f in dataclasses.fields(c)]
    return a * len(names) + b * c.width
def uc6_dataclass_asdict(a, b):
    d = dataclasses.asdict(_Cfg(4, 0.25))
    return a * d["width"] + b * d["scale"]
def uc6_dataclass_replace(a, b):
    c = dataclasses.replace(_Cfg(), scale=2.0)
    return a * c.scale + b * c.width
def uc6_namedtuple_replace(a, b):
    p = _Point(a, b)._replace(y=a * 2)
    return p.x + p.y
def uc6_namedtuple_asdict(a, b):
    d = _Point(1, 2)._asdict()
    return a * d["x"] + b * d["y"]
def uc6_namedtuple_fields_and_make(a, b):
    p = _Point._make([a, b])
    return p.x * len(_Point._fields) + p[1]
def uc6_namedtuple_unpack_and_index(a, b):
    x, y = _Point(a, b)
    return x - y + _Point(3, 4).y * a


# ---- strings, sorting, unpacking, closures, globals
def py6_string_split_and_join(a, b):
    parts = "a,bb,ccc".split(",")
    return a * len("-".join(parts)) + b * len(parts[-1])
def py6_format_spec_and_percent(a, b):
    s = f"{3.14159:.2f}" + "%03d" % 7
    return a * len(s) + b
def py6_str_methods(a, b):
    s = "  Hello World  ".strip().lower()
    return a * s.count("o") + b * s.startswith("hello") + s.find("w")
def py6_str_format_method(a, b):
    s = "{}-{name}".format(1, name="xy")
    return a * len(s)
def py6_string_in_and_replace(a, b):
    s = "relu_tanh".replace("_", "")
    return a * ("tan" in s) + b * len(s)
def py6_sorted_with_key_len(a, b):
    ws = sorted(["ccc", "a", "bb"], key=len)
    return a * len(ws[0]) + b * len(ws[-1])
def py6_sorted_tensors_by_key(a, b):
    ts = sorted([a * 3, b, a + b], key=lambda t: t.shape[0] * 0 + 1)
    return ts[0] - ts[2]
def py6_star_unpacking_first_rest(a, b):
    first, *rest = [a, b, a * b, a - b]
    return first + sum(rest) * len(rest)
def py6_star_unpacking_last(a, b):
    *init, last = (1, 2, 3)
    return a * last + b * len(init)
def py6_call_with_star_args_and_kwargs(a, b):
    def f(x, y, *, scale=1):
        return (x + y) * scale
    args, kwargs = (a, b), {"scale": 3}
    return f(*args, **kwargs)
def py6_walrus_in_if(a, b):
    if (n := a.shape[0]) > 2:
        return a * n
    return b
def py6_walrus_in_comprehension(a, b):
    vals = [y for x in (a, b) if (y := x * 2) is not None]
    return vals[0] + vals[1]
def py6_closure_three_cells_deep(a, b):
    k = 2
    def outer():
        m = 3
        def inner(x):
            return x * k + m
        return inner
    return outer()(a) + b
def py6_nonlocal_counter_closure(a, b):
    n = 0
    def bump():
        nonlocal n
        n += 1
        return n
    bump()
    bump()
    return a * bump() + b
def py6_global_counter(a, b):
    global _COUNT
    _COUNT = 0
    for _ in range(3):
        _COUNT += 1
    return a * _COUNT + b
def py6_zip_strict_lengths(a, b):
    return sum(x * y for x, y in zip((a, b), (2, 3), strict=True))
def py6_itertools_accumulate(a, b):
    sizes = list(itertools.accumulate([1, 2, 3]))
    return a * sizes[-1] + b * len(sizes)

def py6_str_of_shape(a, b):
    return a * len(str(a.shape)) + b * len(repr(a.dim()))
def py6_sorted_items_by_itemgetter(a, b):
    pairs = sorted({"x": 3, "y": 1, "z": 2}.items(), key=operator.itemgetter(1))
    return a * pairs[0][1] + b * len(pairs[-1][0])
def py6_enumerate_with_start(a, b):
    return sum(t * i for i, t in enumerate((a, b), start=1))
def py6_any_isinstance_generator(a, b):
    items = (1, "s", a)
    return b * any(isinstance(t, torch.Tensor) for t in items) + a * all(isinstance(t, int) for t in items)
def py6_math_isclose_and_divmod_of_numel(a, b):
    q, r = divmod(a.numel(), 2)
    return a * q + b * r + a * math.isclose(0.1 + 0.2, 0.3)
def py6_shape_reversed_slice(a, b):
    s = a.view(1, 3).shape[::-1]
    return a * s[0] + b * len(s)


# ---- functools and operator
@functools.lru_cache(maxsize=None)
def _cached_width(n):
    return n * 2
def _decorate(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args) + 1
    return wrapper
@_decorate
def _wrapped_add(x, y):
    return x + y
def ft6_lru_cache_helper(a, b):
    return a * _cached_width(3) + b
def ft6_wraps_decorated(a, b):
    return _wrapped_add(a, b) * (_wrapped_add.__name__ == "_wrapped_add")
def ft6_reduce_add(a, b):
    return functools.reduce(operator.add, [a, b, a * b])
def ft6_reduce_with_initial(a, b):
    return functools.reduce(lambda acc, t: acc * t, [a, b], 2)
def ft6_partial_of_partial(a, b):
    f = functools.partial(functools.partial(torch.clamp, min=-0.5), max=0.5)
    return f(a) + b
def ft6_itemgetter_several(a, b):
    first, third = operator.itemgetter(0, 2)((a, b, a * b))
    return first + third
def ft6_attrgetter_on_object(a, b):
    return a * operator.attrgetter("k")(_Base(4)) + b
def ft6_methodcaller_on_tensor(a, b):
    return operator.methodcaller("clamp", min=0)(a) + b
def ft6_operator_on_tensors(a, b):
    return operator.sub(operator.mul(a, b), operator.neg(b))


# ---- sizes, dtypes, devices
def sz6_math_prod_of_shape(a, b):
    return a * math.prod(a.view(1, 3).shape) + b
def sz6_math_ceil_log2_of_numel(a, b):
    return a * math.ceil(math.log2(a.numel())) + b * math.gcd(a.shape[0], 6)
def sz6_size_concatenation(a, b):
    s = a.shape + b.shape
    return a.new_zeros(s).sum(1) + b * len(s)
def sz6_size_with_tuple(a, b):
    return torch.zeros(torch.Size([2]) + a.shape).sum(0) + a
def sz6_shape_unpacking(a, b):
    n, = a.shape
    r, c = a.view(1, 3).shape
    return a * n + b * (r + c)
def sz6_size_equals_tuple(a, b):
    return a * (a.shape == (3,)) + b * (a.size() == torch.Size([3]))
def sz6_size_numel_and_index(a, b):
    s = a.expand(2, 3).shape
    return a * s.numel() + b * s[-2]
def sz6_dtype_checks(a, b):
    ok = a.dtype == torch.float32 and a.dtype.is_floating_point and a.is_floating_point()
    return a * ok + b * (a.dtype in (torch.float16, torch.bfloat16))
def sz6_device_checks(a, b):
    return a * (a.device.type == "cpu") + b * (a.is_cuda)
def sz6_is_tensor_and_isinstance(a, b):
    return a * torch.is_tensor(b) + b * isinstance(a, torch.Tensor)
def sz6_finfo_and_iinfo(a, b):
    return a * torch.iinfo(torch.int8).max + b * (torch.finfo(a.dtype).eps < 1e-3)
def sz6_default_dtype(a, b):
    return torch.ones(3, dtype=torch.get_default_dtype()) * a + b
def sz6_to_dtype_and_back(a, b):
    return (a.to(torch.float64) * 2).to(a.dtype) + b.to(torch.int32)


# ---- random, numpy
def rn6_seeded_random_instance(a, b):
    rng = random.Random(3)
    return a * rng.randint(1, 5) + b * rng.random()
def rn6_random_instance_uniform_and_randrange(a, b):
    rng = random.Random(11)
    return a * rng.uniform(-1, 1) + b * rng.randrange(2, 10, 2)
def rn6_random_instance_choice(a, b):
    rng = random.Random(4)
    return a * rng.choice([1, 2, 3]) + b
def rn6_random_instance_reseeded(a, b):
    rng = random.Random(1)
    first = rng.random()
    rng.seed(1)
    return a * (first == rng.random()) + b
def rn6_manual_seed_then_rand(a, b):
    torch.manual_seed(7)
    return a + torch.rand(3)
def np6_numpy_constants(a, b):
    return a * np.pi + b * np.float32(2.0)
def np6_numpy_ufunc_on_tensor_numpy(a, b):
    return torch.from_numpy(np.sin(a.numpy()) + np.ones(3, dtype=np.float32)) + b
def np6_numpy_array_arg_to_tensor(a, b):
    return a + torch.as_tensor(np.arange(3, dtype=np.float32))
def np6_numpy_sum_of_shape(a, b):
    return a * int(np.prod(a.shape)) + b
def np6_tolist_then_sum(a, b):
    return b * sum(round(v) for v in a.tolist())
'''

RECOMPILE_SRC = r'''
class _UserError(Exception):
    pass


def rc6_int_picks_exception_path(a, n):
    try:
        if n > 1:
            raise _UserError(n)
        return a + n
    except _UserError as e:
        return a * e.args[0]
def rc6_assert_on_changing_shape(a, n):
    assert a.shape[0] >= 2
    return a * n
def rc6_star_unpacking_of_list_arg(a, xs):
    first, *rest = xs
    return a * first + len(rest)
def rc6_string_arg_formatted(a, s):
    return a * len(f"{s}:{s.upper()}")
def rc6_dtype_of_input_checked(a, n):
    if a.dtype == torch.float64:
        return a * n
    return a + n
'''
