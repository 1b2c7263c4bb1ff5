"""Generator expressions inside a compiled frame.

Frontend layer, a mixin of the inlining translator. A `<genexpr>` is inlined like any callee, except that each
YIELD_VALUE stores the yielded tracker instead of suspending, and the call returns an iterator over them: so
`sum(t.sum() for t in [x, y])` captures in one graph, as in Dynamo. A generator function (a @contextmanager's too)
runs from yield to yield as its consumer asks (stdlib.py's SuspendingGeneratorMixin); a coroutine is a graph break.
"""
from .variables.constant import ConstantVariable
from .variables.lists import ListIteratorVariable


class GeneratorExpressionMixin:
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
