"""The backward engine: run grad_fns from the roots down to the leaves.

Runtime layer. `backward(tensors)` and `grad(outputs, inputs)` walk the graph of Nodes recorded by the autograd
layer. As in PyTorch, a node runs once all the gradients flowing into it have arrived, gradients reaching the same
input are summed with `aten.add.Tensor`, and among ready nodes the most recently created runs first. Formulas call
dispatched ops, so with `create_graph=True` the backward is itself recorded and can be differentiated again.

Before a gradient goes along an edge, `validate_outputs` fits it to the
tensor the edge came from (`Node.input_metadata`), as PyTorch's engine does:
extra or broadcast dims are summed away, another dtype is cast, any other
shape is an error naming the node.
"""
import heapq

from .._aten.derivatives_util import sum_to
from .._dispatch import state
from .._ops import ops
from .._tensor import Tensor, preserve_format
from .anomaly_mode import check_nan
from .graph import AccumulateGrad, clone_obeying_layout_contract, gradient_edge


def _make_grads(outputs, grad_outputs):
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if g is None:
            if out.requires_grad:
                if out.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not out.dtype.is_floating_point:  # (a complex loss too: torch asks for real)
                    raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {out.dtype}")
                g = ops.aten.ones_like.default(out, pin_memory=False, memory_format=preserve_format)
        elif isinstance(g, Tensor) and tuple(g.shape) != tuple(out.shape):
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] has a shape of {out.shape}."
            )
        grads.append(g)
    return grads


def _roots(outputs):
    edges = [gradient_edge(out) for out in outputs]
    if None in edges:
        raise RuntimeError(f"element {edges.index(None)} of tensors does not require grad and does not have a grad_fn")
    return edges


def _dependencies(root_nodes):
    deps, seen, stack = {}, {id(n) for n in root_nodes}, list(root_nodes)
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            deps[next_node] = deps.get(next_node, 0) + 1
            if id(next_node) not in seen:
                seen.add(id(next_node))
                stack.append(next_node)
    return deps


def run_backward(outputs, grad_outputs, retain_graph, create_graph, capture=None, only=None):
    """Propagate gradients. With `capture` (a dict edge -> None), collect the gradients
    arriving at those edges instead of accumulating into leaves (autograd.grad). With `only`
    (nodes), run just them and the nodes leading to them (backward(inputs=...))."""
    retain_graph = create_graph if retain_graph is None else retain_graph
    grads = _make_grads(outputs, grad_outputs)
    edges = _roots(outputs)
    if capture is not None and None in capture:
        raise RuntimeError("One of the differentiated Tensors does not require grad")
    buffers = {}
    previous, state.grad_enabled = state.grad_enabled, create_graph
    try:
        for (node, nr), out, g, user_grad in zip(edges, outputs, grads, grad_outputs):
            if g is not None and g.dtype is not out.dtype:  # validate_outputs on the root edges: shapes were
                g = ops.aten._to_copy.default(g, dtype=out.dtype)  # checked by _make_grads, dtypes are cast
            if capture is None and isinstance(node, AccumulateGrad) and user_grad is not None:
                g = clone_obeying_layout_contract(g, node.variable)  # .grad must not alias the caller's tensor
            _accumulate(buffers, node, nr, g)
        root_nodes = list({id(n): n for n, _ in edges}.values())
        deps = _dependencies(root_nodes)
        targets = only if capture is None else {node for node, _ in capture}
        needed = None if targets is None else _leading_to(targets, root_nodes) | (only or set())
        ready = [(-n.sequence_nr, id(n), n) for n in root_nodes if deps.get(n, 0) == 0]
        heapq.heapify(ready)
        while ready:
            _, _, node = heapq.heappop(ready)
            incoming = buffers.pop(node, None) or []
            # (torch runs no hook of a node it skips; a root always runs)
            if needed is None or node in needed or node in targets or node in root_nodes:
                incoming = _run_pre_hooks(node, incoming)
            if capture is not None:
                for nr, g in enumerate(incoming):
                    if (node, nr) in capture:
                        capture[(node, nr)] = g
                if isinstance(node, AccumulateGrad):
                    continue
            if (all(g is None for g in incoming) and not isinstance(node, AccumulateGrad)) or \
                    (needed is not None and node not in needed):
                out_grads = [None] * len(node.next_functions)
            else:
                out_grads = validate_outputs(node, node.apply(incoming))
                check_nan(node, out_grads)
                if not retain_graph:
                    node.release()
                for hook in node._hooks:  # (one returning gradients replaces what the node passes on)
                    out_grads = list(hook(tuple(out_grads), tuple(incoming)) or out_grads)
            for (next_node, nr), g in zip(node.next_functions, out_grads):
                if next_node is None:
                    continue
                if g is not None:
                    _accumulate(buffers, next_node, nr, g)
                deps[next_node] -= 1
                if deps[next_node] == 0:
                    heapq.heappush(ready, (-next_node.sequence_nr, id(next_node), next_node))
    finally:
        state.grad_enabled = previous


