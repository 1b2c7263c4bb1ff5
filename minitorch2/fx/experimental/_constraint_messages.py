"""ConstraintViolationError, in torch's words for a size marked dynamic that the program specialized.

Runtime layer, fidelity of errors: symbolic_shapes.ShapeEnv.check_constraints raises it after a trace, and
torch.export (export/dynamic_shapes.py) for its own Dim constraints. Only the message's text is torch's here.
"""


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
