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
leaves it when translation ends (InstructionTranslator.run). A graph break inside the block runs the frame
eagerly: the region's exit cannot be rebuilt after it. An autocast entered outside the compiled frame is part of
the global-state guard instead (guards.py): a call under another autocast recompiles.
"""
import inspect

import minitorch2
from minitorch2.amp.autocast_mode import _enter_autocast, _exit_autocast  # (torch's: torch.amp.autocast_mode's)

from .base import VariableTracker
from .constant import ConstantVariable


def region_variable(region_class):
    """The tracker class for torch.autocast or torch.inference_mode itself."""
    return AutocastVariable if region_class is minitorch2.autocast else InferenceModeVariable


class AutocastVariable(VariableTracker):
    """`torch.autocast(...)` made in the frame: its four arguments, bound as the class binds them."""

    region_class = minitorch2.autocast
    enter_region, exit_region = staticmethod(_enter_autocast), staticmethod(_exit_autocast)

    def __init__(self, cls=None, source=None, args=None):
        super().__init__(source)
        self.args = args  # None: the class itself

    def call_function(self, tx, args, kwargs):
        arguments = [a.realize().as_python_constant() for a in args]
        bound = inspect.signature(self.region_class).bind(
            *arguments, **{k: v.realize().as_python_constant() for k, v in kwargs.items()})
        bound.apply_defaults()
        return type(self)(args=tuple(bound.arguments.values()))

    def enter(self, tx):
        """Record the entry and enter the region for real; the translation leaves it if it ends inside."""
        node = tx.output.create_node("call_function", self.enter_region, self.args, {})
        region = self.enter_region(*self.args)
        tx.output.open_regions.append(region)
        return AutocastExitVariable(node, region, self.exit_region)


class InferenceModeVariable(AutocastVariable):
    """`torch.inference_mode(mode)` made in the frame."""

    region_class = minitorch2.inference_mode
    enter_region = staticmethod(minitorch2.autograd.grad_mode._enter_inference_mode)
    exit_region = staticmethod(minitorch2.autograd.grad_mode._exit_inference_mode)


class AutocastExitVariable(VariableTracker):
    """An autocast block's bound `__exit__` (never rebuilt: a break inside the block runs the frame eagerly)."""

    def __init__(self, node, region, exit_region):
        super().__init__()
        self.node = node
        self.region = region
        self.exit_region = exit_region

    def call_function(self, tx, args, kwargs):
        tx.output.create_node("call_function", self.exit_region, (self.node,), {})
        tx.output.open_regions.remove(self.region)
        self.exit_region(self.region)
        return ConstantVariable(None)
