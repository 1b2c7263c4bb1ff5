"""Hypothesis differential fuzzing of autograd.aot_function against functorch.compile.aot_function.

The random float op programs of tests/minitorch2/test_differential.py (up to 15
ops over 1 to 3 broadcastable inputs, float32 or float64, sometimes with an
integer operand that gets no gradient) run through each
library's aot_function with the default partition and compilers that keep the
GraphModules, then backward with a fixed random gradient per differentiable
output. Compared, as tests/autograd/test_aot_corpus.py compares its fixed corpus:

  graphs  whether a joint graph was traced and partitioned (torch compiles an
          inference graph alone when no output requires grad); for the forward
          and the backward (or the inference graph): the sequence of
          `str(node.target)` over call_function nodes, the number of placeholders
          and the number of outputs, op for op;
  values  every output and every input's gradient, at torch's default tolerance
          for the dtype.

The programs come from aot_fuzz_programs.py, which cuts them to MAX_OPS ops,
rejects (`assume`) the examples that reach a known difference outside the aot
layer (listed there with their reasons, so the property tests the layer), and
writes each as a function returning its values that are not inputs (views included).
"""
import numpy as np
import pytest
import torch
from functorch.compile import aot_function as torch_aot_function
from functorch.compile import default_partition as torch_default_partition
from functorch.compile import make_boxed_func as torch_make_boxed_func
from hypothesis import given, note

import autograd
import minitorch2 as mt
import partition
from tests.minitorch2.test_differential import OPS_BY_NAME, default_dtype, describe

from .aot_fuzz_programs import float_programs, make_function, returned_values, skip_known_aot_differences
from .test_aot_corpus import _diff

pytestmark = pytest.mark.aot


class AotRun:
    """One program compiled by one library's aot_function, run forward and backward."""

    def __init__(self, lib, aot_function, make_boxed_func, arrays, program, returned):
        self.inputs = []
        for a in arrays:
            t = lib.from_numpy(np.array(a, copy=True))
            self.inputs.append(t.requires_grad_() if a.dtype.kind == "f" else t)
        self.graphs = {}
        self.partitioned = False
        default_partition = torch_default_partition if lib is torch else partition.default_partition

        def partition_fn(*args, **kwargs):
            self.partitioned = True
            return default_partition(*args, **kwargs)

        compiled = aot_function(make_function(lib, program, returned), fw_compiler=self._keep("forward", make_boxed_func),
                                bw_compiler=self._keep("backward", make_boxed_func), partition_fn=partition_fn)
        self.outputs = list(compiled(*self.inputs))
        differentiable = [o for o in self.outputs if o.requires_grad]
        rng = np.random.default_rng(len(program))
        tangents = [lib.from_numpy(rng.uniform(-1, 1, tuple(o.shape)).astype(str(o.dtype).split(".")[-1]))
                    for o in differentiable]
        if differentiable:
            lib.autograd.backward(differentiable, tangents)
        self.grads = [x.grad if x.requires_grad else None for x in self.inputs]

    def _keep(self, which, make_boxed_func):
        def compiler(gm, example_inputs):
            self.graphs[which] = gm
            return make_boxed_func(gm.forward)

        return compiler


def _close(ours, theirs, what):
    if theirs is None:
        assert ours is None, f"{what}: torch has none"
        return
    assert ours is not None, f"{what}: torch has one"
    assert repr(ours.dtype) == str(theirs.dtype), f"{what}: dtype {ours.dtype} != {theirs.dtype}"
    torch.testing.assert_close(torch.from_numpy(np.array(ours.detach().numpy(force=True))), theirs.detach(),
                               equal_nan=True, msg=lambda m: f"{what}: {m}")


def check_program(arrays, program):
    returned = returned_values(arrays, program)
    try:
        theirs = AotRun(torch, torch_aot_function, torch_make_boxed_func, arrays, program, returned)
    except Exception as error:  # torch rejects the program (atan2(bool, x)'s backward negates the bool):
        with pytest.raises(type(error)):  # ours must reject it with the same error class
            AotRun(mt, autograd.aot_function, autograd.make_boxed_func, arrays, program, returned)
        return
    ours = AotRun(mt, autograd.aot_function, autograd.make_boxed_func, arrays, program, returned)
    assert ours.partitioned == theirs.partitioned, f"joint graph partitioned: ours {ours.partitioned}, torch's {theirs.partitioned}"
    assert sorted(ours.graphs) == sorted(theirs.graphs), "graphs compiled"
    differences = [d for d in (_diff(theirs, ours, which) for which in sorted(theirs.graphs)) if d]
    assert not differences, "\n\n".join(differences)
    assert len(ours.outputs) == len(theirs.outputs)
    for i, (o, t) in enumerate(zip(ours.outputs, theirs.outputs)):
        _close(o, t, f"output {i}")
    for i, (o, t) in enumerate(zip(ours.grads, theirs.grads)):
        _close(o, t, f"grad of input {i}")


# ---------------------------------------------------------------- the property
@given(float_programs())
def test_aot_graphs_values_and_grads_match_torch(case):
    arrays, program = case
    note(f"inputs: {[(a.shape, str(a.dtype)) for a in arrays]}\nprogram:\n{describe(program)}")
    skip_known_aot_differences(arrays, program)
    with default_dtype(next(str(a.dtype) for a in arrays if a.dtype.kind == "f")):
        check_program(arrays, program)


def test_checker_catches_a_different_backward():
    """Not vacuous: a program whose minitorch2 side computes cos where torch computes sin fails."""
    arrays = [np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)]
    check_program(arrays, [("sin", (0,), {})])
    swapped = OPS_BY_NAME["sin"].fn
    OPS_BY_NAME["sin"].fn = lambda L, a: a.cos() if L is mt else a.sin()
    try:
        with pytest.raises(AssertionError):
            check_program(arrays, [("sin", (0,), {})])
    finally:
        OPS_BY_NAME["sin"].fn = swapped
