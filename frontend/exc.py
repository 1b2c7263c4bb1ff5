"""Errors of the frontend (plays `torch._dynamo.exc`).

Frontend layer. `Unsupported` is raised by the translator when it meets something it cannot capture; it carries a
code from `break_reasons.REASONS` and the instruction, file and line. Outside `fullgraph=True` it never reaches
the user: the frame runs eagerly and the reason is recorded (see `explain`).
"""


class TorchDynamoException(RuntimeError):
    pass


class Unsupported(TorchDynamoException):
    """Something the translator cannot put in a graph (a graph break)."""

    def __init__(self, msg, code="unsupported", args=()):
        super().__init__(msg)
        self.msg, self.code, self.call_args = msg, code, args  # (its operands, which Dynamo's words describe)
        self.where = None  # "OPNAME at file:line", added by the translator
        # Where the break happened, noted by the translator (note_break_context): what decides whether the
        # frame can resume after it (resume.why_cannot_resume) and where the replay stops (break_step).
        self.in_loop = False  # a loop still to run in the frame being compiled (not in an inlined callee)
        self.blocks = []  # the try/except/with blocks around the break in the compiled frame
        self.break_step = None  # the number of the breaking instruction's step in the compiled frame
        self.break_offset = None
        self.break_opname = None
        self.next_opname = None  # the instruction after it (a BEFORE_WITH next: the break makes a context)

    def add_location(self, inst, filename, lineno):
        if self.where is None:
            self.where = f"{inst.opname} at {filename}:{lineno}"
            self.args = (f"{self.msg} (instruction {self.where})",)


class TorchRuntimeError(TorchDynamoException):
    """An op failed on fake tensors for the program's reason (a shape mismatch): raised, as Dynamo does."""


class BackendCompilerFailed(TorchDynamoException):
    def __init__(self, backend_name, inner):
        super().__init__(f"backend={backend_name!r} raised:\n{type(inner).__name__}: {inner}")
        self.backend_name, self.inner_exception = backend_name, inner


class InvalidBackend(TorchDynamoException):
    def __init__(self, name):
        super().__init__(f"Invalid backend: {name!r}, see `torch._dynamo.list_backends()` for available backends.")


class FailOnRecompileLimitHit(Exception):
    """A fullgraph frame needed more than config.cache_size_limit entries (not suppressed, as in torch)."""
