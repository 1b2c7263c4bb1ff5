"""`random.Random(seed)` made inside a compiled frame: a generator whose draws are constants of the trace.

Frontend layer, coverage surface beside stdlib.py (whose LIBRARY_CALLABLES route the call `random.Random(...)` here).
Dynamo 2.13 traces a seeded generator the program makes; here the tracker holds a real random.Random, seeded as the
program seeds it, and each draw (`rng.randint(1, 5)`, `rng.random()`, `uniform`, `randrange`) runs on it now and
enters the graph as a constant (Dynamo's enter as inputs it replays: the same numbers). That is what the program
computes on every call, since it makes the generator anew with the same seed (a seed that is an argument is a guarded
constant). At a graph break it is rebuilt in its state, as Dynamo's (a break at rng.choice(...) resumes after it);
a resume frame that still reads it gets it as an input, which has no rule here: each draw from it is a break.
"""
import random

from ..exc import Unsupported
from .base import VariableTracker
from .constant import ConstantVariable

# the methods Dynamo 2.13 runs on such a generator (any other, rng.choice(...) or rng.seed(...), is a break there too)
DRAWS = {"random", "randint", "randrange", "uniform"}


class RandomGeneratorVariable(VariableTracker):
    """A random.Random made in the frame; its real generator advances as the traced program draws from it."""
    mutable_identity = True  # (rebuilt once at a break, however many places hold it)

    def __init__(self, rng):
        super().__init__()
        self.rng = rng

    def python_type(self):
        return random.Random

    def reconstruct(self, cg):  # at a break: a generator in this one's state, as Dynamo's
        cg.call_const(_in_state, [ConstantVariable(self.rng.getstate())])

    def call_method(self, tx, name, args, kwargs):
        args, kwargs = [a.realize() for a in args], {k: v.realize() for k, v in kwargs.items()}
        if name not in DRAWS or not all(a.is_python_constant() for a in [*args, *kwargs.values()]):
            raise Unsupported(f"random.Random.{name} with these arguments", "unsupported_call")
        return ConstantVariable(getattr(self.rng, name)(*[a.as_python_constant() for a in args],
                                                        **{k: v.as_python_constant() for k, v in kwargs.items()}))


def make_generator(seed):
    """random.Random(seed) with a constant seed (none, or one that is not a constant: a break, as its draws would
    differ from call to call)."""
    seed = seed.realize() if seed is not None else None
    if seed is None or not seed.is_python_constant() or seed.as_python_constant() is None:
        raise Unsupported("random.Random() without a constant seed", "unsupported_call")
    return RandomGeneratorVariable(random.Random(seed.as_python_constant()))


def _in_state(state):
    rng = random.Random()
    rng.setstate(state)
    return rng
