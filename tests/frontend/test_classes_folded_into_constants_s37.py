"""A class folded into a constant (read from a list, from `Base.__subclasses__()`, from a constant's `__class__`) and
then called in a compiled frame, against Dynamo: same values, same frame and op counts.

Found in session 37: merging batch 16 (a class read off a constant is the class itself) with batch 17 (a folded user
class is called as its class tracker calls it) made a library class that wraps as a plain constant
(types.SimpleNamespace, fractions.Fraction) wrap itself again at every call, without end (a RecursionError).
"""
import collections
import fractions
import types

import pytest
import torch
from torch._dynamo.testing import CompileCounter

import frontend
import minitorch2
from frontend.testing import CompileCounter as OurCompileCounter


class Backend:
    pass


class NumpyBackend(Backend):
    name = "numpy"


class TorchBackend(Backend):
    name = "torch"

    def scale(self, x):
        return x * 2


CLASSES = {"SimpleNamespace": types.SimpleNamespace, "Fraction": fractions.Fraction,
           "OrderedDict": collections.OrderedDict, "float": float, "TorchBackend": TorchBackend}


def make_program(cls):
    def program(x):
        made = [cls][0]()
        return x + (1 if made is None else 2)
    return program


def registry_lookup(x):
    backend = next(c for c in Backend.__subclasses__() if c.name == "torch")()
    return backend.scale(x) + 1


def run(lib, compile_fn, counter, fn):
    compiled = compile_fn(fn, backend=counter)
    return compiled(lib.ones(2)).tolist(), compiled(lib.ones(2)).tolist(), counter.frame_count, counter.op_count


@pytest.mark.parametrize("name", list(CLASSES) + ["registry_lookup"])
def test_a_class_folded_into_a_constant_is_called_as_dynamo_calls_it(name):
    fn = registry_lookup if name == "registry_lookup" else make_program(CLASSES[name])
    torch._dynamo.reset()
    frontend.reset()
    ours = run(minitorch2, minitorch2.compile, OurCompileCounter(), fn)
    theirs = run(torch, torch.compile, CompileCounter(), fn)
    assert ours == theirs
