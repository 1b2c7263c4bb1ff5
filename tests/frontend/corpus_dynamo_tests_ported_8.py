"""An eighth batch of programs in the style of Dynamo's own tests, aimed at the files batches 1-7 drew on least:
test/dynamo/test_python_autograd.py (a gradient tape written in Python: Variables with names from a global
counter, a list of tape entries holding closures, the chain rule walked over the reversed tape), and the CPython
suites Dynamo runs under itself (test/dynamo/cpython/3_13: test_tuple.py, test_iter.py, test_sort.py, test_bool.py,
test_int.py, test_float.py, test_userlist.py, test_userdict.py, test_raise.py): tuple methods, comparison and
hashing, iterator objects consumed in parts (iter/next over lists, dicts, strings, ranges, map, filter, zip,
enumerate and reversed), sorting stability with keys and reverse, bool and int arithmetic, int() and float() of
strings and bases, round and divmod of negatives, collections.UserList and UserDict in the frame, and raise
statements: re-raised, chained, raised in helpers and generators, with finally clauses that return.

Our own programs, not copies of the earlier batches nor of pytorch's tests. Each PORTED program is a function of
two (3,) float tensors `a`, `b`; test_dynamo_tests_ported_8.py runs it under torch.compile and minitorch2.compile
with a CompileCounter and compares values, frame_count, op_count and the graph-break count. The batch goes on in
corpus_dynamo_tests_ported_8b.py (set comprehensions, strings, tensor methods, sources, context managers, modules,
and the recompile programs). The names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import collections, functools, math, operator


# ---- a gradient tape in Python (test_python_autograd.py)
_counter = [0]
_tape = []


def _fresh():
    _counter[0] += 1
    return f"v{_counter[0]}"


class _Var:
    def __init__(self, value, name=None):
        self.value = value
        self.name = name or _fresh()

    def __mul__(self, other):
        out = _Var(self.value * other.value)
        def back(g):
            return [_Var(g.value * other.value), _Var(g.value * self.value)]
        _tape.append((self.name, other.name, out.name, back))
        return out

    def __add__(self, other):
        out = _Var(self.value + other.value)
        _tape.append((self.name, other.name, out.name, lambda g: [g, g]))
        return out


def _grads(loss, wanted):
    d = {loss.name: _Var(loss.value * 0 + 1)}
    for x, y, out, back in reversed(_tape):
        if out not in d:
            continue
        gx, gy = back(d[out])
        for name, g in ((x, gx), (y, gy)):
            d[name] = _Var(d[name].value + g.value) if name in d else g
    return [d[w.name].value for w in wanted]


def pa8_forward_through_tape(a, b):
    _tape.clear()
    x, y = _Var(a, "a"), _Var(b, "b")
    out = (x + y) * y
    return out.value
def pa8_backward_through_tape(a, b):
    _tape.clear()
    x, y = _Var(a, "a"), _Var(b, "b")
    out = (x + y) * y
    ga, gb = _grads(out, [x, y])
    return ga + gb
def pa8_tape_with_reused_input(a, b):
    _tape.clear()
    x = _Var(a, "a")
    out = x * x + x
    return _grads(out, [x])[0]
def pa8_tape_length_as_scale(a, b):
    _tape.clear()
    x, y = _Var(a, "a"), _Var(b, "b")
    out = x * y + x * y
    return out.value * len(_tape)
def pa8_fresh_names_counted(a, b):
    start = _counter[0]
    _Var(a)
    _Var(b)
    return a * (_counter[0] - start) + b


# ---- tuples (cpython test_tuple.py)
def tp8_count_and_index(a, b):
    t = (1, 2, 2, 3, 2)
    return a * t.count(2) + b * t.index(3)
def tp8_concat_and_repeat(a, b):
    t = (a,) + (b,) * 2
    return t[0] + t[1] + t[2] * len(t)
def tp8_compare_lexicographic(a, b):
    if (1, 2, 3) < (1, 3) and (2,) > (1, 9) and (1, 2) == (1, 2):
        return a + b
    return a - b
def tp8_hash_of_tuple_constant(a, b):
    return a * (hash((1, 2)) == hash((1, 2))) + b
def tp8_slice_with_negative_step(a, b):
    t = (a, b, a * 2, b * 2)
    r = t[::-2]
    return r[0] + r[1]
def tp8_nested_unpack(a, b):
    (x, (y, z)), w = (a, (b, 2)), 3
    return x * z + y * w
def tp8_star_unpack_middle(a, b):
    first, *mid, last = (a, 1, 2, 3, b)
    return first * sum(mid) + last
def tp8_tuple_of_generator(a, b):
    t = tuple(a * i for i in range(1, 4))
    return t[-1] - t[0] + b
def tp8_min_max_of_tuples(a, b):
    lo, hi = min((3, 1), (2, 5)), max((3, 1), (3, 0))
    return a * lo[1] + b * hi[1]
def tp8_contains_and_len(a, b):
    t = (1, "x", 2.5)
    return a * ("x" in t) + b * len(t) + a * (3 not in t)
def tp8_tuple_of_dict_keys(a, b):
    ks = tuple({"p": a, "q": b})
    return a * len(ks[0] + ks[1]) + b
def tp8_tuple_as_dict_key(a, b):
    d = {(0, 1): a, (1, 0): b}
    return d[(0, 1)] - d[1, 0]
def tp8_tuple_of_tensors_sum(a, b):
    return sum((a, b, a * b), a)
def tp8_zip_star_transpose(a, b):
    cols = tuple(zip(*((1, 2), (3, 4), (5, 6))))
    return a * sum(cols[0]) + b * sum(cols[1])
def tp8_tuple_reversed_and_sorted(a, b):
    t = (3, 1, 2)
    return a * tuple(reversed(t))[0] + b * tuple(sorted(t))[-1]


# ---- iterators consumed in parts (cpython test_iter.py)
def ir8_iter_list_next_then_rest(a, b):
    it = iter([a, b, a * b])
    first = next(it)
    return first + sum(it)
def ir8_iter_dict_gives_keys(a, b):
    it = iter({"u": a, "vv": b})
    return a * len(next(it)) + b * len(next(it))
def ir8_iter_of_string(a, b):
    it = iter("xyz")
    next(it)
    return a * (next(it) == "y") + b
def ir8_iter_range_partial(a, b):
    it = iter(range(5))
    next(it)
    next(it)
    return a * sum(it) + b
def ir8_map_of_two_iterables(a, b):
    return sum(map(operator.mul, [a, b], [2, 3]))
def ir8_filter_none_drops_falsy(a, b):
    kept = list(filter(None, [0, 1, "", 2, None, 3]))
    return a * sum(kept) + b * len(kept)
def ir8_reversed_range(a, b):
    r = list(reversed(range(1, 4)))
    return a * r[0] + b * r[-1]
def ir8_zip_stops_at_shortest(a, b):
    pairs = list(zip([a, b, a], (1, 2)))
    return sum(x * k for x, k in pairs) * len(pairs)
def ir8_enumerate_object_next(a, b):
    e = enumerate([a, b], start=5)
    i, x = next(e)
    j, y = next(e)
    return x * i + y * j
def ir8_iterator_shared_by_two_loops(a, b):
    it = iter([1, 2, 3, 4, 5])
    out = a
    for k in it:
        out = out + k
        if k == 2:
            break
    for k in it:
        out = out * k
    return out + b
def ir8_next_default_on_exhausted(a, b):
    it = iter([a])
    next(it)
    return next(it, b) * 2
def ir8_stopiteration_caught(a, b):
    it = iter([a])
    next(it)
    try:
        next(it)
    except StopIteration:
        return b
    return a
def ir8_list_of_map_lambda(a, b):
    return list(map(lambda t: t * 2, (a, b)))[1] + a
def ir8_iter_over_tensor_rows(a, b):
    m = torch.stack([a, b])
    out = 0
    for row in m:
        out = out + row
    return out
def ir8_sum_of_filter_over_range(a, b):
    return a * sum(filter(lambda k: k % 3 == 0, range(10))) + b


# ---- sorting (cpython test_sort.py)
def so8_sort_is_stable_with_key(a, b):
    items = [(1, "b"), (0, "a"), (1, "a"), (0, "b")]
    items.sort(key=lambda p: p[0])
    return a * (items[0][1] == "a") + b * (items[2][1] == "b")
def so8_reverse_sort_is_stable(a, b):
    items = [(1, 0), (0, 1), (1, 2)]
    s = sorted(items, key=lambda p: p[0], reverse=True)
    return a * s[0][1] + b * s[1][1]
def so8_sorted_strings_by_len(a, b):
    words = sorted(["ccc", "a", "bb"], key=len)
    return a * len(words[-1]) + b * len(words[0])
def so8_sorted_dict_items_by_value(a, b):
    d = {"x": 3, "y": 1, "z": 2}
    order = [k for k, _ in sorted(d.items(), key=lambda kv: kv[1])]
    return a * (order == ["y", "z", "x"]) + b
def so8_sort_with_itemgetter(a, b):
    rows = [(3, 1), (1, 4), (2, 2)]
    rows.sort(key=operator.itemgetter(1), reverse=True)
    return a * rows[0][0] + b * rows[-1][0]
def so8_sorted_mixed_numbers(a, b):
    xs = sorted([2.5, 1, True, 0.5])
    return a * xs[0] + b * xs[-1]
def so8_sorted_booleans(a, b):
    xs = sorted([True, False, True])
    return a * xs.index(True) + b
def so8_sort_tensors_by_sum(a, b):
    ts = sorted([a * 3, b, a - b], key=lambda t: t.sum().item())
    return ts[0] + ts[-1]
def so8_sorted_by_negated_key(a, b):
    xs = sorted(range(5), key=lambda k: -k)
    return a * xs[0] + b * xs[1]
def so8_sort_list_of_lists(a, b):
    xs = [[2, 1], [1, 9], [2, 0]]
    xs.sort()
    return a * xs[0][1] + b * xs[1][1]


# ---- bool, int and float (cpython test_bool.py, test_int.py, test_float.py)
def bo8_bool_arithmetic(a, b):
    return a * (True + True) + b * (True * 3 - False)
def bo8_bool_of_containers(a, b):
    n = bool([]) + bool([0]) + bool({}) + bool("x") + bool(()) + bool(0.0)
    return a * n + b
def bo8_isinstance_bool_int(a, b):
    return a * isinstance(True, int) + b * (type(True) is bool)
def bo8_int_of_string_with_base(a, b):
    return a * int("ff", 16) + b * int("101", 2)
def bo8_int_truncates_toward_zero(a, b):
    return a * int(-2.7) + b * int(2.7)
def bo8_float_of_string(a, b):
    return a * float("1.5") + b * float("-0.25")
def bo8_round_with_ndigits(a, b):
    return a * round(2.675, 2) + b * round(-1.5)
def bo8_divmod_of_negatives(a, b):
    q, r = divmod(-7, 3)
    return a * q + b * r
def bo8_pow_with_modulus(a, b):
    return a * pow(3, 4, 5) + b * (-7 % 3)
def bo8_int_bit_ops(a, b):
    return a * ((6 & 3) | (1 << 3)) + b * (~5 ^ 2)
def bo8_float_special_values(a, b):
    inf = float("inf")
    return a * (inf > 1e308) + b * math.isinf(-inf) + a * math.isnan(float("nan"))
def bo8_int_floor_div_float(a, b):
    return a * (7 // 2.0) + b * (-7 // 2)
def bo8_float_is_integer(a, b):
    return a * (3.0).is_integer() + b * (2.5).is_integer()
def bo8_abs_and_neg_of_bool(a, b):
    return a * abs(-True) + b * (-False)
def bo8_int_from_shape_arith(a, b):
    n = int(a.shape[0] * 1.5)
    return a * n + b


# ---- collections.UserList and UserDict (cpython test_userlist.py, test_userdict.py)
def ul8_userlist_append_and_index(a, b):
    xs = collections.UserList([a])
    xs.append(b)
    return xs[0] + xs[1] * len(xs)
def ul8_userlist_subclass_method(a, b):
    class Stack(collections.UserList):
        def top(self):
            return self.data[-1]
    s = Stack([a, b])
    return s.top() * 2
def ul8_userlist_concat(a, b):
    xs = collections.UserList([1, 2]) + [3]
    return a * sum(xs) + b
def ud8_userdict_get_and_setitem(a, b):
    d = collections.UserDict({"x": a})
    d["y"] = b
    return d["x"] + d.get("y") + d.get("z", a)
def ud8_userdict_subclass_missing(a, b):
    class Zero(collections.UserDict):
        def __missing__(self, key):
            return 0
    d = Zero({"k": 2})
    return a * d["k"] + b * d["absent"]
def ud8_userdict_contains_and_len(a, b):
    d = collections.UserDict(p=1, q=2)
    return a * ("p" in d) + b * len(d)
def ud8_userdict_keys_values(a, b):
    d = collections.UserDict({"a": 1, "b": 2})
    return a * sum(d.values()) + b * len(list(d.keys()))


# ---- raise statements (cpython test_raise.py)
class _Oops(Exception):
    pass


def _raises(x):
    raise _Oops("bad")


def rs8_raise_in_helper_caught(a, b):
    try:
        _raises(a)
    except _Oops:
        return b * 2
    return a
def rs8_reraise_in_except(a, b):
    try:
        try:
            raise ValueError("x")
        except ValueError:
            raise
    except ValueError:
        return a + b
def rs8_raise_from_sets_cause(a, b):
    try:
        try:
            raise KeyError("k")
        except KeyError as e:
            raise _Oops("wrapped") from e
    except _Oops as e:
        return a * isinstance(e.__cause__, KeyError) + b
def rs8_context_set_implicitly(a, b):
    try:
        try:
            raise TypeError
        except TypeError:
            raise ValueError
    except ValueError as e:
        return a * isinstance(e.__context__, TypeError) + b
def rs8_finally_runs_after_return(a, b):
    log = []
    def f(x):
        try:
            return x * 2
        finally:
            log.append(1)
    out = f(a)
    return out + b * len(log)
def rs8_raise_class_not_instance(a, b):
    try:
        raise IndexError
    except LookupError as e:
        return a * isinstance(e, IndexError) + b
def rs8_exception_args(a, b):
    try:
        raise ValueError(3, "x")
    except ValueError as e:
        return a * e.args[0] + b * len(e.args)
def rs8_raise_in_loop_breaks_out(a, b):
    out = a
    try:
        for k in range(5):
            if k == 3:
                raise _Oops
            out = out + k
    except _Oops:
        pass
    return out + b
def rs8_raise_inside_generator(a, b):
    def gen():
        yield a
        raise _Oops
    got = []
    try:
        for v in gen():
            got.append(v)
    except _Oops:
        got.append(b)
    return got[0] + got[1]
def rs8_except_star_tuple_order(a, b):
    try:
        {}["missing"]
    except (IndexError, KeyError) as e:
        return a * (type(e) is KeyError) + b
'''
