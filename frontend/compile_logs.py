"""What one compile of a frame logs (MINITORCH2_LOGS): why it recompiles, its bytecode before and after, its guards,
all under the compile's id ([0/1]); the warning for a frame past config.cache_size_limit.

Observability, wrapped around the frontend's translate (eval_frame.py): a reader of the lesson can skip it.
"""
import warnings

from minitorch2 import _logging

from . import config
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


def warn_cache_size_limit(fn, entries, L, backend):
    """The warning, once, that fn's code runs eagerly from now on, naming the latest entry's failing guard."""
    code = fn.__code__
    warnings.warn(f"frontend hit config.cache_size_limit ({config.cache_size_limit})\n"
                  f"   function: '{code.co_name}' ({code.co_filename}:{code.co_firstlineno})\n"
                  f"   last reason: {': '.join(guard_failures(fn, entries, L, backend)[0])}\n"
                  'To log all recompilation reasons, use MINITORCH2_LOGS="recompiles".')
