"""The seventeenth batch of Dynamo-style programs, first half: Python the earlier batches reached only in part,
written as everyday model code writes it: structural pattern matching (`match` on tuples, dicts and dataclasses),
the walrus operator in comprehensions, dataclasses (frozen, replace, asdict, fields), functools.reduce with
operator.mul, itemgetter and methodcaller, f-string keys with format specs, divmod and round, math's functions,
shape unpacking, user classes with __call__, properties, staticmethods and classmethods, getattr(torch, name),
slices with None and Ellipsis, in-place writes to a clone's views, torch.where with Python scalars, the
collections and itertools helpers, heapq, bisect, copy, IntEnum, typing.NamedTuple._replace, recursion, lambdas
with default arguments, starred unpacking, dict merges, slice objects, exceptions raised and caught in the frame,
int extremes and inf/nan constants. Then what running Dynamo's own test_functions.py found: x.new(size) of a Size
(a silent wrong shape before), the questions Dynamo answers while tracing (torch.cuda.is_available(), the onnx, fx
and jit tracing checks, autocast and torch._C queries, F._Reduction.get_enum, has_torch_function), torch.backends'
flags, deque.copy, `4 * [x]`, a NamedTuple's staticmethods and classmethods, plain dict subclasses made in the
frame, np.dtype, numpy's *_like factories, fftshift, and ndarray.real, .imag and .strides. Each program takes two
(3,) float tensors `a`, `b`;
test_dynamo_tests_ported_9on.py runs it under torch.compile and minitorch2.compile and compares values and
(frames, ops, graph breaks). Our own programs; the names given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import dataclasses, functools, operator, itertools, collections, math, heapq, bisect, copy, enum, contextlib, typing

def py17_walrus_comp(a, b):
    ys = [y for v in (1, 2, 3) if (y := v * 2) > 2]
    return a * sum(ys) + b

def py17_match_tuple(a, b):
    spec = ("scale", 3)
    match spec:
        case ("scale", k):
            return a * k
        case _:
            return b

def py17_match_dict(a, b):
    cfg = {"op": "add", "k": 2}
    match cfg:
        case {"op": "add", "k": k}:
            return a + k * b
    return a

def py17_match_class(a, b):
    @dataclasses.dataclass
    class P:
        x: int
        y: int
    match P(1, 2):
        case P(x=1, y=yy):
            return a * yy + b
    return a

def py17_try_except_custom(a, b):
    class MyErr(Exception):
        pass
    try:
        raise MyErr("x")
    except MyErr:
        a = a + 1
    finally:
        b = b * 2
    return a + b

def py17_generator_local(a, b):
    def gen(t):
        for i in range(3):
            yield t * i
    return sum(gen(a)) + b

def py17_sorted_key_lambda(a, b):
    ts = [a, b, a * b]
    order = sorted(range(3), key=lambda i: -i)
    return ts[order[0]] + ts[order[2]]

def py17_zip_strict(a, b):
    out = 0
    for x, k in zip([a, b], [1, 2], strict=True):
        out = out + x * k
    return out

def py17_enumerate_start(a, b):
    out = a
    for i, t in enumerate([a, b], start=1):
        out = out + i * t
    return out

def py17_dataclass_replace_asdict(a, b):
    @dataclasses.dataclass(frozen=True)
    class Cfg:
        k: int = 1
        m: float = 0.5
    c = dataclasses.replace(Cfg(), k=3)
    d = dataclasses.asdict(c)
    return a * d["k"] + b * c.m

def py17_dataclass_fields(a, b):
    @dataclasses.dataclass
    class Cfg:
        k: int = 2
        m: int = 3
    total = sum(getattr(Cfg(), f.name) for f in dataclasses.fields(Cfg))
    return a * total + b

def py17_reduce_mul(a, b):
    return functools.reduce(operator.mul, [a, b, a + 1])

def py17_itemgetter_attrgetter(a, b):
    g = operator.itemgetter(1, 0)
    x, y = g([a, b])
    return x * 2 + y

def py17_methodcaller(a, b):
    return operator.methodcaller("add", b, alpha=2)(a)

def py17_str_format_keys(a, b):
    d = {f"layer_{i:02d}": i for i in range(3)}
    return a * d["layer_02"] + b * len("-".join(d))

def py17_divmod_round(a, b):
    q, r = divmod(17, 5)
    return a * q + b * r + round(2.567, 1)

def py17_math_funcs(a, b):
    return a * math.sqrt(16) + b * math.prod([2, 3]) + math.log2(8) + math.floor(2.7)

def py17_shape_unpack(a, b):
    (n,) = a.shape
    return a * n + b * a.size(-1) + a.ndim + a.numel()

def py17_no_grad_inside(a, b):
    with torch.no_grad():
        c = a * 2
    return c + b

def py17_is_tensor(a, b):
    if torch.is_tensor(a) and torch.is_floating_point(b):
        return a + b
    return a - b

def py17_global_counter(a, b):
    global _COUNT
    _COUNT = globals().get("_COUNT", 0) + 1
    return a + b

def py17_nonlocal_cell(a, b):
    n = 0
    def bump():
        nonlocal n
        n += 2
    bump(); bump()
    return a * n + b

def py17_callable_class(a, b):
    class Scale:
        def __init__(self, k):
            self.k = k
        def __call__(self, t):
            return t * self.k
    return Scale(3)(a) + b

def py17_property_static_class(a, b):
    class C:
        base = 2
        @property
        def k(self):
            return self.base * 2
        @staticmethod
        def s(t):
            return t + 1
        @classmethod
        def c(cls, t):
            return t * cls.base
    o = C()
    return C.s(a) * o.k + C.c(b)

def py17_getattr_torch(a, b):
    return getattr(torch, "sin")(a) + getattr(torch, "cos")(b)

def py17_type_name(a, b):
    if type(a).__name__ == "Tensor":
        return a + b
    return a

def py17_slice_none_ellipsis(a, b):
    return (a[None, ...] * b[..., None]).sum(0)

def py17_inplace_view_of_clone(a, b):
    c = a.clone()
    c[0] += 1
    c[1:] *= b[1:]
    return c

def py17_where_scalar(a, b):
    return torch.where(a > 0, a, 0.0) + torch.where(b > 0, 1.0, b)

def py17_new_zeros_like(a, b):
    return a.new_zeros(3) + torch.zeros_like(b, dtype=torch.float64) + a.new_full((3,), 2.0) + b

def py17_str_split(a, b):
    parts = "w_2_3".split("_")
    return a * int(parts[1]) + b * int(parts[2])

def py17_set_ops(a, b):
    s = {1, 2, 3} & {2, 3, 4}
    return a * len(s) + b * max(s | {7})

def py17_counter(a, b):
    c = collections.Counter("abcab")
    return a * c["a"] + b * c.most_common(1)[0][1]

def py17_ordereddict_move(a, b):
    d = collections.OrderedDict(x=a, y=b)
    d.move_to_end("x")
    k = list(d)
    return d[k[0]] * 2 + d[k[1]]

def py17_defaultdict_list(a, b):
    d = collections.defaultdict(list)
    d["x"].append(a)
    d["x"].append(b)
    return sum(d["x"]) + len(d)

def py17_heapq(a, b):
    h = [5, 1, 3]
    heapq.heapify(h)
    return a * heapq.heappop(h) + b * h[0]

def py17_bisect(a, b):
    return a * bisect.bisect_left([1, 3, 5], 4) + b

def py17_copy_dict(a, b):
    d = {"a": a}
    e = copy.copy(d)
    e["a"] = b
    return d["a"] + e["a"]

def py17_intenum(a, b):
    class K(enum.IntEnum):
        ONE = 1
        TWO = 2
    return a * (K.TWO + 1) + b * K.ONE

def py17_namedtuple_replace(a, b):
    class NT(typing.NamedTuple):
        x: int
        y: int = 3
    n = NT(1)._replace(x=4)
    return a * n.x + b * n.y

def py17_contextmanager_user(a, b):
    @contextlib.contextmanager
    def scope():
        yield 3
    with scope() as k:
        c = a * k
    return c + b

def py17_recursion(a, b):
    def fact(n):
        return 1 if n <= 1 else n * fact(n - 1)
    return a * fact(4) + b

def py17_lambda_default(a, b):
    fs = [lambda t, k=k: t * k for k in range(3)]
    return fs[2](a) + fs[1](b)

def py17_star_unpack(a, b):
    first, *rest = [a, b, a + b]
    return first + sum(rest)

def py17_dict_merge(a, b):
    x = {"a": a}
    y = {"b": b}
    z = {**x, **y} | {"c": a * b}
    return z["a"] + z["b"] + z["c"]

def py17_list_sort_reversed(a, b):
    ks = [3, 1, 2]
    ks.sort(key=lambda v: -v)
    return a * ks[0] + b * list(reversed(ks))[0]

def py17_slice_object(a, b):
    s = slice(1, None)
    return a[s].sum() + b[s]

def py17_isinstance_tuple(a, b):
    xs = [a, b]
    if isinstance(xs, (list, tuple)) and callable(torch.sin):
        return xs[0] + xs[1]
    return a

def py17_any_all_gen(a, b):
    flags = [True, False]
    if any(f for f in flags) and not all(f for f in flags):
        return a + b
    return a - b

def py17_raise_caught_value_error(a, b):
    try:
        int("x")
    except ValueError:
        return a + b
    return a

def py17_chained_compare(a, b):
    n = a.shape[0]
    if 0 < n <= 3:
        return a * 2
    return b

def py17_tensor_bool_method(a, b):
    return a.bool().float() + b.long().float() + a.to(torch.int32).float()

def py17_float_inf_nan_consts(a, b):
    return torch.clamp(a, min=-math.inf, max=0.5) + torch.nan_to_num(b / 0.0, posinf=1.0, neginf=-1.0)

def py17_int_extremes(a, b):
    big = 2 ** 62
    return a * (big // 2 ** 61) + b * (-(2 ** 63) // 2 ** 62)

def py17_str_methods(a, b):
    s = "Hello"
    return a * len(s.lower().replace("l", "")) + b * s.count("l") + s.startswith("H")

def py17_zip_dict_items(a, b):
    d = dict(zip(["p", "q"], [a, b]))
    return sum(v * i for i, (k, v) in enumerate(sorted(d.items())))

def py17_max_key(a, b):
    ts = {"x": 1, "y": 3}
    return a * max(ts, key=ts.get).__len__() + b * max(ts.values())

def py17_tuple_concat_mul(a, b):
    t = (a,) * 2 + (b,)
    return t[0] + t[1] * t[2]

def py17_bytes_len(a, b):
    return a * len(b"abc") + b * ord("a")

def py17_frozenset_in(a, b):
    ok = frozenset({"relu", "gelu"})
    return torch.relu(a) + b if "relu" in ok else a

def py17_itertools_product(a, b):
    out = 0
    for i, j in itertools.product(range(2), range(2)):
        out = out + a * i + b * j
    return out

def py17_itertools_accumulate(a, b):
    return a * list(itertools.accumulate([1, 2, 3]))[-1] + b

def py17_itertools_zip_longest(a, b):
    out = a
    for x, y in itertools.zip_longest([1, 2], [3], fillvalue=0):
        out = out + x * y
    return out + b

def py17_itertools_pairwise(a, b):
    return sum(x * y for x, y in itertools.pairwise([a, b, a]))

def py17_functools_lru_cache(a, b):
    return a * _cached(3) + b

def py17_all_reduce_tensor_list(a, b):
    return torch.stack([a, b]).amax(0) + torch.cat([a, b]).view(2, 3).sum(0)

@functools.lru_cache
def _cached(n):
    return n * 2

def py17_new_of_a_size(a, b):
    z = a.new(b.size()).fill_(1.0)
    w = a.new(2, 3).fill_(2.0)
    u = a.new(torch.Size([4]))
    assert z.size() == b.size()
    return z * b + w.sum() + u.shape[0] + a.new([1.0, 2.0, 3.0])

def py17_device_queries_in_forward(a, b):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if torch.accelerator.is_available() or torch.cuda.is_initialized():
        a = a * 10
    return (a + b if device == "cpu" else a - b) * 2

def py17_export_and_tracing_queries(a, b):
    if torch.onnx.is_in_onnx_export() or torch.jit.is_tracing() or torch.jit.is_scripting():
        return a
    if torch.fx._symbolic_trace.is_fx_tracing():
        return b
    return a * b

def py17_autocast_queries(a, b):
    if torch.is_autocast_cpu_enabled() or torch.is_autocast_enabled():
        return a
    return a.to(torch.get_autocast_gpu_dtype()) + b * torch.is_autocast_cache_enabled()

def py17_backends_flags_read(a, b):
    scale = 2 if torch.backends.cuda.matmul.allow_tf32 else 3
    if torch.backends.cudnn.benchmark or not torch.backends.cudnn.enabled:
        scale = scale + 1
    return a * scale + b * torch.backends.cudnn.deterministic

def py17_c_level_queries(a, b):
    if torch._C._is_any_autocast_enabled() or torch._C._get_cublas_allow_tf32():
        return a
    if torch._C._get_privateuse1_backend_name() == "privateuseone" and torch.autograd._is_checkpoint_valid():
        return a * b
    return b

def py17_reduction_enum_of_a_loss(a, b):
    reduction = F._Reduction.get_enum("sum")
    loss = (a - b) ** 2
    return loss.sum() if reduction == 2 else loss.mean()

def py17_torch_function_checks(a, b):
    if torch.overrides.has_torch_function_variadic(a, b) or torch.overrides.has_torch_function((a,)):
        return a
    if torch.overrides.has_torch_function_unary(b):
        return b
    return torch.jit._unwrap_optional(a) + b

def py17_deque_copy(a, b):
    d = collections.deque([a, b])
    e = d.copy()
    e.append(a * b)
    return len(d) * sum(e)

def py17_int_times_list(a, b):
    return sum(3 * [a]) + sum(2 * (b,)) + len(2 * [1, 2])

class _Span17(typing.NamedTuple):
    lo: object
    hi: object

    @staticmethod
    def scale():
        return 3

    @classmethod
    def around(cls, t):
        return cls(t - 1, t + 1)

    def width(self):
        return self.hi - self.lo

def py17_namedtuple_static_and_class_methods(a, b):
    span = _Span17(a, b).around(a)
    return span.width() * span.scale() + _Span17.scale() + b

def py17_numpy_like_factories(a, b):
    import numpy as np
    x = a.numpy()
    filled = np.full_like(x, 7) * np.ones_like(x, dtype=np.int32) + np.zeros_like(x)
    return torch.from_numpy(filled) + np.full_like(b, 2.4, dtype=np.float64).sum()

def py17_numpy_real_imag_strides(a, b):
    x = (a * 2).numpy()
    described = x.itemsize + x.ndim + x.size
    return torch.from_numpy(x.real + x.imag * 3 + x.T) * described + b

def py17_numpy_strides_returned(a, b):
    x = a.numpy()
    return x.strides, x.itemsize, torch.from_numpy(x.imag) + b

class _Record17(collections.OrderedDict):
    pass

class _Table17(dict):
    pass

def py17_plain_dict_subclasses_made_in_frame(a, b):
    record = _Record17(sample=a + 1)
    table = _Table17([("k", b)], other=2)
    record["late"] = b * 2
    ordered = list(record) == ["sample", "late"]
    return isinstance(record, _Record17), ordered, record["sample"] + record["late"] * table["other"] + table["k"]

def py17_numpy_dtype_object(a, b):
    import numpy as np
    dt = np.dtype("float")
    return torch.from_numpy(np.full_like(a.numpy(), 2.4, dtype=dt)) + b

def py17_numpy_fftshift(a, b):
    import numpy as np
    x = a.numpy()
    return torch.from_numpy(np.fft.fftshift(x) - np.fft.ifftshift(x, axes=0)) + b

def py17_numpy_meshgrid(a, b):
    import numpy as np
    gx, gy = np.meshgrid(a.numpy(), (b * 2).numpy(), indexing="ij")
    rows, cols = np.meshgrid(a.numpy(), b.numpy())
    return torch.from_numpy(gx * gy) + torch.from_numpy(rows - cols).sum()

def py17_hasattr_of_torch_modules(a, b):
    if hasattr(F, "scaled_dot_product_attention") and not hasattr(torch.nn.functional, "no_such_function"):
        a = a * 2
    if torch._C._get_tracing_state() is None and hasattr(torch, "compile"):
        return a + b
    return a - b

class _Pair17(typing.NamedTuple):
    first: object
    second: object

class _TaggedPair17(_Pair17):
    pass

def py17_attribute_set_on_a_namedtuple_subclass(a, b):
    pair = _TaggedPair17(a + 1, b * 2)
    pair.scale = a * 3
    return pair.first + pair.scale, pair, pair.scale

def py17_attribute_on_a_namedtuple_across_a_break(a, b):
    pair = _TaggedPair17(a + 1, b * 2)
    pair.scale = a * 3
    print("", end="")
    return pair.first * pair.scale + pair.second

def py17_attribute_set_on_a_plain_namedtuple_raises(a, b):
    pair = _Pair17(a, b)
    try:
        pair.scale = 3
    except AttributeError:
        return a - b
    return a + b

def py17_numpy_array_of_strings_runs_eagerly(a, b):
    import numpy as np
    c = a + b
    np.asarray(["L", "U"])
    return c * 2

class _Scaled17:
    def __init__(self):
        self._k = 1

    @property
    def k(self):
        return self._k

    @k.setter
    def k(self, value):
        self._k = value * 2

_SCALED17 = _Scaled17()

def py17_property_setter_of_a_global_object(a, b):
    _SCALED17.k = 3
    out = a * _SCALED17.k + b
    _SCALED17.k = 1
    return out, _SCALED17.k
'''
