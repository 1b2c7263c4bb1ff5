"""Rewrites of one fused kernel's loop body that trade recomputation for a reload from cache.

Backend layer, applied by the scheduler (`scheduler.py`) to each kernel's outer loop body before its pointers
are named; code generation sees an ordinary `loop_ir` body.

Fusion lets a kernel recompute a value instead of reading it back from memory, which is right for cheap
arithmetic and wrong for transcendentals. Softmax is the case that matters:

    tmp1 = sum(r0: exp(x[r0] - tmp0))                 for r0: out[r0] = exp(x[r0] - tmp0)
    for r0: out[r0] = exp(x[r0] - tmp0) / tmp1   ->   tmp1 = sum(r0: out[r0])
                                                      for r0: out[r0] = out[r0] / tmp1

computes exp once per element instead of twice, as PyTorch's eager CPU kernel does. The reloaded row was
written in the same outer iteration, so it is still in the L1 cache, and the values are bit for bit the same:
the stored float is the one the reduction would have summed (up to the order of the sum, which may vectorize).
"""
from . import loop_ir as L

EXPENSIVE_OPS = {*L.TRANSCENDENTAL, "pow", "atan2"}


def store_expensive_reductions(body):
    """body (an outer loop's statements) with each reduction over an expensive value that a later store
    of the same loop also computes rewritten to store that value first and reload it (see above)."""
    body = list(body)
    for position in range(len(body)):
        reduce = body[position]
        if not (isinstance(reduce, L.Reduce) and _is_expensive(reduce.value)):
            continue
        store = _store_computing(body[position + 1:], reduce)
        if store is None or any(load.buffer == store.buffer for stmt in body for load in L.statement_loads(stmt)):
            continue
        reload = L.Load(store.buffer, store.index, reduce.value.dtype)
        store.value = _replace(store.value, reduce.value, reload)
        body[position] = L.Loop(reduce.rvars, reduce.rranges, [L.Store(store.buffer, store.index, reduce.value)])
        body.insert(position + 1, L.Reduce(reduce.temp, reduce.reduction_type, reduce.rvars, reduce.rranges, reload,
                                           reduce.dtype))
    return body


def _store_computing(later, reduce):
    """The store in a later inner loop over the reduction's own loop variables whose value contains the
    reduction's value, into a buffer of the value's dtype, at an element of its own for each value; or None."""
    for stmt in later:
        if not (isinstance(stmt, L.Loop) and stmt.vars == reduce.rvars and stmt.ranges == reduce.rranges):
            continue
        for store in stmt.body:
            if (isinstance(store, L.Store) and store.mode is None and _contains(store.value, reduce.value)
                    and getattr(store.value, "dtype", None) == reduce.value.dtype
                    and set(reduce.rvars) <= L.variables(store.index)):  # one element per reduced value
                return store
    return None


def _is_expensive(value):
    return isinstance(value, L.Op) and (value.name in EXPENSIVE_OPS or any(_is_expensive(a) for a in value.args))


def _contains(value, part):
    return value == part or (isinstance(value, L.Op) and any(_contains(a, part) for a in value.args))


def _replace(value, part, by):
    if value == part:
        return by
    if isinstance(value, L.Op):
        return L.Op(value.name, tuple(_replace(a, part, by) for a in value.args), value.dtype)
    return value
