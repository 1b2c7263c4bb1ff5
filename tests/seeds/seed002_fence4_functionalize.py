import torch
from torch.fx.experimental.proxy_tensor import make_fx

def f(x):
    y = x.clone()
    y.add_(1)
    return y

x = torch.randn(4)
plain = make_fx(f)(x)
pure = make_fx(torch.func.functionalize(f))(x)

def names(gm):
    return [n.target._schema.name.split("::")[1] for n in gm.graph.nodes if n.op == "call_function"]

assert "add_" in names(plain)
assert not any(name.endswith("_") for name in names(pure)), names(pure)
torch.testing.assert_close(pure(x), x + 1)
print(f"make_fx: {names(plain)} -> functionalized: {names(pure)}")
