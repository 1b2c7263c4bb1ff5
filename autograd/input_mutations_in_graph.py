"""aot_autograd's keep_inference_input_mutations: an input's in-place update as a copy_ at the end of the forward graph.

autograd layer, a pass on the forward graph after partitioning (or on an inference graph), before the forward
compiler sees it. Functionalization (functionalize.py) makes every mutation of an input an extra output, the
input's new value, which the runtime copies in after the call (aot.py's write_back). With this option, as torch's
aot_eager and inductor set it, an input whose data alone changed, to a value that needs no gradient (a buffer such as
BatchNorm's running statistics, x.add_(1) on an input, a write through a view of one), is updated inside the graph
instead: `copy_ = torch.ops.aten.copy_.default(primals_3, getitem_3)` before the output, in input order, and the
graph no longer returns the value (torch's MutationType.MUTATED_IN_GRAPH). An input whose new value requires grad
stays an output: autograd must record its copy.
"""
from minitorch2._ops import ops


def copy_mutations_into_inputs(compiled, keep_input_mutations):
    """With the option on, rewrite `compiled.fw_module` (which returns the new values of `compiled.mutated_inputs`
    first) so that those not in `compiled.grad_mutated` are copied into their inputs in the graph. Returns the
    positions of the inputs whose new values the forward still returns."""
    forward, mutated_inputs, grad_mutated = compiled.fw_module, compiled.mutated_inputs, compiled.grad_mutated
    if not keep_input_mutations or not mutated_inputs:
        return mutated_inputs
    graph = forward.graph
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    output = next(n for n in graph.nodes if n.op == "output")
    values = list(output.args[0])
    kept, returned = [], []
    for position, value in zip(mutated_inputs, values):
        target = placeholders[position]
        data_only = _geometry(target) is not None and _geometry(target) == _geometry(value)
        (returned if position in grad_mutated or not data_only else kept).append((position, value))
    if not kept:
        return mutated_inputs
    with graph.inserting_before(output):
        for position, value in kept:
            graph.create_node("call_function", ops.aten.copy_.default, (placeholders[position], value), name="copy_")
    rest = values[len(mutated_inputs):]
    output.args = (tuple(value for _, value in returned) + tuple(rest),)
    forward.recompile()
    return [position for position, _ in returned]


def _geometry(node):
    """Sizes and strides as text (no guard on a symbolic size): a metadata mutation (x.t_()) changes them, and
    torch keeps such an input's update out of the graph."""
    val = node.meta.get("val")
    return None if val is None else (tuple(map(str, val.shape)), tuple(map(str, val.stride())))
