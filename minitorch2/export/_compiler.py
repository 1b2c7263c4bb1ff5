"""The one place torch.export reaches up into the compiler: make_fx, functionalization and make_fx's stack-trace
stamping (autograd layer).

torch.export layer (coverage surface). Like `minitorch2.compile`, which imports the frontend when it is called,
export is the runtime's entry to a layer above it; the import waits for the call, so importing minitorch2.export
loads no compiler layer.
"""


def make_fx():
    # deferred: the autograd layer sits above the runtime; imported when export or run_decompositions runs
    from autograd.proxy_tensor import make_fx as tracer
    return tracer


def functionalize_graph():
    # deferred: the autograd layer sits above the runtime; imported when run_decompositions runs
    from autograd.functionalize import functionalize_graph as functionalize
    return functionalize


def stack_trace_in_effect():
    # deferred: the autograd layer sits above the runtime; imported when export runs
    from autograd.stack_traces import stack_trace_in_effect as in_effect
    return in_effect
