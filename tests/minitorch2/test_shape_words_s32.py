"""Dims past the rank, sizes that cannot fit and indices put_ refuses: torch's error classes and words (session 32).

SILENT before: flatten, movedim/moveaxis, unflatten, repeat_interleave, renorm, glu (F.glu, nn.GLU), gradient,
take_along_dim and nn.Flatten wrapped a dim past the rank modulo the rank and computed along another dim
(`x.flatten(5)` of a 3-D x returned x; `x.repeat_interleave(2, 3)` repeated dim 0). torch raises IndexError.
unflatten also answered a product mismatch with view's words; view and reshape gave an ambiguous -1 over 0
elements the words of a size mismatch.
"""
import pytest
import torch

import minitorch2

SHAPE_MISTAKES = {
    "unflatten product mismatch": lambda t: t.zeros(2, 5).unflatten(-1, (2, 3)),
    "unflatten -1 that cannot divide": lambda t: t.zeros(2, 5).unflatten(1, (2, -1)),
    "unflatten empty sizes": lambda t: t.zeros(2, 3).unflatten(1, ()),
    "unflatten empty sizes past the rank": lambda t: t.zeros(2, 3).unflatten(5, ()),
    "unflatten dim past the rank": lambda t: t.zeros(2, 3).unflatten(2, (3,)),
    "unflatten dim far past the rank": lambda t: t.zeros(2, 6).unflatten(5, (2, 3)),
    "unflatten a 0-d tensor": lambda t: t.zeros(()).unflatten(0, (1,)),
    "unflatten two -1": lambda t: t.zeros(3, 6).unflatten(1, (-1, -1)),
    "unflatten a negative size": lambda t: t.zeros(2, 6).unflatten(1, (-2, 3)),
    "unflatten ambiguous over 0 elements": lambda t: t.zeros(2, 0).unflatten(1, (0, -1)),
    "nn.Unflatten product mismatch": lambda t: t.nn.Unflatten(1, (2, 3))(t.randn(2, 5)),
    "view ambiguous over 0 elements": lambda t: t.zeros(2, 0).view(0, -1),
    "reshape ambiguous over 0 elements": lambda t: t.zeros(2, 0).reshape(-1, 0),
    "view negative size": lambda t: t.zeros(6).view(-2, -3),
    "reshape negative size": lambda t: t.zeros(6).reshape(2, -3),
}


