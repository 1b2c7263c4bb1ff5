"""autograd: the ahead-of-time joint forward+backward tracer (plays `torch._functorch.aot_autograd`
and `functorch.compile`; not to be confused with `minitorch2.autograd`, the eager engine it builds on).

make_fx records the aten ops that run; aot_function traces joint(primals, tangents), hands it to a partitioner and
compiles the forward and backward. stack_traces.py carries each frontend node's source location onto the aten nodes
traced from it, forward and backward.
"""
from minitorch2._unsupported import Unsupported
from partition import default_partition, min_cut_rematerialization_partition

from .aot import aot_eager, aot_function, aot_module_simplified, boxed_nop, make_boxed_func
from .compile_utils import (aot_autograd, aot_module, compiled_function, compiled_module, core_aten_decompositions,
                            get_decompositions, make_boxed_compiler, nop, print_compile)
from .func import functional_call, functionalize, grad, grad_and_value, vmap
from .proxy_tensor import make_fx


def __getattr__(name):
    raise Unsupported(f"autograd (torch._functorch / functorch.compile) has no '{name}' yet")


__all__ = ["aot_function", "aot_module", "aot_eager", "boxed_nop", "aot_module_simplified", "aot_autograd", "make_boxed_func",
           "make_boxed_compiler", "nop", "print_compile", "compiled_function", "compiled_module", "make_fx",
           "functionalize", "core_aten_decompositions", "get_decompositions", "functional_call", "grad",
           "grad_and_value", "vmap",
           "default_partition", "min_cut_rematerialization_partition"]  # the partitioners, as functorch.compile has them
