"""Outputs that are views made by an op that makes several (split, chunk, unbind), sorted as torch's aot sorts them.

autograd layer, beside `output_aliasing.py`, which calls it once per trace. An output that views an input is
normally made again outside the compiled function, so that a later write to it replays the view (its grad_fn is
the view's own: SplitBackward0). torch's aot makes an exception (its collect_metadata_analysis): where every output
aliasing an input was made, with grad, by a multi-output view op, the outputs leave the compiled function as fresh
tensors (grad_fn CompiledFunctionBackward). Autograd forbids writing to such a view in a way that would change
another's history, so no view ever needs replaying. Values and gradients are the same either way; the grad_fn a
user prints is not.
"""


def hidden_input_aliases(input_aliases, outputs):
    """The positions, among {output position: OutputAlias of an input}, of the outputs to return fresh."""
    by_input = {}
    for i, alias in input_aliases.items():
        by_input.setdefault(alias.position, []).append(i)
    return [i for positions in by_input.values() if all(_multi_output_view(input_aliases[k], outputs[k])
                                                        for k in positions) for i in positions]


def _multi_output_view(alias, output):
    return output.grad_fn is not None and any(view.index is not None for view in alias.views)
