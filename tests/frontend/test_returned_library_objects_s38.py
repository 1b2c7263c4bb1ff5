"""A compiled frame that returns torch's own modules and functions (a backend picked at run time, a helper handing
back `F`), against Dynamo: same frame and op counts, the objects themselves returned.

Found in session 38 (issue 20's batch 17 note, vector-quantize-pytorch's LFQ): `return torch.nn.functional, x + 1`
broke the frame ("returning TorchVariable(...) from a compiled frame") where Dynamo compiles it.
"""
import math

import pytest
import torch
from torch._dynamo.testing import CompileCounter

import frontend
import minitorch2
from frontend.testing import CompileCounter as OurCompileCounter


def programs(lib):
    def functional_namespace(x):
        return lib.nn.functional, x + 1

    def chosen_library(x):
        chosen = lib if x.dim() > 0 else math
        return x * 2, chosen

    def function_and_module_in_a_dict(x):
        return {"act": lib.relu, "fn": lib.nn.functional.gelu, "lib": lib, "math": math, "v": x.sum()}

    def op_overload(x):
        return lib.ops.aten.add.Tensor, x - 1

    return {f.__name__: f for f in (functional_namespace, chosen_library, function_and_module_in_a_dict, op_overload)}


def _flatten(result):
    return list(result.values()) if isinstance(result, dict) else list(result)


@pytest.mark.parametrize("name", sorted(programs(torch)))
def test_returned_library_objects_as_dynamos(name):
    counts, returned = [], []
    for lib, reset, compile_fn, counter in ((torch, torch._dynamo.reset, torch.compile, CompileCounter),
                                             (minitorch2, frontend.reset, minitorch2.compile, OurCompileCounter)):
        reset()
        cnt = counter()
        result = _flatten(compile_fn(programs(lib)[name], backend=cnt)(lib.ones(2)))
        counts.append((cnt.frame_count, cnt.op_count))
        returned.append([v.tolist() if isinstance(v, lib.Tensor) else
                         getattr(v, "__name__", str(v)).replace(lib.__name__, "torch") for v in result])
        library_objects = [v for v in result if not isinstance(v, lib.Tensor)]
        originals = [v for v in _flatten(programs(lib)[name](lib.ones(2))) if not isinstance(v, lib.Tensor)]
        assert all(a is b for a, b in zip(library_objects, originals))  # the objects themselves
    assert counts[1] == counts[0]
    assert returned[1] == returned[0]
