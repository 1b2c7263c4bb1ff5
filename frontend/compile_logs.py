"""What one compile of a frame logs (MINITORCH2_LOGS): why it recompiles, its bytecode before and after, its guards,
all under the compile's id ([0/1]).

Observability, wrapped around the frontend's translate (eval_frame.py): a reader of the lesson can skip it.
"""
from minitorch2 import _logging

from .guard_failures import guard_failures


def translate_logged(translate, fn, L, backend, nopython, entries):
    """translate(fn, L, backend, nopython), tagged with its compile id and logging the artifacts of one compile."""
    code = fn.__code__
    with _logging.compile_context(code, len(entries)):
        if entries and _logging.enabled("recompiles"):
            _logging.log_recompile(code.co_name, code.co_filename, code.co_firstlineno,
                                   guard_failures(fn, entries, L, backend))
        _logging.log_bytecode("ORIGINAL BYTECODE", code.co_name, code.co_filename, code.co_firstlineno, code)
        entry = translate(fn, L, backend, nopython)
        if entry.transformed_code is not None:
            _logging.log_bytecode("MODIFIED BYTECODE", code.co_name, code.co_filename, code.co_firstlineno,
                                  entry.transformed_code)
        _logging.log_guards(entry.guard_fn.source)
    return entry
