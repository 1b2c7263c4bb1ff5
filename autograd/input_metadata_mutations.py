"""Inputs whose metadata a function changes in place (`x.t_()`, `x.add_(1).transpose_(0, 1)`, `x.as_strided_(...)`):
the traced graph returns such an input's final value (`t`), and the runtime gives the caller's tensor that value's
sizes, strides and offset (`as_strided_`), then, if its data changed too, its contents (`copy_`), as torch's aot
runtime wrapper (_apply_input_mutations).

autograd layer, around aot.py's inference trace and write_back. output_aliasing.py's fake run notes which inputs
adopted a view's geometry (`meta_mutated`); the traced function returns their tensors first (`returning_inputs`),
and after functionalization those values replace the data-only new values functionalization returns for the same
inputs (`merge_mutated_outputs`): one output per mutated input, in the inputs' order, as torch's graphs.
"""
import minitorch2


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


def merge_mutated_outputs(gm, data_mutated, meta_mutated, set_outputs):
    """gm returns the new values of data_mutated, then those of meta_mutated, then the outputs: make it return one
    value per mutated input, in input order (the metadata-changed input's value, which holds its data too).
    Returns the positions in that order."""
    if not meta_mutated:
        return data_mutated
    flat = list(gm.graph.output_node().args[0])
    values = dict(zip(data_mutated, flat))
    values.update(zip(meta_mutated, flat[len(data_mutated):]))
    positions = sorted(values)
    set_outputs(gm, [values[i] for i in positions] + flat[len(data_mutated) + len(meta_mutated):])
    return positions


def write_metadata_and_data(arg, value, data_changed):
    """The caller's tensor takes value's geometry, then (its data changed too) its contents, as torch's runtime."""
    arg.as_strided_(value.size(), value.stride(), value.storage_offset())
    if data_changed:
        with minitorch2.no_grad():
            arg.copy_(value)
