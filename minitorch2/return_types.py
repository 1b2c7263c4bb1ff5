"""torch.return_types: the named tuples torch's functions return (max's values and indices, linalg.svd's U, S, Vh).

Runtime layer. Each is a tuple, so `values, indices = torch.sort(x)` unpacks, with its fields as attributes, and
prints as torch's structseq prints: `torch.return_types.sort(\\nvalues=...,\\nindices=...)`.
"""


class _StructSeq(tuple):
    _fields = ()
    n_unnamed_fields = 0

    def __new__(cls, *values):
        values = tuple(values[0]) if len(values) == 1 else values  # torch.return_types.sort((values, indices))
        if len(values) != len(cls._fields):
            raise TypeError(f"torch.return_types.{cls.__name__}() takes a {len(cls._fields)}-sequence "
                            f"({len(values)}-sequence given)")
        return tuple.__new__(cls, values)

    def __repr__(self):
        fields = ",\n".join(f"{name}={value!r}" for name, value in zip(self._fields, self))
        return f"torch.return_types.{type(self).__name__}(\n{fields})"

    def __reduce__(self):
        return type(self), (tuple(self),)


def structseq(name, fields=None, base=_StructSeq):
    """A return type `name` with these fields (a base's when none are given), each also an attribute."""
    fields = base._fields if fields is None else tuple(fields)
    namespace = {field: property(lambda self, i=i: self[i]) for i, field in enumerate(fields)}
    namespace.update(_fields=fields, n_fields=len(fields), n_sequence_fields=len(fields), __module__=__name__)
    return type(name, (base,), namespace)


_ValuesIndices = structseq("_ValuesIndices", ("values", "indices"))
# name:fields (none given: values, indices)
_TYPES = """max min sort topk mode nanmedian aminmax:min,max slogdet:sign,logabsdet qr:Q,R svd:U,S,V
linalg_inv_ex:inverse,info linalg_cholesky_ex:L,info linalg_slogdet:sign,logabsdet linalg_qr:Q,R linalg_svd:U,S,Vh
histogram:hist,bin_edges linalg_eigh:eigenvalues,eigenvectors linalg_lstsq:solution,residuals,rank,singular_values"""
__all__ = [spec.partition(":")[0] for spec in _TYPES.split()]
for _name, _, _fields in (spec.partition(":") for spec in _TYPES.split()):
    globals()[_name] = structseq(_name, _fields.split(",")) if _fields else structseq(_name, base=_ValuesIndices)
