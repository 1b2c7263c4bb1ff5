"""Inputs whose metadata a function changes in place (`x.t_()`, `x.add_(1).transpose_(0, 1)`, `x.as_strided_(...)`):
the traced graph returns such an input's final value (`t`), and the runtime gives the caller's tensor that value's
sizes, strides and offset (`as_strided_`), then, if its data changed too, its contents (`copy_`), as torch's aot
runtime wrapper (_apply_input_mutations).

autograd layer, around aot.py's traces, and its runtime epilogue (`write_back`, which every mutated input goes
through). output_aliasing.py's fake run notes which inputs adopted a view's geometry (`meta_mutated`); the traced
function returns their tensors first (`returning_inputs`; in a joint trace it gets a view of each, as torch's), and
after functionalization those values replace the data-only new values functionalization returns for the same inputs
(`merge_mutated_outputs`): one output per mutated input, in the inputs' order, as torch's graphs.
"""
import minitorch2
from partition.input_copies import set_outputs


def returning_inputs(fn, positions, viewed=False):
    """fn, returning the tensors it was given at `positions` (as they stand after it ran) before its outputs.
    `viewed` (a joint trace, as torch's): fn gets a view of each (`view(primals_2, [2, 3])`), not the input itself."""
    if not positions:
        return fn

    def returning_inputs(*args):
        if viewed:
            args = [a.view(a.shape) if i in positions else a for i, a in enumerate(args)]
        out = fn(*args)
        return [args[i] for i in positions] + (list(out) if isinstance(out, (list, tuple)) else [out])

    return returning_inputs


def merge_mutated_outputs(compiled, gm, data_mutated):
    """gm, functionalized, returns the new values of the inputs at `data_mutated`, then those of the inputs changed in
    shape (compiled.meta_mutated, but those of compiled.grad_mutated), then the outputs: make it return one value per
    mutated input, in input order (a value changed in shape holds the new data too). Sets compiled.data_mutated and
    compiled.mutated_inputs (the positions of the values gm returns first); returns gm."""
    meta_mutated = [i for i in compiled.meta_mutated if i not in compiled.grad_mutated]  # (those return it already)
    compiled.data_mutated = compiled.mutated_inputs = data_mutated
    if meta_mutated:
        flat = list(gm.graph.output_node().args[0])
        values = dict(zip(data_mutated, flat))
        values.update(zip(meta_mutated, flat[len(data_mutated):]))
        compiled.mutated_inputs = sorted(values)
        set_outputs(gm, [values[i] for i in compiled.mutated_inputs] + flat[len(data_mutated) + len(meta_mutated):])
    return gm


def in_joint(compiled, fn):
    """(fn for the joint trace, the joint's output mask): fn returns the inputs changed in shape after the new values
    of compiled.grad_mutated (which aot.py's _with_fresh_inputs puts first, changed in shape or not), needing no
    tangent."""
    grad_mutated, mask = compiled.grad_mutated, compiled.output_grad_mask
    meta_mutated = [i for i in compiled.meta_mutated if i not in grad_mutated]
    g = len(grad_mutated)
    return returning_inputs(fn, meta_mutated, viewed=True), mask[:g] + [False] * len(meta_mutated) + mask[g:]


def write_back(compiled, args, out):
    """The runtime epilogue of functionalization, after each call of a compiled function: each mutated input (but
    those whose new values require grad, which the caller copies in under autograd) gets its new value; an input
    changed in shape first takes the value's geometry, and only then (its data changed too) its contents, as torch's
    runtime; inside the compiled autograd.Function (a graph with a backward) that waits for copy_in, as autograd
    checks the inputs' shapes once the Function returns. Returns the other outputs."""
    compiled.reshaped_later = []
    for i, value in zip(compiled.mutated_inputs, out):
        if i in compiled.grad_mutated:
            continue
        if i in compiled.meta_mutated and compiled.needs_grad:
            compiled.reshaped_later.append((i, value))
            continue
        _write(args[i], value, i in compiled.meta_mutated, i in compiled.data_mutated or i not in compiled.meta_mutated)
    return out[len(compiled.mutated_inputs):]


def _write(arg, value, geometry_changed, data_changed):
    if geometry_changed:
        arg.as_strided_(value.size(), value.stride(), value.storage_offset())
    if data_changed:
        with minitorch2.no_grad():
            arg.copy_(value)


def copy_in(compiled, args, out):
    """After the compiled autograd.Function ran: the inputs whose new values require grad get them under autograd
    (CopyBackwards), after the value's geometry where they changed in shape too (AsStridedBackward1), and the other
    inputs changed in shape take theirs (write_back's deferred writes), as torch's runtime wrapper does outside the
    compiled function. Returns the other outputs."""
    for i, value in zip(compiled.grad_mutated, out):
        if i in compiled.meta_mutated:
            args[i].as_strided_(value.size(), value.stride(), value.storage_offset())
        args[i].copy_(value)
    for i, value in compiled.reshaped_later:
        _write(args[i], value, True, i in compiled.data_mutated)
    return out[len(compiled.grad_mutated):]
