"""A tenth batch of programs in the style of Dynamo's own tests, aimed at the files batches 1-9 drew on least:
test/dynamo/test_ctx_manager.py (user context managers as classes and as contextlib generators, grad modes entered
in helpers, as decorators and through their function forms, exits on exceptions), test_sources.py (values reached
through globals, closures, class attributes, module attributes and nested containers), test_unspec.py (Python floats
and ints mixed into tensor code, item() and int() of tensors, float constants folded), test_python_autograd.py (a
small reverse-mode tape written in Python over tensors: variables, recorded closures, a backward sweep),
test_tuple.py and test_iter.py (tuple methods, iter/next, itertools over tensors and ints).

Our own programs, not copies of the earlier batches nor of pytorch's tests. Each PORTED program is a function of
two (3,) float tensors `a`, `b`; test_dynamo_tests_ported_9on.py runs it under torch.compile and minitorch2.compile
with a CompileCounter and compares values, frame_count, op_count and the graph-break count. The batch goes on in
corpus_dynamo_tests_ported_10b.py (modules, model outputs, autograd.Function, misc, repros, the dynamic=True programs
and the recompile programs). The names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import collections, contextlib, functools, itertools, math, operator


# ---- context managers (test_ctx_manager.py)
class _Counting:
    def __init__(self):
        self.entered = 0
        self.exited = 0

    def __enter__(self):
        self.entered += 1
        return self

    def __exit__(self, *exc):
        self.exited += 1
        return False


class _Swallow:
    def __enter__(self):
        return 7

    def __exit__(self, kind, value, tb):
        return kind is ValueError


@contextlib.contextmanager
def _scaled(k):
    yield k * 2


@contextlib.contextmanager
def _tracking(log):
    log.append("in")
    try:
        yield len(log)
    finally:
        log.append("out")


@torch.no_grad()
def _frozen_double(x):
    return x * 2


@torch.enable_grad()
def _grad_on(x):
    return x + 1


def cx10_class_context_manager_counts(a, b):
    cm = _Counting()
    with cm:
        out = a + b
    return out * (cm.entered + cm.exited)
def cx10_enter_returns_self_attr(a, b):
    with _Counting() as c:
        c.entered += 2
    return a * c.entered + b * c.exited
def cx10_exit_swallows_value_error(a, b):
    out = a
    with _Swallow() as k:
        out = out * k
        raise ValueError("ignored")
    return out + b
def cx10_contextlib_yield_value(a, b):
    with _scaled(3) as k:
        return a * k + b
def cx10_contextlib_finally_runs(a, b):
    log = []
    with _tracking(log) as n:
        out = a * n
    return out + b * len(log)
def cx10_nested_user_managers(a, b):
    log = []
    with _tracking(log) as n, _scaled(n) as k:
        out = a * k
    return out + b * len(log)
def cx10_no_grad_decorated_helper(a, b):
    return _frozen_double(a) + b
def cx10_enable_grad_decorated_in_no_grad(a, b):
    with torch.no_grad():
        out = _grad_on(a)
    return out * b
def cx10_is_grad_enabled_inside_blocks(a, b):
    with torch.no_grad():
        off = torch.is_grad_enabled()
    on = torch.is_grad_enabled()
    return a * off + b * on
def cx10_set_grad_enabled_function_form(a, b):
    prev = torch.is_grad_enabled()
    torch.set_grad_enabled(False)
    out = a * 3
    torch.set_grad_enabled(prev)
    return out + b
def cx10_no_grad_then_exception_restores(a, b):
    try:
        with torch.no_grad():
            raise KeyError("k")
    except KeyError:
        pass
    return a * torch.is_grad_enabled() + b
def cx10_context_manager_in_loop(a, b):
    cm = _Counting()
    out = a
    for _ in range(3):
        with cm:
            out = out + b
    return out * cm.exited
def cx10_suppress_from_contextlib(a, b):
    out = a
    with contextlib.suppress(IndexError):
        out = out + b
        [][1]
    return out * 2
def cx10_nullcontext_value(a, b):
    with contextlib.nullcontext(b) as t:
        return a + t
def cx10_grad_mode_in_helper_returns_flag(a, b):
    def helper(x):
        with torch.no_grad():
            return x.sin(), torch.is_grad_enabled()
    y, flag = helper(a)
    return y + b * (not flag)
def cx10_manager_defined_in_frame(a, b):
    class Local:
        def __enter__(self):
            return b
        def __exit__(self, *args):
            return None
    with Local() as t:
        return a * t


# ---- sources (test_sources.py)
_CONFIG = {"scale": 3.0, "nested": {"shift": [1.0, 2.0]}}
_PAIR = (2, (3, 4))


class _Holder:
    factor = 1.5
    table = {"k": 4}

    def __init__(self):
        self.inner = _ns_obj(depth=2, values=[0.5, 0.25])


def _ns_obj(**kw):
    obj = _Holder.__new__(_Holder)
    obj.__dict__.update(kw)
    return obj


_HOLDER = _Holder()


class _Lookup:
    def __getattr__(self, name):
        if name.startswith("w_"):
            return len(name)
        raise AttributeError(name)


_LOOKUP = _Lookup()


def so10_global_dict_nested_list(a, b):
    return a * _CONFIG["scale"] + b * _CONFIG["nested"]["shift"][1]
def so10_global_tuple_nested(a, b):
    return a * _PAIR[1][0] + b * _PAIR[0]
def so10_class_attribute_through_instance(a, b):
    return a * _HOLDER.factor + b * type(_HOLDER).table["k"]
def so10_instance_chain_of_attributes(a, b):
    return a * _HOLDER.inner.depth + b * _HOLDER.inner.values[-1]
def so10_closure_cell_of_list(a, b):
    ks = [2, 5]
    def inner(x):
        return x * ks[0] + ks[1]
    return inner(a) + b
def so10_closure_over_global_alias(a, b):
    cfg = _CONFIG
    def inner(x):
        return x * cfg["scale"]
    return inner(a) - b
def so10_default_argument_source(a, b, k=_PAIR[0]):
    return a * k + b
def so10_getattr_by_name(a, b):
    return a * getattr(_HOLDER, "factor") + b * getattr(_HOLDER, "missing", 2)
def so10_hasattr_on_instance(a, b):
    return a * hasattr(_HOLDER, "inner") + b * hasattr(_HOLDER, "nope")
def so10_module_function_source(a, b):
    return a * math.floor(2.7) + b * operator.add(1, 2)
def so10_dict_items_of_global(a, b):
    return sum(v * a for k, v in _HOLDER.table.items()) + b
def so10_hasattr_through_getattr_hook(a, b):
    return a * hasattr(_LOOKUP, "w_abc") + b * hasattr(_LOOKUP, "other")
def so10_getattr_default_through_hook(a, b):
    return a * getattr(_LOOKUP, "w_ab", 0) + b * getattr(_LOOKUP, "zz", 7)
def so10_vars_of_instance(a, b):
    return a * vars(_HOLDER.inner)["depth"] + b


# ---- unspecialized Python numbers (test_unspec.py)
_RATE = 0.125


def un10_float_global_in_math(a, b):
    return a * _RATE + b / (1 + _RATE)
def un10_item_of_sum(a, b):
    return a * (a * 0 + 2).sum().item() + b
def un10_int_of_tensor_breaks(a, b):
    n = int((a * 0 + 3).sum())
    return a * n + b
def un10_float_of_tensor_breaks(a, b):
    return a * float(a.max()) + b
def un10_math_on_python_floats(a, b):
    k = math.sqrt(2.0) * math.exp(0.5)
    return a * k + b * math.log(4.0)
def un10_int_division_constants(a, b):
    return a * (7 // 2) + b * (7 % 3) + (-7 // 2)
def un10_float_power_and_round(a, b):
    return a * round(2.567, 2) + b * (2 ** 0.5)
def un10_abs_min_max_of_numbers(a, b):
    return a * abs(-3) + b * max(1.5, 2, 0.5) + min(4, 3)
def un10_python_bool_arithmetic(a, b):
    return a * (True + True) + b * (False * 3)
def un10_tensor_scalar_comparison_mask(a, b):
    return (a > 0.25) * a + (b <= -0.5) * b
def un10_scalar_tensor_from_float(a, b):
    return a * torch.tensor(0.5) + b * torch.tensor(2)
def un10_full_with_float(a, b):
    return torch.full((3,), 1.25) * a + b
def un10_divmod_of_ints(a, b):
    q, r = divmod(17, 5)
    return a * q + b * r
def un10_complex_free_math(a, b):
    return a * math.pi / math.tau + b * math.inf.__gt__(1e9)


# ---- a tape of reverse-mode autograd in Python (test_python_autograd.py)
class _Var:
    def __init__(self, value, parents=()):
        self.value = value
        self.parents = parents


def _vmul(x, y):
    return _Var(x.value * y.value, ((x, y.value), (y, x.value)))


def _vadd(x, y):
    return _Var(x.value + y.value, ((x, 1.0), (y, 1.0)))


def _vsin(x):
    return _Var(x.value.sin(), ((x, x.value.cos()),))


def _grads(out):
    grads = {id(out): torch.ones_like(out.value)}
    order = [out]
    for node in order:
        for parent, local in node.parents:
            g = grads[id(node)] * local
            grads[id(parent)] = grads.get(id(parent), 0) + g
            if parent not in order:
                order.append(parent)
    return grads


def pa10_tape_mul_add(a, b):
    x, y = _Var(a), _Var(b)
    z = _vadd(_vmul(x, y), x)
    g = _grads(z)
    return g[id(x)], g[id(y)]
def pa10_tape_sin_chain(a, b):
    x = _Var(a)
    z = _vsin(_vmul(x, x))
    return _grads(z)[id(x)] + b
def pa10_tape_shared_input(a, b):
    x, y = _Var(a), _Var(b)
    z = _vmul(_vadd(x, y), _vadd(x, x))
    g = _grads(z)
    return g[id(x)] * 2 + g[id(y)]
def pa10_tape_value_forward(a, b):
    x, y = _Var(a), _Var(b)
    return _vsin(_vadd(x, _vmul(y, y))).value
def pa10_tape_parents_count(a, b):
    z = _vadd(_vmul(_Var(a), _Var(b)), _Var(a))
    return a * len(z.parents) + b * len(z.parents[0][0].parents)
def pa10_tape_numeric_check(a, b):
    x = _Var(a)
    g = _grads(_vmul(_vsin(x), x))[id(x)]
    return g - (a.cos() * a + a.sin()) + b


# ---- tuples (test_tuple.py)
_Point = collections.namedtuple("_Point", "x y")


def tu10_tuple_concat_repeat(a, b):
    t = (a,) + (b,) * 2
    return sum(t) * len(t)
def tu10_tuple_slicing_steps(a, b):
    t = (a, b, a * 2, b * 2, a * 3)
    return sum(t[::2]) - sum(t[1::2])
def tu10_tuple_index_and_count_of_ints(a, b):
    t = (4, 2, 4, 1)
    return t.index(1) * a + t.count(4) * b
def tu10_tuple_constructor_from_generator(a, b):
    t = tuple(x * 2 for x in (a, b))
    return t[0] + t[1]
def tu10_tuple_unpack_swap(a, b):
    a, b = b, a
    return a - b
def tu10_tuple_compare_ints(a, b):
    return a * ((1, 2) == (1, 2)) + b * ((1, 2) != (2, 1)) + ((3,) > (2, 9))
def tu10_tuple_min_max_key(a, b):
    pairs = ((3, "c"), (1, "a"), (2, "b"))
    return a * min(pairs)[0] + b * max(pairs, key=lambda p: p[1])[0]
def tu10_namedtuple_make_and_fields(a, b):
    p = _Point._make([a, b])
    return p.x * len(_Point._fields) + p.y
def tu10_namedtuple_replace_and_iter(a, b):
    p = _Point(a, b)._replace(y=a * 2)
    return sum(p) + b
def tu10_namedtuple_unpacking(a, b):
    x, y = _Point(a * 3, b)
    return x - y
def tu10_tuple_hash_in_dict(a, b):
    d = {(1, 2): a, (2, 1): b}
    return d[(1, 2)] + d[tuple([2, 1])] * 2
def tu10_tuple_contains_ints(a, b):
    return a * (2 in (1, 2, 3)) + b * (5 not in (1, 2))
def tu10_tuple_of_shapes(a, b):
    shapes = (a.shape, b.shape)
    return a * (shapes[0] == shapes[1]) + b * len(shapes[0])
def tu10_tuple_sorted_returns_list(a, b):
    s = sorted((3, 1, 2))
    return a * s[0] + b * s[-1] + isinstance(s, list)


# ---- iterators and itertools (test_iter.py)
def it10_iter_next_default(a, b):
    it = iter([a])
    first = next(it)
    return first + next(it, b)
def it10_enumerate_with_start(a, b):
    return sum(i * t for i, t in enumerate([a, b], start=2))
def it10_zip_three_lists(a, b):
    return sum(x * y + z for x, y, z in zip([a, b], [b, a], [1, 2]))
def it10_reversed_range(a, b):
    return sum(a * i for i in reversed(range(1, 4))) + b
def it10_chain_from_iterable(a, b):
    return sum(itertools.chain.from_iterable([[a], [b, a]]))
def it10_islice_of_count(a, b):
    ks = list(itertools.islice(itertools.count(2, 3), 3))
    return a * ks[-1] + b * len(ks)
def it10_accumulate_tensors(a, b):
    return list(itertools.accumulate([a, b, a]))[-1] * 2
def it10_product_of_ranges(a, b):
    return sum(a * i + b * j for i, j in itertools.product(range(2), range(3)))
def it10_combinations_count(a, b):
    return a * len(list(itertools.combinations(range(4), 2))) + b
def it10_permutations_first(a, b):
    first = next(itertools.permutations([a, b]))
    return first[0] - first[1]
def it10_zip_longest_fill(a, b):
    return sum(x * y for x, y in itertools.zip_longest([a, b], [2], fillvalue=3))
def it10_takewhile_ints(a, b):
    ks = list(itertools.takewhile(lambda k: k < 3, [1, 2, 5, 1]))
    return a * sum(ks) + b
def it10_dropwhile_ints(a, b):
    ks = list(itertools.dropwhile(lambda k: k < 3, [1, 2, 5, 1]))
    return a * sum(ks) + b * len(ks)
def it10_repeat_times(a, b):
    return sum(itertools.repeat(a, 3)) + b
def it10_starmap_mul(a, b):
    return sum(itertools.starmap(operator.mul, [(a, 2), (b, 3)]))
def it10_pairwise_differences(a, b):
    xs = [a, b, a * 2]
    return sum(y - x for x, y in itertools.pairwise(xs))
def it10_iter_over_tensor_rows(a, b):
    m = torch.stack([a, b])
    return sum(row * i for i, row in enumerate(m))
def it10_map_two_iterables(a, b):
    return sum(map(operator.sub, [a, b], [b, a]))
def it10_all_any_of_python(a, b):
    return a * all(k > 0 for k in (1, 2)) + b * any(k < 0 for k in (1, 2))
def it10_next_on_generator_expression(a, b):
    gen = (t * 2 for t in (a, b))
    return next(gen) + next(gen)
def it10_groupby_parity(a, b):
    groups = [(k, len(list(g))) for k, g in itertools.groupby([1, 3, 2, 4, 5], key=lambda v: v % 2)]
    return a * len(groups) + b * groups[1][1]
def it10_compress_selectors(a, b):
    return sum(itertools.compress([a, b, a * 3], [1, 0, 1]))
def it10_loop_appends_to_its_list(a, b):
    work = [a, b]
    for t in work:
        if len(work) < 5:
            work.append(t * 0.5)
    return sum(work) * len(work)
def it10_loop_extends_list_once(a, b):
    xs, done = [a], False
    for t in xs:
        if not done:
            xs.extend([b, t + b])
            done = True
    return xs[-1] * len(xs)
def it10_remove_during_loop_skips(a, b):
    xs, out = [1, 2, 3, 4], a
    for x in xs:
        if x == 2:
            xs.remove(3)
        out = out * x
    return out + b * len(xs)
def it10_iterator_sees_later_append(a, b):
    xs = [a, b]
    it = iter(xs)
    first = next(it)
    xs.append(a * 5)
    return first + sum(it)
'''
