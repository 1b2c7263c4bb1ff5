"""The fifteenth batch of Dynamo-style programs, second half: test/dynamo/test_input_attr_tracking.py (Python
attributes set on tensors, made in the frame or given to it, read back and used in the graph), test_misc.py's
objects made by `Cls.__new__(Cls)` or `object.__new__(Cls)` without their __init__, the CPython suites
test_dictviews.py (keys and items views in set algebra, views staying live while the dict changes, views compared),
test_genexps.py (a generator expression's first iterable read at once and the rest lazily, genexps exhausted twice)
and test_unary.py / test_pow.py (unary dunders on user objects, negative and fractional powers, pow's TypeError);
DYNAMIC_SRC (test_dynamic_shapes: programs run with dynamic=True on inputs whose length changes between calls) and
RECOMPILE_SRC (test_recompiles.py and test_guard_manager.py: guards on values that change between calls). The calls
are in test_dynamo_tests_ported_9on.py. Our own programs; the names given to exec are `torch`, `nn`, `F` and
`dynamo`.
"""

PORTED_SRC = r'''
# ---- attributes on tensors (test_input_attr_tracking.py)
def ia15_attribute_on_intermediate(a, b):
    t = a * 2
    t.scale = 3
    return t * t.scale + b
def ia15_tensor_attribute_holds_tensor(a, b):
    t = a + 1
    t.partner = b
    return t * t.partner
def ia15_attribute_on_input_tensor(a, b):
    a.tag = 4
    return a * a.tag + b
def ia15_hasattr_and_getattr_default(a, b):
    t = a.clone()
    t.k = 2
    return t * getattr(t, "k", 0) + b * getattr(b, "missing", 5) + hasattr(t, "k")


# ---- objects made without __init__ (test_misc.py's `Cls.__new__(Cls)`, as copy and pickle make them)
class _Made:
    def __init__(self):
        self.k = 1
    def scaled(self, t):
        return t * self.k
def nw15_class_new_skips_init(a, b):
    m = _Made.__new__(_Made)
    missing = not hasattr(m, "k")
    m.k = 3
    return m.scaled(a) + b * missing + isinstance(m, _Made)
def nw15_object_new_then_fields(a, b):
    m = object.__new__(_Made)
    setattr(m, "k", 2)
    return m.scaled(a) + b


# ---- dict views (cpython test_dictviews.py)
def dv15_keys_view_set_algebra(a, b):
    d = {"p": 1, "q": 2, "r": 3}
    common = d.keys() & {"q", "r", "z"}
    extra = d.keys() - ["p"]
    return a * len(common) + b * len(extra) + len(d.keys() | {"z"})
def dv15_items_view_membership_and_algebra(a, b):
    d = {"p": 1, "q": 2}
    both = d.items() & {("p", 1), ("q", 5)}
    return a * (("q", 2) in d.items()) + b * len(both)
def dv15_views_are_live(a, b):
    d = {"p": 1}
    keys, values = d.keys(), d.values()
    d["q"] = 7
    del d["p"]
    return a * len(keys) + b * sum(values)
def dv15_views_compare_as_sets(a, b):
    d = {"p": 1, "q": 2}
    return a * (d.keys() == {"q", "p"}) + b * (d.keys() <= {"p", "q", "r"}) + d.keys().isdisjoint(["z"])


# ---- generator expressions (cpython test_genexps.py)
def ge15_first_iterable_read_at_once(a, b):
    xs = [1, 2]
    g = (x * 10 for x in xs)
    xs = [5, 6, 7]
    return a * sum(g) + b * len(xs)
def ge15_genexp_exhausted_after_one_pass(a, b):
    g = (t * 2 for t in (a, b))
    first = sum(g)
    second = sum(g, 0)
    return first + second
def ge15_nested_genexp_with_condition(a, b):
    pairs = sum(i * j for i in range(3) for j in range(i) if (i + j) % 2)
    return a * pairs + b


# ---- unary operators and powers (cpython test_unary.py, test_pow.py)
class _Signed:
    def __init__(self, v):
        self.v = v
    def __neg__(self):
        return _Signed(-self.v)
    def __pos__(self):
        return _Signed(self.v + 1)
def un15_unary_dunders(a, b):
    s = _Signed(3)
    return a * (-s).v + b * (+s).v
def un15_unary_on_bools_and_ints(a, b):
    return a * (-True) + b * (~5) + (+False)
def pw15_negative_and_fractional_powers(a, b):
    return a * (2 ** -2) + b * (9 ** 0.5) + (-8) ** 2 + pow(2, -1)
def pw15_three_arg_pow_with_negative_exponent(a, b):
    return a * pow(3, -1, 7) + b
def pw15_pow_type_error(a, b):
    try:
        pow(2, 3.0, 5)
        caught = 0
    except TypeError:
        caught = 1
    return a * caught + b
'''

DYNAMIC_SRC = r'''
def dy15_starred_unpack_of_shape(a, b):
    n, *rest = a.shape
    return a * n + b * len(rest)
def dy15_size_in_with_block(a, b):
    with torch.no_grad():
        k = a.shape[0] - 1
    return a[:k].sum() + b
def dy15_augassign_with_size(a, b):
    total = 1
    total += a.shape[0]
    total *= 2
    return a * total + b
def dy15_property_reading_size(a, b):
    class View:
        def __init__(self, t):
            self.t = t
        @property
        def length(self):
            return self.t.shape[0]
    return a * View(a).length + b
def dy15_attribute_on_tensor_from_size(a, b):
    t = a * 2
    t.n = a.shape[0]
    return t + b * t.n
def dy15_size_keyed_dict_view(a, b):
    d = {a.shape[0]: 1, 2: 3}
    return a * len(d.keys()) + b * sum(d.values())
'''

RECOMPILE_SRC = r'''
def rc15_kwonly_default_overridden(a, k):
    def inner(t, *, scale=2):
        return t * scale
    return inner(a, scale=k)
def rc15_starred_tuple_length(a, xs):
    first, *rest = xs
    return a * first + len(rest)
def rc15_dict_keys_view_arg(a, d):
    return a * len(d.keys() & {"p", "q"})
def rc15_object_with_property(a, obj):
    return a * obj.value
def rc15_bool_attr_on_list(a, flags):
    return a * flags[0] + (2 if flags[-1] else 3)
def rc15_none_default_kw(a, k):
    def inner(t, shift=None):
        return t if shift is None else t + shift
    return inner(a, shift=k)
'''
