"""torch.autocast and torch.inference_mode blocks inside a compiled frame, recorded in the graph as Dynamo records them.

Frontend layer, beside ctx_manager.py's grad-mode blocks and built the same way; part of the library surface
(minitorch2/amp) rather than the lesson. Entering and leaving the block become calls in the graph, so the graph runs
the block's ops cast, whichever backend runs it (AOT traces the casts the calls make):

    _enter_autocast = torch.amp.autocast_mode._enter_autocast('cpu', torch.float16, True, None)
    c = l_a_ @ l_b_
    _exit_autocast = torch.amp.autocast_mode._exit_autocast(_enter_autocast)

An inference_mode block is the same kind of region (torch.autograd.grad_mode._enter_inference_mode(True) ...
_exit_inference_mode(...)): grad mode off and inference mode on for the block's ops.
The translator enters the region for real while inside the block (the fake values get the casts' dtypes) and
leaves it when translation ends (InstructionTranslator.run). A graph break inside the block leaves the region at
the graph's end and the resume function re-enters it, as Dynamo's (resume.py, over `leave` and `context_class`,
as for a grad-mode block). An autocast entered outside the compiled frame is part of
the global-state guard instead (guards.py): a call under another autocast recompiles.
"""
import functools
import inspect

import minitorch2
from minitorch2.amp.autocast_mode import _enter_autocast, _exit_autocast  # (torch's: torch.amp.autocast_mode's)
from minitorch2.nn.attention import sdpa_kernel

from .base import VariableTracker
from .constant import ConstantVariable


def is_region(value):
    """By identity: a user's object is never compared (its __eq__ may raise, or answer anything)."""
    return any(value is r for r in (minitorch2.autocast, minitorch2.inference_mode, sdpa_kernel)) or isinstance(
        value, minitorch2.autocast)


def region_variable(region):
    """The tracker class for torch.autocast, torch.inference_mode or torch.nn.attention.sdpa_kernel itself, or the
    maker of one for an autocast object from outside the frame (`@torch.autocast(...)` over a method: its wrapper's
    `with self:`)."""
    if region is sdpa_kernel:
        from .sdpa_kernel import SDPAKernelFunctionVariable  # (it builds on this module's exit tracker)
        return SDPAKernelFunctionVariable
    if isinstance(region, minitorch2.autocast):
        return AutocastVariable.made_outside
    return AutocastVariable if region is minitorch2.autocast else InferenceModeVariable


class AutocastVariable(VariableTracker):
    """`torch.autocast(...)` made in the frame: its four arguments, bound as the class binds them."""

    region_class = minitorch2.autocast
    enter_region, exit_region = staticmethod(_enter_autocast), staticmethod(_exit_autocast)

    def __init__(self, cls=None, source=None, args=None):
        super().__init__(source)
        self.args = args  # None: the class itself

    @classmethod
    def made_outside(cls, region, source):
        """The object's settings as its constructor resolved them (a CUDA autocast on a CPU build: disabled)."""
        return cls(source=source, args=(region.device, region.fast_dtype, region._enabled, region._cache_enabled))

    def call_function(self, tx, args, kwargs):
        arguments = [a.realize().as_python_constant() for a in args]
        bound = inspect.signature(self.region_class).bind(
            *arguments, **{k: v.realize().as_python_constant() for k, v in kwargs.items()})
        bound.apply_defaults()
        return type(self)(args=tuple(bound.arguments.values()))

    def enter(self, tx):
        """Record the entry and enter the region for real; the translation leaves it if it ends inside."""
        node = tx.output.create_node("call_function", self.enter_region, self.args, {})
        previous = minitorch2.is_grad_enabled()
        region = self.enter_region(*self.args)
        tx.output.open_regions.append(region)
        return AutocastExitVariable(node, region, self, previous)


class InferenceModeVariable(AutocastVariable):
    """`torch.inference_mode(mode)` made in the frame."""

    region_class = minitorch2.inference_mode
    enter_region = staticmethod(minitorch2.autograd.grad_mode._enter_inference_mode)
    exit_region = staticmethod(minitorch2.autograd.grad_mode._exit_inference_mode)


class AutocastExitVariable(VariableTracker):
    """An autocast or inference_mode block's bound `__exit__`; `previous`: the grad mode before the block."""

    def __init__(self, node, region, entered, previous):
        super().__init__()
        self.node, self.region, self.entered, self.previous = node, region, entered, previous
        self.exit_region = entered.exit_region

    def call_function(self, tx, args, kwargs):
        tx.output.create_node("call_function", self.exit_region, (self.node,), {})
        tx.output.open_regions.remove(self.region)
        self.exit_region(self.region)
        return ConstantVariable(None)

    def leave(self, output, grad_mode):
        """The region left at the end of a graph that breaks inside it; the grad mode after (inference_mode
        restores the one before it)."""
        output.create_node("call_function", self.exit_region, (self.node,), {})
        return self.previous if isinstance(self.entered, InferenceModeVariable) else grad_mode

    def context_class(self):
        """What a resume function calls to re-enter the block: the class over the block's arguments, as Dynamo's
        `torch.inference_mode(True)` (one object per arguments: a resume code is cached by it)."""
        return _reentry(self.entered.region_class, self.entered.args)


@functools.lru_cache(maxsize=None)
def _reentry(region_class, args):
    return functools.partial(region_class, *args)
