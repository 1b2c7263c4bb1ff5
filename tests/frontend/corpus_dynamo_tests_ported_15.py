"""The fifteenth batch of Dynamo-style programs, first half, aimed at the CPython suites Dynamo runs under itself
(test/dynamo/cpython/3_13) that batches 1-14 left alone: test_with.py (several managers in one statement, __exit__
swallowing or passing on an exception, __enter__ raising, the order of exits), test_scope.py (nested scopes, a
class body reading an enclosing function's locals, nonlocal through two levels, a comprehension's own scope),
test_unpack.py and test_unpack_ex.py (starred targets in the middle, nested targets, unpacking strings, ranges and
dicts, too few and too many values), test_augassign.py (augmented assignment on subscripts and attributes, the
in-place dunders __iadd__/__imul__ and their fallback to __add__), test_property.py (property made from functions,
getter/setter/deleter chained, a property overridden in a subclass, a property raising AttributeError),
test_super.py (super() in classmethods, the two-argument form, super() through a diamond), test_richcmp.py (rich
comparison dunders returning non-bools, reflected comparisons, NotImplemented from both sides),
test_keywordonlyarg.py, test_positional_only_arg.py and test_extcall.py (keyword-only and positional-only
parameters, calls splatting tuples and dicts, duplicate keyword errors), test_isinstance.py (__instancecheck__ and
__subclasscheck__ on metaclasses, isinstance of nested tuples of types) and test_contains.py (__contains__,
membership falling back to __iter__ and to __getitem__). Each program takes two (3,) float tensors `a`, `b`;
test_dynamo_tests_ported_9on.py runs it under torch.compile and minitorch2.compile and compares values and (frames,
ops, graph breaks). Our own programs; the names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
# ---- with statements (cpython test_with.py)
class _Tracked:
    def __init__(self, log, name, swallow=False):
        self.log, self.name, self.swallow = log, name, swallow
    def __enter__(self):
        self.log.append("in " + self.name)
        return len(self.log)
    def __exit__(self, kind, value, tb):
        self.log.append("out " + self.name)
        return self.swallow
def wi15_two_managers_exit_in_reverse(a, b):
    log = []
    with _Tracked(log, "p") as x, _Tracked(log, "q") as y:
        out = a * x + b * y
    return out + len(log) * (log[-1] == "out p")
def wi15_exit_swallows_the_exception(a, b):
    log = []
    with _Tracked(log, "s", swallow=True):
        out = a + 1
        raise ValueError("dropped")
    return out * len(log) + b
def wi15_exit_passes_the_exception_on(a, b):
    log = []
    try:
        with _Tracked(log, "t"):
            raise KeyError("k")
    except KeyError:
        log.append("caught")
    return a * len(log) + b * (log[1] == "out t")
class _FailsOnEnter:
    def __enter__(self):
        raise RuntimeError("no entry")
    def __exit__(self, *exc):
        return False
def wi15_enter_raising_skips_exit(a, b):
    log = []
    try:
        with _Tracked(log, "outer"), _FailsOnEnter():
            log.append("body")
    except RuntimeError:
        log.append("handled")
    return a * len(log) + b * ("body" in log)
def wi15_return_inside_with_still_exits(a, b):
    log = []
    def helper():
        with _Tracked(log, "r"):
            return a * 2
    out = helper()
    return out + b * len(log)


# ---- scopes (cpython test_scope.py)
def sc15_class_body_reads_enclosing_local(a, b):
    k = 3
    class Holder:
        scale = k + 1
        def get(self):
            return self.scale
    return a * Holder().get() + b
def sc15_nonlocal_two_levels(a, b):
    count = 0
    def outer():
        def inner():
            nonlocal count
            count += 2
        inner()
        inner()
    outer()
    return a * count + b
def sc15_comprehension_does_not_leak(a, b):
    i = 10
    xs = [i * 2 for i in range(3)]
    return a * i + b * sum(xs)
def sc15_closure_sees_later_rebinding(a, b):
    factor = 1
    def scaled(t):
        return t * factor
    factor = 5
    return scaled(a) + b
def sc15_lambdas_in_loop_share_the_cell(a, b):
    fns = [lambda t: t * k for k in range(3)]
    bound = [lambda t, k=k: t * k for k in range(3)]
    return fns[0](a) + bound[1](b)


# ---- unpacking (cpython test_unpack.py, test_unpack_ex.py)
def up15_starred_in_the_middle(a, b):
    first, *mid, last = [1, 2, 3, 4, 5]
    return a * first + b * sum(mid) + last
def up15_nested_targets(a, b):
    (p, (q, r)), s = (a, (b, 2)), 3
    return p * r + q * s
def up15_unpack_string_range_dict(a, b):
    x, y = "hi"
    m, n, o = range(3)
    k1, k2 = {"u": 1, "v": 2}
    return a * (x == "h") + b * (m + n + o) + (k2 == "v")
def up15_too_many_values(a, b):
    try:
        p, q = [1, 2, 3]
        caught = 0
    except ValueError as e:
        caught = len(str(e))
    return a * caught + b
def up15_too_few_values_for_star(a, b):
    try:
        p, q, *rest = (1,)
        caught = 0
    except ValueError:
        caught = 1
    return a * caught + b
def up15_tensor_rows_unpacked(a, b):
    x, y = torch.stack([a, b])
    *head, tail = a
    return x * y + tail + len(head)


# ---- augmented assignment (cpython test_augassign.py)
class _Acc:
    def __init__(self, v):
        self.v = v
    def __iadd__(self, other):
        self.v = self.v + other * 2
        return self
    def __mul__(self, other):
        return _Acc(self.v * other)
def au15_iadd_dunder_in_place(a, b):
    acc = _Acc(a)
    same = acc
    acc += b
    return acc.v + (same is acc)
def au15_imul_falls_back_to_mul(a, b):
    acc = _Acc(a)
    before = acc
    acc *= 3
    return acc.v + b * (before is acc)
def au15_augassign_on_subscript_and_attr(a, b):
    d = {"k": 1}
    d["k"] += 4
    holder = _Acc(2)
    holder.v **= 3
    xs = [a, b]
    xs[1] *= 2
    return xs[0] * d["k"] + xs[1] * holder.v
def au15_list_iadd_is_extend(a, b):
    xs = [1]
    alias = xs
    xs += (2, 3)
    t = (1,)
    t_alias = t
    t += (2,)
    return a * len(alias) + b * len(t_alias)


# ---- properties (cpython test_property.py)
class _Temp:
    def __init__(self):
        self._c = 1.0
    def _get(self):
        return self._c
    def _set(self, v):
        self._c = v * 2
    def _del(self):
        self._c = 0.0
    celsius = property(_get, _set, _del, "a temperature")
class _Gauge:
    def __init__(self):
        self._v = 1
    @property
    def v(self):
        return self._v
    @v.setter
    def v(self, value):
        self._v = value + 10
class _Gauge2(_Gauge):
    v = _Gauge.v.getter(lambda self: -self._v)  # (a copy of the property with its setter kept)
class _Missing:
    @property
    def gone(self):
        raise AttributeError("gone")
    def __getattr__(self, name):
        return 4
def pr15_property_from_functions(a, b):
    t = _Temp()
    t.celsius = 3
    first = t.celsius
    del t.celsius
    return a * first + b * t.celsius
def pr15_setter_chained_and_subclass_override(a, b):
    g = _Gauge2()
    g.v = 5
    return a * g.v + b * _Gauge().v
def pr15_property_attribute_error_goes_to_getattr(a, b):
    return a * _Missing().gone + b


# ---- super (cpython test_super.py)
class _Base:
    @classmethod
    def make(cls):
        return cls.__name__
    def scale(self):
        return 2
class _Left(_Base):
    def scale(self):
        return super().scale() + 3
class _Right(_Base):
    def scale(self):
        return super().scale() * 5
class _Diamond(_Left, _Right):
    @classmethod
    def make(cls):
        return "d" + super().make()
    def scale(self):
        return super().scale() + 100
def su15_super_in_classmethod(a, b):
    return a * len(_Diamond.make()) + b
def su15_diamond_follows_the_mro(a, b):
    return a * _Diamond().scale() + b
def su15_two_argument_super(a, b):
    d = _Diamond()
    return a * super(_Left, d).scale() + b * super(_Diamond, d).scale()


# ---- rich comparisons (cpython test_richcmp.py)
class _Vec:
    def __init__(self, xs):
        self.xs = xs
    def __lt__(self, other):
        return [x < y for x, y in zip(self.xs, other.xs)]
    def __eq__(self, other):
        return NotImplemented
class _Num:
    def __init__(self, v):
        self.v = v
    def __gt__(self, other):
        return self.v > (other.v if isinstance(other, _Num) else other)
def rc15_comparison_returning_a_list(a, b):
    flags = _Vec([1, 5, 2]) < _Vec([3, 4, 2])
    return a * sum(flags) + b * len(flags)
def rc15_eq_not_implemented_falls_back_to_identity(a, b):
    v = _Vec([1])
    return a * (v == v) + b * (v == _Vec([1])) + (v != _Vec([1]))
def rc15_reflected_comparison(a, b):
    n = _Num(5)
    return a * (3 < n) + b * (7 < n)
def rc15_ordering_not_supported_raises(a, b):
    try:
        _Vec([1]) > 2
        caught = 0
    except TypeError:
        caught = 1
    return a * caught + b


# ---- keyword-only, positional-only and splatted calls (cpython test_keywordonlyarg.py,
# test_positional_only_arg.py, test_extcall.py)
def _kwonly(x, *, scale=2, shift):
    return x * scale + shift
def _posonly(x, y=3, /, z=4):
    return x * y + z
def _gather(*args, **kwargs):
    return len(args), sorted(kwargs)
def ka15_keyword_only_required_and_default(a, b):
    return _kwonly(a, shift=1) + _kwonly(b, scale=3, shift=0)
def ka15_keyword_only_missing_raises(a, b):
    try:
        _kwonly(a)
        caught = 0
    except TypeError:
        caught = 1
    return a * caught + b
def ka15_positional_only_and_keyword_named_like_it(a, b):
    return _posonly(a, 2, z=b) + _posonly(b)
def ka15_positional_only_passed_by_keyword_raises(a, b):
    try:
        _posonly(x=a)
        caught = 0
    except TypeError:
        caught = 1
    return a * caught + b
def ka15_splat_tuple_and_dict_together(a, b):
    n, keys = _gather(*(a, b), 1, *[2], **{"p": 1}, q=2, **dict(r=3))
    return a * n + b * len(keys) + (keys[-1] == "r")
def ka15_duplicate_keyword_raises(a, b):
    try:
        _gather(**{"p": 1}, **{"p": 2})
        caught = 0
    except TypeError:
        caught = 1
    return a * caught + b


# ---- isinstance hooks (cpython test_isinstance.py)
class _Duck(type):
    def __instancecheck__(cls, obj):
        return hasattr(obj, "quack")
    def __subclasscheck__(cls, sub):
        return hasattr(sub, "quack")
class _DuckLike(metaclass=_Duck):
    pass
class _Mallard:
    quack = 1
def is15_instancecheck_on_metaclass(a, b):
    return a * isinstance(_Mallard(), _DuckLike) + b * isinstance(3, _DuckLike)
def is15_subclasscheck_on_metaclass(a, b):
    return a * issubclass(_Mallard, _DuckLike) + b * issubclass(int, _DuckLike)
def is15_nested_tuples_of_types(a, b):
    return a * isinstance(2.5, (int, (str, (float,)))) + b * isinstance(a, (int, (list,)))


# ---- membership (cpython test_contains.py)
class _Evens:
    def __contains__(self, x):
        return x % 2 == 0
class _IterOnly:
    def __iter__(self):
        return iter([1, 2, 3])
class _GetitemOnly:
    def __getitem__(self, i):
        if i >= 4:
            raise IndexError(i)
        return i * 10
def ct15_contains_dunder(a, b):
    return a * (4 in _Evens()) + b * (3 in _Evens()) + (5 not in _Evens())
def ct15_membership_falls_back_to_iter(a, b):
    return a * (2 in _IterOnly()) + b * (7 in _IterOnly())
def ct15_membership_falls_back_to_getitem(a, b):
    return a * (30 in _GetitemOnly()) + b * (35 in _GetitemOnly())
'''
