"""Which decomposition of a composite op runs: the eager one or the one tracers see
(as torch._dispatch.python.enable_python_dispatcher).

Runtime layer. A few PyTorch functions are CompositeImplicitAutograd ops with two implementations: a C++ kernel that
eager mode runs, and a Python decomposition (torch._decomp) that runs instead while the *Python dispatcher* is enabled,
which AOTAutograd does around its tracing. The two can record different ops: `dropout` on the CPU draws `bernoulli_`
noise in eager (minitorch2 keeps that, so that seeded eager programs draw what PyTorch draws) but is `native_dropout`,
or a `clone` when off, in an aot graph. Plain make_fx does not enable it, so it records what eager runs.

minitorch2's versions of those functions ask `python_dispatcher_enabled()`;
the AOT tracer enters `enable_python_dispatcher()` around its tracing.
"""
import threading


_state = threading.local()  # .depth: how many enable_python_dispatcher blocks this thread is in


def python_dispatcher_enabled():
    return getattr(_state, "depth", 0) > 0


class enable_python_dispatcher:
    def __enter__(self):
        _state.depth = getattr(_state, "depth", 0) + 1
        return self

    def __exit__(self, *exc):
        _state.depth -= 1
