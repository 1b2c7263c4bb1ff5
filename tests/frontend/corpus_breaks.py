"""Corpus programs that break the graph, mutate Python state, or recompile (see corpus.py).

Kept apart from corpus.CORPUS_SRC only for length; corpus.build() execs both texts
as one module, so these programs see the same globals (`torch`, `nn`, `F`, `dynamo`,
`COUNTER`).
"""

BREAKS_SRC = r'''
# ---- graph breaks -----------------------------------------------------------------------
def b_data_if(x):
    y = x * 2
    if y.sum() > 0:
        return y + 1
    return y - 1
def b_print_middle(x):
    y = x + 1
    print("middle", 3)
    return y * 2
def b_explicit_break(x):
    y = x.sin()
    dynamo.graph_break()
    return y.cos()
def b_break_in_loop(x):
    for i in range(3):
        x = x + i
        dynamo.graph_break()
    return x * 2
def b_print_in_loop(x):
    for i in range(2):
        x = x * 2
        print("step", i)
    return x
def b_break_in_try(x):
    try:
        y = x + 1
        print("in try")
        y = y * 3
    except ValueError:
        y = x
    return y
def b_item(x):
    s = x.sum().item()
    return x * s
def b_two_breaks(x):
    x = x + 1
    print("one")
    x = x * 2
    print("two")
    return x - 3
def _noisy_helper(t):
    t = t + 1
    print("helper")
    return t * 2
def b_break_in_inlined(x):
    return _noisy_helper(x.cos()).sum()
def b_break_in_no_grad(x):
    with torch.no_grad():
        y = x * 2
        dynamo.graph_break()
        y = y + 1
    return y + x
def b_break_after_set_grad_call(x):
    torch.set_grad_enabled(False)
    y = x.exp()
    dynamo.graph_break()
    z = x * 2
    torch.set_grad_enabled(True)
    return y, z, z.requires_grad, (x + 1).requires_grad
def b_break_in_no_grad_helper(x):
    y = _no_grad_helper_with_break(x)
    return y, x + 1, y.requires_grad
@torch.no_grad()
def _no_grad_helper_with_break(x):
    y = x * 3
    dynamo.graph_break()
    return y + 1
def b_data_while(x):
    while x.sum() < 10:
        x = x * 2
    return x
def b_tolist(x):
    out = 0.0
    for v in x.tolist():
        out = out + v
    return x * out
def b_break_live_values(x, y):
    a = x * y
    b = [x, y]
    n = 3
    dynamo.graph_break()
    return a + b[0] * n + b[1]
def b_data_if_nested_fn(x):
    def pick(t):
        if t.mean() > 0:
            return t
        return -t
    return pick(x * 3) + 1
@dynamo.disable
def _opaque(t):
    return t * 5
def b_disabled_call(x):
    return _opaque(x + 1) - 1
def _loop_with_break(t):
    for i in range(2):
        t = t + i
        dynamo.graph_break()
    return t
def b_break_in_helper_loop(x):
    return _loop_with_break(x * 2).relu() + x

# ---- Python side effects (happen once and in order) --------------------------------------
def s_list_append(x, log):
    log.append(1)
    y = x + 1
    log.append("two")
    return y
def s_append_break(x, log):
    log.append("before")
    y = x * 2
    print("break")
    log.append("after")
    return y
def s_append_tensor(x, log):
    log.append(x * 2)
    return x + 1
def s_dict_store(x, state):
    state["seen"] = state.get("seen", 0) + 1
    return x * state["seen"]
def s_global_store(x):
    global COUNTER
    COUNTER += 1
    return x + 1
class s_attr_store(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.calls = 0
    def forward(self, x):
        self.calls += 1
        return self.fc(x)
class s_attr_store_break(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.trace = []
    def forward(self, x):
        self.trace.append("in")
        y = self.fc(x)
        print("forward")
        self.trace.append("out")
        return y

# ---- recompiles -------------------------------------------------------------------------
def r_shape(x):
    return x * 2 + x.shape[0]
def r_dtype(x):
    return (x + 1).sum()
def r_const_int(x, n):
    for _ in range(n):
        x = x + 1
    return x
def r_const_bool(x, flag):
    return x.relu() if flag else x.tanh()
def r_const_str(x, mode):
    if mode == "relu":
        return x.relu()
    return x.sigmoid()
def r_grad_mode(x):
    return x * 2
def r_requires_grad(x):
    return (x * 3).sum()
def r_none_vs_tensor(x, bias=None):
    return x if bias is None else x + bias
def r_list_len(xs):
    out = xs[0]
    for t in xs[1:]:
        out = out + t
    return out
def r_ndim(x):
    return x.sum(0)
def r_float_arg(x, alpha):
    return x * alpha
def r_shape_auto_dynamic(x):
    return x.sin() + 1
# ---- frames run eagerly still let the functions they call compile (frontend/eager_frame.py) --------
def _relu_helper(a):
    return torch.relu(a) * 2
def b_loop_break_calls_helper(x):
    v = torch.relu(x)
    for i in range(2):
        dynamo.graph_break()
        v = v * 0.5 + _relu_helper(x)
    return v
def b_try_break_calls_helper(x):
    try:
        y = x + 1
        print("in try")
        y = _relu_helper(y)
    except ValueError:
        y = x
    return y
@dynamo.disable(recursive=False)
def _frame_only_disabled(t):
    return _relu_helper(t) + 1
def b_disabled_frame_only_call(x):
    return _frame_only_disabled(x.sin()).cos()
# ---- a namedtuple subclass's _replace (captured in one graph) --------------------------------------
class _PointSum(collections.namedtuple("_Point", "a b")):
    def total(self):
        return self.a + self.b
def c_namedtuple_replace(x):
    p = _PointSum(x, x * 2)
    q = p._replace(b=x + 1)
    return p.total() * q.total() + q.b
# ---- recompiles found by the mark_dynamic fuzzer --------------------------------------------------
def _print_rows(a, b):
    print("rows", a.shape[0])
    return torch.relu(a)
def r_break_guards_passed_tensor(x, y):
    return x * 0.5 + _print_rows(x, y)
def r_returned_size(x):
    return x + 1, x.shape[0] * 2 + 1
def r_size_passed_at_break(x):
    y = x + x
    n = x.shape[0] + 1
    print("rows", n)
    return y * n
'''
