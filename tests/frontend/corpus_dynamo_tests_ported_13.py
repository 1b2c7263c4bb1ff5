"""The thirteenth batch of Dynamo-style programs, first half, aimed at the CPython suites Dynamo runs under itself
(test/dynamo/cpython/3_13) that batches 1-12 left alone: test_range.py (range attributes, index/count, slicing and
comparing ranges), test_slice.py (slice objects built in the frame, their indices(), slicing tensors with them),
test_math.py (fsum, prod, isclose, comb/perm, frexp/ldexp, fmod, copysign, isqrt, dist, gcd/lcm of several),
test_operator.py (countOf, indexOf, concat, length_hint, setitem/delitem, is_/is_not, matmul on tensors),
test_int_literal.py (hex, octal, binary literals with underscores), test_funcattrs.py (__name__, __defaults__,
__kwdefaults__, __qualname__, closure cells read as attributes) and test_class.py (binary dunders and their
reflected forms, __index__, __neg__/__abs__, __bool__ falling back to __len__). Each program takes two (3,) float
tensors `a`, `b`; test_dynamo_tests_ported_9on.py runs it under torch.compile and minitorch2.compile and compares
values and (frames, ops, graph breaks). Our own programs; the names given to exec are `torch`, `nn`, `F` and
`dynamo`.
"""

