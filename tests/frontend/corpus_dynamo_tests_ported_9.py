"""A ninth batch of programs in the style of Dynamo's own tests, aimed at the files batches 1-8 drew on least:
test/dynamo/test_exceptions.py (try/except/else/finally around tensor code, exception objects' attributes and
args, custom exception classes, raise from, exceptions caught across inlined calls, StopIteration), test_generator.py
(generators inlined, sent to, closed, delegated to with yield from, consumed by builtins), test_list.py (list
methods, slicing assignment, comprehension, sort with keys, lists of tensors), test_dicts.py (dict methods,
OrderedDict, defaultdict, Counter, dicts keyed by tensors' shapes, merges with | and **), test_sets.py (set
algebra, frozensets, set methods and updates) and test_autograd_function.py (autograd.Function subclasses with
ctx.save_for_backward, needs_input_grad, non-tensor arguments, applied in the frame).

Our own programs, not copies of the earlier batches nor of pytorch's tests. Each PORTED program is a function of
two (3,) float tensors `a`, `b`; test_dynamo_tests_ported_9on.py runs it under torch.compile and minitorch2.compile
with a CompileCounter and compares values, frame_count, op_count and the graph-break count. The batch goes on in
corpus_dynamo_tests_ported_9b.py (functions, misc, repros, the dynamic=True programs and the recompile programs).
The names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import collections, functools, itertools, operator


# ---- exceptions (test_exceptions.py)
class _MyError(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


class _SubError(_MyError):
    pass


def _raise_my(code):
    raise _MyError(code)


_ERR = _SubError(4)


def _guarded(x, fail):
    try:
        if fail:
            raise KeyError("k")
        return x * 2
    except KeyError:
        return x - 1


def ex9_try_else_runs(a, b):
    try:
        out = a + b
    except ValueError:
        out = a - b
    else:
        out = out * 2
    return out
def ex9_finally_after_except(a, b):
    log = []
    try:
        raise ValueError("v")
    except ValueError:
        log.append(1)
    finally:
        log.append(2)
    return a * sum(log) + b
def ex9_custom_exception_attribute(a, b):
    try:
        _raise_my(3)
    except _MyError as e:
        return a * e.code + b
def ex9_subclass_caught_by_base(a, b):
    try:
        raise _SubError(2)
    except _MyError as e:
        return a * e.code + b * isinstance(e, _SubError)
def ex9_exception_args_tuple(a, b):
    try:
        raise ValueError(2, "x")
    except ValueError as e:
        return a * e.args[0] + b * len(e.args)
def ex9_tuple_of_exception_types(a, b):
    try:
        {}["missing"]
    except (IndexError, KeyError) as e:
        return a * isinstance(e, KeyError) + b
def ex9_raise_from_cause(a, b):
    try:
        try:
            raise KeyError("inner")
        except KeyError as e:
            raise ValueError("outer") from e
    except ValueError as e:
        return a * isinstance(e.__cause__, KeyError) + b
def ex9_implicit_context(a, b):
    try:
        try:
            raise KeyError("inner")
        except KeyError:
            raise ValueError("outer")
    except ValueError as e:
        return a * isinstance(e.__context__, KeyError) + b
def ex9_exception_in_inlined_helper(a, b):
    return _guarded(a, True) + _guarded(b, False)
def ex9_reraise_bare(a, b):
    out = a
    try:
        try:
            raise RuntimeError
        except RuntimeError:
            out = out + 1
            raise
    except RuntimeError:
        out = out * b
    return out
def ex9_stopiteration_from_next(a, b):
    it = iter([a])
    next(it)
    try:
        next(it)
    except StopIteration:
        return b * 2
    return a
def ex9_next_with_default(a, b):
    it = iter([])
    return next(it, a) + b
def ex9_inner_except_not_matching(a, b):
    try:
        try:
            raise TypeError
        except ValueError:
            return a
    except TypeError:
        return b
def ex9_loop_with_try_continue(a, b):
    out = b
    for k in range(4):
        try:
            if k % 2:
                raise ValueError
            out = out + a * k
        except ValueError:
            continue
    return out
def ex9_return_in_finally_overrides(a, b):
    def f(x):
        try:
            return x + 1
        finally:
            x = x * 0
    return f(a) + b
def ex9_exception_str_in_message(a, b):
    try:
        raise ValueError("abc")
    except ValueError as e:
        return a * len(str(e)) + b
def ex9_assert_passes(a, b):
    assert a.shape == b.shape, "shapes"
    return a + b
def ex9_zero_division_caught(a, b):
    try:
        k = 1 / 0
    except ZeroDivisionError:
        k = 2
    return a * k + b
def ex9_attribute_error_from_getattr(a, b):
    class Box:
        pass
    try:
        v = Box().missing
    except AttributeError:
        v = 3
    return a * v + b
def ex9_global_exception_attributes(a, b):
    return a * _ERR.code + b * len(_ERR.args) + a * isinstance(_ERR, _MyError)
def ex9_global_exception_reraised_and_caught(a, b):
    try:
        raise _ERR
    except _MyError as e:
        return a * e.code + b * (e.__cause__ is None)
def ex9_exception_made_before_a_break(a, b):
    e = _MyError(3)
    return a * e.code + b
def ex9_hasattr_false_path(a, b):
    class Box:
        k = 1
    return a * hasattr(Box, "k") + b * hasattr(Box, "z")


# ---- generators (test_generator.py)
def _count_up(n):
    for i in range(n):
        yield i


def _squares(xs):
    for x in xs:
        yield x * x


def _delegate(a, b):
    yield from (a, b)
    yield a + b


def _echo():
    got = yield 0
    while True:
        got = yield got * 2


def gn9_list_of_generator(a, b):
    return a * sum(list(_count_up(4))) + b
def gn9_generator_over_tensors(a, b):
    return sum(_squares([a, b]))
def gn9_yield_from_tuple(a, b):
    xs = list(_delegate(a, b))
    return xs[2] - xs[0] * len(xs)
def gn9_yield_from_then_own_yield(a, b):
    def outer():
        yield from _count_up(3)
        yield 7
    return a * sum(outer()) + b
def gn9_next_twice(a, b):
    g = _squares([a, b, a + b])
    return next(g) + next(g)
def gn9_send_values(a, b):
    g = _echo()
    next(g)
    return a * g.send(3) + b * g.send(1)
def gn9_generator_expression_any_all(a, b):
    return a * any(k > 2 for k in range(4)) + b * all(k < 2 for k in range(4))
def gn9_zip_of_generators(a, b):
    return sum(x * y for x, y in zip(_count_up(3), _count_up(3))) * a + b
def gn9_enumerate_generator(a, b):
    out = b
    for i, v in enumerate(_squares([a, b])):
        out = out + v * i
    return out
def gn9_dict_from_generator(a, b):
    d = dict((k, a * k) for k in range(3))
    return d[2] + b
def gn9_max_of_generator(a, b):
    return a * max(i % 3 for i in range(7)) + b
def gn9_generator_stops_early(a, b):
    out = b
    for i in _count_up(10):
        if i == 3:
            break
        out = out + a
    return out
def gn9_itertools_islice(a, b):
    return a * sum(itertools.islice(_count_up(100), 2, 5)) + b
def gn9_sorted_of_generator(a, b):
    s = sorted(_count_up(4), reverse=True)
    return a * s[0] + b * s[-1]
def gn9_throw_class_caught_in_generator(a, b):
    def g():
        try:
            yield 1
        except ValueError:
            yield 5
    it = g()
    next(it)
    return a * it.throw(ValueError) + b
def gn9_throw_not_caught_by_generator(a, b):
    it = _count_up(3)
    next(it)
    try:
        it.throw(KeyError)
    except KeyError:
        return a * 3 + b
    return a
def gn9_generator_with_local_state(a, b):
    def acc(xs):
        total = 0
        for x in xs:
            total = total + x
            yield total
    return list(acc([a, b, a]))[-1]


# ---- lists (test_list.py)
def ls9_slice_assignment(a, b):
    xs = [a, a, a, a]
    xs[1:3] = [b]
    return xs[1] * len(xs)
def ls9_del_slice(a, b):
    xs = [a, b, a, b]
    del xs[::2]
    return xs[0] + xs[1]
def ls9_insert_and_pop_index(a, b):
    xs = [a]
    xs.insert(0, b)
    last = xs.pop(0)
    return last * xs[0]
def ls9_extend_and_reverse(a, b):
    xs = [a]
    xs.extend((b, a + b))
    xs.reverse()
    return xs[0] - xs[-1]
def ls9_sort_with_key(a, b):
    xs = [(2, a), (1, b), (3, a * b)]
    xs.sort(key=lambda p: p[0])
    return xs[0][1] + xs[-1][1]
def ls9_list_index_and_count(a, b):
    xs = [1, 2, 3, 2]
    return a * xs.index(3) + b * xs.count(2)
def ls9_list_multiply(a, b):
    xs = [a] * 3 + [b]
    return sum(xs)
def ls9_list_remove(a, b):
    xs = [1, 2, 3]
    xs.remove(2)
    return a * xs[1] + b
def ls9_nested_list_comprehension(a, b):
    m = [[i * j for j in range(3)] for i in range(3)]
    return a * m[2][2] + b * m[1][2]
def ls9_list_of_tensors_stack(a, b):
    xs = [a, b]
    xs.append(a * b)
    return torch.stack(xs).sum(0)
def ls9_list_equality(a, b):
    return a * ([1, 2] == [1, 2]) + b * ([1, 2] < [1, 3])
def ls9_list_copy_independent(a, b):
    xs = [a]
    ys = xs.copy()
    ys.append(b)
    return xs[0] * len(xs) + ys[-1] * len(ys)
def ls9_list_clear(a, b):
    xs = [a, b]
    xs.clear()
    return a * len(xs) + b
def ls9_iadd_list(a, b):
    xs = [a]
    xs += [b]
    return xs[0] + xs[1]
def ls9_list_of_shapes(a, b):
    dims = [t.shape[0] for t in (a, b)]
    return a * sum(dims) + b


# ---- dicts (test_dicts.py)
def dc9_ordereddict_move_to_end(a, b):
    d = collections.OrderedDict(x=a, y=b)
    d.move_to_end("x")
    return list(d.values())[0] - list(d.values())[1]
def dc9_defaultdict_int(a, b):
    d = collections.defaultdict(int)
    for c in "abca":
        d[c] += 1
    return a * d["a"] + b * d["z"]
def dc9_defaultdict_list(a, b):
    d = collections.defaultdict(list)
    d["t"].append(a)
    d["t"].append(b)
    return d["t"][0] * d["t"][1]
def dc9_counter_most_common(a, b):
    c = collections.Counter("aabbbc")
    return a * c.most_common(1)[0][1] + b * c["a"]
def dc9_dict_union_operator(a, b):
    d = {"x": a} | {"y": b}
    return d["x"] + d["y"] * len(d)
def dc9_dict_double_star_merge(a, b):
    d = {**{"x": a}, **{"x": b, "z": 1}}
    return d["x"] * d["z"]
def dc9_dict_pop_default(a, b):
    d = {"k": a}
    return d.pop("k") + d.pop("z", b)
def dc9_dict_update_kwargs(a, b):
    d = {"x": a}
    d.update(y=b)
    return d["x"] + d["y"]
def dc9_dict_get_default(a, b):
    d = {"x": a}
    return d.get("x") * 2 + d.get("q", b)
def dc9_dict_items_loop(a, b):
    out = b
    for k, v in {"p": 1, "q": 2}.items():
        out = out + a * v * len(k)
    return out
def dc9_dict_fromkeys(a, b):
    d = dict.fromkeys("abc", 2)
    return a * sum(d.values()) + b
def dc9_dict_popitem(a, b):
    d = {"x": a, "y": b}
    k, v = d.popitem()
    return v * len(d)
def dc9_dict_of_tensors_iter_sorted(a, b):
    d = {"b": b, "a": a}
    return sum(d[k] * i for i, k in enumerate(sorted(d)))
def dc9_dict_in_and_len(a, b):
    d = {1: a, 2: b}
    return a * (1 in d) + b * (3 in d) + len(d)
def dc9_dict_keyed_by_shape(a, b):
    d = {a.shape: a, (7,): b}
    return d[b.shape] * 2


# ---- sets (test_sets.py)
def ss9_set_union_intersection(a, b):
    s1, s2 = {1, 2, 3}, {2, 3, 4}
    return a * len(s1 | s2) + b * len(s1 & s2)
def ss9_set_difference_symmetric(a, b):
    s1, s2 = {1, 2, 3}, {2, 3, 4}
    return a * len(s1 - s2) + b * len(s1 ^ s2)
def ss9_set_add_discard(a, b):
    s = {1}
    s.add(2)
    s.discard(5)
    s.discard(1)
    return a * len(s) + b * (2 in s)
def ss9_frozenset_in_dict_key(a, b):
    d = {frozenset({1, 2}): a}
    return d[frozenset({2, 1})] + b
def ss9_subset_superset(a, b):
    return a * {1}.issubset({1, 2}) + b * {1, 2}.issuperset({3})
def ss9_set_update_methods(a, b):
    s = {1, 2}
    s.update({3})
    s.intersection_update({2, 3})
    return a * len(s) + b * sum(s)
def ss9_set_of_strings_sorted(a, b):
    names = sorted({"b", "a", "c", "a"})
    return a * len(names) + b * (names[0] == "a")
def ss9_set_isdisjoint(a, b):
    return a * {1, 2}.isdisjoint({3}) + b
def ss9_set_pop_from_single(a, b):
    s = {7}
    return a * s.pop() + b * len(s)
def ss9_set_comparisons(a, b):
    return a * ({1} < {1, 2}) + b * ({1, 2} == {2, 1})
def ss9_set_from_list_dedupe(a, b):
    return a * len(set([1, 1, 2, 3, 3])) + b


# ---- autograd.Function (test_autograd_function.py)
class _Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class _MulSaved(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * y, g * x


class _ScaleBy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


def af9_apply_simple(a, b):
    return _Double.apply(a) + b
def af9_apply_saved_tensors(a, b):
    return _MulSaved.apply(a, b)
def af9_apply_with_python_scalar(a, b):
    return _ScaleBy.apply(a, 3) + b
def af9_apply_twice_chained(a, b):
    return _Double.apply(_Double.apply(a)) - b
def af9_apply_on_expression(a, b):
    return _MulSaved.apply(a + 1, b.sin())
'''
