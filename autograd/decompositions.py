"""Decomposition tables for tracing (as torch._decomp's core_aten_decompositions).

autograd layer. The decompositions themselves are the fifth column of the op table
(minitorch2/_aten/decompositions.py); this module hands them out as the `{OpOverload: function}` dicts that make_fx
and aot_function take as `decomposition_table`/`decompositions`. Tracing with a table records the decomposed ops
instead of the op itself. (get_decompositions, a table of chosen ops, is library surface: compile_utils.py.)
"""
from minitorch2 import ops


def core_aten_decompositions():
    """Every decomposition minitorch2 has: ops outside the core set, rewritten into it."""
    return {op: op.decomposition for op in ops.aten.overloads() if op.decomposition is not None}