X = (2, 3, 4)
DIM_PAST_THE_RANK = {
    "flatten start": lambda t: t.zeros(X).flatten(5),
    "flatten end": lambda t: t.zeros(X).flatten(0, 7),
    "flatten negative": lambda t: t.zeros(X).flatten(-5),
    "flatten of a 0-d tensor": lambda t: t.zeros(()).flatten(5),
    "nn.Flatten": lambda t: t.nn.Flatten(5)(t.zeros(X)),
    "movedim source": lambda t: t.zeros(X).movedim(3, 0),
    "movedim destination": lambda t: t.zeros(X).movedim(0, -4),
    "movedim repeated source": lambda t: t.zeros(X).movedim((0, -3), (1, 2)),
    "movedim repeated destination": lambda t: t.zeros(X).movedim((0, 1), (2, -1)),
    "movedim lengths": lambda t: t.zeros(X).movedim((0, 1), (1,)),
    "moveaxis": lambda t: t.moveaxis(t.zeros(X), 4, 0),
    "repeat_interleave": lambda t: t.zeros(X).repeat_interleave(2, 3),
    "renorm": lambda t: t.zeros(X).renorm(2, 3, 1.0),
    "renorm negative": lambda t: t.renorm(t.zeros(X), 2, -4, 1.0),
    "F.glu": lambda t: t.nn.functional.glu(t.zeros(2, 4), 2),
    "nn.GLU": lambda t: t.nn.GLU(3)(t.zeros(X)),
    "gradient": lambda t: t.gradient(t.zeros(X), dim=3),
    "take_along_dim": lambda t: t.take_along_dim(t.zeros(X), t.zeros(X, dtype=t.long), dim=3),
    "chunk": lambda t: t.zeros(X).chunk(2, 3),
    "diff": lambda t: t.zeros(X).diff(dim=3),
    "tensor_split": lambda t: t.zeros(X).tensor_split(2, 3),
    "trapezoid": lambda t: t.trapezoid(t.zeros(X), dim=3),
    "cumulative_trapezoid": lambda t: t.cumulative_trapezoid(t.zeros(X), dim=3),
    # 0-d tensors: squeeze and transpose accepted any dim, quantile any dim (silent)
    "squeeze a 0-d tensor": lambda t: t.tensor(3.0).squeeze(1),
    "squeeze a 0-d tensor by dims": lambda t: t.tensor(3.0).squeeze((0, -2)),
    "transpose a 0-d tensor": lambda t: t.tensor(3.0).transpose(0, 1),
    "swapaxes a 0-d tensor": lambda t: t.tensor(3.0).swapaxes(-2, 0),
    "quantile of a 0-d tensor": lambda t: t.tensor(3.0).quantile(0.5, 1),
    "unflatten a 0-d tensor past its dim": lambda t: t.tensor(3.0).unflatten(-5, (1,)),
    "chunk a 0-d tensor": lambda t: t.tensor(3.0).chunk(1, -5),
    "split a 0-d tensor": lambda t: t.tensor(3.0).split(1),
    "split a 0-d tensor by sizes": lambda t: t.tensor(3.0).split([1], 0),
    # renorm's own checks (silent before: a 1-D input, p <= 0 and a negative maxnorm computed)
    "renorm of a 1-D tensor": lambda t: t.zeros(3).renorm(2, 0, 1.0),
    "renorm with p 0": lambda t: t.zeros(3, 3).renorm(0, 0, 1.0),
    "renorm with a negative maxnorm": lambda t: t.zeros(3, 3).renorm(2, 0, -1.5),
}
SHAPE_MISTAKES.update(DIM_PAST_THE_RANK)
INDEX_MISTAKES = {
    # put_ used to cast a source of another dtype and take int32 indices (silent); torch refuses both
    "put with a float64 source": lambda t: t.zeros(3, 4).put(t.tensor([1, 2]), t.ones(2, dtype=t.float64)),
    "put with int32 indices": lambda t: t.zeros(3, 4).put(t.tensor([1], dtype=t.int32), t.ones(1)),
    "put with float indices": lambda t: t.zeros(3, 4).put(t.tensor([1.0]), t.ones(1)),
    "put with fewer indices": lambda t: t.zeros(3, 4).put(t.tensor([1]), t.ones(2)),
    "put past the end": lambda t: t.zeros(3, 4).put(t.tensor([12]), t.ones(1)),
    "put_ before the start": lambda t: t.zeros(3, 4).put_(t.tensor([0, -13]), t.ones(2), accumulate=True),
    "select past the end": lambda t: t.zeros(3, 4, 5).select(1, 9),
    "torch.select before the start": lambda t: t.select(t.zeros(3, 4, 5), 0, -4),
    "subscript after None": lambda t: t.zeros(3, 4, 5)[None, 5],
    "subscript after an ellipsis": lambda t: t.zeros(3, 4, 5)[..., 9],
    "subscript of the third position": lambda t: t.zeros(3, 4, 5)[0, 1, 7],
    "subscript with a None between": lambda t: t.zeros(3, 4, 5)[:, None, 9],
    "negative subscript": lambda t: t.zeros(3, 4, 5)[2, -5],
}
SHAPE_MISTAKES.update(INDEX_MISTAKES)
SHAPE_MISTAKES.update({
    "roll with more shifts than dims": lambda t: t.zeros(2, 3).roll((1, 1), 0),  # (silent before: rolled dim 0 once)
    "roll with two shifts and no dims": lambda t: t.zeros(2, 3).roll((1, 1)),
    "flip a dim twice": lambda t: t.zeros(2, 3).flip(0, -2),
    "mT of a vector": lambda t: t.zeros(3).mT,
    "a str in a tensor": lambda t: "a" in t.zeros(3),
})


