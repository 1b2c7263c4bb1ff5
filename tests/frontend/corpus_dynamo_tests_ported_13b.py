"""The thirteenth batch of Dynamo-style programs, second half: the CPython suites test_exception_variations.py
(try/except/else/finally nested and returning from finally), test_baseexception.py (args, str() and the hierarchy
read with isinstance/issubclass), test_generator_stop.py (a StopIteration escaping a generator turns into a
RuntimeError), test_contextlib.py (suppress of several types, ExitStack entering contexts, AbstractContextManager
subclasses), test_grammar.py (chained comparisons, conditional expressions, nested comprehensions with conditions,
lambdas in default arguments, del of locals), test_patma.py (class, mapping, or- and star-patterns with guards),
test_defaultdict.py and test_ordered_dict.py (factories, order-sensitive equality), test_numeric_tower.py (hashes and
equality across int, float and bool); DYNAMIC_SRC (test_dynamic_shapes: programs run with dynamic=True on inputs
whose length changes between calls) and RECOMPILE_SRC (test_recompiles.py: guards on values that change between
calls). The calls are in test_dynamo_tests_ported_9on.py. Our own programs; the names given to exec are `torch`,
`nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import collections, contextlib, functools, math, operator


# ---- try statement shapes (cpython test_exception_variations.py)
def ev13_else_runs_without_error(a, b):
    out = []
    try:
        x = a + 1
    except ValueError:
        out.append(0)
    else:
        out.append(1)
    finally:
        out.append(2)
    return x * sum(out) + b
def ev13_except_then_finally_order(a, b):
    order = []
    try:
        try:
            raise KeyError("k")
        finally:
            order.append("inner")
    except KeyError:
        order.append("outer")
    return a * len(order) + (b if order[0] == "inner" else -b)
def ev13_return_in_finally_wins(a, b):
    def helper(x):
        try:
            return x + 1
        finally:
            x = x * 0  # (the return value was already taken)
    return helper(a) + b
def ev13_nested_handlers_pick_inner(a, b):
    try:
        try:
            {}["missing"]
        except LookupError:
            x = a * 2
    except KeyError:
        x = a * 3
    return x + b


# ---- exception objects (cpython test_baseexception.py)
def be13_args_and_str(a, b):
    try:
        raise ValueError("bad", 3)
    except ValueError as e:
        n = e.args[1]
        msg = str(e)
    return a * n + b * len(msg)
def be13_hierarchy_checks(a, b):
    ok = (issubclass(KeyError, LookupError) and issubclass(ZeroDivisionError, ArithmeticError)
          and not issubclass(ValueError, LookupError) and isinstance(IndexError(), Exception))
    return a + b if ok else a - b
def be13_single_arg_str(a, b):
    e = RuntimeError("xyz")
    return a * len(str(e)) + b * len(e.args)


# ---- generator_stop (cpython test_generator_stop.py)
def _leaky():
    yield 1
    raise StopIteration
def gs13_stopiteration_becomes_runtimeerror(a, b):
    got = []
    try:
        for v in _leaky():
            got.append(v)
    except RuntimeError:
        got.append(10)
    return a * sum(got) + b
def gs13_stopiteration_from_helper_next(a, b):
    def gen(it):
        while True:
            yield next(it) * 2  # (the StopIteration of the exhausted it leaves the generator)
    try:
        out = list(gen(iter([a, b])))
    except RuntimeError:
        out = [b]
    return out[0] + b
def gs13_return_ends_generator(a, b):
    def gen():
        yield a
        return
        yield b  # (never reached)
    return sum(gen()) + b


# ---- contextlib (cpython test_contextlib.py)
def cx13_suppress_several_types(a, b):
    x = a
    with contextlib.suppress(KeyError, IndexError):
        x = x + 1
        [][0]
    return x * b
class _Tracker(contextlib.AbstractContextManager):
    def __init__(self, log):
        self.log = log
    def __exit__(self, *exc):
        self.log.append("exit")
        return False
def cx13_abstract_context_manager(a, b):
    log = []
    with _Tracker(log) as t:
        y = a + b
    return y * len(t.log)
def cx13_exit_stack_enters_two(a, b):
    log = []
    with contextlib.ExitStack() as stack:
        stack.enter_context(_Tracker(log))
        stack.enter_context(_Tracker(log))
        y = a * b
    return y + len(log)


# ---- grammar (cpython test_grammar.py)
def gr13_chained_comparison(a, b):
    n = 3
    return a + b if 1 < n <= 3 != 4 else a - b
def gr13_conditional_expression_nested(a, b):
    k = 2
    w = 1 if k == 1 else 5 if k == 2 else 9
    return a * w + b
def gr13_nested_comprehension_with_conditions(a, b):
    pairs = [(i, j) for i in range(4) if i % 2 == 0 for j in range(i) if j != 1]
    return a * len(pairs) + b * sum(i * j for i, j in pairs)
def gr13_lambda_default_argument(a, b):
    fs = [lambda x, k=k: x * k for k in range(1, 4)]
    return fs[0](a) + fs[2](b)
def gr13_del_local_then_rebind(a, b):
    x = a * 2
    del x
    x = b
    return x + a
def gr13_star_expressions_in_literals(a, b):
    xs = [*range(2), *[5]]
    d = {**{"p": 1}, "q": 2}
    return a * sum(xs) + b * d["q"]


# ---- structural pattern matching (cpython test_patma.py)
class _Point:
    __match_args__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
def pm13_class_pattern_positional(a, b):
    match _Point(2, 3):
        case _Point(0, _):
            k = 0
        case _Point(x, y) if x < y:
            k = x * y
        case _:
            k = -1
    return a * k + b
def pm13_mapping_pattern_rest(a, b):
    match {"kind": "scale", "by": 4, "extra": 1}:
        case {"kind": "scale", "by": by, **rest}:
            k = by + len(rest)
        case _:
            k = 0
    return a * k + b
def pm13_or_pattern_and_star(a, b):
    match [1, 2, 3, 4]:
        case [0 | 1, *middle, last]:
            k = len(middle) + last
        case _:
            k = 0
    return a * k + b
def pm13_value_pattern_dotted(a, b):
    match 3:
        case math.pi:
            k = 1
        case operator.__name__:
            k = 2
        case int(n):
            k = n * 2
    return a * k + b


# ---- defaultdict and OrderedDict (cpython test_defaultdict.py, test_ordered_dict.py)
def dd13_defaultdict_list_groups(a, b):
    groups = collections.defaultdict(list)
    for k, v in [("p", 1), ("q", 2), ("p", 3)]:
        groups[k].append(v)
    return a * sum(groups["p"]) + b * len(groups["r"]) + len(groups)
def dd13_defaultdict_missing_no_factory(a, b):
    d = collections.defaultdict(None, {"k": 2})
    try:
        d["z"]
    except KeyError:
        return a * d["k"] + b
    return a
def od13_order_sensitive_equality(a, b):
    p = collections.OrderedDict([("x", 1), ("y", 2)])
    q = collections.OrderedDict([("y", 2), ("x", 1)])
    same_plain = dict(p) == dict(q)
    return a * (p == q) + b * same_plain
def od13_move_to_end_first(a, b):
    d = collections.OrderedDict.fromkeys("abc", 0)
    d.move_to_end("c", last=False)
    return a * "".join(d).index("a") + b


# ---- numeric tower (cpython test_numeric_tower.py)
def nt13_hash_equal_across_types(a, b):
    ok = hash(2) == hash(2.0) == hash(True + 1) and 1 == 1.0 == True  # noqa: E712
    return a + b if ok else a - b
def nt13_int_float_keys_collide(a, b):
    d = {1: "int"}
    d[1.0] = "float"
    d[True] = "bool"
    return a * len(d) + b * len(d[1])
def nt13_float_integer_ratio(a, b):
    p, q = (0.75).as_integer_ratio()
    return a * p / q + b * (7).bit_count()
'''

DYNAMIC_SRC = r'''
import math


def dy13_range_of_size_sum(a, b):
    return a * sum(range(a.shape[0])) + b
def dy13_slice_object_by_size(a, b):
    s = slice(1, a.shape[0])
    return a[s].sum() + b
def dy13_size_in_math_prod(a, b):
    return a * math.prod([a.shape[0], 2]) + b
def dy13_size_floordiv_and_mod(a, b):
    q, r = a.shape[0] // 2, a.shape[0] % 2
    return a * q + b * r
def dy13_slice_call_of_one_size(a, b):
    return a[slice(a.shape[0] - 1)].sum() + b
def dy13_view_minus_one_by_size(a, b):
    return torch.stack([a, b]).view(-1, a.shape[0]).sum(0)
def dy13_triu_of_outer(a, b):
    return torch.outer(a, b).triu().sum(0)
def dy13_size_index_from_end(a, b):
    return a[a.shape[0] - 1] + b
def dy13_flip_and_cumsum(a, b):
    return a.flip(0).cumsum(0) + b
def dy13_size_bool_branch_even(a, b):
    if a.shape[0] % 2 == 0:
        return a * 2
    return a + b
def dy13_arange_step_two(a, b):
    idx = torch.arange(0, a.shape[0], 2)
    return a[idx].sum() + b
def dy13_repeat_interleave_by_two(a, b):
    return a.repeat_interleave(2)[: a.shape[0]] + b
def dy13_stack_unbind(a, b):
    p, q = torch.stack([a, b], 1).unbind(1)
    return p * q
'''

RECOMPILE_SRC = r'''
import collections


def rc13_slice_arg_changes(a, s):
    return a[s].sum() + a
def rc13_frozenset_arg(a, fs):
    return a * len(fs) + (2 in fs)
def rc13_ordered_dict_order(a, d):
    return a * list(d)[0] + d[1]
def rc13_bytes_arg(a, data):
    return a * data[0] + len(data)
def rc13_complex_free_float_sign(a, x):
    if x < 0:
        return a - x
    return a * x
def rc13_kwargs_dict_size(a, opts):
    return a * len(opts) + opts.get("bias", 0)
def rc13_slice_step_changes(a, k):
    return a[::k].sum() * k + a
'''
