"""The second half of the fifth batch (corpus_dynamo_tests_ported_5.py has the first), in the style of Dynamo's
test_generator.py, test_ctx_manager.py, test_misc.py and test_unspec.py: generators driven by send, zip and map,
generators with return values and try/finally, closed early; context managers (contextlib.suppress, ExitStack, nested
with statements, __exit__ results, grad modes as decorators); iter(f, sentinel); requires_grad_() of intermediates;
user objects with dunder protocols (__len__, __bool__, __contains__, __iter__, __call__, __getattr__ fallbacks,
__eq__/__hash__ in dicts); closures and default arguments; and the recompile programs (Python numbers, tuples and
None passed as arguments, Dynamo's "unspec" cases).
"""

PORTED_SRC = r'''
import contextlib, functools, itertools


# ---- generators
def _echo():
    got = 0
    while True:
        got = yield got * 2
def gn5_generator_send(a, b):
    g = _echo()
    next(g)
    return a * g.send(3) + b * g.send(5)
def _countdown(n):
    while n > 0:
        yield n
        n -= 1
def gn5_generator_in_zip_with_tensors(a, b):
    return sum(t * k for t, k in zip((a, b, a * b), _countdown(3)))
def gn5_generator_through_map(a, b):
    return a * sum(map(lambda v: v * v, _countdown(3))) + b
def _gen_with_return():
    yield 1
    yield 2
    return 10
def _delegate():
    yield 0
    yield from _gen_with_return()
    yield 5
def gn5_yield_from_between_yields(a, b):
    vals = list(_delegate())
    return a * vals[-1] + b * len(vals)
def gn5_generator_of_tensors_to_tuple(a, b):
    return torch.stack(tuple(t.exp() for t in (a, b))).sum(0)
def gn5_generator_enumerate_filter(a, b):
    g = (i for i, t in enumerate([a, b, a]) if i != 1)
    return a * sum(g) + b
def gn5_generator_chain_itertools(a, b):
    return a * sum(itertools.chain(_countdown(2), _countdown(3))) + b
def gn5_nested_generator_expressions(a, b):
    total = sum(x * y for x in range(3) for y in range(2))
    return a * total + b
def gn5_generator_yields_pairs(a, b):
    def pairs():
        yield a, b
        yield b, a
    return sum(x - y * 2 for x, y in pairs())
def gn5_generator_partial_consumption(a, b):
    g = _countdown(5)
    first = [next(g) for _ in range(2)]
    return a * sum(first) + b * sum(g)
def gn5_generator_min_max(a, b):
    return a * max(_countdown(4)) + b * min(_countdown(4))
def gn5_generator_islice(a, b):
    return a * sum(itertools.islice(_countdown(10), 2, 5)) + b

# ---- context managers
def cm5_suppress_key_error(a, b):
    d = {"a": a}
    with contextlib.suppress(KeyError):
        a = d["missing"]
    return a + b
def cm5_nested_no_grad_and_enable(a, b):
    with torch.no_grad():
        x = a * 2
        with torch.enable_grad():
            y = b * 3
    return x + y
class _Tracker:
    def __init__(self):
        self.events = []
    def __enter__(self):
        self.events.append("in")
        return self
    def __exit__(self, *exc):
        self.events.append("out")
        return False
def cm5_user_cm_records_events(a, b):
    t = _Tracker()
    with t as same:
        a = a * 2
    return a * len(same.events) + b * len(t.events)
def cm5_two_managers_one_with(a, b):
    t1, t2 = _Tracker(), _Tracker()
    with t1, t2:
        out = a + b
    return out * (len(t1.events) + len(t2.events))
@contextlib.contextmanager
def _scaled(k):
    yield k * 2
def cm5_contextmanager_yields_value(a, b):
    with _scaled(3) as k:
        out = a * k
    return out + b
def cm5_no_grad_decorator_on_inner(a, b):
    @torch.no_grad()
    def inner(x):
        return x * 2
    return inner(a) + b
def cm5_set_grad_enabled_false_block(a, b):
    with torch.set_grad_enabled(False):
        x = a.sin()
    return x + b.cos()
def cm5_is_grad_enabled_in_and_out(a, b):
    with torch.no_grad():
        inside = torch.is_grad_enabled()
    return a * inside + b * torch.is_grad_enabled()
def cm5_exit_runs_on_return(a, b):
    t = _Tracker()
    def inner():
        with t:
            return a * b
    out = inner()
    return out * len(t.events)

# ---- user objects and protocols
class _Bag:
    def __init__(self, items):
        self.items = list(items)
    def __len__(self):
        return len(self.items)
    def __contains__(self, x):
        return x in self.items
    def __iter__(self):
        return iter(self.items)
    def __getitem__(self, i):
        return self.items[i]
def uo5_len_contains_iter(a, b):
    bag = _Bag([1, 2, 3])
    return a * len(bag) + b * (2 in bag) + sum(bag)
def uo5_getitem_negative(a, b):
    bag = _Bag([a, b])
    return bag[-1] * bag[0]
class _Flag:
    def __init__(self, on):
        self.on = on
    def __bool__(self):
        return self.on
def uo5_bool_dunder_in_if(a, b):
    return a if _Flag(False) else b
class _Scale:
    def __init__(self, k):
        self.k = k
    def __call__(self, t):
        return t * self.k
def uo5_callable_objects_composed(a, b):
    f, g = _Scale(2), _Scale(3)
    return f(g(a)) + b
class _Fallback:
    def __init__(self):
        self.real = 1
    def __getattr__(self, name):
        return len(name)
def uo5_getattr_fallback(a, b):
    o = _Fallback()
    return a * o.real + b * o.missing_name
class _Key:
    def __init__(self, k):
        self.k = k
    def __eq__(self, other):
        return isinstance(other, _Key) and self.k == other.k
    def __hash__(self):
        return hash(self.k)
def uo5_user_key_in_dict(a, b):
    d = {_Key(1): a, _Key(2): b}
    return d[_Key(2)] * 2 + d[_Key(1)]
class _Vec:
    def __init__(self, t):
        self.t = t
    def __add__(self, other):
        return _Vec(self.t + other.t)
    def __mul__(self, k):
        return _Vec(self.t * k)
    def __rmul__(self, k):
        return _Vec(self.t * k)
    def __neg__(self):
        return _Vec(-self.t)
def uo5_operator_overloads(a, b):
    v = 2 * _Vec(a) + (-_Vec(b)) * 3
    return v.t
class _Counter:
    count = 0
    def __init__(self):
        type(self).count += 1
def uo5_class_attribute_counter(a, b):
    _Counter.count = 0
    _Counter()
    _Counter()
    return a * _Counter.count + b
class _Base5:
    def scale(self):
        return 2
    def apply(self, t):
        return t * self.scale()
class _Child5(_Base5):
    def scale(self):
        return super().scale() + 1
def uo5_super_in_overridden_method(a, b):
    return _Child5().apply(a) + _Base5().apply(b)
class _WithProp:
    def __init__(self, t):
        self._t = t
    @property
    def doubled(self):
        return self._t * 2
def uo5_property_of_tensor(a, b):
    return _WithProp(a).doubled + _WithProp(b).doubled
def uo5_object_repr_free_type_name(a, b):
    return a * len(type(_Bag([])).__name__) + b
def uo5_isinstance_of_subclass_tuple(a, b):
    o = _Child5()
    return a * isinstance(o, (int, _Base5)) + b * issubclass(_Child5, _Base5)

# ---- functions: closures, defaults, kwargs
def fn5_default_argument_none_branch(a, b):
    def f(x, y=None):
        return x if y is None else x + y
    return f(a) + f(a, b)
def fn5_star_args_sum(a, b):
    def f(*ts):
        return sum(ts)
    return f(a, b, a)
def fn5_kwargs_only_call(a, b):
    def f(x, *, k=1, m=2):
        return x * k + m
    return f(a, m=3) + f(b, k=2)
def fn5_kwargs_dict_splat(a, b):
    def f(x, y, z=0):
        return x * y + z
    kw = {"y": b, "z": 1}
    return f(a, **kw)
def fn5_closure_counter_calls(a, b):
    n = [0]
    def bump(t):
        n[0] += 1
        return t + n[0]
    return bump(a) + bump(b) * n[0]
def fn5_recursion_on_int(a, b):
    def fact(n):
        return 1 if n <= 1 else n * fact(n - 1)
    return a * fact(4) + b
def fn5_higher_order_returns_lambda(a, b):
    def make(k):
        return lambda t: t * k
    return make(2)(a) + make(3)(b)
def fn5_partial_with_kwargs(a, b):
    def f(x, y, scale=1):
        return (x - y) * scale
    g = functools.partial(f, scale=4)
    return g(a, b)
def fn5_function_name_attribute(a, b):
    def helper():
        pass
    return a * len(helper.__name__) + b
def fn5_lambda_sorted_tensors_by_index(a, b):
    ts = [(2, a), (1, b)]
    ts.sort(key=lambda p: p[0])
    return ts[0][1] - ts[1][1]

# ---- misc
def mi5_tensor_item_free_numel_arith(a, b):
    return a * (a.numel() // 2) + b * a.dim()
def mi5_tuple_unpack_from_split(a, b):
    x, y, z = a.split(1)
    return torch.cat([z, y, x]) + b
def mi5_unbind_in_loop(a, b):
    out = 0
    for t in b.unbind():
        out = out + a * t
    return out
def mi5_chained_methods(a, b):
    return a.add(b).mul(2).sub_(1).div(3)
def mi5_inplace_on_clone(a, b):
    c = a.clone()
    c.add_(b)
    c.mul_(2)
    return c
def mi5_view_and_reshape_roundtrip(a, b):
    return torch.cat([a, b]).view(2, 3).t().reshape(-1)
def mi5_slice_assign_on_clone(a, b):
    c = a.clone()
    c[1:] = b[:2]
    return c
def mi5_conditional_expression_on_shape(a, b):
    return a * 2 if a.shape[0] > 2 else b * 2
def mi5_string_key_dispatch(a, b):
    ops = {"add": torch.add, "mul": torch.mul}
    return ops["add"](a, b) + ops["mul"](a, b)
def mi5_tuple_of_tensors_index_by_len(a, b):
    ts = (a, b, a + b)
    return ts[len(ts) - 1] * ts[len("x")]
def mi5_while_with_python_counter(a, b):
    i = 0
    while i < 3:
        a = a + b
        i += 1
    return a
def mi5_assert_on_python_value(a, b):
    n = len([a, b])
    assert n == 2
    return a * n

# ---- harder cases: breaks in generators and context managers, objects crossing the frame
def gn5_break_in_loop_over_generator(a, b):
    out = a
    for k in _countdown(2):
        out = out * k
        dynamo.graph_break()
    return out + b
def _gen_try_finally(log):
    try:
        yield 1
        yield 2
    finally:
        log.append("done")
def gn5_generator_try_finally_exhausted(a, b):
    log = []
    total = sum(_gen_try_finally(log))
    return a * total + b * len(log)
def cm5_break_inside_user_cm(a, b):
    t = _Tracker()
    with t:
        x = a * 2
        dynamo.graph_break()
        y = x + b
    return y * len(t.events)
def cm5_break_inside_no_grad_in_helper(a, b):
    def helper(t):
        with torch.no_grad():
            u = t * 2
            dynamo.graph_break()
            return u + 1
    return helper(a) + b
def cm5_exception_inside_user_cm(a, b):
    t = _Tracker()
    try:
        with t:
            raise ValueError("x")
    except ValueError:
        a = a + 1
    return a * len(t.events) + b
def uo5_object_made_here_returned_attribute(a, b):
    v = _Vec(a)
    v.t = v.t + b
    v.extra = 3
    return v.t * v.extra
class _Config5:
    scale = 2
    def __init__(self):
        self.shift = 1
_CFG5 = _Config5()
def uo5_global_object_attribute_written(a, b):
    _CFG5.shift = 1
    _CFG5.shift = _CFG5.shift + 2
    return a * _CFG5.shift + b
def uo5_type_of_global_object_class_attribute(a, b):
    return a * type(_CFG5).scale + b
def uo5_setattr_getattr_on_made_object(a, b):
    o = _Bag([])
    setattr(o, "k", 4)
    return a * getattr(o, "k") + b * getattr(o, "z", 2)
def uo5_method_returning_self_chain(a, b):
    class Builder:
        def __init__(self):
            self.parts = []
        def add(self, t):
            self.parts.append(t)
            return self
    return sum(Builder().add(a).add(b).add(a).parts)
def uo5_dunder_iter_generator_method(a, b):
    class Pair:
        def __iter__(self):
            yield a
            yield b
    x, y = Pair()
    return x - y
def uo5_instance_dict_contents(a, b):
    o = _Config5()
    o.extra = 5
    return a * len(vars(o)) + b * ("shift" in o.__dict__)
def ex5_raise_and_catch_in_helper(a, b):
    def checked(t, k):
        if k < 0:
            raise ValueError("negative")
        return t * k
    try:
        return checked(a, -1)
    except ValueError:
        return checked(b, 2)
def ex5_exception_args_and_type(a, b):
    try:
        raise KeyError("missing", 3)
    except LookupError as e:
        return a * len(e.args) + b * e.args[1]
def ex5_try_else_finally(a, b):
    out = a
    try:
        out = out + 1
    except RuntimeError:
        out = out - 100
    else:
        out = out * 2
    finally:
        out = out + b
    return out
def fn5_closure_returned_from_frame(a, b):
    k = 3
    def scale(t):
        return t * k
    return scale(a) + b, k
def fn5_global_function_rebinding_inside(a, b):
    f = torch.sin if a.shape[0] == 3 else torch.cos
    return f(a) + f(b)
def mi5_print_breaks(a, b):
    x = a + b
    print("", end="")
    return x * 2
def mi5_inplace_on_input_view(a, b):
    c = a.clone()
    v = c[:2]
    v.mul_(b[:2])
    return c
def mi5_requires_grad_intermediate(a, b):
    w = a.detach().requires_grad_(True)
    return (w * b).sum() + w.requires_grad
def mi5_requires_grad_in_helper_returned(a, b):
    def make_leaf(t):
        return t.detach().requires_grad_()
    w = make_leaf(a * 2)
    return w * b, w.is_leaf
def mi5_requires_grad_intermediate_detached_out(a, b):
    w = (a * 2).requires_grad_()
    return (w * b).detach() + w.requires_grad
def mi5_tensor_python_list_index(a, b):
    idx = [2, 0, 1]
    return a[idx] + b[idx[::-1]]

# ---- more probes: ExitStack, nullcontext, tensor-keyed dicts, sentinel iterators, generators closed early
def cm5_exit_stack_two_trackers(a, b):
    t1, t2 = _Tracker(), _Tracker()
    with contextlib.ExitStack() as stack:
        stack.enter_context(t1)
        stack.enter_context(t2)
        out = a * b
    return out * len(t1.events) + len(t2.events)
def cm5_exit_stack_with_no_grad_and_contextmanager(a, b):
    with contextlib.ExitStack() as stack:
        k = stack.enter_context(_scaled(2))
        stack.enter_context(torch.no_grad())
        out = a * k
    return out + b * torch.is_grad_enabled()
def cm5_nullcontext_value(a, b):
    with contextlib.nullcontext(a * 2) as x:
        return x + b
class _Swallow:
    def __enter__(self):
        return self
    def __exit__(self, kind, value, tb):
        return kind is ZeroDivisionError
def cm5_exit_suppresses_zero_division(a, b):
    with _Swallow():
        a = a + 1
        1 / 0
    return a * b
def di5_tensor_keyed_dict(a, b):
    d = {a: 1, b: 2}
    return a * d[a] + b * d[b]
def di5_dict_keyed_by_type(a, b):
    d = {int: 2, float: 3}
    return a * d[type(1)] + b * d[type(1.0)]
def gn5_generator_closed_early(a, b):
    g = _countdown(5)
    first = next(g)
    g.close()
    return a * first + b * len(list(g))
def _gen_with_finally(log):
    try:
        yield 1
        yield 2
    finally:
        log.append(0)
def gn5_generator_with_finally_closed_early(a, b):
    log = []
    g = _gen_with_finally(log)
    next(g)
    g.close()
    return a * len(log) + b
def gn5_iter_with_sentinel_callable(a, b):
    it = iter([3, 2, 1, 0, 5])
    taken = list(iter(lambda: next(it), 0))
    return a * sum(taken) + b * len(taken)
def gn5_iter_sentinel_ends_at_stop_iteration(a, b):
    it = iter([1, 2])
    return a * sum(iter(lambda: next(it), 9)) + b
def li5_zip_star_transpose(a, b):
    rows = [(1, 2), (3, 4), (5, 6)]
    cols = list(zip(*rows))
    return a * sum(cols[0]) + b * sum(cols[1])
def li5_tensor_in_list_identity(a, b):
    xs = [a, b]
    return a * (a in xs) + b * (len(xs) == 2)  # (found by identity: == of two tensors is not a bool)
def li5_list_sort_tensors_by_python_key(a, b):
    xs = [(3, a), (1, b), (2, a * b)]
    xs.sort(key=lambda p: p[0], reverse=True)
    return xs[0][1] + xs[-1][1] * 2
def st5_join_generator_of_ints(a, b):
    s = "-".join(str(i) for i in range(4))
    return a * len(s) + b * s.count("-")
def un5_python_float_global(a, b):
    return a * _SCALE5 + b
_SCALE5 = 0.25
def un5_math_on_size(a, b):
    import math
    return a * math.sqrt(a.shape[0] + 1) + b
def uo5_namedtuple_like_class_unpack(a, b):
    class Pair:
        def __init__(self, x, y):
            self.x, self.y = x, y
        def __iter__(self):
            return iter((self.x, self.y))
    x, y = Pair(a, b)
    return x * 2 - y
def mi5_nonlocal_set_mutation(a, b):
    seen = set()
    def mark(k):
        seen.add(k)
    for k in (1, 2, 2, 3):
        mark(k)
    return a * len(seen) + b
def mi5_clamp_tensor_bounds(a, b):
    lo = torch.minimum(a, b)
    hi = torch.maximum(a, b)
    return torch.clamp(a * 2, lo, hi)
'''

RECOMPILE_SRC = r'''
def rc5_float_arg_in_math(a, x):
    return a * x + x ** 2
def rc5_int_arg_used_as_repeat(a, n):
    return a.repeat(n)
def rc5_tuple_of_ints_arg(a, shape):
    return a.reshape(shape) * 2
def rc5_bool_arg_switches_op(a, flag):
    return a.relu() if flag else a.neg()
def rc5_none_then_float(a, x):
    return a if x is None else a + x
def rc5_int_then_float(a, x):
    return a * x
'''