def _leading_to(targets, root_nodes):
    """The nodes with a path to a node of `targets` after them: with autograd.grad, as in PyTorch's engine,
    only they run (a gradient captured at a non-leaf input does not run that input's grad_fn)."""
    users, seen, stack = {}, set(), list(root_nodes)
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for next_node, _ in node.next_functions:
            if next_node is not None:
                users.setdefault(next_node, []).append(node)
                stack.append(next_node)
    leading, frontier = set(), list(targets)
    while frontier:
        for user in users.get(frontier.pop(), ()):
            if user not in leading:
                leading.add(user)
                frontier.append(user)
    return leading


def validate_outputs(node, grads):
    """Check and fit the gradients `node` returned, one per edge (PyTorch's validate_outputs)."""
    edges = node.next_functions
    if len(grads) != len(edges):
        raise RuntimeError(f"Function {node.name()} returned an invalid number of gradients - expected "
                           f"{len(edges)}, but got {len(grads)}")
    for i, metadata in enumerate(node.input_metadata):
        if (g := grads[i]) is None or metadata is None:  # no gradient, or an edge that takes none
            continue
        shape, dtype = metadata
        if g._shape != shape:
            grads[i] = g = _sum_to_input_shape(node, i, g, shape)
        if g.dtype is not dtype:
            grads[i] = ops.aten._to_copy.default(g, dtype=dtype)
    return grads


def _sum_to_input_shape(node, index, grad, shape):
    if not _is_expandable_to(shape, grad._shape):
        raise RuntimeError(
            f"Function {node.name()} returned an invalid gradient at index {index} - got "
            f"[{', '.join(map(str, grad._shape))}] but expected shape compatible with [{', '.join(map(str, shape))}]"
        )
    return sum_to(grad, shape)


def _is_expandable_to(shape, target):
    """Can a tensor of `shape` broadcast to `target`? (Then a gradient of `target` sums back to `shape`.)"""
    if len(shape) > len(target):
        return False
    return all(size == 1 or size == want for size, want in zip(reversed(shape), reversed(target)))


def _accumulate(buffers, node, nr, g):
    slots = buffers.setdefault(node, [])
    slots.extend([None] * (nr + 1 - len(slots)))
    slots[nr] = g if slots[nr] is None else ops.aten.add.Tensor(slots[nr], g)


def _run_pre_hooks(node, incoming):
    leaf = isinstance(node, AccumulateGrad) and node.variable._backward_hooks  # a leaf's hooks: a pre-hook of its node
    if node._pre_hooks or leaf:
        incoming = list(incoming)
        for nr, hooks in ({0: leaf} if leaf else node._pre_hooks).items():
            if nr >= len(incoming) or incoming[nr] is None:
                continue
            for hook in hooks:
                if (new := hook(incoming[nr])) is not None:
                    incoming[nr] = new
    if node._retained:
        for nr, ref in node._retained.items():
            if (t := ref()) is not None and nr < len(incoming) and incoming[nr] is not None:
                g = incoming[nr].detach()
                t.grad = g if t.grad is None else t.grad + g
    return incoming


def _as_tuple(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    tensors = _as_tuple(tensors)
    grad_tensors = [None] * len(tensors) if grad_tensors is None else list(_as_tuple(grad_tensors))
    only = None
    if inputs is not None:
        _make_grads(tensors, grad_tensors), _roots(tensors)  # (torch checks the outputs first, then the inputs:
        # each one's grad is retained, refused for one without grad: a non-leaf's arrives that way, a leaf's
        # through its AccumulateGrad; as in torch, their nodes run too)
        only = {(gradient_edge(t) or (None, 0))[0] for t in _as_tuple(inputs) if t.retain_grad() is None}
    run_backward(tensors, grad_tensors, retain_graph, create_graph, only=only)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    grad_outputs = [None] * len(outputs) if grad_outputs is None else list(_as_tuple(grad_outputs))
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                         "allow_unused=False.")
    # (a view made under no_grad of a tensor that requires grad has no edge: an input no path reaches)
    input_edges = [gradient_edge(t) or ((object(), 0) if t.requires_grad else None) for t in inputs]
    capture = dict.fromkeys(input_edges)
    run_backward(outputs, grad_outputs, retain_graph, create_graph, capture=capture)
    result = [capture[edge] for edge in input_edges]
    if materialize_grads:
        return tuple(ops.aten.zeros_like.default(t).requires_grad_(create_graph) if g is None else g
                     for t, g in zip(inputs, result))
    if not allow_unused and any(g is None for g in result):
        raise RuntimeError(f"The differentiated Tensor at index {[g is None for g in result].index(True)} appears to "
                           "not have been used in the graph. Set allow_unused=True if this is the desired behavior.")
    return tuple(result)
