"""torch's refusals of writes through the outputs of split, chunk and unbind (eager fidelity).

Runtime autograd layer, coverage surface: the recorder calls it before an in-place op on a view (autograd/_record.py)
and view_history before it regenerates a view's grad_fn after its base was written. torch marks those outputs (its
CreationMeta::MULTI_OUTPUT_NODE) because one backward node serves them all and could not be rebased for one.
"""


def refuse_multi_output_view(view, what):
    """An output of split, chunk or unbind (or a view of one) stays read-only, and so does its history: torch
    refuses an in-place op on it, and its grad_fn once its base has been written."""
    node = view._grad_fn
    while getattr(node, "op", None) is not None and node.op.is_view:  # the views it was made by, back to its base
        if node.op._schema.returns[0].type == "Tensor[]":
            raise RuntimeError(
                f"Output {view._output_nr} of {view._grad_fn.name().replace('Backward0', '').replace('Backward', '')} is a view {what}. "
                "This view is the output of a function that returns multiple views. Such functions do not allow the "
                "output views to be modified inplace. You should replace the inplace operation by an out-of-place one.")
        node = node.next_functions[0][0]
