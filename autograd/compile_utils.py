"""functorch.compile's conveniences around aot_function: aot_module, and the compilers nop, print_compile and
make_boxed_compiler (plays the rest of `functorch.compile`).

autograd layer, coverage surface: the pipeline (the aot_eager and inductor backends) uses aot_module_simplified and
boxed_nop in aot.py; these are what scripts that call AOT by hand import.
"""
import minitorch2

from .aot import _functional, aot_function, make_boxed_func


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
