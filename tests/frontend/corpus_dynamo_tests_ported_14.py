"""The fourteenth batch of Dynamo-style programs, first half, aimed at the CPython suites Dynamo runs under itself
(test/dynamo/cpython/3_13) that batches 1-13 left alone: test_binop.py (a rational-number class with binary and
reflected dunders, comparisons and NotImplemented fallbacks), test_complex.py and test_cmath.py (Python complex
numbers: arithmetic, real/imag/conjugate, abs, phase, polar and rect), test_deque.py (deque methods: appendleft,
insert (a full one's IndexError), extendleft, rotate both ways, maxlen dropping items, index, remove, count,
reversed, equality), test_enum.py (members by value and name, iteration order, aliases, __members__ read as a
mapping, IntEnum arithmetic, Flag composition, auto values) and test_builtin.py (divmod, three-argument pow, format
with a spec, bin/oct/hex, chr/ord, zip(strict=True), map of several iterables, filter(None), isinstance of tuples,
round with digits, sum with a float start). Each program takes two (3,) float tensors `a`, `b`;
test_dynamo_tests_ported_9on.py runs it under torch.compile and minitorch2.compile and compares values and (frames,
ops, graph breaks). Our own programs; the names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import cmath, collections, enum, math


# ---- a rational class (cpython test_binop.py)
def _gcd(x, y):
    while y:
        x, y = y, x % y
    return abs(x)
class _Rat:
    def __init__(self, num, den=1):
        g = _gcd(num, den)
        self.num, self.den = num // g, den // g
    def __add__(self, other):
        other = other if isinstance(other, _Rat) else _Rat(other)
        return _Rat(self.num * other.den + other.num * self.den, self.den * other.den)
    __radd__ = __add__
    def __mul__(self, other):
        if not isinstance(other, (_Rat, int)):
            return NotImplemented
        other = other if isinstance(other, _Rat) else _Rat(other)
        return _Rat(self.num * other.num, self.den * other.den)
    def __rsub__(self, other):
        return _Rat(other * self.den - self.num, self.den)
    def __eq__(self, other):
        return isinstance(other, _Rat) and (self.num, self.den) == (other.num, other.den)
    def __lt__(self, other):
        return self.num * other.den < other.num * self.den
    def __float__(self):
        return self.num / self.den
def bo14_rational_sum_reduces(a, b):
    r = _Rat(1, 2) + _Rat(1, 3) + _Rat(1, 6)
    return a * r.num + b * r.den
def bo14_rational_reflected_ops(a, b):
    r = 1 + _Rat(1, 4)
    s = 2 - _Rat(1, 2)
    return a * r.num / r.den + b * s.num / s.den
def bo14_rational_mul_not_implemented_falls_back(a, b):
    try:
        _Rat(1, 2) * 1.5
        caught = 0
    except TypeError:
        caught = 1
    return a * caught + b * (_Rat(2, 3) * 3).num
def bo14_rational_compare_and_sort(a, b):
    xs = sorted([_Rat(3, 4), _Rat(1, 3), _Rat(1, 2)])
    return a * xs[0].den + b * xs[-1].num + (_Rat(2, 4) == _Rat(1, 2))
def bo14_rational_float_scales_tensor(a, b):
    return a * float(_Rat(3, 8)) + b


# ---- complex numbers (cpython test_complex.py, test_cmath.py)
def cx14_complex_arithmetic_parts(a, b):
    z = (1 + 2j) * (3 - 1j)
    return a * z.real + b * z.imag
def cx14_conjugate_and_abs(a, b):
    z = complex(3, -4)
    return a * abs(z) + b * z.conjugate().imag
def cx14_complex_division_and_pow(a, b):
    z = (2 + 2j) / (1 + 1j)
    w = (1j) ** 2
    return a * z.real + b * w.real
def cx14_cmath_phase_polar(a, b):
    r, phi = cmath.polar(1j)
    return a * r + b * phi
def cx14_cmath_rect_and_sqrt(a, b):
    z = cmath.rect(2.0, 0.0)
    s = cmath.sqrt(-4)
    return a * z.real + b * s.imag
def cx14_complex_equality_with_real(a, b):
    if complex(2, 0) == 2 and 1j * 1j == -1:
        return a + b
    return a - b


# ---- deque (cpython test_deque.py)
def dq14_appendleft_extendleft(a, b):
    d = collections.deque([1, 2])
    d.appendleft(0)
    d.extendleft([7, 8])
    return a * d[0] + b * d[-1] + len(d)
def dq14_rotate_both_ways(a, b):
    d = collections.deque(range(5))
    d.rotate(2)
    first = d[0]
    d.rotate(-3)
    return a * first + b * d[0]
def dq14_maxlen_drops_oldest(a, b):
    d = collections.deque(maxlen=3)
    for t in (a, b, a * 2, b * 2):
        d.append(t)
    return d[0] + d[1] * d[2]
def dq14_index_remove_count(a, b):
    d = collections.deque([3, 1, 3, 2])
    d.remove(3)
    return a * d.index(2) + b * d.count(3)
def dq14_deque_of_tensors_popleft(a, b):
    d = collections.deque([a, b, a + b])
    x = d.popleft()
    y = d.pop()
    return x * y + d[0]
def dq14_reversed_and_equality(a, b):
    d = collections.deque([1, 2, 3])
    r = list(reversed(d))
    return a * r[0] + b * (d == collections.deque([1, 2, 3]))
def dq14_insert_and_full_insert_raises(a, b):
    d = collections.deque([1, 2, 3])
    d.insert(1, 9)
    full = collections.deque([a], maxlen=2)
    full.insert(0, b)
    try:
        full.insert(0, a)
        caught = 0
    except IndexError:
        caught = 1
    return full[0] * full[1] * d.index(9) + d[1] + caught
def dq14_deque_extend_and_clear(a, b):
    d = collections.deque()
    d.extend([a, b])
    total = d[0] + d[1]
    d.clear()
    return total * (len(d) + 1)


# ---- enums (cpython test_enum.py)
class _Color(enum.Enum):
    RED = 1
    GREEN = 2
    CRIMSON = 1
class _Level(enum.IntEnum):
    LOW = 1
    HIGH = 3
class _Perm(enum.Flag):
    R = 4
    W = 2
    X = 1
class _Auto(enum.Enum):
    FIRST = enum.auto()
    SECOND = enum.auto()
def en14_member_by_value_and_name(a, b):
    return a * _Color(2).value + b * _Color["RED"].value
def en14_alias_is_same_member(a, b):
    if _Color.CRIMSON is _Color.RED:
        return a + b
    return a - b
def en14_intenum_arithmetic(a, b):
    return a * (_Level.HIGH + _Level.LOW) + b * (_Level.HIGH > 2)
def en14_flag_composition(a, b):
    p = _Perm.R | _Perm.W
    return a * p.value + b * (bool(p & _Perm.W)) + (_Perm.X in p)
def en14_auto_values_and_name(a, b):
    return a * _Auto.SECOND.value + b * len(_Auto.FIRST.name)
def en14_members_mapping_reads(a, b):
    out = a * len(_Color.__members__) + ("CRIMSON" in _Color.__members__)
    for name, member in _Level.__members__.items():
        out = out + b * member * len(name)
    return out
def en14_iterate_members(a, b):
    out = b
    for lvl in _Level:
        out = out + a * lvl
    return out


# ---- builtins (cpython test_builtin.py)
def bi14_divmod_and_three_arg_pow(a, b):
    q, r = divmod(-7, 3)
    return a * q + b * r + pow(3, 4, 5)
def bi14_bin_oct_hex_lengths(a, b):
    return a * len(bin(10)) + b * len(hex(255)) + len(oct(8))
def bi14_chr_ord_roundtrip(a, b):
    c = chr(ord("a") + 2)
    return a * ord(c) + b * (c == "c")
def bi14_zip_strict_equal_lengths(a, b):
    total = 0
    for x, y in zip([1, 2], [3, 4], strict=True):
        total += x * y
    return a * total + b
def bi14_zip_strict_mismatch_raises(a, b):
    try:
        list(zip([1, 2], [3], strict=True))
        caught = 0
    except ValueError:
        caught = 1
    return a + b * caught
def bi14_map_of_two_iterables(a, b):
    vals = list(map(lambda x, y: x * y, [1, 2, 3], [4, 5]))
    return a * sum(vals) + b * len(vals)
def bi14_filter_none_drops_falsy(a, b):
    kept = list(filter(None, [0, 1, "", 2, None, 3]))
    return a * len(kept) + b * sum(kept)
def bi14_isinstance_of_tuple_types(a, b):
    score = isinstance(3, (float, int)) + isinstance("s", (list, tuple)) * 10 + isinstance(a, (int, torch.Tensor))
    return a * score + b
def bi14_round_with_digits(a, b):
    return a * round(2.675, 2) + b * round(1234, -2)
def bi14_sum_with_float_start(a, b):
    return a * sum([1, 2, 3], 0.5) + b
def bi14_format_with_spec(a, b):
    s = format(3.14159, ".2f")
    return a * len(s) + b * float(s)
def bi14_min_max_of_tensors_list(a, b):
    xs = [a.sum(), b.sum()]
    return a * (max(xs) - min(xs))
'''
