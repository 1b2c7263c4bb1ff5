"""functorch.compile's conveniences around aot_function: aot_module, and the compilers nop, print_compile and
make_boxed_compiler (plays the rest of `functorch.compile`); aot_autograd (torch._dynamo.backends.common's) and
get_decompositions (torch._decomp's).

autograd layer, coverage surface: the pipeline (the aot_eager and inductor backends) uses aot_module_simplified,
boxed_nop and all_decompositions; these are what scripts that call AOT by hand import.
"""
import minitorch2
from minitorch2.export.decompositions import INDUCTOR_ONLY

from .aot import _functional, aot_function, aot_module_simplified, make_boxed_func
from .decompositions import all_decompositions


def aot_module(mod, fw_compiler, bw_compiler=None, partition_fn=None, decompositions=None, **kwargs):
    """aot_function over a module: its parameters and buffers become the first primals."""
    functional_call, params = _functional(mod, mod, remove_duplicate=True)
    compiled = aot_function(functional_call, fw_compiler, bw_compiler, partition_fn, decompositions, **kwargs)

    class AOTModule(minitorch2.nn.Module):
        def __init__(self):
            super().__init__()
            self.orig_module = mod

        def forward(self, *args):
            return compiled(*params, *args)

    return AOTModule()


compiled_function, compiled_module = aot_function, aot_module  # functorch.compile's other names


def nop(gm, example_inputs):
    """functorch.compile.nop: the graph module itself is the compiled function."""
    return gm


def print_compile(gm, example_inputs):
    """functorch.compile.print_compile: print the graph's code, then run it as traced."""
    print(gm.code)
    return gm


def make_boxed_compiler(compiler):
    """A compiler whose compiled function takes its arguments as one list (as aot calls boxed functions)."""
    def boxed_compiler(gm, example_inputs):
        return make_boxed_func(compiler(gm, example_inputs))
    return boxed_compiler


def aot_autograd(**kwargs):
    """A frontend backend from AOT options: `backend=aot_autograd(fw_compiler=...)`."""

    def compiler_fn(gm, example_inputs):  # the name BackendCompilerFailed gives, as in torch
        return aot_module_simplified(gm, example_inputs, **kwargs)

    return compiler_fn


def core_aten_decompositions():
    """torch._decomp's table: the decompositions of ops outside torch's core ATen set, less those only inductor
    applies (softmax, gelu, addmm, leaky_relu... are core: make_fx with this table keeps them whole, as torch's)."""
    return {op: decomposition for op, decomposition in all_decompositions().items()
            if "core" not in op.tags and op.__name__ not in INDUCTOR_ONLY}


def get_decompositions(aten_ops):
    """The decompositions for the given ops; a packet (`aten.gelu`) stands for all its overloads."""
    table = all_decompositions()
    wanted = {}
    for op in aten_ops:
        overloads = [getattr(op, name) for name in op.overloads()] if hasattr(op, "overloads") else [op]
        for overload in overloads:
            if overload in table:
                wanted[overload] = table[overload]
    return wanted
