"""ConstraintViolationError, in torch's words for a size marked dynamic that the program specialized, and
mark_dynamic's min/max.

Runtime layer, fidelity of errors: symbolic_shapes.ShapeEnv.check_constraints raises it after a trace, and
torch.export (export/dynamic_shapes.py) for its own Dim constraints. constrain_marked gives a size marked with
mark_dynamic(t, d, min=, max=) its range, and raises it, as torch's ShapeEnv, for a size out of that range.
"""
import sys

import sympy

from minitorch2._sym import is_symbolic


class ConstraintViolationError(RuntimeError):
    """A size marked dynamic (mark_dynamic, Dim.DYNAMIC) that the program specialized to a constant."""

    @classmethod
    def specialized(cls, pinned):
        """The error for [(source name, the constant it became)], with torch's hints."""
        return cls(
            f"Constraints violated ({', '.join(name for name, _ in pinned)})! For more information, run with "
            'TORCH_LOGS="+dynamic".\n' + "".join(
                f"  - You marked {name} as dynamic but your code specialized it to be a constant ({value}). If "
                "you're using mark_dynamic, either remove it or use maybe_mark_dynamic. If you're using "
                "Dim.DYNAMIC, replace it with either Dim.STATIC or Dim.AUTO.\n" for name, value in pinned))


def constrain_marked(shape_env, marked, name, size, low, high):
    """A size mark_dynamic marked: its symbol's range narrowed to [low, high] (torch's: at least 2; a size out of it
    an error now) and kept in `marked` ({source name: expression}) for check_constraints, which fails if the
    program made it a constant. A 0 or 1 (specialized already) is kept only where min or max was given, as torch's."""
    if is_symbolic(size):
        bounds = [max(low or 0, 2), sys.maxsize - 1 if high is None else high]  # (symbolic_shapes' _SIZE_MAX)
        if not bounds[0] <= size.node.hint <= bounds[1]:
            raise ConstraintViolationError(f"{size.node.hint} not in range [{bounds[0]}, {high or 'int_oo'}]")
        shape_env.var_to_range[size.node.expr] = [sympy.Integer(b) for b in bounds]
        marked[name] = size.node.expr
    elif (low, high) != (None, None):
        marked[name] = sympy.Integer(size)
