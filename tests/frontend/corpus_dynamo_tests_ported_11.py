"""An eleventh batch of programs in the style of Dynamo's own tests, aimed at the files batches 1-10 drew on least:
test/dynamo/test_sets.py (set literals, algebra and methods over ints and strings, frozensets as keys),
test_dicts.py (dict views, setdefault, pop, update, merges, OrderedDict moves, defaultdict factories, Counter),
test_list.py (slice assignment, del, insert, sort with keys, list comparisons, list of tensors mutated),
test_exceptions.py (raise and catch across helpers, finally, else, re-raise, exception attributes and chaining),
test_generator.py (generators with send-free loops, yield from, generator returning values, early close),
test_global.py (globals read, written and rebound by the frame and by its helpers) and test_functions.py's later
half (functools.partial and reduce, lambdas with defaults, keyword-only and *args/**kwargs, recursion, staticmethod
and classmethod, string methods, functools.wraps, torch.utils.checkpoint and autograd.grad inside the frame,
generator.send, contextlib.ExitStack).

Our own programs, not copies of the earlier batches nor of pytorch's tests. Each PORTED program is a function of
two (3,) float tensors `a`, `b`; test_dynamo_tests_ported_9on.py runs it under torch.compile and minitorch2.compile
with a CompileCounter and compares values, frame_count, op_count and the graph-break count. The batch goes on in
corpus_dynamo_tests_ported_11b.py. The names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import collections, contextlib, functools, itertools, math, operator


# ---- sets (test_sets.py)
def se11_set_literal_len(a, b):
    s = {1, 2, 2, 3}
    return a * len(s) + b
def se11_set_union_intersection(a, b):
    s, t = {1, 2, 3}, {2, 3, 4}
    return a * len(s | t) + b * len(s & t)
def se11_set_difference_symmetric(a, b):
    s, t = {1, 2, 3}, {3, 4}
    return a * len(s - t) + b * len(s ^ t)
def se11_set_add_discard(a, b):
    s = set()
    s.add(1)
    s.add(5)
    s.discard(1)
    s.discard(9)
    return a * len(s) + b * (5 in s)
def se11_set_update_from_list(a, b):
    s = {1}
    s.update([2, 3], (3, 4))
    return a * len(s) + b * max(s)
def se11_set_of_strings_membership(a, b):
    s = {"x", "y"}
    return a * ("x" in s) + b * ("z" not in s)
def se11_set_issubset_issuperset(a, b):
    s, t = {1, 2}, {1, 2, 3}
    return a * s.issubset(t) + b * t.issuperset(s) + s.isdisjoint({7})
def se11_frozenset_as_dict_key(a, b):
    d = {frozenset([1, 2]): a, frozenset([3]): b}
    return d[frozenset([2, 1])] * 2 + d[frozenset({3})]
def se11_set_comprehension(a, b):
    s = {k % 3 for k in range(10)}
    return a * len(s) + b * sum(s)
def se11_set_pop_remove(a, b):
    s = {4, 6}
    s.remove(4)
    k = s.pop()
    return a * k + b * len(s)
def se11_sorted_set(a, b):
    ks = sorted({3, 1, 2})
    return a * ks[0] + b * ks[-1]
def se11_set_copy_is_independent(a, b):
    s = {1, 2}
    t = s.copy()
    t.add(3)
    return a * len(s) + b * len(t)
def se11_set_equality(a, b):
    return a * ({1, 2} == {2, 1}) + b * ({1} != {1, 2})
def se11_set_from_tensor_shapes(a, b):
    s = {a.shape, b.shape}
    return a * len(s) + b
def se11_set_intersection_update(a, b):
    s = {1, 2, 3, 4}
    s.intersection_update({2, 4, 6})
    s.difference_update({4})
    return a * len(s) + b * min(s)


# ---- dicts (test_dicts.py)
def di11_setdefault_and_get(a, b):
    d = {}
    d.setdefault("k", []).append(a)
    d.setdefault("k", []).append(b)
    return sum(d["k"]) * len(d.get("k"))
def di11_pop_with_default(a, b):
    d = {"x": a}
    x = d.pop("x")
    return x + d.pop("y", b) * len(d)
def di11_update_with_kwargs(a, b):
    d = {"x": 1}
    d.update(y=2, z=3)
    return a * sum(d.values()) + b * len(d)
def di11_merge_operator(a, b):
    d = {"x": a, "y": b} | {"y": a * 2}
    return d["x"] + d["y"]
def di11_inplace_merge(a, b):
    d = {"x": a}
    d |= {"z": b}
    return d["x"] * d["z"]
def di11_keys_view_set_ops(a, b):
    d1, d2 = {"a": 1, "b": 2}, {"b": 3, "c": 4}
    common = d1.keys() & d2.keys()
    return a * len(common) + b * len(d1.keys() | d2.keys())
def di11_items_sorted_by_value(a, b):
    d = {"p": 3, "q": 1, "r": 2}
    ordered = sorted(d.items(), key=lambda kv: kv[1])
    return a * ordered[0][1] + b * ordered[-1][1]
def di11_dict_comprehension_tensors(a, b):
    d = {k: a * k for k in range(3)}
    return d[2] - d[1] + b
def di11_dict_from_zip(a, b):
    d = dict(zip(["x", "y"], [a, b]))
    return d["x"] * 2 + d["y"]
def di11_fromkeys(a, b):
    d = dict.fromkeys(["x", "y", "z"], 2)
    return a * sum(d.values()) + b
def di11_ordered_dict_move_to_end(a, b):
    d = collections.OrderedDict([("x", a), ("y", b)])
    d.move_to_end("x")
    return list(d.values())[0] * 2 + list(d.values())[1]
def di11_ordered_dict_popitem(a, b):
    d = collections.OrderedDict([("x", a), ("y", b), ("z", a * 3)])
    k, v = d.popitem()
    k2, v2 = d.popitem(last=False)
    return v + v2 * len(d)
def di11_defaultdict_list(a, b):
    d = collections.defaultdict(list)
    for i, t in enumerate([a, b, a]):
        d[i % 2].append(t)
    return sum(d[0]) - sum(d[1])
def di11_defaultdict_int_counts(a, b):
    d = collections.defaultdict(int)
    for k in "abracadabra":
        d[k] += 1
    return a * d["a"] + b * d["r"]
def di11_counter_most_common(a, b):
    c = collections.Counter([1, 1, 2, 3, 3, 3])
    return a * c.most_common(1)[0][0] + b * c[1]
def di11_dict_del_and_contains(a, b):
    d = {"x": a, "y": b}
    del d["x"]
    return d["y"] * ("x" not in d)
def di11_dict_copy_mutation(a, b):
    d = {"x": a}
    e = d.copy()
    e["x"] = b
    return d["x"] - e["x"]
def di11_dict_equality(a, b):
    return a * ({"x": 1, "y": 2} == {"y": 2, "x": 1}) + b
def di11_dict_of_tensors_values_sum(a, b):
    d = {"p": a, "q": b, "r": a * b}
    return sum(d.values())
def di11_nested_dict_update(a, b):
    d = {"inner": {"x": a}}
    d["inner"]["y"] = b
    return d["inner"]["x"] + d["inner"]["y"] * len(d["inner"])
def di11_dict_clear_then_len(a, b):
    d = {"x": 1}
    d.clear()
    return a * len(d) + b
def di11_int_keys_sorted(a, b):
    d = {3: a, 1: b, 2: a + b}
    return sum(d[k] * i for i, k in enumerate(sorted(d)))
def di11_chainmap_lookup(a, b):
    m = collections.ChainMap({"x": 2}, {"x": 5, "y": 3})
    return a * m["x"] + b * m["y"]


# ---- lists (test_list.py)
def li11_slice_assignment(a, b):
    xs = [a, a, a, a]
    xs[1:3] = [b]
    return sum(xs) * len(xs)
def li11_del_slice(a, b):
    xs = [a, b, a * 2, b * 2]
    del xs[::2]
    return xs[0] + xs[1]
def li11_insert_front(a, b):
    xs = [a]
    xs.insert(0, b)
    return xs[0] * 2 + xs[1]
def li11_sort_with_key_ints(a, b):
    xs = [(2, "b"), (1, "a"), (3, "c")]
    xs.sort(key=lambda p: -p[0])
    return a * xs[0][0] + b * xs[-1][0]
def li11_reverse_in_place(a, b):
    xs = [a, b, a * b]
    xs.reverse()
    return xs[0] - xs[2]
def li11_list_compare(a, b):
    return a * ([1, 2] < [1, 3]) + b * ([1, 2] == [1, 2])
def li11_list_repeat_and_count(a, b):
    xs = [1, 2] * 3
    return a * xs.count(2) + b * len(xs)
def li11_list_index_start(a, b):
    xs = [5, 6, 5, 7]
    return a * xs.index(5, 1) + b
def li11_extend_with_generator(a, b):
    xs = [a]
    xs.extend(t * 2 for t in (a, b))
    return sum(xs)
def li11_pop_middle(a, b):
    xs = [a, b, a * 3]
    mid = xs.pop(1)
    return mid * len(xs) + xs[-1]
def li11_list_of_tensors_inplace_add(a, b):
    xs = [a.clone(), b.clone()]
    for t in xs:
        t.add_(1)
    return xs[0] * xs[1]
def li11_nested_list_comprehension(a, b):
    grid = [[i * j for j in range(3)] for i in range(2)]
    return a * grid[1][2] + b * sum(map(sum, grid))
def li11_list_copy_vs_alias(a, b):
    xs = [a]
    ys, zs = xs, xs.copy()
    ys.append(b)
    return a * len(xs) + b * len(zs)
def li11_list_clear(a, b):
    xs = [a, b]
    xs.clear()
    xs.append(b)
    return xs[0] * len(xs) + a
def li11_list_negative_index_assign(a, b):
    xs = [a, a, a]
    xs[-1] = b
    return xs[0] + xs[-1] * 2
def li11_stack_list_of_tensors(a, b):
    xs = [a, b]
    xs += [a + b]
    return torch.stack(xs).sum(0)
def li11_list_in_list_membership(a, b):
    return a * ([1, 2] in [[1, 2], [3]]) + b * (3 in [[3]])
def li11_min_of_list_of_ints(a, b):
    xs = [4, 2, 8]
    return a * min(xs) + b * max(xs) - sum(xs)


# ---- exceptions (test_exceptions.py)
class _MyError(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


def _raise_if_negative(k):
    if k < 0:
        raise _MyError(k)
    return k


def ex11_catch_from_helper(a, b):
    try:
        k = _raise_if_negative(-2)
    except _MyError as e:
        k = -e.code
    return a * k + b
def ex11_try_else_runs(a, b):
    out = a
    try:
        k = _raise_if_negative(3)
    except _MyError:
        k = 0
    else:
        out = out * k
    return out + b
def ex11_finally_after_return_value(a, b):
    log = []
    def helper(x):
        try:
            return x * 2
        finally:
            log.append(1)
    y = helper(a)
    return y + b * len(log)
def ex11_reraise_caught_outside(a, b):
    def helper(x):
        try:
            raise ValueError("v")
        except ValueError:
            raise
    try:
        helper(a)
    except ValueError:
        return a + b
    return a
def ex11_exception_args(a, b):
    try:
        raise KeyError("k", 3)
    except KeyError as e:
        return a * e.args[1] + b * len(e.args)
def ex11_chained_from(a, b):
    try:
        try:
            raise ValueError("inner")
        except ValueError as inner:
            raise RuntimeError("outer") from inner
    except RuntimeError as e:
        return a * isinstance(e.__cause__, ValueError) + b
def ex11_except_tuple_of_classes(a, b):
    try:
        {}["missing"]
    except (IndexError, KeyError):
        return a * 2 + b
    return a
def ex11_base_class_catches_subclass(a, b):
    try:
        raise _MyError(4)
    except Exception as e:
        return a * e.code + b
def ex11_nested_try_inner_handles(a, b):
    out = a
    try:
        try:
            out = out + 1
            raise IndexError
        except IndexError:
            out = out * 2
    except Exception:
        out = out * 100
    return out + b
def ex11_exception_in_loop_continue(a, b):
    out = a
    for k in (1, -1, 2):
        try:
            out = out + _raise_if_negative(k) * b
        except _MyError:
            continue
    return out
def ex11_stop_iteration_from_next(a, b):
    it = iter([])
    try:
        next(it)
    except StopIteration:
        return a - b
    return a
def ex11_attribute_error_caught(a, b):
    try:
        k = (1).missing_attr
    except AttributeError:
        k = 3
    return a * k + b
def ex11_zero_division_caught(a, b):
    try:
        k = 1 / 0
    except ZeroDivisionError:
        k = 0.5
    return a * k + b
def ex11_isinstance_of_exception_instance(a, b):
    e = ValueError("x")
    return a * isinstance(e, Exception) + b * isinstance(e, KeyError)


# ---- generators (test_generator.py)
def _gen_squares(n):
    for i in range(n):
        yield i * i


def _gen_tensors(x):
    yield x
    yield x * 2
    yield x * 3


def _gen_delegating(x):
    yield from _gen_tensors(x)
    yield x - 1


def _gen_returns(x):
    yield x
    return 7


def gn11_sum_of_generator(a, b):
    return a * sum(_gen_squares(4)) + b
def gn11_list_of_tensor_generator(a, b):
    return sum(list(_gen_tensors(a))) + b
def gn11_yield_from(a, b):
    return sum(_gen_delegating(a)) * b
def gn11_zip_generators(a, b):
    return sum(x * y for x, y in zip(_gen_tensors(a), _gen_tensors(b)))
def gn11_generator_of_generators(a, b):
    def outer(x):
        for k in (1, 2):
            yield from _gen_returns(x * k)
    return sum(outer(a)) + b
def gn11_next_then_loop(a, b):
    g = _gen_tensors(a)
    first = next(g)
    rest = [t for t in g]
    return first * len(rest) + b
def gn11_generator_in_enumerate(a, b):
    return sum(i * t for i, t in enumerate(_gen_tensors(b))) + a
def gn11_generator_with_condition(a, b):
    def evens(n):
        for i in range(n):
            if i % 2 == 0:
                yield i
    return a * sum(evens(7)) + b
def gn11_generator_closure_over_tensor(a, b):
    def scaled():
        for k in (1, 2):
            yield a * k
    return sum(scaled()) + b
def gn11_infinite_generator_islice(a, b):
    def naturals():
        k = 0
        while True:
            yield k
            k += 1
    return a * sum(itertools.islice(naturals(), 5)) + b
def gn11_max_key_of_generated_list(a, b):
    return max(list(_gen_squares(5)), key=lambda v: -abs(v - 5)) * a + b
def gn11_dict_from_generator(a, b):
    d = dict((str(i), a * i) for i in range(3))
    return d["2"] + b


# ---- globals (test_global.py)
_G_COUNT = 0
_G_SCALE = 2.0
_G_LIST = []
_G_TENSOR = None


def _bump():
    global _G_COUNT
    _G_COUNT += 1
    return _G_COUNT


def gl11_global_rebound_in_frame(a, b):
    global _G_SCALE
    _G_SCALE = 3.0
    out = a * _G_SCALE
    _G_SCALE = 2.0
    return out + b
def gl11_global_list_appended(a, b):
    _G_LIST.append(1)
    n = len(_G_LIST)
    _G_LIST.clear()
    return a * n + b
def gl11_global_tensor_created(a, b):
    global _G_TENSOR
    _G_TENSOR = a + b
    return _G_TENSOR * 2
def gl11_global_read_after_helper_write(a, b):
    global _G_COUNT
    _G_COUNT = 0
    _bump()
    _bump()
    return a * _G_COUNT + b
def gl11_module_constant_math(a, b):
    return a * math.e + b * (_G_SCALE ** 2)


# ---- functions, later half of test_functions.py
def _kwonly(x, *, scale=2, shift=0):
    return x * scale + shift


def _star(*args, **kwargs):
    return sum(args) * kwargs.get("k", 1) + len(kwargs)


class _Ops:
    base = 3

    @staticmethod
    def double(x):
        return x * 2

    @classmethod
    def based(cls, x):
        return x + cls.base


def _twice(f):
    @functools.wraps(f)
    def inner(x):
        return f(f(x))
    return inner


@_twice
def _twice_inc(x):
    return x + 1


def fn11_keyword_only_args(a, b):
    return _kwonly(a, shift=1) + _kwonly(b, scale=3)
def fn11_star_args_kwargs(a, b):
    return _star(a, b, k=2) + _star(a, z=0)
def fn11_partial_keyword(a, b):
    f = functools.partial(_kwonly, scale=5)
    return f(a) + f(b, shift=2)
def fn11_partial_of_partial(a, b):
    f = functools.partial(functools.partial(torch.add, alpha=2), a)
    return f(b)
def fn11_reduce_with_initial(a, b):
    return functools.reduce(lambda acc, t: acc * t, [a, b], torch.ones(3) * 2)
def fn11_lambda_default_capture(a, b):
    fs = [lambda x, k=k: x * k for k in range(3)]
    return fs[2](a) + fs[1](b)
def fn11_recursive_helper(a, b):
    def power(x, n):
        return x if n == 1 else x * power(x, n - 1)
    return power(a, 3) + b
def fn11_staticmethod_and_classmethod(a, b):
    return _Ops.double(a) + _Ops.based(b) + _Ops().double(b)
def fn11_string_methods_branch(a, b):
    name = "Relu_Layer"
    if name.lower().startswith("relu") and name.split("_")[1] == "Layer":
        return a.relu() + b
    return a
def fn11_string_format_and_join(a, b):
    key = "-".join(["x", str(2)]) + f"{3:02d}"
    return a * len(key) + b * key.count("0")
def fn11_callable_and_builtin_checks(a, b):
    return a * callable(_kwonly) + b * callable(3)
def fn11_function_attributes(a, b):
    return a * len(_kwonly.__name__) + b * (_kwonly.__defaults__ is None)
def fn11_nested_closure_rebinding(a, b):
    def make():
        k = 1
        def inc():
            nonlocal k
            k += 1
            return k
        return inc
    inc = make()
    inc()
    return a * inc() + b
def fn11_apply_dispatch_table(a, b):
    table = {"add": operator.add, "mul": operator.mul}
    return table["add"](a, b) * table["mul"](a, b)
def fn11_sorted_strings_key_len(a, b):
    words = sorted(["ccc", "a", "bb"], key=len)
    return a * len(words[-1]) + b * len(words[0])
def fn11_map_lambda_over_tensors(a, b):
    return sum(map(lambda t: t.cos(), [a, b]))
def fn11_filter_none(a, b):
    xs = list(filter(None, [0, 1, 2, 0]))
    return a * len(xs) + b
def fn11_getattr_torch_function(a, b):
    return getattr(torch, "maximum")(a, b) + getattr(a, "abs")()
def fn11_checkpoint_of_helper(a, b):
    def block(x, y):
        return (x * y).relu() + x
    return torch.utils.checkpoint.checkpoint(block, a, b, use_reentrant=False) * 2
def fn11_grad_of_leaf_made_in_frame(a, b):
    x = a.detach().requires_grad_()
    (g,) = torch.autograd.grad((x * x).sum(), x)
    return g + b
def fn11_enable_grad_requires_grad_output(a, b):
    w = torch.ones(3, requires_grad=True)
    return (a * w).detach() + b
def gn11_send_to_generator(a, b):
    def acc():
        total = 0
        while True:
            k = yield total
            total += k
    g = acc()
    next(g)
    g.send(2)
    return a * g.send(3) + b
def ex11_exception_in_with_block(a, b):
    log = []
    try:
        with contextlib.nullcontext():
            log.append(1)
            raise ValueError
    except ValueError:
        log.append(2)
    return a * sum(log) + b
def cx11_exit_stack_callbacks(a, b):
    log = []
    with contextlib.ExitStack() as stack:
        stack.callback(log.append, 1)
        out = a + b
    return out * len(log)
def fn11_wraps_decorated_helper(a, b):
    return _twice_inc(a) * len(_twice_inc.__name__) + _twice_inc.__wrapped__(b)
'''
