"""Generators inside a compiled frame: generator expressions, and the generator of a @contextmanager.

Frontend layer, mixins of the inlining translator. A `<genexpr>` is inlined like any callee, except that each
YIELD_VALUE stores the yielded tracker instead of suspending, and the call returns an iterator over them: so
`sum(t.sum() for t in [x, y])` captures in one graph, as in Dynamo. A @contextmanager's generator is inlined in two
runs, as Dynamo inlines it: up to its yield when the `with` block is entered, on to its end when it is left. Any
other generator function stays a graph break.
"""
from .variables.constant import ConstantVariable
from .variables.lists import ListIteratorVariable


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


class SuspendingGeneratorMixin:
    """Inlines a generator function's bytecode; each run() goes on to the next yield, returning what it yields."""

    suspended = False  # the last run() stopped at a yield, not at the end

    RETURN_GENERATOR = GeneratorExpressionMixin.RETURN_GENERATOR

    def YIELD_VALUE(self, inst):
        self.return_value, self.suspended = self.pop(), True  # ends this run(); the next one goes on from here
        self.push(ConstantVariable(None))  # what the consumer sends back: next() sends None

    def run(self):
        self.return_value, self.suspended = None, False
        return super().run()
