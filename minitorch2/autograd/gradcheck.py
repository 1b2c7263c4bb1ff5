"""torch.autograd.gradcheck and gradgradcheck: a function's backward checked against finite differences.

Runtime layer, coverage surface (what a custom Function's tests call; no stage of the compiler uses it). For each
differentiable output and each input that requires grad, the numerical Jacobian (central differences of step
`eps`, one input element at a time) must be close to the analytical one (one backward per output element) within
`atol + rtol * |numerical|`; torch's slow mode, the one a mismatch is reported from. gradgradcheck runs gradcheck on
the function's vector-Jacobian product, with grad_outputs drawn uniformly in [-1, 1) as torch draws them.
"""
import itertools
import warnings

import numpy as np

from .. import _dtype
from .._tensor import Tensor
from .engine import grad


class GradcheckError(RuntimeError):
    """A Jacobian mismatch (torch.autograd.gradcheck.GradcheckError)."""


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _differentiable(outputs):
    return [o for o in outputs if isinstance(o, Tensor) and o.requires_grad]


def _numerical_jacobian(func, inputs, x, output_index, eps):
    """d output / d x, shaped (x.numel(), output.numel()), by central differences on x's own memory."""
    data = x.data  # (its own version counter: the writes leave the graphs already made over x usable)
    columns = []
    for index in itertools.product(*(range(n) for n in x.shape)):
        original = data[index].item()
        data[index] = original + eps
        plus = _as_tuple(func(*inputs))[output_index].detach().clone()
        data[index] = original - eps
        minus = _as_tuple(func(*inputs))[output_index].detach().clone()
        data[index] = original
        columns.append(((plus - minus) / (2 * eps)).reshape(-1))
    return Tensor._from_numpy(np.stack([c.numpy() for c in columns]).reshape(x.numel(), -1))


def _analytical_jacobians(output, inputs):
    """One (input.numel(), output.numel()) Jacobian per input, a backward per output element."""
    flat = output.reshape(-1)
    columns = [[] for _ in inputs]
    for j in range(flat.numel()):
        grads = grad(flat[j], inputs, retain_graph=True, allow_unused=True)
        for column, g, x in zip(columns, grads, inputs):
            column.append(np.zeros(x.numel()) if g is None else g.detach().reshape(-1).numpy())
    return [Tensor._from_numpy(np.stack(c, axis=1).reshape(x.numel(), flat.numel()).astype(output.dtype.np))
            for c, x in zip(columns, inputs)]


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None):
    inputs = _as_tuple(inputs)
    diff_inputs = [x for x in inputs if isinstance(x, Tensor) and x.requires_grad]
    if not diff_inputs:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of the them "
                         "have requires_grad=True.")
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor) and x.requires_grad and x.dtype is not _dtype.float64:
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating point "
                          "or complex. ")
    outputs = _as_tuple(func(*inputs))
    positions = [k for k, out in enumerate(outputs) if isinstance(out, Tensor) and out.requires_grad]
    for o, position in enumerate(positions):
        analytical = _analytical_jacobians(outputs[position], diff_inputs)
        again = _analytical_jacobians(outputs[position], diff_inputs)  # torch's reentrancy check: a second backward
        if any(np.abs(a.numpy() - b.numpy()).max(initial=0) > nondet_tol for a, b in zip(analytical, again)):
            return _fail(raise_exception, "Backward is not reentrant, i.e., running backward with same input and "
                         "grad_output multiple times gives different values, although analytical gradient matches "
                         f"numerical gradient.The tolerance for nondeterminism was {nondet_tol}.\n")
        for i, x in enumerate(diff_inputs):
            numerical = _numerical_jacobian(func, inputs, x, position, eps)
            if not np.allclose(analytical[i].numpy(), numerical.numpy(), rtol=rtol, atol=atol):
                return _fail(raise_exception, f"Jacobian mismatch for output {o} with respect to input {i},\n"
                             f"numerical:{numerical}\nanalytical:{analytical[i]}\n")
    # torch's two checks on a backward whose output gradients are zero: as given (its result must be zero: backward
    # multiplies by grad_output), then undefined (seen by a Function as zeros, materialized)
    zero_grads = [outputs[k].detach() * 0 for k in positions]
    if not _zero_input_grads([outputs[k] for k in positions], diff_inputs, zero_grads):
        return _fail(raise_exception, "backward not multiplied by grad_output")
    if check_undefined_grad:
        for position, zero in zip(positions, zero_grads):
            if not _zero_input_grads([outputs[position]], diff_inputs, [zero]):
                return _fail(raise_exception, "Expected backward function to handle undefined output grads. "
                             "Please look at \"Notes about undefined output gradients\" in "
                             "\"tools/autograd/derivatives.yaml\"")
    return True


def _zero_input_grads(outputs, inputs, grad_outputs):
    grads = grad(outputs, inputs, grad_outputs, retain_graph=True, allow_unused=True)
    return all(g is None or not g.detach().numpy().any() for g in grads)


def _fail(raise_exception, message):
    if raise_exception:
        raise GradcheckError(message)
    return False


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        grad_outputs = tuple(
            o.new_empty(tuple(o.shape), dtype=o.dtype if o.is_floating_point() else _dtype.float64)
            .uniform_(-1, 1).requires_grad_() for o in _differentiable(_as_tuple(func(*inputs))))
    grad_outputs = _as_tuple(grad_outputs)
    count = len(inputs)

    def vector_jacobian_product(*args):
        ins, outs = args[:count], _differentiable(_as_tuple(func(*args[:count])))
        diff_ins = [x for x in ins if isinstance(x, Tensor) and x.requires_grad]
        grads = grad(outs, diff_ins, args[count:], create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(vector_jacobian_product, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