def _first_line_error(fn, lib):
    with pytest.raises(Exception) as info:
        fn(lib)
    return type(info.value), str(info.value).split("\nException raised from")[0]


@pytest.mark.parametrize("name", sorted(SHAPE_MISTAKES))
def test_shape_mistake_raises_torch_error(name):
    (ours_type, ours), (theirs_type, theirs) = (_first_line_error(SHAPE_MISTAKES[name], lib)
                                                for lib in (minitorch2, torch))
    assert ours_type.__name__ == theirs_type.__name__ and ours == theirs


@pytest.mark.parametrize("lib", [minitorch2, torch], ids=["minitorch2", "torch"])
def test_zero_dim_tensors_take_dims_0_and_minus_1(lib):
    x = lib.tensor(3.0)
    assert [tuple(y.shape) for y in (x.squeeze(0), x.squeeze(-1), x.transpose(0, -1), x.quantile(0.5, 0))] == [()] * 4


@pytest.mark.parametrize("dim, sizes", [(1, (2, 3)), (-1, (3, -1)), (1, [6]), (0, (1, 2, -1)), (1, (1, 6, 1))])
def test_unflatten_values_and_strides_match_torch(dim, sizes):
    ours = minitorch2.arange(24.0).view(4, 6).unflatten(dim, sizes)
    theirs = torch.arange(24.0).view(4, 6).unflatten(dim, sizes)
    assert ours.shape == theirs.shape and ours.stride() == theirs.stride()
    assert ours.tolist() == theirs.tolist()


def test_unflatten_of_a_dynamic_size_compiles_without_checking_symbols():
    def split_rows(x, n):
        return x.unflatten(1, (n, -1)).sum(2) * 2

    compiled = minitorch2.compile(split_rows, dynamic=True)
    for width in (6, 8, 10):
        got = compiled(minitorch2.ones(2, width), 2)
        assert got.tolist() == split_rows(torch.ones(2, width), 2).tolist()


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compiled_dim_past_the_rank_raises_as_torch_compile(backend):
    def fold(x):
        return x.movedim(3, 0).flatten(1) * 2

    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-3, 2\], but got 3\)"):
        minitorch2.compile(fold, backend=backend)(minitorch2.zeros(X))


@pytest.mark.parametrize("shape, source, destination", [
    ((), 0, 0), ((), -1, 0), ((2, 3, 4), (), ()), ((2, 3, 4), (0, 2), (2, 0)), ((2, 3, 4), [-1, 0], [0, -1]),
    ((2, 3, 4), 2, 0), ((2, 3, 4), (0, 1), (-1, -2)),
])
def test_movedim_in_range_matches_torch(shape, source, destination):
    got = minitorch2.arange(24.0).view(shape or (24,))[(...,) if shape else 5].movedim(source, destination)
    want = torch.arange(24.0).view(shape or (24,))[(...,) if shape else 5].movedim(source, destination)
    assert got.shape == want.shape and got.stride() == want.stride() and got.tolist() == want.tolist()


def test_put_writes_at_flat_indices_as_torch():
    def put_twice(lib):
        x = lib.arange(12.0).view(3, 4).t().clone()
        x.put_(lib.tensor([[1, 1], [2, -1]]), lib.tensor([1.0, 2.0, 3.0, 4.0]), accumulate=True)
        return lib.put(x, lib.tensor([0, 5]), lib.tensor([7.0, 8.0])).tolist()

    assert put_twice(minitorch2) == put_twice(torch)


@pytest.mark.parametrize("element", [2.0, 2, 7, -0.0, float("nan"), True], ids=repr)
def test_in_looks_for_an_equal_element_as_torch(element):
    """`v in x` raised 'Boolean value of Tensor with more than one value is ambiguous' (Python's fallback)."""
    assert (element in minitorch2.arange(6.0).view(2, 3)) == (element in torch.arange(6.0).view(2, 3))
    assert (minitorch2.tensor(element) in minitorch2.arange(6.0)) == (torch.tensor(element) in torch.arange(6.0))
