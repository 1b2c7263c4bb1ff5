"""Sets and frozensets of constants handed to a frame from outside (a resume function's `seen` after a graph break).

Frontend layer, called from builder.wrap through dataclass_internals.wrap_other, for a value no other tracker takes.
As Dynamo's builder does for a set input, the set is guarded (its type, and its members: here by equality, they are
constants) and modelled by a copy, a constant whose methods fold as those of a set made in the frame do. A set is
mutable: a method that changes the copy (`seen.add(3)`) marks it as a mutated input, and after the graph its final
members are written back into the caller's set (OutputGraph.note_mutation, as for a list or dict from outside).
"""
from .. import guards
from .constant import ConstantVariable


def is_input_set(value):
    """A set or frozenset of hashable constants (ints, strings, bools, None) the translator can model by a copy."""
    return type(value) in (set, frozenset) and all(type(v) in (int, str, bool, type(None)) for v in value)


def wrap_input_set(og, value, source):
    og.guards.add(guards.type_guard(source, value), type(value))
    og.guards.add(guards.constant_guard(source, type(value)(value)))  # (a copy: the guard keeps today's members)
    return InputSetVariable(value, source)


class InputSetVariable(ConstantVariable):
    """The copy of a set from outside; `items` (its members) is what a mutated input's write-back replays."""

    def __init__(self, value, source=None):
        super().__init__(type(value)(value), source)

    @property
    def items(self):
        return self.value

    def call_method(self, tx, name, args, kwargs):
        before = set(self.value)
        result = super().call_method(tx, name, args, kwargs)
        if self.value != before:
            tx.output.note_mutation(self)
        return result
