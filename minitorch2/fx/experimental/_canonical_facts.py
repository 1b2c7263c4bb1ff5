"""How torch's ShapeEnv recognises a guarded fact however a later question writes it.

Runtime layer, asked by ShapeEnv.static_value (and by _record: solved_for_symbol). Each guard is kept in torch's
canonical form (canonicalize_bool_expr: a difference in lowest terms, negative terms on the left, `>` as `<`) with
what it directly implies (`a < b` gives `a <= b - 1` and `a != b`), so that `2*((s+1)//2) != s` is known from the guard
`(s+1)//2 == s - (s+1)//2`. Without it every size question is still answered, from the ranges or by a new guard:
what changes is torch's count of compiles (a question torch recognises as known would be asked again, and the
backend would compile per size). Fidelity to torch's recompiles, outside the lesson.
"""
import math

import sympy


def guarded_fact(shape_env, expr):
    """True or False where a guard (or what it directly implies) says so of the relation `expr`; else None."""
    return _facts(shape_env).get(canonical_relation(expr)) if _is_relation(expr) else None


def _facts(env):
    """The guards and what each implies, canonical -> their truth (torch's axioms, get_implications: including
    its quirks), kept on the ShapeEnv and extended as guards are added (started over when the guards or
    replacements are new objects)."""
    if getattr(env, "_facts_of", (None, None))[0] is not env.guards or env._facts_of[1] is not env.replacements:
        env._facts_of, env._facts_cache, env._facts_done = (env.guards, env.replacements), {}, 0
    for guard in filter(_is_relation, map(env.simplify, env.guards[env._facts_done:])):
        lhs, rhs = guard.args  # (implications of the guard as written: torch derives none from a `>` or `>=`)
        implied = {sympy.Eq: [sympy.Le(lhs, rhs), sympy.Ge(lhs, rhs)], sympy.Le: [sympy.Lt(lhs, rhs + 1)],
                   sympy.Lt: [sympy.Le(lhs, rhs), sympy.Ne(lhs, rhs), sympy.Le(lhs, rhs - 1)]}.get(type(guard), [])
        for fact in filter(_is_relation, [guard, *implied]):
            form = canonical_relation(fact)
            if isinstance(form, (sympy.Eq, sympy.Ne)):  # either side first; the opposite relation false
                opposite = sympy.Ne if isinstance(form, sympy.Eq) else sympy.Eq
                for a, b in ((form.lhs, form.rhs), (form.rhs, form.lhs)):
                    env._facts_cache.update({type(form)(a, b, evaluate=False): True, opposite(a, b, evaluate=False): False})
            else:  # (and the guard's own negation false, as torch's add_expr writes it for each fact)
                env._facts_cache.update({form: True, canonical_relation(guard.negated): False})
    env._facts_done = len(env.guards)
    return env._facts_cache


def canonical_relation(relation):
    """torch's canonicalize_bool_expr: `<`, `<=`, `==` or `!=` of a difference in lowest terms, negative terms on the
    left (`2*a == 2*b + 4` and `a - b - 2 == 0` are both `a == b + 2`)."""
    flipped = isinstance(relation, (sympy.Gt, sympy.Ge))
    terms = sympy.Add.make_args(relation.lhs - relation.rhs if flipped else relation.rhs - relation.lhs)
    factor = math.gcd(*(abs(int(c)) if (c := t.as_coeff_Mul()[0]).is_Integer else 1 for t in terms)) or 1
    negative = [t.as_coeff_Mul()[0].is_negative for t in terms]
    kind = {sympy.Gt: sympy.Lt, sympy.Ge: sympy.Le}.get(type(relation), type(relation))
    return kind(*(sympy.Add(*(t / factor * (-1 if left else 1) for t, n in zip(terms, negative) if n == left))
                  for left in (True, False)), evaluate=False)


def solved_for_symbol(shape_env, equality):
    """(symbol, value) where an equality pins one symbol: `s77 == 8`, or one symbol linearly with an integer root
    (`4*s77 == 12`: s77 is 3, as torch's ShapeEnv solves it to a replacement; the equality is kept in the env's
    `solved_from`, where export finds the guard torch prints); else None. (ShapeEnv._record asks.)"""
    lhs, rhs = equality.args
    if lhs.is_Symbol != rhs.is_Symbol:
        return (lhs, rhs) if lhs.is_Symbol else (rhs, lhs)
    if type(lhs).__name__ == "FloorDiv" and lhs.args[0].is_Symbol and lhs.args[1].is_Integer and rhs.is_Integer:
        symbol, k = lhs.args  # `s // 3 == 0` with s >= 2 known: s is 2 (torch's solver narrows s to [0, 2] first)
        low, high = shape_env.var_to_range.get(symbol, (-sympy.oo, sympy.oo))
        low, high = max(low, rhs * k), min(high, rhs * k + k - 1)
        return (symbol, low) if low == high else None
    if len(equality.free_symbols) != 1:
        return None
    (symbol,) = equality.free_symbols
    difference = sympy.expand(lhs - rhs)
    if not difference.is_polynomial(symbol) or sympy.degree(difference, symbol) != 1:
        return None
    root = sympy.solve(difference, symbol)
    if len(root) != 1 or not root[0].is_Integer:
        return None
    shape_env.__dict__.setdefault("solved_from", {})[symbol] = equality
    return symbol, root[0]


def _is_relation(expr):
    return isinstance(expr, sympy.core.relational.Relational)
