"""The second half of the seventh batch (corpus_dynamo_tests_ported_7.py has the first, and says what the batch aims
at): dicts, lists and sets mutated inside the frame (popitem, reversed dicts, slice assignment with steps, del of
slices, sort with key and reverse, set updates and frozensets), user classes (property setters and deleters,
descriptors with __set_name__, __getattribute__, __init_subclass__, abc abstract methods, class attributes mutated in
the frame, __call__ chains, classmethods making subclasses), closures and globals mutated, tensor introspection
(dtype, device, ndim, is_contiguous, stride, element_size, numel, storage_offset, requires_grad) and torch.Size
arithmetic, torch.no_grad/enable_grad/set_grad_enabled as decorators and context managers, torch.finfo/iinfo and
dtype promotion, the math module on Python numbers and sizes, strings formatted with shapes, user iterables and
classmethods writing class state, loops with else; and RECOMPILE_SRC (the calls are in
test_dynamo_tests_ported_7.py). Our own programs; the names given to exec are `torch`, `nn`, `F` and
`dynamo`.
"""

PORTED_SRC = r'''
import abc, collections, collections.abc, math


# ---- dicts, lists and sets mutated in the frame
def dl7_dict_popitem_last(a, b):
    d = {"x": a, "y": b}
    k, v = d.popitem()
    return v * len(k) + d["x"]
def dl7_reversed_dict_keys(a, b):
    d = {"p": 1, "q": 2, "r": 3}
    ks = list(reversed(d))
    return a * d[ks[0]] + b * d[ks[-1]]
def dl7_dict_update_with_kwargs(a, b):
    d = {"k": 1}
    d.update(j=2, k=4)
    return a * d["k"] + b * d["j"]
def dl7_dict_pop_with_default(a, b):
    d = {"k": a}
    x = d.pop("k")
    y = d.pop("missing", b)
    return x + y * len(d)
def dl7_dict_setdefault_list(a, b):
    d = {}
    d.setdefault("t", []).append(a)
    d.setdefault("t", []).append(b)
    return d["t"][0] * d["t"][1]
def dl7_dict_items_sorted_by_value(a, b):
    d = {"x": 3, "y": 1, "z": 2}
    order = [k for k, _ in sorted(d.items(), key=lambda kv: kv[1])]
    return a * len(order[0] + order[1]) + b * d[order[-1]]
def dl7_dict_comprehension_filtered(a, b):
    d = {i: a * i for i in range(6) if i % 2}
    return d[1] + d[5] + b * len(d)
def dl7_dict_keys_set_ops(a, b):
    d1, d2 = {"x": 1, "y": 2}, {"y": 3, "z": 4}
    both = d1.keys() & d2.keys()
    either = d1.keys() | d2.keys()
    return a * len(both) + b * len(either)
def dl7_dict_equality(a, b):
    if {"x": 1, "y": 2} == dict(y=2, x=1):
        return a + b
    return a - b
def dl7_list_slice_assign_step(a, b):
    xs = [0, 1, 2, 3, 4, 5]
    xs[::2] = [10, 20, 30]
    return a * xs[2] + b * xs[4]
def dl7_list_del_slice(a, b):
    xs = [a, b, a * b, a + b]
    del xs[1:3]
    return xs[0] + xs[1]
def dl7_list_sort_key_reverse(a, b):
    xs = ["ccc", "a", "bb"]
    xs.sort(key=len, reverse=True)
    return a * len(xs[0]) + b * len(xs[-1])
def dl7_list_insert_remove_index(a, b):
    xs = [1, 2, 3]
    xs.insert(1, 9)
    xs.remove(2)
    return a * xs.index(3) + b * xs[1]
def dl7_list_extend_with_tensors(a, b):
    xs = [a]
    xs.extend((b, a * 2))
    xs += [b * 2]
    return sum(xs)
def dl7_list_multiply_and_count(a, b):
    xs = [1, 2] * 3
    return a * xs.count(2) + b * len(xs)
def dl7_list_pop_middle(a, b):
    xs = [a, b, a - b]
    mid = xs.pop(1)
    return mid * xs[-1]
def dl7_nested_list_mutation(a, b):
    grid = [[0] * 2 for _ in range(2)]
    grid[1][0] = 5
    return a * grid[1][0] + b * grid[0][1]
def dl7_set_symmetric_difference_update(a, b):
    s = {1, 2, 3}
    s.symmetric_difference_update({3, 4})
    return a * len(s) + b * max(s)
def dl7_set_isdisjoint_issubset(a, b):
    s, t = {1, 2}, {3, 4}
    if s.isdisjoint(t) and {1}.issubset(s) and s <= {1, 2, 5}:
        return a * b
    return a + b
def dl7_frozenset_algebra(a, b):
    f = frozenset([1, 2, 3]) - frozenset([2])
    g = f | {7}
    return a * len(g) + b * sum(g)
def dl7_set_discard_and_pop_sorted(a, b):
    s = {5, 6, 7}
    s.discard(6)
    s.discard(42)
    return a * min(s) + b * sorted(s)[-1]
def dl7_set_comprehension_of_sizes(a, b):
    s = {d for d in a.shape + b.shape}
    return a * len(s) + b
def dl7_tuple_methods(a, b):
    t = (1, 2, 2, 3)
    return a * t.count(2) + b * t.index(3)


# ---- user classes
class _Temp:
    def __init__(self):
        self._c = 1.0
    @property
    def c(self):
        return self._c
    @c.setter
    def c(self, v):
        self._c = v * 2
    @c.deleter
    def c(self):
        self._c = 0.0
class _Positive:
    def __set_name__(self, owner, name):
        self.name = "_" + name
    def __get__(self, obj, objtype=None):
        return self if obj is None else getattr(obj, self.name)
    def __set__(self, obj, value):
        setattr(obj, self.name, abs(value))
class _Holder:
    k = _Positive()
    def __init__(self, k):
        self.k = k
class _Shape(abc.ABC):
    @abc.abstractmethod
    def area(self):
        pass
    def twice(self):
        return self.area() * 2
class _Square(_Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s * self.s
class _Registry:
    kinds = []
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.tag = cls.__name__.lower()
class _Alpha(_Registry):
    pass
class _Counted:
    made = 0
    def __init__(self):
        type(self).made += 1
class _Chain:
    def __init__(self, k):
        self.k = k
    def __call__(self, x):
        return _Chain(self.k + 1) if isinstance(x, int) else x * self.k
class _Animal:
    def __init__(self, n):
        self.n = n
    @classmethod
    def make(cls, n):
        return cls(n * 2)
    def speak(self):
        return 1
class _Dog(_Animal):
    def speak(self):
        return super().speak() + self.n
class _Traced:
    def __init__(self):
        self.w = 3
    def __getattribute__(self, name):
        if name == "double_w":
            return object.__getattribute__(self, "w") * 2
        return object.__getattribute__(self, name)
class _Pt:
    def __init__(self, x):
        self.x = x
    def __add__(self, other):
        return _Pt(self.x + other.x)
    def __neg__(self):
        return _Pt(-self.x)
    def __eq__(self, other):
        return isinstance(other, _Pt) and self.x is other.x


def uc7_property_setter(a, b):
    t = _Temp()
    t.c = 3
    return a * t.c + b
def uc7_property_deleter(a, b):
    t = _Temp()
    del t.c
    return a * t.c + b
def uc7_descriptor_set_name(a, b):
    h = _Holder(-4)
    return a * h.k + b * len(_Holder.k.name)
def uc7_abc_abstract_method(a, b):
    return a * _Square(3).twice() + b
def uc7_abc_instantiation_error(a, b):
    try:
        _Shape()
    except TypeError:
        return a - b
    return a + b
def uc7_init_subclass_tag(a, b):
    return a * len(_Alpha.tag) + b
def uc7_class_attribute_mutated(a, b):
    _Counted.made = 0
    _Counted()
    _Counted()
    return a * _Counted.made + b
def uc7_call_chain(a, b):
    return _Chain(1)(0)(0)(a) + b
def uc7_classmethod_on_subclass(a, b):
    d = _Dog.make(2)
    return a * d.speak() + b * isinstance(d, _Dog)
def uc7_getattribute_override(a, b):
    return a * _Traced().double_w + b
def uc7_user_operators_on_tensors(a, b):
    p = -(_Pt(a) + _Pt(b))
    return p.x
def uc7_class_defined_in_frame_with_method(a, b):
    class Local:
        factor = 3
        def run(self, x):
            return x * self.factor
    return Local().run(a) + b
def uc7_type_call_and_name(a, b):
    k = type(a).__name__
    return a * len(k) + b
def uc7_isinstance_tuple_and_issubclass(a, b):
    if isinstance(3, (str, int)) and issubclass(_Dog, _Animal):
        return a + b
    return a
def uc7_setattr_getattr_hasattr(a, b):
    o = _Animal(1)
    setattr(o, "extra", 4)
    if hasattr(o, "extra") and not hasattr(o, "missing"):
        return a * getattr(o, "extra") + b * getattr(o, "missing", 2)
    return a
def uc7_vars_of_instance(a, b):
    o = _Animal(5)
    return a * vars(o)["n"] + b
def uc7_instance_dict_update(a, b):
    o = _Animal(1)
    o.__dict__.update(n=6)
    return a * o.n + b
def uc7_callable_checks(a, b):
    n = sum([callable(len), callable(3), callable(_Chain(1)), callable(_Animal)])
    return a * n + b


# ---- closures and globals mutated
_G_SCALE = 1
_G_LOG = []
_G_TABLE = {}


def cg7_global_rebound_from_shape(a, b):
    global _G_SCALE
    _G_SCALE = a.shape[0]
    return a * _G_SCALE + b
def cg7_global_list_cleared_and_filled(a, b):
    _G_LOG.clear()
    _G_LOG.append(a)
    _G_LOG.append(b)
    return sum(_G_LOG) * len(_G_LOG)
def cg7_nonlocal_in_two_closures(a, b):
    n = 0
    def inc():
        nonlocal n
        n += 1
    def get():
        return n
    inc()
    inc()
    return a * get() + b
def cg7_closure_over_loop_variable(a, b):
    fs = [lambda x, i=i: x * i for i in range(3)]
    return fs[2](a) + fs[1](b)
def cg7_closure_captures_tensor_mutated_later(a, b):
    t = a
    def f():
        return t * 2
    t = b
    return f() + a
def cg7_nonlocal_tensor_swapped(a, b):
    x, y = a, b
    def swap():
        nonlocal x, y
        x, y = y, x
    swap()
    return x - y


# ---- tensor introspection and torch.Size
def ti7_dtype_and_device_checks(a, b):
    if a.dtype == torch.float32 and a.device.type == "cpu" and a.is_floating_point():
        return a + b
    return a - b
def ti7_stride_and_contiguity(a, b):
    m = torch.stack([a, b])
    t = m.t()
    return a * t.stride()[1] + b * (0 if t.is_contiguous() else 1)
def ti7_element_size_and_numel(a, b):
    return a * a.element_size() + b * b.numel()
def ti7_ndim_dim_nelement(a, b):
    m = a.unsqueeze(0)
    return a * m.ndim + b * (m.dim() + m.nelement())
def ti7_size_arithmetic(a, b):
    s = a.shape + b.shape
    return a * len(s) + b * s.numel()
def ti7_size_slice_and_index(a, b):
    m = torch.zeros(2, 3, 4)
    s = m.shape[1:]
    return a * s[0] + b * s.index(4)
def ti7_size_compare_to_tuple(a, b):
    if a.size() == (3,) and a.shape != (4,):
        return a * b
    return a
def ti7_size_negative_index(a, b):
    m = torch.ones(2, 3)
    return a * m.size(-1) + b * m.size(0)
def ti7_storage_offset_of_slice(a, b):
    return a * a[1:].storage_offset() + b
def ti7_requires_grad_flag(a, b):
    return a * int(a.requires_grad) + b * (2 if not b.requires_grad else 3)
def ti7_new_zeros_from_shape(a, b):
    return a.new_zeros(a.shape) + a.new_full((3,), 2.0) * b
def ti7_int_float_bool_of_sizes(a, b):
    n = a.shape[0]
    return a * float(n) + b * int(bool(n))
def ti7_broadcast_shapes(a, b):
    s = torch.broadcast_shapes((2, 1), (3,))
    return a * s[0] + b * s[1]
def ti7_is_tensor_and_numel(a, b):
    return a * torch.is_tensor(a) + b * torch.numel(b)


# ---- grad modes as decorators and context managers
@torch.no_grad()
def _no_grad_helper(x):
    return x * 2
@torch.enable_grad()
def _enable_grad_helper(x):
    return x + torch.is_grad_enabled()


def gm7_no_grad_decorated_helper(a, b):
    return _no_grad_helper(a) + b
def gm7_enable_grad_inside_no_grad(a, b):
    with torch.no_grad():
        y = _enable_grad_helper(a)
    return y + b
def gm7_set_grad_enabled_false(a, b):
    with torch.set_grad_enabled(False):
        flag = torch.is_grad_enabled()
        y = a * b
    return y + int(flag)
def gm7_is_grad_enabled_branch(a, b):
    if torch.is_grad_enabled():
        return a + b
    return a - b
def gm7_nested_no_grad_enable_grad(a, b):
    with torch.no_grad():
        with torch.enable_grad():
            inner = torch.is_grad_enabled()
        outer = torch.is_grad_enabled()
    return a * int(inner) + b * int(outer)


# ---- finfo, iinfo, dtype promotion
def fi7_finfo_eps_and_max(a, b):
    fi = torch.finfo(torch.float32)
    return a + fi.eps + b * (fi.max > 1e38)
def fi7_iinfo_bits_and_max(a, b):
    ii = torch.iinfo(torch.int32)
    return a * ii.bits + b * (ii.max == 2 ** 31 - 1)
def fi7_finfo_of_input_dtype(a, b):
    return a.clamp(min=torch.finfo(a.dtype).tiny) + b
def fi7_promote_types(a, b):
    d = torch.promote_types(torch.int32, torch.float32)
    return a.to(d) * (d == torch.float32) + b
def fi7_dtype_is_floating_point_and_itemsize(a, b):
    d = torch.float64
    return a * d.is_floating_point + b * d.itemsize


# ---- math on Python numbers and sizes
def ma7_gcd_lcm_comb(a, b):
    return a * math.gcd(12, 18) + b * (math.lcm(4, 6) + math.comb(5, 2))
def ma7_isqrt_prod_perm(a, b):
    return a * math.isqrt(17) + b * (math.prod([2, 3]) + math.perm(4, 2))
def ma7_fsum_hypot(a, b):
    return a * math.fsum([0.1] * 10) + b * math.hypot(3, 4)
def ma7_floor_ceil_trunc(a, b):
    return a * (math.floor(-2.5) + math.ceil(2.1)) + b * math.trunc(-3.7)
def ma7_copysign_fabs_log2(a, b):
    return a * math.copysign(2.0, -1.0) + b * (math.fabs(-3) + math.log2(8))
def ma7_isclose_isfinite_inf(a, b):
    if math.isclose(0.1 + 0.2, 0.3) and math.isfinite(1.0) and math.inf > 1e308:
        return a + b
    return a - b
def ma7_math_of_shape(a, b):
    n = a.shape[0]
    return a * math.sqrt(n) + b * math.log(n)
def ma7_divmod_pow_of_size(a, b):
    q, r = divmod(a.shape[0] * 7, 4)
    return a * q + b * pow(r, 2)


# ---- strings formatted with shapes
def sr7_fstring_of_shape_length(a, b):
    s = f"{a.shape[0]}x{b.shape[0]}"
    return a * len(s) + b
def sr7_format_spec_padding(a, b):
    s = "{:>5}|{:<3}".format(a.shape[0], "ab")
    return a * len(s) + b * s.index("|")
def sr7_str_partition_and_center(a, b):
    head, sep, tail = "key=value".partition("=")
    return a * len(head) + b * len(tail.center(9))
def sr7_str_translate_and_casefold(a, b):
    s = "ABC".casefold().translate(str.maketrans("a", "z"))
    return a * (s == "zbc") + b
def sr7_chr_ord_hex(a, b):
    return a * (ord("c") - ord("a")) + b * len(hex(255) + chr(65))
def sr7_str_startswith_tuple(a, b):
    name = "conv_weight"
    if name.startswith(("lin", "conv")) and name.endswith("weight"):
        return a * name.count("_") + b
    return a
def sr7_join_of_dims(a, b):
    s = ",".join(str(d) for d in (a.shape[0], 4, 5))
    return a * len(s.split(",")) + b * int(s[0])
def sr7_percent_format(a, b):
    s = "%d-%s-%.1f" % (a.shape[0], "x", 1.5)
    return a * len(s) + b

# ---- riskier shapes: cells written across calls, generators over user objects, class state
class _Bag:
    def __init__(self, *items):
        self.items = list(items)
    def __iter__(self):
        yield from self.items
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        return self.items[i]
class _Config:
    mode = "fast"
    @classmethod
    def set_mode(cls, m):
        cls.mode = m
    @classmethod
    def factor(cls):
        return 2 if cls.mode == "fast" else 3


def rk7_iter_user_object_yield_from(a, b):
    return sum(_Bag(a, b, a * b))
def rk7_user_sequence_unpack_and_index(a, b):
    bag = _Bag(a, b)
    x, y = bag
    return x * len(bag) + y + bag[-1]
def rk7_classmethod_writes_class_attribute(a, b):
    _Config.set_mode("slow")
    k = _Config.factor()
    _Config.set_mode("fast")
    return a * k + b * _Config.factor()
def rk7_closure_cell_written_by_inner_after_def(a, b):
    def make():
        total = None
        def put(x):
            nonlocal total
            total = x
        def get():
            return total
        return put, get
    put, get = make()
    put(a * 2)
    return get() + b
def rk7_generator_in_while_with_send(a, b):
    def acc():
        total = 0
        while True:
            x = yield total
            total = total + x
    g = acc()
    next(g)
    g.send(a)
    return g.send(b)
def rk7_nested_comprehension_with_condition(a, b):
    pairs = [(i, j) for i in range(3) for j in range(i) if (i + j) % 2]
    return a * len(pairs) + b * sum(i * j for i, j in pairs)
def rk7_dict_of_lambdas_dispatch(a, b):
    ops = {"add": lambda x, y: x + y, "mul": lambda x, y: x * y}
    return ops["mul"](a, b) + ops["add"](a, b)
def rk7_tuple_compare_and_sort_of_tuples(a, b):
    xs = sorted([(2, "b"), (1, "z"), (2, "a")])
    return a * xs[0][0] + b * (xs[1] < xs[2])
def rk7_while_loop_with_else(a, b):
    i = 0
    while i < 3:
        a = a + 1
        i += 1
    else:
        a = a * 2
    return a + b
def rk7_for_else_with_break(a, b):
    for k in range(5):
        if k == 2:
            break
    else:
        k = 10
    return a * k + b
def rk7_chained_comparison_of_sizes(a, b):
    if 0 < a.shape[0] <= b.shape[0] < 10:
        return a + b
    return a - b
def rk7_star_args_forwarding(a, b):
    def inner(*args, **kwargs):
        return sum(args) * kwargs.get("k", 1)
    def outer(*args, **kwargs):
        return inner(*args, **kwargs)
    return outer(a, b, k=3)
def rk7_keyword_only_defaults(a, b):
    def f(x, *, scale=2, shift=0):
        return x * scale + shift
    return f(a) + f(b, shift=1)
def rk7_global_dict_mutated_and_read(a, b):
    _G_TABLE["k"] = a.shape[0]
    return a * _G_TABLE["k"] + b * len(_G_TABLE)
def rk7_ternary_on_dtype(a, b):
    k = 2 if a.dtype is torch.float32 else 3
    return a * k + b

def rk7_next_iter_of_dict_values(a, b):
    d = {"p": a, "q": b}
    return next(iter(d.values())) * 2 + list(iter(d))[1].__len__()
def rk7_counter_of_shape(a, b):
    c = collections.Counter(torch.zeros(2, 3, 3).shape)
    return a * c[3] + b * c[2]
def rk7_type_self_constructs_new(a, b):
    class V:
        def __init__(self, x):
            self.x = x
        def doubled(self):
            return type(self)(self.x * 2)
    return V(a).doubled().doubled().x + b
def rk7_isinstance_abc_sequence(a, b):
    n = sum([isinstance([], collections.abc.Sequence), isinstance({}, collections.abc.Mapping),
             isinstance(3, collections.abc.Sequence)])
    return a * n + b
'''

RECOMPILE_SRC = r'''
def rc7_dict_arg_value_changes(x, d):
    return x * d["k"]
def rc7_list_length_in_loop(x, xs):
    for v in xs:
        x = x + v
    return x
def rc7_dtype_picks_branch(x, k):
    if x.dtype == torch.float64:
        return x * k
    return x + k
def rc7_string_method_on_arg(x, s):
    return x * len(s.upper())
def rc7_bool_flag_grad_mode(x, flag):
    with torch.set_grad_enabled(flag):
        return x * 2
def rc7_ndim_picks_reduction(x, k):
    if x.ndim == 1:
        return x.sum() * k
    return x.sum(0) * k
'''
