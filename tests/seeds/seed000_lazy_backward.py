import torch
from functorch.compile import aot_function, make_boxed_func


def marker(tag):
    def compiler(gm, inputs):
        print(f"[{tag} compiler ran]")
        return make_boxed_func(gm.forward)
    return compiler


def f(x):
    return x.sin().cos().sum()


compiled = aot_function(f, fw_compiler=marker("forward"), bw_compiler=marker("backward"))
x = torch.randn(3, requires_grad=True)
print("before the forward call")
loss = compiled(x)
print("forward call returned")
loss.backward()
print("backward returned")
with torch.no_grad():
    compiled(torch.randn(5))
print("no_grad call returned")
