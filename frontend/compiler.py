"""torch.compiler: the compiler's user-facing names (under `python -m minitorch2 run`, `torch.compiler` is this
module; cli/aliases.py). Frontend layer: each name is the frontend's own, under the name torch.compiler gives it."""
import minitorch2

from .backends import list_backends  # noqa: F401
from .eval_frame import disable, reset  # noqa: F401
from .graph_break import is_compiling

is_dynamo_compiling = is_compiling


def compile(*args, **kwargs):
    """torch.compiler.compile: torch.compile under another name."""
    return minitorch2.compile(*args, **kwargs)


def is_exporting():
    """True only while torch.export traces, which minitorch2 does not have."""
    return False


__all__ = ["compile", "disable", "reset", "list_backends", "is_compiling", "is_dynamo_compiling", "is_exporting"]
