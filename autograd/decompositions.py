"""The decomposition table for tracing: every decomposition the op table has (inductor's starts from it).

autograd layer. The decompositions themselves are the fifth column of the op table
(minitorch2/_aten/decompositions.py); this module hands them out as the `{OpOverload: function}` dicts that make_fx
and aot_function take as `decomposition_table`/`decompositions`. Tracing with a table records the decomposed ops
instead of the op itself. (torch._decomp's core_aten_decompositions, the ops outside the core set less inductor's own,
and get_decompositions, a table of chosen ops, are library surface: compile_utils.py.)
"""
from minitorch2 import ops


def all_decompositions():
    """Every decomposition minitorch2 has: ops rewritten into others, nearer the core set."""
    return {op: op.decomposition for op in ops.aten.overloads() if op.decomposition is not None}

