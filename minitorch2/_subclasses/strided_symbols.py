"""Symbols for a strided input's strides and storage offset, as PyTorch's ShapeEnv makes them.

Runtime layer, a fragment of dynamic-shape policy: FakeTensorMode.from_tensor asks symbolic_strides() for a fake
input's strides, the frontend's output graph asks symbols_to_lift() which of a fake input's sizes, strides and offset
become graph inputs of their own (and their names), and its generated code reads a stride or the offset with
tensor_property(). It only matters for inputs that are views with gaps (a slice `cache[:, :, :pos]` of a preallocated
cache, `idx[:, -block:]`): a contiguous input's strides follow from its sizes.
"""
from .._sym import is_symbolic


def symbolic_strides(shape_env, source, sizes, symbolic_sizes, strides, sizes_static):
    """PyTorch's strides of a fake input: from the innermost (smallest) stride out, a stride that equals an inner
    dim's size times stride is that product (a contiguous layout's strides follow from its sizes); any other stays
    as it is where every size is static, else it is a symbol of its own, duck-sized (a slice `cache[:, :, :n]` of a
    preallocated cache keeps the cache's row stride as `s33`). A stride of 0 or 1 stays a number."""
    out, products = [None] * len(sizes), {}
    for i in sorted(range(len(sizes)), key=lambda d: (strides[d], -d)):
        inner_product = i != len(sizes) - 1 and strides[i] == sizes[i + 1] * strides[i + 1]
        if strides[i] in (0, 1) and not inner_product:
            out[i] = strides[i]
        else:
            out[i] = products.get(strides[i]) or shape_env.create_symbol(strides[i], f"{source}.stride()[{i}]",
                                                                          dynamic=not sizes_static)
        products[sizes[i] * strides[i]] = symbolic_sizes[i] * out[i]
    return out


def symbols_to_lift(fake, bound):
    """(dim, "size" / "stride" / "storage_offset", SymInt, placeholder name) for each symbol of a fake input not in
    `bound`, sizes first, as Dynamo lifts them. Dynamo lifts a compound stride (`2*s33`) under its free symbol's name
    first and drops that input unused, so the symbol's own input is then `s33_0`."""
    numbers = [*((d, "size", n) for d, n in enumerate(fake.shape)),
               *((d, "stride", n) for d, n in enumerate(fake.stride())), (None, "storage_offset", fake._offset)]
    taken, lifted = set(), {}
    for dim, prop, n in numbers:
        if is_symbolic(n) and not n.node.expr.is_Symbol:
            taken.update(str(s) for s in n.node.expr.free_symbols if s not in bound)
        elif is_symbolic(n) and n.node.expr not in bound and n.node.expr not in lifted:
            lifted[n.node.expr] = (dim, prop, n, str(n.node.expr) + "_0" * (str(n.node.expr) in taken))
    return list(lifted.values())


def tensor_property(value, prop, dim):
    """`x.stride()[dim]`, `x.storage_offset()` in a compiled frame's generated code (the symbol's graph input)."""
    number = getattr(value, prop)()
    return number if dim is None else number[dim]
