"""torch.return_types: the named (values, indices) pairs that sort, topk, max/min over a dim return.

Runtime layer. Each is a tuple, so `values, indices = torch.sort(x)` unpacks,
with `.values` and `.indices`, and prints as torch's structseq prints:
`torch.return_types.sort(\\nvalues=...,\\nindices=...)`.
"""


class _ValuesIndices(tuple):
    _fields = ("values", "indices")
    n_fields = n_sequence_fields = 2
    n_unnamed_fields = 0

    def __new__(cls, values, indices=None):
        if indices is None:  # torch.return_types.sort((values, indices)), as a structseq is rebuilt
            values, indices = values
        return tuple.__new__(cls, (values, indices))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.{type(self).__name__}(\nvalues={self[0]!r},\nindices={self[1]!r})"

    def __reduce__(self):
        return type(self), (tuple(self),)


class sort(_ValuesIndices):
    pass


class topk(_ValuesIndices):
    pass


__all__ = ["sort", "topk"]
