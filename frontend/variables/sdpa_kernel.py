"""`with torch.nn.attention.sdpa_kernel(backends):` inside a compiled frame, recorded in the graph as Dynamo records it.

Frontend layer, beside autocast.py's regions and built the same way; part of the library surface
(minitorch2/nn/attention) rather than the lesson. The block's start and end become calls in the graph, each backend
spelled by its name so the graph holds no enum object:

    _backend_from_string = torch.nn.attention._backend_from_string('MATH')
    _sdpa_kernel = torch.nn.attention._sdpa_kernel([_backend_from_string], False)
    scaled_dot_product_attention = torch._C._nn.scaled_dot_product_attention(q, k, v)
    ... one _backend_from_string per backend switched on before the block ...
    _sdpa_kernel_1 = torch.nn.attention._sdpa_kernel([...], False)

so AOT, tracing the graph, switches the backends where the block does and F.scaled_dot_product_attention picks its
kernel as eagerly. The translation itself switches nothing: the attention's fake run needs only shapes. A graph
break inside the block restores the backends at the graph's end and the resume function re-enters the block (the
exit tracker is an AutocastExitVariable, so resume.py treats it as it treats an autocast block).
"""
import functools

from minitorch2.nn import attention

from .autocast import AutocastExitVariable
from .base import VariableTracker
from .constant import ConstantVariable


class SDPAKernelFunctionVariable(VariableTracker):
    """torch.nn.attention.sdpa_kernel itself (or through a functools.partial over it): a call makes the block."""

    def __init__(self, value=None, source=None):
        super().__init__(source)

    def call_function(self, tx, args, kwargs):
        arguments = [a.realize().as_python_constant() for a in args]
        keywords = {k: v.realize().as_python_constant() for k, v in kwargs.items()}
        return SDPAKernelVariable(*arguments, **keywords)


class SDPAKernelVariable(VariableTracker):
    """`sdpa_kernel(backends, set_priority)` made in the frame, checked and deduplicated as the function does."""

    def __init__(self, backends, set_priority=False):
        super().__init__()
        if not isinstance(backends, (list, attention.SDPBackend)):
            raise AssertionError(f"Backend must be an instance of SDPBackend or a list of SDPBackend instances, got "  # noqa: TRY004 (torch's class)
                                 f"{type(backends).__name__}")
        self.backends = tuple(dict.fromkeys([backends] if isinstance(backends, attention.SDPBackend) else backends))
        self.set_priority = bool(set_priority)

    def enter(self, tx):
        previous = attention._cur_sdpa_kernel_backends(with_priority=self.set_priority)
        _record_switch(tx.output, self.backends, self.set_priority)
        return SDPAKernelExitVariable(self, previous)


class SDPAKernelExitVariable(AutocastExitVariable):
    """The block's bound `__exit__`: the backends switched on before it, restored."""

    def __init__(self, entered, previous):
        VariableTracker.__init__(self)
        self.entered, self.previous = entered, previous

    def call_function(self, tx, args, kwargs):
        _record_switch(tx.output, self.previous, self.entered.set_priority)
        return ConstantVariable(None)

    def leave(self, output, grad_mode):
        _record_switch(output, self.previous, self.entered.set_priority)
        return grad_mode

    def context_class(self):
        return _reentry(self.entered.backends, self.entered.set_priority)


def _record_switch(output, backends, set_priority):
    names = [output.create_node("call_function", attention._backend_from_string, (b.name,), {}) for b in backends]
    output.create_node("call_function", attention._sdpa_kernel, (names, set_priority), {})


@functools.cache
def _reentry(backends, set_priority):  # (one object per arguments: a resume code is cached by it)
    return functools.partial(attention.sdpa_kernel, list(backends), set_priority)
