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
The programs continue in corpus_dynamo_tests_ported_4b.py (tensor properties onward, and the recompile programs).
The names given to exec are `torch` (minitorch2 or torch), `nn`, `F` and `dynamo`.
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
'''