PORTED_SRC = r'''
import functools, math, operator


# ---- ranges (cpython test_range.py)
def rg13_range_attributes(a, b):
    r = range(2, 11, 3)
    return a * r.start + b * r.step - r.stop
def rg13_range_index_and_count(a, b):
    r = range(0, 20, 4)
    return a * r.index(12) + b * r.count(8) + r.count(7)
def rg13_range_slice_is_range(a, b):
    r = range(1, 10)[::3]
    return a * len(r) + b * r[-1] + r.step
def rg13_range_equality(a, b):
    if range(0, 3) == range(0, 4, 1)[:3] and range(0) == range(5, 2):
        return a + b
    return a - b
def rg13_range_negative_step_len(a, b):
    r = range(10, -3, -4)
    return a * len(r) + b * r[1] + sum(r)
def rg13_range_membership(a, b):
    r = range(3, 30, 3)
    return a * (9 in r) + b * (10 in r) + (27 in r)
def rg13_reversed_range_list(a, b):
    out = a
    for k in reversed(range(1, 7, 2)):
        out = out * 0.5 + k * b
    return out


# ---- slice objects (cpython test_slice.py)
def sl13_slice_object_on_tensor(a, b):
    s = slice(1, None)
    return a[s] * b[s]
def sl13_slice_indices(a, b):
    start, stop, step = slice(None, None, -1).indices(5)
    return a * start + b * stop + step
def sl13_slice_attributes(a, b):
    s = slice(0, 3, 2)
    return a[s].sum() * (s.stop - s.start) + b[s.step]
def sl13_slice_equality(a, b):
    if slice(1, 2) == slice(1, 2, None) and slice(1, 2) != slice(1, 3):
        return a + b
    return a - b
def sl13_slice_stored_in_tuple(a, b):
    spans = (slice(0, 1), slice(1, 3))
    return torch.cat([a[spans[1]], b[spans[0]]])


# ---- math (cpython test_math.py)
def ma13_fsum_and_prod(a, b):
    return a * math.fsum([0.1, 0.2, 0.3]) + b * math.prod([1, 2, 3, 4])
def ma13_isclose_tolerances(a, b):
    if math.isclose(1.0, 1.0 + 1e-10) and not math.isclose(1.0, 1.1, rel_tol=0.01):
        return a * 2 + b
    return a
def ma13_comb_perm(a, b):
    return a * math.comb(6, 2) + b * math.perm(5, 2)
def ma13_frexp_ldexp(a, b):
    m, e = math.frexp(40.0)
    return a * m + b * e + math.ldexp(0.75, 3)
def ma13_fmod_copysign(a, b):
    return a * math.fmod(-7.0, 3.0) + b * math.copysign(2.5, -0.0)
def ma13_isqrt_trunc(a, b):
    return a * math.isqrt(50) + b * math.trunc(-3.7)
def ma13_gcd_lcm_of_several(a, b):
    return a * math.gcd(12, 18, 27) + b * math.lcm(4, 6, 10)
def ma13_dist_hypot(a, b):
    return a * math.dist((0, 0), (3, 4)) + b * math.hypot(2, 3, 6)
def ma13_inf_nan_checks(a, b):
    x = a
    if math.isinf(math.inf) and math.isnan(math.nan) and math.isfinite(1e308):
        x = x + 1
    return x * b
def ma13_log_bases(a, b):
    return a * math.log(8, 2) + b * math.log10(1000) + math.log2(16) + math.log1p(0.0)


# ---- operator (cpython test_operator.py)
def op13_count_and_index_of(a, b):
    xs = [1, 2, 1, 3, 1]
    return a * operator.countOf(xs, 1) + b * operator.indexOf(xs, 3)
def op13_concat_lists_of_tensors(a, b):
    xs = operator.concat([a], [b, a + b])
    return xs[2] * len(xs)
def op13_setitem_delitem(a, b):
    xs = [a, b, a * b]
    operator.setitem(xs, 0, b - 1)
    operator.delitem(xs, 1)
    return xs[0] + xs[1]
def op13_is_and_is_not(a, b):
    c = a
    if operator.is_(c, a) and operator.is_not(a, b):
        return a + b
    return a - b
def op13_length_hint(a, b):
    return a * operator.length_hint([1, 2, 3]) + b * operator.length_hint(iter([]), 4)
def op13_matmul_and_pow(a, b):
    return operator.matmul(a, b) + operator.pow(b, 2)
def op13_truth_and_not(a, b):
    return a * operator.truth([0]) + b * operator.not_(0)
def op13_setitem_delitem_of_constants(a, b):
    xs = [1, 2, 3]
    operator.setitem(xs, 0, 7)
    operator.delitem(xs, 1)
    return a * xs[0] + b * xs[-1] + len(xs)
def op13_index_of_missing_caught(a, b):
    try:
        k = operator.indexOf((1, 2), 5)
    except ValueError:
        k = -1
    return a * k + b
def op13_list_imul_seen_through_alias(a, b):
    xs = [1, 2]
    ys = xs
    xs *= 3
    return a * len(ys) + b * sum(ys)
def op13_list_imul_of_tensors(a, b):
    xs = [a]
    alias = xs
    xs *= 2
    return sum(alias) + b
def op13_iconcat_in_place(a, b):
    xs = [a]
    ys = xs
    operator.iconcat(xs, [b, a * b])
    return ys[-1] + len(ys)
def op13_iadd_with_tuple_in_place(a, b):
    xs = [1]
    ys = xs
    xs += (2, 3)
    return a * sum(ys) + b
def op13_inv_of_int(a, b):
    return a * operator.inv(3) + b
def op13_itemgetter_on_tensor_list(a, b):
    pick = operator.itemgetter(2, 0)
    p, q = pick([a, b, a * 2])
    return p - q


# ---- integer literals (cpython test_int_literal.py)
def il13_hex_octal_binary(a, b):
    return a * (0x10 - 0o17) + b * 0b101
def il13_underscored_literals(a, b):
    return a * (1_000 // 2_50) + b * 0x_ff % 7


# ---- function attributes (cpython test_funcattrs.py)
def _scaled(x, k=2, *, shift=1):
    return x * k + shift
def fa13_defaults_read(a, b):
    return a * _scaled.__defaults__[0] + b * _scaled.__kwdefaults__["shift"]
def fa13_name_and_qualname(a, b):
    def inner(x):
        return x
    if inner.__name__ == "inner" and inner.__qualname__.endswith("<locals>.inner"):
        return a + b
    return a - b
def fa13_closure_cell_contents(a, b):
    k = 3
    def inner(x):
        return x * k
    return inner(a) + b * inner.__closure__[0].cell_contents
def fa13_code_argcount(a, b):
    return a * _scaled.__code__.co_argcount + b
def fa13_nested_code_attributes(a, b):
    def inner(x, y=1, *rest):
        return x
    code = inner.__code__
    return a * code.co_argcount + b * len(code.co_varnames) + (code.co_name == "inner")


# ---- class protocols (cpython test_class.py)
class _Num:
    def __init__(self, v):
        self.v = v
    def __add__(self, other):
        return _Num(self.v + (other.v if isinstance(other, _Num) else other))
    def __radd__(self, other):
        return _Num(other * 10 + self.v)
    def __neg__(self):
        return _Num(-self.v)
    def __abs__(self):
        return _Num(abs(self.v) + 100)
    def __index__(self):
        return 2
class _Sized:
    def __len__(self):
        return 0
def cl13_add_then_radd(a, b):
    n = (_Num(1) + 2) + _Num(3)
    m = 4 + _Num(5)
    return a * n.v + b * m.v
def cl13_neg_abs(a, b):
    return a * abs(-_Num(3)).v + b
def cl13_index_dunder_indexes(a, b):
    i = _Num(0)
    return [10, 20, 30][i] * a + b
def cl13_bool_falls_back_to_len(a, b):
    if _Sized():
        return a + b
    return a - b
def cl13_radd_from_sum(a, b):
    total = sum([_Num(1), _Num(2)], 0)
    return a * total.v + b
'''
