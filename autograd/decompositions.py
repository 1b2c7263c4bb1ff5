"""Decomposition tables for tracing (as torch._decomp's core_aten_decompositions / get_decompositions).

autograd layer. The decompositions themselves are the fifth column of the op table
(minitorch2/_aten/decompositions.py); this module hands them out as the `{OpOverload: function}` dicts that make_fx
and aot_function take as `decomposition_table`/`decompositions`. Tracing with a table records the decomposed ops
instead of the op itself.
"""
from minitorch2 import ops


def core_aten_decompositions():
    """Every decomposition minitorch2 has: ops outside the core set, rewritten into it."""
    return {op: op.decomposition for op in ops.aten.overloads() if op.decomposition is not None}


def get_decompositions(aten_ops):
    """The decompositions for the given ops; a packet (`aten.gelu`) stands for all its overloads."""
    table = core_aten_decompositions()
    wanted = {}
    for op in aten_ops:
        overloads = [getattr(op, name) for name in op.overloads()] if hasattr(op, "overloads") else [op]
        for overload in overloads:
            if overload in table:
                wanted[overload] = table[overload]
    return wanted
