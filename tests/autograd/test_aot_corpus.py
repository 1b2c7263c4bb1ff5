"""Our aot_function traces the graphs torch's aot_function traces, and they compute the same values.

Each program in programs.py is built once per library (same seed, so the same
inputs and parameters), compiled by `functorch.compile.aot_function` and by
`autograd.aot_function` with the default partition and compilers that keep
the GraphModules, run forward, then backward with a fixed random gradient.
Compared:

- graphs: for the forward and the backward, the sequence of
  `str(node.target)` over call_function nodes, the number of placeholders and
  the number of outputs; op for op.
- values: the outputs and every input's gradient, at float32 tolerance.

Programs whose graphs differ are listed in GRAPH_MISMATCHES with the reason
(strict xfail: fixing one fails the test until it is removed from the list);
their values must match all the same. NOT_SUPPORTED lists the programs that
cannot run to the end yet, with why. Programs drawing random numbers (RANDOM
in programs.py) have their values checked against the mask they drew, since
torch's aot uses its own RNG state.
"""
import difflib

import numpy as np
import pytest
import torch
from functorch.compile import aot_function as torch_aot_function
from functorch.compile import make_boxed_func as torch_make_boxed_func

import autograd
import minitorch2

from .programs import PROGRAMS, RANDOM

pytestmark = pytest.mark.aot

# program -> why its graphs differ from torch's
GRAPH_MISMATCHES = {}

# programs whose values cannot match yet either
NOT_SUPPORTED = {}


# ---------------------------------------------------------------- running one library
class Run:
    """One program compiled and run by one library's aot_function."""

    def __init__(self, lib, aot_function, make_boxed_func, name):
        lib.manual_seed(0)
        fn, args = PROGRAMS[name](lib)
        self.args = args
        self.graphs = {}
        compiled = aot_function(fn, fw_compiler=self._keep("forward", make_boxed_func),
                                bw_compiler=self._keep("backward", make_boxed_func))
        outs = compiled(*args)
        self.outputs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
        differentiable = [o for o in self.outputs if o.requires_grad]
        rng = np.random.default_rng(1)
        self.tangents = [rng.standard_normal(tuple(o.shape)).astype(np.float32) for o in differentiable]
        if differentiable:
            lib.autograd.backward(differentiable, [lib.tensor(t) for t in self.tangents])
        self.grads = [a.grad if a.requires_grad else None for a in args]

    def _keep(self, which, make_boxed_func):
        def compiler(gm, example_inputs):
            self.graphs[which] = gm
            return make_boxed_func(gm.forward)

        return compiler


def graph_summary(gm):
    nodes = list(gm.graph.nodes)
    output = next(n for n in nodes if n.op == "output")
    outs = output.args[0]
    return {
        "placeholders": sum(n.op == "placeholder" for n in nodes),
        "ops": [str(n.target) for n in nodes if n.op == "call_function"],
        "outputs": len(outs) if isinstance(outs, (tuple, list)) else 1,
    }


_CACHE = {}


def run_both(name):
    if name not in _CACHE:
        theirs = Run(torch, torch_aot_function, torch_make_boxed_func, name)
        ours = Run(minitorch2, autograd.aot_function, autograd.make_boxed_func, name)
        _CACHE[name] = theirs, ours
    return _CACHE[name]


def _numpy(t):
    return t.detach().numpy() if t is not None else None


def assert_close(ours, theirs, what, rtol=1.3e-6, atol=1e-5):
    a, b = _numpy(ours), _numpy(theirs)
    assert (a is None) == (b is None), f"{what}: {a is None=} {b is None=}"
    if a is None:
        return
    assert a.shape == b.shape and a.dtype == b.dtype, f"{what}: {a.shape} {a.dtype} vs {b.shape} {b.dtype}"
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=what)


def _marks(name, table):
    reason = NOT_SUPPORTED.get(name) or table.get(name)
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


def _diff(theirs, ours, which):
    a, b = graph_summary(theirs.graphs[which]), graph_summary(ours.graphs[which])
    if a == b:
        return None
    lines = difflib.unified_diff(a["ops"], b["ops"], "torch", "ours", lineterm="", n=2)
    counts = {key: (a[key], b[key]) for key in ("placeholders", "outputs") if a[key] != b[key]}
    return (f"{which} graph differs {counts or ''}\n" + "\n".join(lines) +
            f"\n--- torch\n{theirs.graphs[which].code}\n--- ours\n{ours.graphs[which].code}")


def _params(table):
    return [pytest.param(name, marks=_marks(name, table)) for name in sorted(PROGRAMS)]


# ---------------------------------------------------------------- the tests
@pytest.mark.parametrize("name", _params(GRAPH_MISMATCHES))
def test_graphs_match_torch(name):
    theirs, ours = run_both(name)
    differences = [d for d in (_diff(theirs, ours, "forward"), _diff(theirs, ours, "backward")) if d]
    assert not differences, "\n\n".join(differences)


@pytest.mark.parametrize("name", _params({}))
def test_values_and_grads_match_torch(name):
    theirs, ours = run_both(name)
    for i, (a, b) in enumerate(zip(ours.args, theirs.args)):
        assert_close(a, b, f"input {i}")
    assert len(ours.outputs) == len(theirs.outputs)
    if name in RANDOM:
        _check_dropout_consistency(ours)
        return
    for i, (a, b) in enumerate(zip(ours.outputs, theirs.outputs)):
        assert_close(a, b, f"output {i}")
    for i, (a, b) in enumerate(zip(ours.grads, theirs.grads)):
        assert_close(a, b, f"grad of input {i}")


def _check_dropout_consistency(run):
    """Random programs: out = 3 * x * mask / (1 - p), grad = 3 * g * mask / (1 - p), for the mask drawn."""
    (x,), (out,), (grad,), (g,) = run.args, run.outputs, run.grads, run.tangents
    kept = _numpy(out) != 0
    assert 0 < kept.sum() < kept.size
    np.testing.assert_allclose(_numpy(out), np.where(kept, 6 * _numpy(x), 0), rtol=1.3e-6, atol=1e-5)
    np.testing.assert_allclose(_numpy(grad), np.where(kept, 6 * g, 0), rtol=1.3e-6, atol=1e-5)


def test_corpus_size_and_lists():
    assert len(PROGRAMS) >= 40
    assert set(GRAPH_MISMATCHES) | set(NOT_SUPPORTED) <= set(PROGRAMS)


def test_at_least_90_percent_of_graphs_match():
    mismatched = set(GRAPH_MISMATCHES) | set(NOT_SUPPORTED)
    assert len(PROGRAMS) - len(mismatched) >= 0.9 * len(PROGRAMS)
