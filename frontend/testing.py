"""Test helpers (plays torch._dynamo.testing): CompileCounter counts frames compiled and ops in their graphs;
EagerAndRecordGraphs keeps the graphs; normalize_gm, same, reduce_to_scalar_loss and rand_strided as Dynamo's own
tests use them. Frontend layer, coverage surface: no compile reads this module."""
import math
import re

import minitorch2

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


# ---- the rest of torch._dynamo.testing that Dynamo's own tests use

three = 3  # (test_functions.py's test_module_constant reads torch._dynamo.testing.three)


class EagerAndRecordGraphs:
    """A backend that keeps each graph it is given (`graphs`) and runs it as it is."""

    def __init__(self):
        self.graphs = []

    def __call__(self, gm, example_inputs):
        self.graphs.append(gm)
        return gm.forward


def normalize_gm(gm_str):
    """A printed graph without its comment lines (they hold file paths), trailing spaces and runs of blank lines."""
    lines, previous_blank = [], False
    for line in re.sub(r"(?m)^ *#.*\n?", "", gm_str).split("\n"):
        line, blank = line.rstrip(), not line.strip()
        if not (blank and previous_blank):
            lines.append(line)
        previous_blank = blank
    return "\n".join(lines)


def reduce_to_scalar_loss(out):
    """A model's output reduced to one scalar: the mean of each tensor, averaged over lists, tuples and dicts."""
    if isinstance(out, minitorch2.Tensor):
        return out.sum() / out.numel()
    if isinstance(out, (list, tuple)):
        return sum(reduce_to_scalar_loss(x) for x in out) / len(out)
    if isinstance(out, dict):
        return sum(reduce_to_scalar_loss(v) for v in out.values()) / len(out)
    raise NotImplementedError("Don't know how to reduce", type(out))


def rand_strided(size, stride, dtype=minitorch2.float32, device="cpu", extra_size=0):
    """Random values laid out with the given strides over a buffer just large enough."""
    needed = extra_size + (sum((n - 1) * s for n, s in zip(size, stride)) + 1 if all(n > 0 for n in size) else 0)
    if dtype.is_floating_point:
        buffer = minitorch2.randn(needed, dtype=dtype)
    else:
        buffer = minitorch2.zeros(needed, dtype=dtype)
    return minitorch2.as_strided(buffer, size, stride)


def same(ref, res, fp64_ref=None, cos_similarity=False, tol=1e-4, equal_nan=False, exact_dtype=True, **options):
    """Whether res matches ref: structures item by item, tensors within tol (and of ref's dtype), numbers within
    tol, anything else equal."""
    if isinstance(ref, (list, tuple)):
        return isinstance(res, (list, tuple)) and len(ref) == len(res) and all(
            same(a, b, tol=tol, equal_nan=equal_nan, exact_dtype=exact_dtype) for a, b in zip(ref, res))
    if isinstance(ref, dict):
        return isinstance(res, dict) and set(ref) == set(res) and all(
            same(ref[k], res[k], tol=tol, equal_nan=equal_nan, exact_dtype=exact_dtype) for k in ref)
    if isinstance(ref, minitorch2.Tensor):
        if not isinstance(res, minitorch2.Tensor) or (exact_dtype and ref.dtype is not res.dtype):
            return False
        return bool(minitorch2.allclose(ref.to(res.dtype), res, rtol=tol, atol=tol, equal_nan=equal_nan))
    if isinstance(ref, float):
        return math.isclose(ref, res, rel_tol=tol, abs_tol=tol) or (equal_nan and math.isnan(ref) and math.isnan(res))
    return ref == res
