"""Grad-mode context managers inside a compiled frame: `with torch.no_grad():` / `enable_grad()`.

Frontend layer. As Dynamo does, entering and leaving the block are recorded in the graph as calls that switch grad
mode (`_set_grad_enabled = torch._C._set_grad_enabled(False)`), so the graph itself runs the block's ops with grad
disabled. The translator also switches the real grad mode while inside the block, so the fake values it computes
have the requires_grad the real run will have. torch.autocast blocks are the same idea (autocast.py); other
context managers are a graph break.
"""
import minitorch2
from minitorch2.fx._spelling import register_spelling

from .base import ValueVariable, VariableTracker
from .constant import ConstantVariable


def _set_grad_enabled(mode):
    """The graph's grad-mode switch (PyTorch spells it torch._C._set_grad_enabled)."""
    minitorch2.autograd.grad_mode.state.grad_enabled = bool(mode)


# Generated graph code reaches minitorch2-owned objects through `torch.`; this one is spelled as PyTorch's.
_set_grad_enabled.__module__ = "minitorch2._C"
register_spelling("torch._C._set_grad_enabled", _set_grad_enabled)

GRAD_MODE_CLASSES = (minitorch2.no_grad, minitorch2.enable_grad, minitorch2.set_grad_enabled)


def switch_grad_mode(tx, mode):
    """Record a grad-mode switch in the graph, real for the rest of the translation; none to the mode already on
    (Dynamo coalesces them: `with set_grad_enabled(True):` under grad mode records nothing)."""
    if minitorch2.is_grad_enabled() != mode:
        record_grad_switch(tx.output, mode)
        _set_grad_enabled(mode)


def record_grad_switch(output, mode):
    """A grad-mode switch node; one undoing the switch just before it cancels both (Dynamo's cleanup_graph)."""
    last = next(reversed(output.graph.nodes), None)
    node = output.create_node("call_function", _set_grad_enabled, (mode,), {})
    node.meta["grad_mode_before"] = minitorch2.is_grad_enabled()
    if last is not None and last.target is _set_grad_enabled and last.meta.get("grad_mode_before") == mode:
        output.graph.erase_node(node), output.graph.erase_node(last)
        output.switches_dropped = True  # (still ops traced: the frame compiles, as Dynamo's count precedes its cleanup)


class GradModeClassVariable(ValueVariable):
    """`torch.no_grad` / `torch.enable_grad` / `torch.set_grad_enabled` themselves (before the call)."""

    def call_function(self, tx, args, kwargs):
        previous = minitorch2.is_grad_enabled()
        if self.value is minitorch2.set_grad_enabled:
            mode = bool(args[0].realize().as_python_constant())
            switch_grad_mode(tx, mode)  # takes effect on construction, as torch.set_grad_enabled does
            return GradModeVariable(mode, previous, entered=True)
        return GradModeVariable(self.value is minitorch2.enable_grad, previous, entered=False)

    def reconstruct(self, cg):
        cg.append("LOAD_CONST", self.value)


class GradModeInstanceVariable(ValueVariable):
    """A grad-mode object from outside the frame (guarded by identity): a `@torch.no_grad()` wrapper's `self`,
    which runs `with self.__class__(*self._ctor_args): return fn(...)`, needing only these two attributes."""

    def var_getattr(self, tx, name):
        if name == "__class__":
            return GradModeClassVariable(type(self.value))
        return tx.output.wrap(self.value._ctor_args, None) if name == "_ctor_args" else super().var_getattr(tx, name)


class GradModeVariable(VariableTracker):
    """A grad-mode context manager object; BEFORE_WITH calls `enter`, the block's end calls the exit."""

    def __init__(self, mode, previous, entered):
        super().__init__()
        self.mode, self.previous, self.entered = mode, previous, entered

    def python_type(self):
        return minitorch2.set_grad_enabled

    def call_function(self, tx, args, kwargs):
        """`@torch.no_grad()` over a function made in the frame: each call of it runs inside the block."""
        return GradModeFunctionVariable(self.mode, args[0])

    def enter(self, tx):
        if not self.entered:  # set_grad_enabled(mode) switched on construction; `previous` is the mode before that
            self.previous = minitorch2.is_grad_enabled()
            switch_grad_mode(tx, self.mode)
        return GradModeExitVariable(self.mode, self.previous)


class GradModeExitVariable(VariableTracker):
    """The bound `__exit__` a `with` block keeps on the stack: calling it restores the previous mode."""

    def __init__(self, mode, previous):
        super().__init__()
        self.mode, self.previous = mode, previous

    def context_class(self):
        return minitorch2.enable_grad if self.mode else minitorch2.no_grad

    def call_function(self, tx, args, kwargs):
        switch_grad_mode(tx, self.previous)
        return ConstantVariable(None)

    def leave(self, output, mode):
        """The block left at the end of a graph that breaks inside it (innermost first); the grad mode after."""
        if mode != self.previous:
            record_grad_switch(output, self.previous)
        return self.previous


class GradModeFunctionVariable(VariableTracker):
    """A function decorated in the frame with a grad-mode object: its calls are inlined between enter and exit."""

    def __init__(self, mode, fn):
        super().__init__()
        self.mode, self.fn = mode, fn

    def call_function(self, tx, args, kwargs):
        exit_var = GradModeVariable(self.mode, None, entered=False).enter(tx)
        result = self.fn.realize().call_function(tx, args, kwargs)
        exit_var.call_function(tx, [], {})
        return result
