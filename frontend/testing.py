"""Test helpers (plays torch._dynamo.testing): CompileCounter counts frames compiled and ops in their graphs."""
from .backends import lookup_backend


class CompileCounter:
    def __init__(self):
        self.clear()

    def __call__(self, gm, example_inputs):
        self.frame_count += 1
        self.op_count += sum(1 for node in gm.graph.nodes if "call" in node.op)
        return gm.forward

    def clear(self):
        self.frame_count = 0
        self.op_count = 0


class CompileCounterWithBackend(CompileCounter):
    def __init__(self, backend):
        super().__init__()
        self.backend = backend

    def __call__(self, gm, example_inputs):
        super().__call__(gm, example_inputs)
        return lookup_backend(self.backend)(gm, example_inputs)
