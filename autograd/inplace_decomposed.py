"""An in-place op decomposed before functionalization (leaky_relu_, elu_, hardtanh_: their functional ops'
decompositions, then copy_ into self; native_batch_norm's, copy_ into its running statistics) functionalizes as
torch's does it the other way round.

autograd layer, coverage surface (graph fidelity: the values are the same either way). torch's functionalization runs
before its decompositions, so leaky_relu_ becomes leaky_relu, decomposed, whose result is self's new value; here
the proxy mode decomposes first and the copy_ that ends the decomposition reaches functionalize.py, which would
record aten.copy. For that copy_ the new value is the result itself, with no copy node. So for the copy_ an out=
call ends with (minitorch2/_out.py): torch functionalizes `mul.out` as `mul`, its result out's new value.
"""
from minitorch2 import ops
from minitorch2.fx.node import Node

aten = ops.aten


def result_into_self(node, current):
    """The new node standing for self after `node`, the copy_ an in-place op's decomposition ended with (traced
    inside it: meta "original_aten" names the op), or None for any other mutation."""
    original = node.meta.get("original_aten")
    # (native_batch_norm writes the running statistics its decomposition copies into, though its schema has no `!`)
    writes = getattr(original, "is_inplace", False) or original in (aten.native_batch_norm.default, "out=")
    if node.target is not aten.copy_.default or not writes or original is node.target:
        return None
    old, new = node.args[:2]
    # (out= of another dtype: torch's functionalization casts the result, _to_copy, as functionalize.py does)
    same_kind = isinstance(new, Node) and old.meta["val"].shape == new.meta["val"].shape and (
        original == "out=" or old.meta["val"].dtype == new.meta["val"].dtype)
    return current(new) if same_kind else None
