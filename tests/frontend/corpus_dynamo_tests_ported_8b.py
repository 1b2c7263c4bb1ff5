"""The second half of the eighth batch (corpus_dynamo_tests_ported_8.py has the first, and says what the batch aims
at), in the style of cpython's test_setcomps.py and test_string.py as Dynamo runs them, and of test/dynamo's
test_misc.py, test_sources.py, test_unspec.py, test_ctx_manager.py and test_modules.py: set comprehensions,
str methods the batches before left out (center, zfill, partition, expandtabs, swapcase, title, splitlines,
find/rfind, startswith of a tuple), tensor methods and torch functions with keywords (lerp, addcmul, roll, flip,
cumprod, new_full, type_as, narrow, unbind, chunk, masked_fill, where with a scalar), values reached through
sources (globals holding modules, objects, dicts and closures' cells), Python floats computed from tensors'
shapes, context managers (classes whose __enter__ returns a value, nested @contextmanager, nullcontext, ExitStack
callbacks, __exit__ seeing the exception), modules without parameters (activations, Sequential, Identity,
Flatten, Softmax, Dropout in eval, a counter attribute, a method read through type(obj)), closures that outlive
the call that made them (kept on a global list across calls, two sharing a cell) and outside closures writing
their cells (nonlocal, across a break), dict views, int methods (to_bytes, bit_count, gcd), str splits and
%-formatting, and RECOMPILE_SRC (the calls are in test_dynamo_tests_ported_8.py). Our own programs; the names
given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import contextlib, math, types


# ---- set comprehensions (cpython test_setcomps.py)
def sc8_setcomp_of_squares_mod(a, b):
    s = {i * i % 4 for i in range(6)}
    return a * len(s) + b * max(s)
def sc8_setcomp_with_condition(a, b):
    s = {c for c in "hello world" if c not in "lo "}
    return a * len(s) + b
def sc8_nested_setcomp(a, b):
    s = {x + y for x in range(3) for y in range(3)}
    return a * len(s) + b * sum(s)
def sc8_setcomp_of_shape_dims(a, b):
    s = {d for d in a.shape + b.shape}
    return a * len(s) + b
def sc8_setcomp_then_sorted(a, b):
    s = sorted({-k for k in (3, 1, 3, 2)})
    return a * s[0] + b * s[-1]
def sc8_setcomp_in_membership(a, b):
    ok = 2 in {k * 2 for k in range(3)}
    return a * ok + b


# ---- str methods (cpython test_string.py, test_userstring.py)
def st8_center_ljust_zfill(a, b):
    s = "ab".center(6, "*") + "7".zfill(3) + "x".ljust(3, "-")
    return a * len(s) + b * s.count("*")
def st8_partition_rpartition(a, b):
    head, sep, tail = "k=v=w".partition("=")
    h2, _, t2 = "k=v=w".rpartition("=")
    return a * len(tail) + b * len(h2) + a * (sep == "=")
def st8_expandtabs(a, b):
    return a * len("a\tb".expandtabs(4)) + b
def st8_swapcase_title(a, b):
    s = "hello World".swapcase()
    return a * (s == "HELLO wORLD") + b * "ab cd".title().istitle()
def st8_splitlines(a, b):
    lines = "x\ny\r\nz".splitlines()
    return a * len(lines) + b * len(lines[-1])
def st8_find_rfind_index(a, b):
    s = "abcabc"
    return a * s.find("c") + b * s.rfind("c") + a * s.find("z")
def st8_startswith_tuple(a, b):
    return a * "torch.nn".startswith(("jax", "torch")) + b * "f.py".endswith((".c", ".py"))
def st8_isidentifier_isdigit(a, b):
    n = "x_1".isidentifier() + "12".isdigit() + "1a".isalnum() + " ".isspace()
    return a * n + b
def st8_join_of_generator(a, b):
    s = "-".join(str(d) for d in a.shape + (4,))
    return a * len(s) + b
def st8_replace_with_count(a, b):
    s = "aaaa".replace("a", "b", 2)
    return a * s.count("b") + b * s.count("a")
def st8_strip_chars(a, b):
    s = "xxhixx".strip("x") + "--a".lstrip("-") + "b..".rstrip(".")
    return a * len(s) + b
def st8_string_multiply_and_in(a, b):
    s = "ab" * 3
    return a * len(s) + b * ("ba" in s)
def st8_format_with_named_fields(a, b):
    s = "{n}:{m:>3}".format(n=a.shape[0], m="z")
    return a * len(s) + b
def st8_ord_chr_roundtrip(a, b):
    return a * (ord(chr(ord("a") + 2)) - ord("a")) + b
def st8_str_compare(a, b):
    return a * ("abc" < "abd") + b * ("B" < "a")


# ---- tensor methods and torch functions with keywords (test_misc.py)
def tm8_lerp_with_weight(a, b):
    return torch.lerp(a, b, 0.25)
def tm8_addcmul_value(a, b):
    return torch.addcmul(a, a, b, value=0.5)
def tm8_roll_and_flip(a, b):
    return torch.roll(a, 1) + torch.flip(b, dims=[0])
def tm8_cumprod_dim(a, b):
    return torch.cumprod(a, dim=0) + b.cumsum(0)
def tm8_new_full_and_type_as(a, b):
    return a.new_full((3,), 2.0) * b + a.new_zeros(3).type_as(b)
def tm8_narrow_and_unbind(a, b):
    x, y = torch.narrow(torch.stack([a, b]), 1, 1, 2).unbind(0)
    return x * y
def tm8_chunk_uneven(a, b):
    parts = torch.cat([a, b]).chunk(4)
    return parts[0].sum() + parts[-1].sum() + len(parts)
def tm8_masked_fill_by_compare(a, b):
    return a.masked_fill(a > b, 0.0) + b
def tm8_where_with_scalar(a, b):
    return torch.where(a > 0, a, 0.0) + torch.where(b > 0, 1.0, b)
def tm8_clamp_min_max_kw(a, b):
    return a.clamp(min=-0.5) + b.clamp(max=0.5)
def tm8_split_sizes(a, b):
    x, y = torch.cat([a, b]).split([2, 4])
    return x.sum() + y.mean()
def tm8_diag_embed_trace(a, b):
    return torch.diag(a).trace() + torch.outer(a, b).sum()
def tm8_amax_keepdim(a, b):
    m = torch.stack([a, b]).amax(dim=0, keepdim=True)
    return m.squeeze(0) + b
def tm8_logsumexp_dim(a, b):
    return torch.logsumexp(torch.stack([a, b]), dim=0)
def tm8_std_unbiased_false(a, b):
    return a.std(unbiased=False) + b.var(correction=0)
def tm8_expand_as_and_repeat(a, b):
    return a[:1].expand_as(b) * b + a.repeat(2)[:3]
def tm8_argmax_gather(a, b):
    i = torch.stack([a, b]).argmax(dim=0)
    return torch.stack([a, b]).gather(0, i.unsqueeze(0)).squeeze(0)
def tm8_sign_abs_neg(a, b):
    return a.sign() * b.abs() - (-a)
def tm8_pow_rsub(a, b):
    return 2 ** a - (1 - b) ** 2
def tm8_norm_p1(a, b):
    return a * torch.linalg.vector_norm(b, ord=1)


# ---- sources: globals holding modules, objects, dicts; closures' cells (test_sources.py)
_CONF = types.SimpleNamespace(scale=3, inner=types.SimpleNamespace(shift=0.5))
_TABLE = {"alpha": 2.0, "rows": [1, 2, 3]}


class _Holder:
    factor = 4


_HOLDER = _Holder()


def sx8_global_namespace_chain(a, b):
    return a * _CONF.scale + _CONF.inner.shift + b
def sx8_global_dict_nested_list(a, b):
    return a * _TABLE["alpha"] + b * _TABLE["rows"][-1]
def sx8_instance_reads_class_attr(a, b):
    return a * _HOLDER.factor + b * type(_HOLDER).factor
def sx8_module_attr_math_pi(a, b):
    return a * math.pi + b * math.e
def sx8_closure_cell_of_dict(a, b):
    cfg = {"k": 2}
    def inner(x):
        return x * cfg["k"]
    return inner(a) + b
def sx8_closure_cell_of_tensor(a, b):
    def make(t):
        def add(x):
            return x + t
        return add
    return make(b)(a) * 2
def sx8_default_arg_tensor_source(a, b):
    def f(x, y=b):
        return x * y
    return f(a)
def sx8_bound_method_of_global(a, b):
    fn = _HOLDER.__class__
    return a * fn.factor + b


# ---- Python numbers made from tensors' shapes and sizes (test_unspec.py)
def un8_float_of_numel(a, b):
    return a * (a.numel() / 2) + b
def un8_math_sqrt_of_size(a, b):
    return a / math.sqrt(a.size(0)) + b
def un8_shape_ratio(a, b):
    return a * (a.shape[0] / (b.shape[0] + 1)) + b
def un8_range_over_size(a, b):
    out = b
    for i in range(a.size(-1)):
        out = out + a[i]
    return out
def un8_size_in_tensor_constructor(a, b):
    return a + torch.arange(a.shape[0]) * 0.5 + b
def un8_int_item_scale(a, b):
    return a * int(b.abs().sum().item() > 0) + b
def un8_float_constant_folded(a, b):
    k = 0.1 + 0.2
    return a * k + b * (1 / 3)
def un8_len_of_tensor(a, b):
    return a * len(b) + b


# ---- context managers (test_ctx_manager.py)
class _Scope:
    def __init__(self, k):
        self.k = k
        self.entered = False

    def __enter__(self):
        self.entered = True
        return self.k * 2

    def __exit__(self, *exc):
        self.entered = False
        return False


class _Swallow:
    def __enter__(self):
        return self

    def __exit__(self, typ, val, tb):
        self.seen = typ
        return typ is ValueError


@contextlib.contextmanager
def _outer():
    yield 1


@contextlib.contextmanager
def _inner(k):
    with _outer() as o:
        yield o + k


def cx8_enter_returns_value(a, b):
    with _Scope(3) as v:
        out = a * v
    return out + b
def cx8_scope_state_after_exit(a, b):
    s = _Scope(1)
    with s:
        mid = s.entered
    return a * mid + b * s.entered
def cx8_exit_swallows_valueerror(a, b):
    s = _Swallow()
    with s:
        raise ValueError
    return a * (s.seen is ValueError) + b
def cx8_nested_contextmanagers(a, b):
    with _inner(2) as v:
        return a * v + b
def cx8_nullcontext_value(a, b):
    with contextlib.nullcontext(b) as t:
        return a + t
def cx8_exitstack_callback_order(a, b):
    log = []
    with contextlib.ExitStack() as stack:
        stack.callback(log.append, 1)
        stack.callback(log.append, 2)
    return a * log[0] + b * log[1]
def cx8_no_grad_in_helper(a, b):
    def helper(x):
        with torch.no_grad():
            return x * 2
    return helper(a) + b
def cx8_two_managers_one_with(a, b):
    with _Scope(1) as x, _Scope(2) as y:
        return a * x + b * y
def cx8_grad_enabled_false_then_true(a, b):
    with torch.set_grad_enabled(False):
        x = a * 2
        with torch.enable_grad():
            y = b * 3
    return x + y
def cx8_suppress_keyerror(a, b):
    out = a
    with contextlib.suppress(KeyError):
        out = out + {}["k"]
    return out + b


# ---- modules without parameters (test_modules.py)
class _Counted(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return x * self.calls


_SEQ = nn.Sequential(nn.ReLU(), nn.Identity(), nn.Tanh())
_COUNTED = _Counted()


def md8_sequential_of_activations(a, b):
    return _SEQ(a) + b
def md8_flatten_and_softmax(a, b):
    m = torch.stack([a, b])
    return nn.Softmax(dim=1)(nn.Flatten(0)(m).reshape(2, 3))
def md8_dropout_in_eval(a, b):
    d = nn.Dropout(0.5)
    d.eval()
    return d(a) + b
def md8_counter_attribute_mutated(a, b):
    _COUNTED.calls = 0
    return _COUNTED(a) + _COUNTED(b)
def md8_sequential_indexing(a, b):
    return _SEQ[0](a) + _SEQ[-1](b) * len(_SEQ)
def md8_module_in_local_dict(a, b):
    acts = {"r": nn.ReLU(), "s": nn.Sigmoid()}
    return acts["r"](a) + acts["s"](b)
def md8_functional_leaky_relu_kw(a, b):
    return F.leaky_relu(a, negative_slope=0.2) + F.elu(b, alpha=0.5)
def md8_class_of_local_object_method(a, b):
    class Scaler:
        def scale(self, x):
            return x * 3
    k = Scaler()
    return k.__class__.scale(k, a) + type(k).scale(k, b)
def md8_class_of_global_object_method(a, b):
    k = _Holder()
    return a * type(k).factor + _Counted.forward(_COUNTED, b) * 0
def md8_module_training_flag(a, b):
    m = nn.Identity()
    m.train(False)
    return a * (not m.training) + b


# ---- closures made by inlined calls that outlive the frame (test_python_autograd.py's tape, hooks kept on lists)
_HOOKS = []


def _scaler(t, k):
    def hook(x):
        return x * t + k
    return hook


def _counter_pair(start):
    n = start
    def bump():
        nonlocal n
        n = n + 1
        return n
    def read():
        return n
    return bump, read


def _remembering():
    kept = None
    def remember(x):
        nonlocal kept
        kept = x
    def recall():
        return kept
    return remember, recall


_REMEMBER, _RECALL = _remembering()


def ec8_outside_closure_writes_its_cell(a, b):
    _REMEMBER(a * 2)
    return _RECALL() + b
def ec8_outside_cell_written_twice_read_between(a, b):
    _REMEMBER(a)
    first = _RECALL() * 3
    _REMEMBER(b)
    return first + _RECALL()
def ec8_outside_cell_written_across_a_break(a, b):
    _REMEMBER(a + 1)
    dynamo.graph_break()
    return _RECALL() * b
def ec8_hook_from_last_call(a, b):
    if len(_HOOKS) > 1:
        _HOOKS.clear()
    out = _HOOKS[-1](b) if _HOOKS else b
    _HOOKS.append(_scaler(a, 2))
    return out
def ec8_shared_cell_pair_kept(a, b):
    if len(_HOOKS) > 1:
        _HOOKS.clear()
    bump, read = _counter_pair(3)
    bump()
    _HOOKS.append((bump, read))
    return a * read() + b
def ec8_closure_called_in_frame(a, b):
    h = _scaler(b, 1)
    return h(a) + h(b)
def ec8_closure_list_then_called(a, b):
    fs = [_scaler(a, k) for k in range(3)]
    return sum(f(b) for f in fs)
def ec8_lambda_over_loop_variable(a, b):
    fs = [lambda x, k=k: x * k for k in range(1, 4)]
    return fs[0](a) + fs[2](b)
def ec8_closure_in_dict(a, b):
    table = {"s": _scaler(a, 0), "t": _scaler(b, 1)}
    return table["s"](b) - table["t"](a)


# ---- dict views and int/str methods the batches before left out (cpython test_dict.py, test_int.py)
def dv8_keys_set_algebra(a, b):
    d1, d2 = {"x": 1, "y": 2}, {"y": 3, "z": 4}
    both, either = d1.keys() & d2.keys(), d1.keys() | d2.keys()
    return a * len(both) + b * len(either)
def dv8_items_membership(a, b):
    d = {"k": 1}
    return a * (("k", 1) in d.items()) + b * (("k", 2) in d.items())
def dv8_values_sum_and_len(a, b):
    d = {"p": a, "q": b, "r": a * b}
    return sum(d.values()) * len(d.values())
def dv8_dict_comprehension_from_zip(a, b):
    d = {k: v for k, v in zip("abc", (a, b, a + b))}
    return d["c"] - d["a"]
def dv8_setdefault_list_append(a, b):
    d = {}
    d.setdefault("xs", []).append(a)
    d.setdefault("xs", []).append(b)
    return d["xs"][0] * d["xs"][1]
def dv8_dict_equality(a, b):
    same = {"a": 1, "b": 2} == {"b": 2, "a": 1}
    return a * same + b * ({"a": 1} != {"a": 2})
def in8_int_to_bytes_roundtrip(a, b):
    n = int.from_bytes((258).to_bytes(2, "big"), "big")
    return a * n + b
def in8_bit_count_and_length(a, b):
    return a * (13).bit_count() + b * (13).bit_length()
def in8_hex_oct_bin_strings(a, b):
    return a * len(hex(255) + oct(8) + bin(5)) + b
def in8_int_of_bool_and_str_float(a, b):
    return a * (int(True) + int(" 7 ")) + b * float(" 2.5 ")
def in8_math_gcd_lcm_comb(a, b):
    import math
    return a * math.gcd(12, 18) + b * math.lcm(4, 6) + a * math.comb(5, 2)
def in8_max_of_ints_and_floats(a, b):
    return a * max(1, 2.5, 2) + b * min(-1, -0.5)
def st8_str_split_maxsplit(a, b):
    parts = "a,b,c,d".split(",", 2)
    return a * len(parts) + b * len(parts[-1])
def st8_rsplit_and_removeprefix(a, b):
    head = "x.y.z".rsplit(".", 1)[0]
    return a * len(head) + b * len("test_name".removeprefix("test_"))
def st8_format_percent_and_fstring_spec(a, b):
    s = "%05.1f|%-3s|" % (3.14159, "x") + f"{42:#x}"
    return a * len(s) + b
def st8_str_in_tuple_index(a, b):
    names = ("relu", "gelu", "tanh")
    return a * names.index("gelu") + b * ("silu" in names)
'''

RECOMPILE_SRC = r'''
def rc8_tuple_arg_length(x, t):
    return x * len(t) + sum(t)
def rc8_string_arg_upper(x, s):
    if s.isupper():
        return x * 2
    return x + 1
def rc8_float_arg_rounds(x, k):
    return x * round(k)
def rc8_none_default_then_tensor(x, y):
    if y is None:
        return x
    return x + y
def rc8_dict_key_set_changes(x, d):
    return x * sum(d.values()) + len(d)
def rc8_int_arg_loop_count(x, n):
    for _ in range(n):
        x = x * 2
    return x
'''
