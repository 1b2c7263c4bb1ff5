"""Context managers of the standard library inside compiled frames: @contextmanager functions, nullcontext,
suppress and ExitStack, as Dynamo traces their `with` blocks.

Frontend layer, coverage surface beside stdlib.py (whose LibraryCallsMixin makes the nullcontext, suppress and
ExitStack trackers; functions.py makes a @contextmanager's): symbolic_convert.py's BEFORE_WITH calls a tracker's
enter() and keeps what it returns as the block's exit, called when the block is left. A @contextmanager block
inlines its generator up to the yield on entry and on to its end on exit (SuspendingGeneratorMixin, stdlib.py). A
graph break inside a plain nullcontext() block resumes as one inside a grad-mode block (resume.py); inside the
others, the frame runs eagerly.
"""
import contextlib
import functools
import types

from ..exc import Unsupported
from .base import VariableTracker
from .constant import ConstantVariable
from .exceptions import ExceptionVariable, ObservedException


CONTEXTMANAGER_CODE = contextlib.contextmanager(None).__code__  # the code of every @contextmanager's wrapper


class GeneratorContextVariable(VariableTracker):
    """`cm(...)` of a @contextmanager function: entering runs its generator up to the yield, inlined."""

    def __init__(self, fn_var, args, kwargs):
        super().__init__()
        self.fn_var, self.args, self.kwargs = fn_var, args, kwargs

    def python_type(self):
        return contextlib._GeneratorContextManager

    def enter(self, tx):
        inline = getattr(self.fn_var, "inline", self.fn_var.call_function)  # (a nested function's call inlines it)
        generator = inline(tx, self.args, self.kwargs, suspending=True)
        return GeneratorExitVariable(generator, generator.run())


class GeneratorExitVariable(VariableTracker):
    """The `__exit__` a @contextmanager's `with` block keeps: calling it runs the generator on to its end."""

    def __init__(self, generator, yielded):
        super().__init__()
        self.generator, self.yielded = generator, yielded

    def call_function(self, tx, args, kwargs):
        """__exit__(): the generator runs on to its end. __exit__(type, exc, tb), an exception leaving the block:
        thrown into the generator at its yield first; caught there, it is suppressed (True), as contextmanager's."""
        exception = args[1].realize() if len(args) == 3 else None  # (None when the block ends normally)
        exception = exception if isinstance(exception, ExceptionVariable) else None
        try:
            if exception is None:
                self.generator.run()
            else:
                self.generator.throw(exception)
        except ObservedException as e:
            if e.value is not exception:
                raise
            return ConstantVariable(False)
        if self.generator.suspended:
            raise Unsupported("a @contextmanager generator that yields twice", "unsupported")
        return ConstantVariable(None if exception is None else True)


_NULLCONTEXT = functools.partial(contextlib.nullcontext)  # (a partial: what a resume function's LOAD_CONST wraps)


class NullContextVariable(VariableTracker):
    """contextlib.nullcontext(value), or suppress(*exceptions): a `with` block that binds `value`; an exception
    leaving it goes on, unless it is one of those suppressed (its exit says so: opcodes_exceptions.py)."""

    def __init__(self, value, suppressed=None):
        super().__init__()
        self.yielded, self.suppressed = value, suppressed

    def python_type(self):
        return contextlib.nullcontext if self.suppressed is None else contextlib.suppress

    def enter(self, tx):
        return self

    def leave(self, output, grad_mode):
        """A graph break inside a plain nullcontext() block: the resume function re-enters it (resume.py), as
        Dynamo's; inside suppress() or nullcontext(value) (where Dynamo 2.13 fails) the frame runs eagerly."""
        if self.suppressed is not None or not (isinstance(self.yielded, ConstantVariable) and self.yielded.value is None):
            raise Unsupported("a graph break inside a suppress() or nullcontext(value) block", "graph_break_in_with")
        return grad_mode

    def context_class(self):
        return _NULLCONTEXT

    def call_function(self, tx, args, kwargs):  # (its exit: (None, None, None), or an exception's class first)
        raised = args[0].realize().as_python_constant() if args else None
        suppressed = self.suppressed is not None and raised is not None and issubclass(raised, self.suppressed)
        return ConstantVariable(suppressed)


class ExitStackVariable(VariableTracker):
    """contextlib.ExitStack() made in the frame as a `with` block: enter_context(cm) enters cm now (its __enter__
    inlined, what it returns the call's value) and keeps its exit; leaving the block calls the kept exits, the last
    entered first, as ExitStack.__exit__ does. The stack is its own exit (and what `as` binds)."""

    def __init__(self):
        super().__init__()
        self.exits, self.yielded = [], self

    def python_type(self):
        return contextlib.ExitStack

    def enter(self, tx):
        return self

    def call_method(self, tx, name, args, kwargs):
        if name == "callback" and args:  # its exit calls fn(*args, **kwargs), without the exception's details
            fn, rest = args[0].realize(), list(args[1:])
            self.exits.append(types.SimpleNamespace(call_function=lambda tx, *_: fn.call_function(tx, rest, kwargs)))
            return fn
        manager = args[0].realize() if name == "enter_context" and len(args) == 1 and not kwargs else None
        # a user's context manager, a @contextmanager's or nullcontext; as Dynamo, not a grad mode (whose
        # __enter__ it refuses to trace: the frame runs eagerly)
        modelled = (GeneratorContextVariable, NullContextVariable)
        if not (hasattr(manager, "call_dunder") or isinstance(manager, modelled)):
            raise Unsupported(f"ExitStack.{name} of these arguments", "unsupported_call")
        self.exits.append(manager.enter(tx))
        return getattr(self.exits[-1], "yielded", ConstantVariable(None))

    def reconstruct(self, cg):  # (as a user's context manager's: a break inside the block runs the frame eagerly)
        raise Unsupported("a graph break inside an ExitStack's `with` block", "graph_break_in_with")

    def call_function(self, tx, args, kwargs):  # (its exit: of a block left normally only)
        if args and not (args[0].realize().is_python_constant() and args[0].realize().as_python_constant() is None):
            raise Unsupported("an exception leaving an ExitStack's block", "unsupported")
        while self.exits:
            self.exits.pop().call_function(tx, args, kwargs)
        return ConstantVariable(False)
