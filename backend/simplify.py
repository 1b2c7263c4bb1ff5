"""Index simplification with loop ranges (plays the part of torch._inductor.sizevars' simplify).

Backend layer, used by the scheduler when it writes a node's loads and stores over a kernel's loop variables.
Views and regrouped loops produce FloorDiv and Mod of affine sums, `(16*x0 + x1) // 16` and
`(16*x0 + x1) % 16`; knowing that x1 < 16 makes them `x0` and `x1`. Simpler indices let the scheduler see that
a load reads the element a store wrote (so it can fuse), and let code generation vectorize the unit-stride loop.

The one idea to hold: split a sum into terms whose coefficient is a multiple of the divisor and the rest; if the rest is
provably smaller than the divisor (from the variables' ranges), `//` keeps only the first part (divided) and `%` only
the second. Every variable is >= 0 and every coefficient is positive in our indices; anything else is left as it is.
"""
import math

from . import loop_ir as L


def simplify(index, extents):
    """`index` with the FloorDiv/Mod the ranges make trivial removed; extents: variable name -> range."""
    if isinstance(index, (L.Var, L.Const)):
        return index
    if isinstance(index, L.Add):
        return _merge_quotient_and_remainder(_sum([simplify(term, extents) for term in index.terms]))
    if isinstance(index, L.Mul):
        return simplify(index.term, extents) * index.factor
    if isinstance(index, L.Indirect):  # a value read at run time, in [0, size): simplify what it reads
        return L.map_index(index, on_value=lambda value: simplify_value(value, extents))
    inner = simplify(index.term, extents)
    divisor = index.divisor
    if not L.is_nonnegative(inner):
        return inner // divisor if isinstance(index, L.FloorDiv) else inner % divisor
    multiples, rest = _split(inner, divisor)
    rest_fits = L.known(_max_value(rest, extents) < divisor)
    if isinstance(index, L.FloorDiv):
        quotient = [_divide(t, divisor) for t in multiples]
        # (d*a + r) // d is a + r // d: the same split as the remainder's below, so a reshape's quotient and
        # remainder pair up again in _merge_quotient_and_remainder
        return _sum(quotient if rest_fits else quotient + [_sum(rest) // divisor])
    return _sum(rest) if rest_fits else _sum(rest) % divisor


def _merge_quotient_and_remainder(index):
    """c*k*(t // k) + c*(t % k) -> c*t, true for every integer t: what a reshape of a reshape leaves (`32768*(r0
    // 64) + 512*(r0 % 64)` is `512*r0`, a plain stride an extern matmul can take)."""
    terms = _terms(index)
    for i, quotient in enumerate(terms):
        q_inner, q_factor = _unscaled(quotient)
        if not isinstance(q_inner, L.FloorDiv):
            continue
        for j, remainder in enumerate(terms):
            r_inner, r_factor = _unscaled(remainder)
            if (isinstance(r_inner, L.Mod) and r_inner.term == q_inner.term and r_inner.divisor == q_inner.divisor
                    and q_factor == r_factor * q_inner.divisor):
                rest = [t for k, t in enumerate(terms) if k not in (i, j)]
                return _merge_quotient_and_remainder(_sum(rest + [q_inner.term * r_factor]))
    return index


def _unscaled(term):
    return (term.term, term.factor) if isinstance(term, L.Mul) else (term, 1)


def simplify_value(value, extents):
    """`value` with the index of every Load and IndexValue in it simplified."""
    return L.map_value(value, lambda leaf: leaf, lambda index: simplify(index, extents))


def _terms(index):
    return list(index.terms) if isinstance(index, L.Add) else [index]


def _coefficient(term):
    return term.value if isinstance(term, L.Const) else _unscaled(term)[1]


def _split(index, divisor):
    multiples, rest = [], []
    for term in _terms(index):
        (multiples if _coefficient(term) % divisor == 0 else rest).append(term)
    return multiples, rest


def _divide(term, divisor):
    if isinstance(term, L.Const):
        return L.Const(L.floordiv(term.value, divisor))
    return term.term * L.floordiv(term.factor, divisor)  # a Mul whose factor divisor divides


def _sum(terms):
    return sum(terms, L.Const(0))


def _max_value(terms, extents):
    return sum(_max_of(t, extents) for t in terms)


def _max_of(index, extents):
    if isinstance(index, L.Var):
        return extents.get(index.name, math.inf) - 1
    if isinstance(index, L.Const):
        return index.value
    if isinstance(index, L.Mul):
        return index.factor * _max_of(index.term, extents)
    if isinstance(index, L.Add):
        return _max_value(index.terms, extents)
    if isinstance(index, L.Indirect):
        return index.size - 1
    largest = _max_of(index.term, extents)  # of a FloorDiv's or a Mod's term
    if isinstance(index, L.FloorDiv):
        return largest if largest == math.inf else L.floordiv(largest, index.divisor)
    return largest if L.known(largest < index.divisor - 1) else index.divisor - 1
