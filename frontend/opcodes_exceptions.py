"""try/except inside a compiled frame: the exception table, and the opcodes of raising and handling (3.11-3.13).

Frontend layer, a mixin of the InstructionTranslator. Since 3.11 a `try` block is no instruction at all: the code
object's exception table maps ranges of instructions to a handler, with the stack depth to unwind to. When the
traced program raises (a tracker raised an ObservedException: d[k]'s KeyError, next()'s StopIteration, a `raise`),
the translator does what CPython's unwinder does: find the entry covering the instruction, cut the stack to its
depth, push the exception and go on at the handler, whose PUSH_EXC_INFO, CHECK_EXC_MATCH, POP_EXCEPT and RERAISE
run here too. A `with` block's handler calls its __exit__ (WITH_EXCEPT_START: a grad mode or autocast block ends
and the exception goes on; contextlib.suppress's may stop it). No handler in an inlined callee: the exception
passes to its caller's CALL, as in Python. No handler in the frame being compiled: as Dynamo's "Observed
exception", a graph break that runs the whole frame eagerly (the exception is raised by the real code).

The one idea to hold: one unwinder serves every raise and every frame.
"""
import dis
import functools

from .exc import Unsupported
from .variables import ConstantVariable
from .variables.autocast import AutocastExitVariable
from .variables.context_trackers import GeneratorExitVariable, NullContextVariable
from .variables.ctx_manager import GradModeExitVariable
from .variables.exceptions import ObservedException, as_exception
from .variables.user_protocols import UserContextExitVariable

RAISE_BREAK = ("an exception raised in the frame is not caught in it", "uncaught_exception")


@functools.lru_cache(maxsize=512)
def exception_table(code):
    return tuple(dis.Bytecode(code).exception_entries)


class ExceptionOpcodesMixin:  # (self: an InstructionTranslatorBase)
    handled_exceptions = ()  # those of the `except` blocks being run, innermost last (each frame its own)

    def unwind_to_handler(self, e, inst):
        """Go on at the handler CPython runs for e raised at inst; none in this frame: raise it on to the caller."""
        entry = next((h for h in exception_table(self.code) if h.start <= inst.offset < h.end), None)
        if entry is None:
            if self.depth > 0:
                raise e
            e.value.uncaught.add_location(inst, self.code.co_filename, self.lineno)
            raise e.value.uncaught from None
        del self.stack[entry.depth:]
        if entry.lasti:
            self.push(ConstantVariable(inst.offset))
        self.push(e.value)
        self.ip = self.index_of_offset[entry.target]

    def PUSH_EXC_INFO(self, inst):
        """[exc] -> [the exception handled before, exc]: exc is now the one a bare `raise` re-raises."""
        exception = self.pop()
        self.push(self.handled_exceptions[-1] if self.handled_exceptions else ConstantVariable(None))
        self.push(exception)
        self.handled_exceptions = (*self.handled_exceptions, exception)

    def POP_EXCEPT(self, inst):
        self.pop()
        self.handled_exceptions = self.handled_exceptions[:-1]

    def CHECK_EXC_MATCH(self, inst):
        """`except KeyError:` (or a tuple of classes): does the exception below match? It stays on the stack."""
        classes = self.pop().realize().as_python_constant()
        self.push(ConstantVariable(issubclass(self.stack[-1].python_type(), classes)))

    def WITH_EXCEPT_START(self, inst):
        """[__exit__, lasti, previous, exc] -> the same and what __exit__(type(exc), exc, None) returns."""
        exit_var, exception = self.stack[-4], self.stack[-1]
        if not isinstance(exit_var, (GradModeExitVariable, AutocastExitVariable, NullContextVariable,
                                     UserContextExitVariable, GeneratorExitVariable)):
            raise Unsupported(f"an exception leaving a `with` block of {exit_var}", "graph_break_in_with")
        args = [ConstantVariable(exception.python_type()), exception, ConstantVariable(None)]
        self.push(exit_var.call_function(self, args, {}))

    def CALL_INTRINSIC_1(self, inst):
        """3.12+: a generator's body is covered by a handler whose INTRINSIC_STOPITERATION_ERROR turns a StopIteration
        leaving the body into a RuntimeError (PEP 479): left to the RERAISE after it, and to generator_iterator."""
        if inst.argrepr != "INTRINSIC_STOPITERATION_ERROR":
            return super().CALL_INTRINSIC_1(inst)  # (opcodes_312.py's)

    def RERAISE(self, inst):
        raise ObservedException(self.pop())

    def RAISE_VARARGS(self, inst):
        """`raise` (the exception being handled), `raise exc` or `raise exc from cause`."""
        if inst.arg == 0:
            if not self.handled_exceptions:
                raise Unsupported(*RAISE_BREAK)
            raise ObservedException(self.handled_exceptions[-1])
        cause = self.pop().realize() if inst.arg == 2 else None
        exception = as_exception(self.pop())
        if cause is not None:
            none = cause.is_python_constant() and cause.as_python_constant() is None
            exception.cause = cause if none else as_exception(cause)
        if self.handled_exceptions and self.handled_exceptions[-1] is not exception:  # raised while handling one
            exception.context = self.handled_exceptions[-1]
        if exception.uncaught is None:
            exception.uncaught = Unsupported(*RAISE_BREAK)
        raise ObservedException(exception)
