import torch
from functorch.compile import aot_function, make_boxed_func, default_partition

def nop(gm, inputs):
    return make_boxed_func(gm.forward)

def peek(joint_gm, joint_inputs, **kwargs):
    print(joint_gm.code.strip())
    return default_partition(joint_gm, joint_inputs, **kwargs)

def f(x, w):
    return (x @ w).sin().sum()

x = torch.randn(2, 3)
w = torch.randn(3, 4, requires_grad=True)
aot_function(f, fw_compiler=nop, bw_compiler=nop, partition_fn=peek)(x, w).backward()
