"""A seventh batch of programs in the style of Dynamo's own tests (test/dynamo/test_functions.py, test_misc.py,
test_generator.py, test_list.py, test_dicts.py, test_sets.py), aimed at what batches 1-6 left out: generators
consumed by builtins (dict, sorted, any, min with key, next with a default), generator methods and nested yield from,
the less used itertools (compress, dropwhile, takewhile, filterfalse, tee, chain.from_iterable, cycle with islice,
product of three, zip_longest of three, accumulate with max, groupby of strings), heapq and bisect on Python lists,
functools (singledispatch, total_ordering, cmp_to_key, partialmethod, lru_cache'd helpers of ints, reduce with an
initial value), operator (itemgetter on dicts and slices, attrgetter of two, methodcaller with arguments, in-place
operators, operator.index/neg/truth), collections (ChainMap, OrderedDict.move_to_end, popitem(last=False),
Counter.most_common and subtract, defaultdict(list), deque.rotate/extendleft), and dicts, lists and sets mutated
in all the ways the batches before did not (popitem, reversed dicts, slice assignment with steps, del of slices,
sort with key and reverse, symmetric_difference_update, isdisjoint, frozenset algebra); then tensor and dtype
introspection, strings formatted with specs, diamond super() chains, builtins over containers, an exception leaving
a @contextmanager's `with` block (caught by its generator, or passing through it), and generator.throw.

Our own programs, not copies of the earlier batches nor of pytorch's tests. Each PORTED program is a function of
two (3,) float tensors `a`, `b`; test_dynamo_tests_ported_7.py runs it under torch.compile and minitorch2.compile
with a CompileCounter and compares values, frame_count, op_count and the graph-break count. The batch goes on in
corpus_dynamo_tests_ported_7b.py (classes, closures and globals, tensor introspection, grad modes, finfo/iinfo,
math, strings, and the recompile programs). The names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import bisect, collections, contextlib, functools, heapq, itertools, math, operator


def _count_up(n):
    for i in range(n):
        yield i


def _pairs(x):
    yield from ((i, x * i) for i in range(1, 4))


# ---- generators consumed by builtins, generator methods, nested yield from
def gn7_dict_from_generator_of_pairs(a, b):
    d = dict((k, a * k) for k in range(3))
    return d[2] + d[1] + b
def gn7_sorted_generator_reverse(a, b):
    ks = sorted((i * i % 5 for i in range(5)), reverse=True)
    return a * ks[0] + b * ks[-1]
def gn7_any_all_over_shapes(a, b):
    if any(s > 2 for s in a.shape) and all(s == 3 for s in b.shape):
        return a + b
    return a - b
def gn7_max_over_generator_of_sizes(a, b):
    return a * max(s * 2 for s in a.shape + b.shape) + b
def gn7_next_with_default(a, b):
    g = (i for i in range(0))
    return a * next(g, 5) + b
def gn7_yield_from_two_levels(a, b):
    def inner(x):
        yield x
        yield x + 1
    def outer(x):
        yield from inner(x)
        yield from inner(x * 2)
    return sum(outer(a)) + b
def gn7_generator_of_tensor_pairs(a, b):
    return sum(y for _, y in _pairs(a)) + b
def gn7_module_level_generator(a, b):
    return a * sum(_count_up(4)) + b
def gn7_enumerate_generator_start(a, b):
    out = b
    for i, k in enumerate(_count_up(3), start=2):
        out = out + a * i * k
    return out
def gn7_zip_of_two_generators(a, b):
    return sum(x * y for x, y in zip(_count_up(3), (a, b, a + b)))
def gn7_generator_expression_in_tuple_call(a, b):
    t = tuple(a * i for i in range(3))
    return t[2] - t[1] + b
def gn7_yield_from_dict_items(a, b):
    def entries(d):
        yield from d.items()
    return sum(v * len(k) for k, v in entries({"x": a, "yy": b}))
def gn7_generator_with_local_state(a, b):
    def running(xs):
        total = 0
        for x in xs:
            total = total + x
            yield total
    return list(running([a, b, a]))[-1]
def gn7_infinite_generator_islice(a, b):
    def forever(x):
        while True:
            yield x
            x = x * 0.5
    return sum(itertools.islice(forever(a), 4)) + b
def gn7_generator_close_early(a, b):
    def gen(x):
        yield x
        yield x * 2
        yield x * 3
    g = gen(a)
    first = next(g)
    g.close()
    return first + b


# ---- itertools
def it7_compress_by_flags(a, b):
    kept = list(itertools.compress([a, b, a * b], [1, 0, 1]))
    return kept[0] + kept[1]
def it7_dropwhile_takewhile(a, b):
    xs = [1, 2, 5, 1, 7]
    d = list(itertools.dropwhile(lambda v: v < 3, xs))
    t = list(itertools.takewhile(lambda v: v < 3, xs))
    return a * sum(d) + b * sum(t)
def it7_filterfalse(a, b):
    odd = list(itertools.filterfalse(lambda v: v % 2 == 0, range(7)))
    return a * len(odd) + b * odd[-1]
def it7_chain_from_iterable(a, b):
    parts = [[a, b], [a * 2], []]
    return sum(itertools.chain.from_iterable(parts))
def it7_cycle_with_islice(a, b):
    seq = list(itertools.islice(itertools.cycle([a, b]), 5))
    return seq[4] - seq[3] + len(seq)
def it7_product_of_three(a, b):
    return a * len(list(itertools.product(range(2), "xy", [0, 1, 2]))) + b
def it7_zip_longest_of_three(a, b):
    rows = list(itertools.zip_longest([a, b], [b], [1, 2, 3], fillvalue=0))
    return rows[0][0] + rows[1][0] * rows[2][2] + rows[1][1]
def it7_accumulate_max(a, b):
    xs = list(itertools.accumulate([3, 1, 4, 1, 5], max))
    return a * xs[3] + b * xs[-1]
def it7_groupby_strings(a, b):
    words = ["aa", "ab", "ba", "bb", "bc"]
    groups = {k: len(list(g)) for k, g in itertools.groupby(words, key=lambda w: w[0])}
    return a * groups["a"] + b * groups["b"]
def it7_tee_two_copies(a, b):
    x, y = itertools.tee([a, b, a + b])
    return sum(x) - next(y)
def it7_starmap_with_pow(a, b):
    vals = list(itertools.starmap(pow, [(2, 3), (3, 2)]))
    return a * vals[0] - b * vals[1]
def it7_pairwise_of_tensors(a, b):
    out = 0
    for x, y in itertools.pairwise([a, b, a * b]):
        out = out + x * y
    return out
def it7_repeat_times_zip(a, b):
    return sum(x * y for x, y in zip(itertools.repeat(a, 3), [1, 2, 3])) + b
def it7_count_with_zip(a, b):
    return sum(t * i for i, t in zip(itertools.count(1), [a, b]))
def it7_combinations_of_list(a, b):
    return sum(x * y for x, y in itertools.combinations([a, b, a + 1], 2))


# ---- heapq and bisect on Python lists
def hq7_heappush_heappop(a, b):
    h = []
    for v in [5, 1, 4, 2]:
        heapq.heappush(h, v)
    return a * heapq.heappop(h) + b * heapq.heappop(h)
def hq7_nlargest_nsmallest(a, b):
    xs = [7, 3, 9, 1, 4]
    return a * sum(heapq.nlargest(2, xs)) + b * sum(heapq.nsmallest(2, xs))
def hq7_heapify_list(a, b):
    xs = [9, 4, 7, 1]
    heapq.heapify(xs)
    return a * xs[0] + b
def bs7_bisect_left_right(a, b):
    xs = [1, 3, 3, 5, 8]
    return a * bisect.bisect_left(xs, 3) + b * bisect.bisect_right(xs, 3)
def bs7_insort_keeps_order(a, b):
    xs = [1, 4, 9]
    bisect.insort(xs, 5)
    return a * xs[2] + b * len(xs)


# ---- functools
@functools.singledispatch
def _describe(x):
    return 0
@_describe.register
def _(x: int):
    return x + 1
@_describe.register
def _(x: str):
    return len(x)
@functools.total_ordering
class _Version:
    def __init__(self, n):
        self.n = n
    def __eq__(self, other):
        return self.n == other.n
    def __lt__(self, other):
        return self.n < other.n
class _Scaler:
    def scale(self, x, k):
        return x * k
    double = functools.partialmethod(scale, k=2)
@functools.cache
def _cached_square(n):
    return n * n
@functools.lru_cache(maxsize=None)
def _fib(n):
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


def _doubled(fn):
    @functools.wraps(fn)
    def inner(*args):
        return fn(*args) * 2
    return inner
@_doubled
def _add_twice(x, y):
    return x + y


def ft7_singledispatch_int_and_str(a, b):
    return a * _describe(3) + b * _describe("abcd")
def ft7_total_ordering_ge(a, b):
    if _Version(3) >= _Version(2) and _Version(1) <= _Version(1):
        return a + b
    return a - b
def ft7_cmp_to_key_sort(a, b):
    xs = sorted([3, 1, 2], key=functools.cmp_to_key(lambda x, y: y - x))
    return a * xs[0] + b * xs[-1]
def ft7_partialmethod(a, b):
    return _Scaler().double(a) + b
def ft7_lru_cache_fib(a, b):
    return a * _fib(10) + b
def ft7_reduce_with_initial(a, b):
    return functools.reduce(lambda acc, t: acc * t, [a, b], 2.0)
def ft7_reduce_operator_add_tensors(a, b):
    return functools.reduce(operator.add, [a, b, a * b])
def ft7_partial_keyword_override(a, b):
    def f(x, y, k=1):
        return x * k + y
    g = functools.partial(f, k=3)
    return g(a, b) + g(a, b, k=5)
def ft7_wraps_keeps_name(a, b):
    return _add_twice(a, b) + _add_twice.__wrapped__(a, b) * len(_add_twice.__name__)


# ---- operator
def op7_itemgetter_on_dict(a, b):
    get = operator.itemgetter("x", "y")
    x, y = get({"x": a, "y": b, "z": 0})
    return x - y
def op7_itemgetter_slice(a, b):
    first_two = operator.itemgetter(slice(0, 2))([a, b, a * b])
    return first_two[0] + first_two[1]
def op7_attrgetter_two(a, b):
    shape, ndim = operator.attrgetter("shape", "ndim")(a)
    return a * shape[0] + b * ndim
def op7_methodcaller_with_args(a, b):
    return operator.methodcaller("add", b, alpha=2)(a)
def op7_inplace_operators(a, b):
    x = a.clone()
    x = operator.iadd(x, b)
    x = operator.imul(x, 2)
    return x
def op7_index_neg_truth(a, b):
    k = operator.index(3)
    return a * operator.neg(k) + b * operator.truth(k)
def op7_operator_on_tensors(a, b):
    return operator.sub(operator.mul(a, b), operator.truediv(a, 2))
def op7_contains_and_getitem(a, b):
    xs = [1, 2, 3]
    if operator.contains(xs, 2):
        return a * operator.getitem(xs, 2) + b
    return a


# ---- collections
def co7_chainmap_lookup(a, b):
    cm = collections.ChainMap({"k": 2}, {"k": 5, "j": 3})
    return a * cm["k"] + b * cm["j"]
def co7_ordereddict_move_to_end(a, b):
    d = collections.OrderedDict(x=1, y=2, z=3)
    d.move_to_end("x")
    return a * list(d)[0].__len__() + b * list(d.values())[-1]
def co7_ordereddict_popitem_first(a, b):
    d = collections.OrderedDict([("p", a), ("q", b)])
    k, v = d.popitem(last=False)
    return v * len(d) + d["q"]
def co7_counter_most_common(a, b):
    c = collections.Counter("abracadabra")
    (ch, n), = c.most_common(1)
    return a * n + b * len(ch)
def co7_counter_subtract(a, b):
    c = collections.Counter(x=4, y=2)
    c.subtract({"x": 1, "y": 3})
    return a * c["x"] + b * c["y"]
def co7_defaultdict_list_append(a, b):
    d = collections.defaultdict(list)
    for i, t in enumerate([a, b, a * b]):
        d[i % 2].append(t)
    return sum(d[0]) - sum(d[1])
def co7_deque_rotate(a, b):
    dq = collections.deque([a, b, a + b])
    dq.rotate(1)
    return dq[0] * 2 + dq[-1]
def co7_deque_extendleft(a, b):
    dq = collections.deque([a])
    dq.extendleft([b, b * 2])
    return dq[0] - dq[1] + dq[2]
def co7_namedtuple_defaults(a, b):
    P = collections.namedtuple("P", ["x", "y", "z"], defaults=[7])
    p = P(a, b)
    return p.x * p.z + p.y

# ---- more introspection, formatting and lookups
def mx7_list_of_shape_reversed(a, b):
    dims = list(torch.zeros(2, 3, 4).shape)[::-1]
    return a * dims[0] + b * dims[-1]
def mx7_size_numel_and_math_prod(a, b):
    s = torch.zeros(2, 3).shape
    return a * s.numel() + b * math.prod(s)
def mx7_size_plus_tuple(a, b):
    s = torch.Size([2, 3]) + (4,)
    return a * len(s) + b * s[-1]
def mx7_layout_and_device_compare(a, b):
    if a.layout == torch.strided and a.device == torch.device("cpu") and not a.is_cuda:
        return a + b
    return a - b
def mx7_is_leaf_and_grad_none(a, b):
    return a * (a.is_leaf and a.grad is None) + b
def mx7_str_of_dtype(a, b):
    name = str(a.dtype)
    return a * len(name) + b * name.endswith("32")
def mx7_dtype_is_signed_and_complex(a, b):
    return a * torch.int8.is_signed + b * (not torch.float32.is_complex)
def mx7_iinfo_int8_min(a, b):
    return a * torch.iinfo(torch.int8).min + b
def mx7_finfo_bfloat16_eps(a, b):
    return a * torch.finfo(torch.bfloat16).eps + b
def mx7_finfo_default_dtype(a, b):
    return a * (torch.finfo().bits == 32) + b * torch.get_default_dtype().itemsize
def mx7_stride_of_dim(a, b):
    m = torch.zeros(2, 3)
    return a * m.stride(0) + b * m.stride(-1)
def mx7_attrgetter_dotted_dtype(a, b):
    return a * operator.attrgetter("dtype.is_floating_point")(a) + b
def mx7_functools_cache(a, b):
    return a * _cached_square(4) + b
def mx7_fstring_repr_and_float_spec(a, b):
    s = f"{'x'!r}:{2.5:08.3f}"
    return a * len(s) + b
def mx7_sorted_items_itemgetter(a, b):
    d = {"x": 3, "y": 1, "z": 2}
    ks = [k for k, _ in sorted(d.items(), key=operator.itemgetter(1))]
    return a * ks.index("x") + b * ks.index("y")
def mx7_enumerate_reversed_list(a, b):
    out = b
    for i, t in enumerate(reversed([a, b])):
        out = out + t * i
    return out
def mx7_map_with_two_iterables(a, b):
    return sum(map(lambda x, y: x * y, [a, b], [2, 3]))
def mx7_default_arg_evaluated_at_def(a, b):
    k = 2
    def f(x, k=k):
        return x * k
    k = 5
    return f(a) + b * k
def mx7_staticmethod_called_inside_method(a, b):
    class C:
        @staticmethod
        def twice(x):
            return x * 2
        def run(self, x):
            return C.twice(x) + self.twice(x)
    return C().run(a) + b
def mx7_set_of_user_objects_with_hash(a, b):
    class K:
        def __init__(self, v):
            self.v = v
        def __eq__(self, other):
            return self.v == other.v
        def __hash__(self):
            return hash(self.v)
    return a * len({K(1), K(1), K(2)}) + b


# ---- iteration over tensors, diamonds, builtins on containers
class _A:
    def who(self):
        return 1
class _B(_A):
    def who(self):
        return super().who() * 10 + 2
class _C(_A):
    def who(self):
        return super().who() * 10 + 3
class _D(_B, _C):
    def who(self):
        return super().who() * 10 + 4


def bx7_iterate_rows_of_matrix(a, b):
    m = torch.stack([a, b])
    return sum(row * i for i, row in enumerate(m))
def bx7_diamond_super_chain(a, b):
    return a * _D().who() + b * len(_D.__mro__)
def bx7_zip_star_transpose(a, b):
    cols = list(zip(*[(1, 2), (3, 4), (5, 6)]))
    return a * sum(cols[0]) + b * sum(cols[1])
def bx7_max_dict_by_get(a, b):
    d = {"x": 3, "y": 7, "z": 5}
    return a * len(max(d, key=d.get) * 3) + b * d[min(d, key=d.get)]
def bx7_sum_of_lists_with_start(a, b):
    flat = sum([[a], [b], [a * b]], [])
    return flat[0] + flat[2] * len(flat)
def bx7_int_float_of_strings(a, b):
    return a * int("12") + b * float("1.5") + int("ff", 16)
def bx7_round_and_divmod_negative(a, b):
    q, r = divmod(-7, 2)
    return a * (q + r) + b * round(2.5) + round(-1.25, 1)
def bx7_format_map_and_reversed_join(a, b):
    s = "{x}-{y}".format_map({"x": 1, "y": 22}) + "".join(reversed("abc"))
    return a * len(s) + b * s.startswith("1-22c")
def bx7_unbind_and_tuple_unpack(a, b):
    x, y, z = a.unbind(0)
    return b * x + y - z
def bx7_list_of_tensor_items_in_comprehension(a, b):
    parts = [t * k for k, t in zip(range(1, 4), a.split(1))]
    return torch.cat(parts) + b
def bx7_bool_of_empty_containers(a, b):
    n = sum([bool([]), bool({}), bool(()), bool([0]), bool(" ")])
    return a * n + b
def bx7_slice_object_on_list_and_tensor(a, b):
    sl = slice(1, None)
    xs = [a, b, a + b]
    return xs[sl][0][sl].sum() + b[sl].sum() + a
@contextlib.contextmanager
def _swallowing_value_errors(log):
    try:
        yield
    except ValueError:
        log.append(1)


def bx7_contextmanager_swallows_raised_error(a, b):
    log = []
    with _swallowing_value_errors(log):
        raise ValueError("x")
    return a * len(log) + b
@contextlib.contextmanager
def _logging_finally(log):
    try:
        yield len(log)
    finally:
        log.append(2)


def bx7_contextmanager_finally_on_error_caught_outside(a, b):
    log = []
    try:
        with _logging_finally(log):
            raise KeyError("k")
    except KeyError:
        a = a * 3
    return a * len(log) + b
def bx7_contextmanager_error_passes_through_except(a, b):
    log = []
    try:
        with _swallowing_value_errors(log):
            raise IndexError("i")
    except IndexError:
        return a - b * (len(log) + 1)
    return a + b
def _retrying(x):
    try:
        yield x
    except ValueError:
        yield x * 10


def gn7_throw_caught_by_generator(a, b):
    g = _retrying(a)
    first = next(g)
    return first + g.throw(ValueError("v")) + b
def gn7_throw_not_caught_goes_to_caller(a, b):
    g = _retrying(a)
    next(g)
    try:
        g.throw(KeyError("k"))
    except KeyError:
        return a - b
    return a + b
def gn7_throw_then_generator_ends(a, b):
    def once(x):
        try:
            yield x
        except ValueError:
            pass
    g = once(a)
    next(g)
    try:
        g.throw(ValueError("v"))
    except StopIteration:
        return a * 2 + b
    return a
'''
