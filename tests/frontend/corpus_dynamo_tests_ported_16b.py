"""The sixteenth batch of Dynamo-style programs, second half: test/dynamo/test_misc.py and test_functions.py on user
classes with __setattr__, __getattr__ and __delattr__ of their own (and setattr/delattr reaching them), attributes
of constants that are classes (list[int].__origin__, (1.5).__class__), __class_getitem__ and generic aliases,
typing.NamedTuple classes with defaults and methods, __init_subclass__ keywords, __bool__ and __len__ deciding a
branch; test_functions.py's functools.cached_property (batch 7 has the other functools helpers);
test_generator.py's graph break inside a generator's next() (Dynamo skips the whole frame and tallies no
break); DYNAMIC_SRC (test_dynamic_shapes: programs run with dynamic=True on inputs whose length changes between
calls) and RECOMPILE_SRC (test_recompiles.py and test_guard_manager.py: guards on values that change between calls).
The calls are in test_dynamo_tests_ported_9on.py. Our own programs; the names given to exec are `torch`, `nn`, `F`
and `dynamo`.
"""

PORTED_SRC = r'''
import functools
import typing

# ---- attribute dunders (test_misc.py)
class _Logged:
    def __init__(self):
        object.__setattr__(self, "writes", [])
    def __setattr__(self, name, value):
        self.writes.append(name)
        object.__setattr__(self, name, value * 2)
def at16_setattr_override(a, b):
    obj = _Logged()
    obj.k = 3
    return a * obj.k + b * len(obj.writes)
class _Defaulting:
    def __init__(self):
        self.present = 2
    def __getattr__(self, name):
        return len(name)
def at16_getattr_fallback_only_when_missing(a, b):
    obj = _Defaulting()
    return a * obj.present + b * obj.absent_one
class _Guarded:
    def __init__(self):
        self.k = 1
    def __delattr__(self, name):
        object.__setattr__(self, name, -1)
def at16_delattr_override(a, b):
    obj = _Guarded()
    del obj.k
    return a * obj.k + b
def at16_delattr_builtin_reaches_dunder(a, b):
    obj = _Guarded()
    delattr(obj, "k")
    obj.k += 3
    return a * obj.k + b
def at16_type_attribute_of_constant_is_the_class(a, b):
    alias = dict[str, int]
    return a * (alias.__origin__ is dict) + b * ((1.5).__class__ is float) + ((3).__class__ is bool)
def at16_setattr_builtin_on_object(a, b):
    class Box:
        pass
    box = Box()
    setattr(box, "scale", 3)
    return a * getattr(box, "scale") + b * hasattr(box, "other")

# ---- __class_getitem__ and typing (test_misc.py)
class _Typed:
    def __class_getitem__(cls, item):
        return (cls.__name__, item)
def cg16_class_getitem_called(a, b):
    name, item = _Typed[int]
    return a * len(name) + b * (item is int)
def cg16_generic_alias_origin(a, b):
    alias = list[int]
    return a * (typing.get_origin(alias) is list) + b * (typing.get_args(alias)[0] is int)
class _Row(typing.NamedTuple):
    x: int
    y: float = 0.5
    def total(self):
        return self.x + self.y
def nt16_typing_namedtuple_defaults(a, b):
    r = _Row(2)
    return a * r.total() + b * r.y
def nt16_typing_namedtuple_replace_and_fields(a, b):
    r = _Row(1, 2.0)._replace(x=3)
    return a * r.x + b * len(_Row._fields)
def nt16_typing_namedtuple_holds_tensor(a, b):
    class Pair(typing.NamedTuple):
        left: object
        right: object
    p = Pair(a, b)
    return p.left * p.right + p[0]

# ---- __init_subclass__, __bool__, __len__ (test_misc.py)
class _Registry:
    names = []
    def __init_subclass__(cls, tag="", **kwargs):
        super().__init_subclass__(**kwargs)
        cls.tag = tag
class _First(_Registry, tag="one"):
    pass
def is16_init_subclass_keyword(a, b):
    return a * len(_First.tag) + b
class _Truthy:
    def __init__(self, n):
        self.n = n
    def __bool__(self):
        return self.n > 1
def tr16_bool_dunder_branches(a, b):
    return a if _Truthy(2) else b
class _Sized:
    def __len__(self):
        return 0
def tr16_len_dunder_decides_truth(a, b):
    return a * 2 if _Sized() else b * 3
def tr16_not_of_user_object(a, b):
    return a + (not _Truthy(0)) * b

# ---- a break inside a generator's next() (test_generator.py)
def ge16_break_in_generator_skips_frame(a, b):
    def produce():
        yield a + 1
        dynamo.graph_break()
        yield b + 2
    out = a * 2
    for t in produce():
        out = out + t
    return out
def ge16_unsupported_call_in_genexpr(a, b):
    xs = list(print(k) or k for k in [1, 2])
    return a.sin() * len(xs) + b

# ---- functools helpers (test_functions.py; batch 7 has partialmethod, total_ordering, singledispatch, cmp_to_key
# and reduce: only cached_property is new here)
class _Lazy:
    def __init__(self, k):
        self.k = k
    @functools.cached_property
    def squared(self):
        return self.k * self.k
def ft16_cached_property(a, b):
    obj = _Lazy(3)
    first = obj.squared
    obj.k = 5
    return a * first + b * obj.squared
'''

DYNAMIC_SRC = r'''
import bisect
import heapq
def dy16_size_pushed_on_heap(a, b):
    heap = [5, 1]
    heapq.heappush(heap, a.shape[0])
    return a * heap[0] + b * len(heap)
def dy16_bisect_of_size(a, b):
    cuts = [2, 4, 6]
    return a * bisect.bisect(cuts, a.shape[0]) + b
def dy16_size_as_string_length(a, b):
    return a * len(str(a.shape[0])) + b
def dy16_sorted_sizes(a, b):
    sizes = sorted([b.shape[0], 4, a.shape[0] - 1])
    return a * sizes[-1] + b * sizes[0]
def dy16_size_bit_length(a, b):
    return a * a.shape[0].bit_length() + b
def dy16_size_in_namedtuple(a, b):
    import collections
    P = collections.namedtuple("P", "n")
    return a * P(a.shape[0]).n + b
'''

RECOMPILE_SRC = r'''
def rc16_string_arg_method(a, s):
    return a * len(s.strip())
def rc16_heap_list_changes(a, xs):
    import heapq
    return a * heapq.nsmallest(1, xs)[0]
def rc16_user_object_with_setattr(a, obj):
    return a * obj.k
def rc16_typing_namedtuple_arg(a, row):
    return a * row.x + row.y
def rc16_int_bit_count(a, n):
    return a * n.bit_count()
'''
