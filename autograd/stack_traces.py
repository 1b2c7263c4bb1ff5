"""Source locations through AOT tracing: each aten node takes the stack trace of the graph node it came from.

autograd layer, between the frontend's graph (whose nodes carry `meta["stack_trace"]`, see frontend/stack_trace.py)
and make_fx. It plays torch.fx.traceback's preserve_node_meta / set_current_meta:

    forward   aot_module_simplified runs the frontend's GraphModule through
              `SourceKeepingInterpreter`, which makes each node's stack trace
              current while it runs; the proxy mode stamps it on every aten
              node it records (`linear` becomes t + addmm under its user line)
    backward  every grad_fn remembers the stack trace current when it was made;
              in the joint trace's autograd.grad its backward runs with that
              trace current; a gradient summed for a tensor used twice gets the
              last arriving one, with PyTorch's marker line appended

What runs outside an interpreted node records no stack trace, so fx prints it under "No stacktrace found for
following nodes", as PyTorch does.
"""
import contextlib
import threading

from minitorch2._tensor import Tensor
from minitorch2.fx import Interpreter

GRADIENT_ACC_SPECIAL_STACK = "Gradient addition node due to multiple use of tensor around:"  # PyTorch's marker

class _Current(threading.local):
    stack_trace = None  # what the proxy mode stamps on the nodes it records now, on this thread


_current = _Current()


def current_stack_trace():
    """The stack trace in effect; one given as a function is asked each time (export's, which reads the user's
    frames, so the size arithmetic it traces outside any op is placed too)."""
    stack_trace = _current.stack_trace
    return stack_trace() if callable(stack_trace) else stack_trace


@contextlib.contextmanager
def stack_trace_in_effect(stack_trace):
    saved = _current.stack_trace
    _current.stack_trace = stack_trace
    try:
        yield
    finally:
        _current.stack_trace = saved


# ---- forward: interpret the frontend's graph node by node ---------------------------------------

class SourceKeepingInterpreter(Interpreter):
    """Runs a GraphModule with each node's stack trace current, and leaves it on the grad_fns the node made."""

    extra_traceback = False  # errors read as they would from calling the module

    def run_node(self, n):
        stack_trace = n.meta.get("stack_trace")
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        with stack_trace_in_effect(stack_trace):
            result = getattr(self, n.op)(n.target, args, kwargs)
        # the arguments too: an in-place op (`y[0] = 1.0`) gives its input a new grad_fn and returns nothing
        self._tag_new_grad_fns([result, args, list(kwargs.values())], stack_trace)
        return result

    def _tag_new_grad_fns(self, values, stack_trace):
        """grad_fns first reachable from a node's values were made while it ran: they take its trace (None
        for a node without one, which still marks them as seen; the walk stops at grad_fns already seen)."""
        for grad_fn in _grad_fns(values, enter=lambda node: "stack_trace" not in node.metadata):
            grad_fn.metadata["stack_trace"] = stack_trace


def _tensors(value):
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _tensors(v)]
    return []


# ---- backward: each grad_fn runs under its forward's stack trace ----------------------------------

@contextlib.contextmanager
def backward_stack_traces(outputs):
    """While active, the backward of every grad_fn reachable from outputs runs with the stack trace it was
    made under current. PyTorch registers a pre-hook and a post-hook per node; here the node's apply is
    wrapped for the pre-hook's part (minitorch2's engine runs tensor pre-hooks only), and the post-hook,
    which runs after the engine has checked the node's gradients and before it adds them up, switches to
    the marked trace that gradient additions carry."""
    hooked = []
    for node in _grad_fns(outputs):
        forward_trace = node.metadata.get("stack_trace")
        node.apply = _apply_under(node.apply, forward_trace)
        posthook = _mark_gradient_addition(forward_trace)
        node.register_hook(posthook)
        hooked.append((node, posthook))
    saved = _current.stack_trace
    try:
        yield
    finally:
        _current.stack_trace = saved
        for node, posthook in hooked:
            del node.apply  # the class's apply again
            node._hooks.remove(posthook)  # Node.register_hook returns no handle to remove it by


def _grad_fns(values, enter=lambda node: True):
    """The grad_fns reachable from the tensors among `values`, each once, walking only through those `enter` accepts."""
    seen, order = set(), []
    pending = [t.grad_fn for t in _tensors(values)]
    while pending:
        node = pending.pop()
        if node is None or id(node) in seen or not enter(node):
            continue
        seen.add(id(node))
        order.append(node)
        pending.extend(next_fn for next_fn, _ in node.next_functions)
    return order


def _apply_under(apply, forward_trace):
    def apply_with_forward_trace(grads):
        _current.stack_trace = forward_trace
        return apply(grads)

    return apply_with_forward_trace


def _mark_gradient_addition(forward_trace):
    marked = (forward_trace or "") + GRADIENT_ACC_SPECIAL_STACK

    def posthook(grad_inputs, grad_outputs):
        _current.stack_trace = marked

    return posthook
