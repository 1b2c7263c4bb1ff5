"""The oracle corpus: small programs written against `torch`, run on PyTorch and on minitorch2.

`build(torch_module)` execs CASES_SRC with `torch` bound to either library, so
each program is the same text with its own globals. Each case: (name, callable
or module, input shapes) where inputs are float32 tensors made from one numpy seed.
"""
CASES_SRC = r'''
W = torch.ones(4, 4) * 0.5
SCALE = 3

def f_straight(x):
    return torch.relu(x).sum()
def f_arith(x):
    return (x * 2 + 1) / 3 - x ** 2
def f_methods(x):
    return x.sum(dim=0).exp().mean()
def f_mixed_py(x):
    a = 2.5
    b = a * 2
    return x * b + a
def f_global(x):
    return x @ W + SCALE
def f_tuple(x, y):
    return x + y, x - y
def f_list(x):
    return [x.sin(), x.cos()]
def f_unpack(x):
    a, b = x.chunk(2, dim=0)
    return a * b
def f_shape_branch(x):
    if x.shape[0] > 2:
        return x.sum()
    return x.mean()
def f_const_branch(x, flag=True):
    if flag:
        return x + 1
    return x - 1
def f_none_arg(x, bias=None):
    if bias is None:
        return x * 2
    return x * 2 + bias
def f_loop_range(x):
    for i in range(3):
        x = x + i
    return x
def f_loop_list(x):
    acc = x
    for k in [1.0, 2.0, 3.0]:
        acc = acc * k
    return acc
def helper(t, k=2):
    return t * k
def f_nested_call(x):
    return helper(x) + helper(x, k=3)
def f_closure(x):
    def inner(t):
        return t + x
    return inner(x.sin())
def outer_factory(c):
    def g(x):
        return x * c
    return g
f_closure_outer = outer_factory(4.0)
def f_isinstance(x):
    if isinstance(x, torch.Tensor):
        return x + 1
    return x
def f_len(x):
    xs = [x, x * 2, x * 3]
    return x * len(xs)
def f_size_arith(x):
    n = x.size(0) * x.size(1)
    return x.reshape(n) / n
def f_view_ops(x):
    return x.t().contiguous().view(-1).unsqueeze(0)
def f_cat_stack(x, y):
    return torch.cat([x, y], dim=1), torch.stack([x, y]).sum(0)
def f_functional(x):
    return F.softmax(x, dim=-1) + F.gelu(x)
def f_compare(x):
    return torch.where(x > 0, x, x * 0.1)
def f_getitem(x):
    return x[0] + x[:, 1:].sum()
def f_neg_abs(x):
    return -x + abs(x)
def f_enumerate(x):
    out = x
    for i, s in enumerate([1.0, 0.5]):
        out = out + s * i
    return out
def f_zip(x, y):
    total = x * 0
    for a, b in zip([x, y], [2.0, 3.0]):
        total = total + a * b
    return total
def f_inplace_local(x):
    y = x.clone()
    y.add_(1)
    return y
def f_return_const(x):
    return x.sum(), x.shape[0], "tag"
def f_max_dim(x):
    return x.max(dim=1)[0] + x.min()

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
    def forward(self, x):
        return torch.relu(self.fc(x)).sum()
class Deep(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        self.scale = 0.5
    def forward(self, x):
        for layer in self.layers:
            x = F.relu(layer(x)) * self.scale
        return x
class Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    def forward(self, x):
        return self.helper(self.body(x))
    def helper(self, y):
        return y.tanh()
class Indexed(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 2)])
    def forward(self, x):
        return self.layers[1](self.layers[0](x))

def f_print(x):
    print("inside")
    return x + 1
def f_data_branch(x):
    if x.sum() > 0:
        return x + 1
    return x - 1
def f_item(x):
    return x * x.sum().item()
'''

# name -> input shapes
CASES = {
    "f_straight": [(4, 4)], "f_arith": [(4, 4)], "f_methods": [(4, 4)], "f_mixed_py": [(4, 4)],
    "f_global": [(3, 4)], "f_tuple": [(4, 4), (4, 4)], "f_list": [(4,)], "f_unpack": [(4, 4)],
    "f_shape_branch": [(4, 4)], "f_const_branch": [(4, 4)], "f_none_arg": [(4, 4)], "f_loop_range": [(4, 4)],
    "f_loop_list": [(4, 4)], "f_nested_call": [(4, 4)], "f_closure": [(4, 4)], "f_closure_outer": [(4, 4)],
    "f_isinstance": [(4, 4)], "f_len": [(4, 4)], "f_size_arith": [(4, 4)], "f_view_ops": [(4, 4)],
    "f_cat_stack": [(4, 4), (4, 4)], "f_functional": [(4, 4)], "f_compare": [(4, 4)], "f_getitem": [(4, 4)],
    "f_neg_abs": [(4, 4)], "f_enumerate": [(4, 4)], "f_zip": [(4, 4), (4, 4)], "f_inplace_local": [(4, 4)],
    "f_return_const": [(4, 4)], "f_max_dim": [(4, 4)],
    "MLP": [(2, 4)], "Deep": [(2, 4)], "Seq": [(2, 4)], "Indexed": [(2, 4)],
}
BREAKS = {"f_print": [(4, 4)], "f_data_branch": [(4, 4)], "f_item": [(4, 4)]}


def build(torch_module):
    namespace = {"torch": torch_module, "nn": torch_module.nn, "F": torch_module.nn.functional}
    exec(compile(CASES_SRC, "<frontend oracle cases>", "exec"), namespace)
    return namespace
