import torch
from functorch.compile import aot_function, make_boxed_func


def compiler_fn(fx_module, _):
    print(fx_module.code)
    return make_boxed_func(fx_module.forward)


def fn(a, b, c, d):
    x = a + b + c + d
    return x.cos().cos()


inputs = [torch.randn(2, 4, requires_grad=True) for _ in range(4)]
aot_fn = aot_function(fn, fw_compiler=compiler_fn, bw_compiler=compiler_fn)
aot_fn(*inputs).sum().backward()
