"""Generator expressions inside a compiled frame: run to completion where they are made.

Frontend layer, a mixin of the inlining translator (as `opcodes_312.py` is one
of the translator): `symbolic_convert.py` makes GeneratorExpressionTranslator
of it, which `inline_call` runs for a `<genexpr>` code object. Its bytecode is
inlined like any callee's, except that each YIELD_VALUE stores the yielded
tracker instead of suspending, and the call returns an iterator over them; so
`sum(t.sum() for t in [x, y])`, `any(...)` and `list(...)` capture in one graph,
as in Dynamo. This is exact for a generator expression consumed at once by the
call it is passed to; a generator *function* stays a graph break (its caller
may interleave work with its items).
"""
from .variables.constant import ConstantVariable
from .variables.lists import ListIteratorVariable


def is_generator_expression(code):
    return code.co_name == "<genexpr>"


class GeneratorExpressionMixin:
    """Inlines a generator expression's bytecode, collecting what it yields (on an InliningInstructionTranslator)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.yielded = []

    def RETURN_GENERATOR(self, inst):
        self.push(ConstantVariable(None))  # the generator object the code returns first; popped at once

    def YIELD_VALUE(self, inst):
        self.yielded.append(self.pop())
        self.push(ConstantVariable(None))  # what the consumer sends back: next() sends None

    def run(self):
        super().run()
        return ListIteratorVariable(self.yielded)
