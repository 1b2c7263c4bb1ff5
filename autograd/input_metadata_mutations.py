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
    shape (compiled.meta_mutated), then the outputs: make it return one value per mutated input, in input order (a
    value changed in shape holds the new data too). Sets compiled.data_mutated and compiled.mutated_inputs (the
    positions of the values gm returns first); returns gm."""
    meta_mutated = compiled.meta_mutated
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
    of compiled.grad_mutated (which aot.py's _with_fresh_inputs puts first), needing no tangent."""
    grad_mutated, meta_mutated, mask = compiled.grad_mutated, compiled.meta_mutated, compiled.output_grad_mask
    if set(meta_mutated) & set(grad_mutated):
        raise NotImplementedError("aot: an input whose shape changes in place (t_) to a value that requires grad")
    g = len(grad_mutated)
    return returning_inputs(fn, meta_mutated, viewed=True), mask[:g] + [False] * len(meta_mutated) + mask[g:]


def write_back(compiled, args, out):
    """The runtime epilogue of functionalization, after each call of a compiled function: each mutated input (but
    those whose new values require grad, which the caller copies in under autograd) gets its new value; an input
    changed in shape first takes the value's geometry, and only then (its data changed too) its contents, as torch's
    runtime. Returns the other outputs."""
    for i, value in zip(compiled.mutated_inputs, out):
        if i in compiled.meta_mutated:
            args[i].as_strided_(value.size(), value.stride(), value.storage_offset())
        if i not in compiled.grad_mutated and (i in compiled.data_mutated or i not in compiled.meta_mutated):
            with minitorch2.no_grad():
                args[i].copy_(value)
    return out[len(compiled.mutated_inputs):]
