"""unflatten, view and reshape given sizes that cannot fit: torch's error classes and words (session 32).

unflatten used to wrap any dim modulo the rank (dim 5 of a 2-D tensor split dim 1) and answer a product
mismatch with view's words; view and reshape gave an ambiguous -1 over 0 elements the words of a size mismatch.
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


def _first_line_error(fn, lib):
    with pytest.raises(Exception) as info:
        fn(lib)
    return type(info.value), str(info.value).split("\nException raised from")[0]


@pytest.mark.parametrize("name", sorted(SHAPE_MISTAKES))
def test_shape_mistake_raises_torch_error(name):
    (ours_type, ours), (theirs_type, theirs) = (_first_line_error(SHAPE_MISTAKES[name], lib)
                                                for lib in (minitorch2, torch))
    assert ours_type.__name__ == theirs_type.__name__ and ours == theirs


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
