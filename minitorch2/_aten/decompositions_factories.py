"""zeros and ones as torch's decomposition tables write them: a `full` of the size, of value False / True for bool
and 0 / 1 otherwise, with the default dtype and the layout said.

Runtime layer, coverage surface: decompositions in table.py's rows for zeros and ones. Without them the factories
stay whole in the traced joint graph and the backend's joint-graph pass folds them into the same `full` later
(backend/joint_graph.py), so compiled code is the same; with them the joint graph is recorded as torch's.
"""
from .. import _dtype
from .._ops import ops
from .._tensor import strided


def _size_as_full(value):
    def decomposition(size, *, dtype=None, layout=None, device=None, pin_memory=None):
        dtype = dtype or _dtype.get_default_dtype()
        return ops.aten.full.default(list(size), bool(value) if dtype is _dtype.bool_ else value, dtype=dtype,
                                     layout=strided, device=device, pin_memory=False)

    return decomposition


zeros, ones = _size_as_full(0), _size_as_full(1)
