"""The legacy tensor types against torch: construction forms, isinstance, Tensor.type with names and classes."""
import pytest
import torch

import minitorch2

FORMS = ["FloatTensor()", "FloatTensor(2, 3)", "LongTensor([1.5, 2.0])", "IntTensor(3)", "DoubleTensor([[1, 2]])",
         "BoolTensor([1, 0])", "FloatTensor(lib.Size([2, 1]))", "HalfTensor([0.5])", "ByteTensor([3])",
         "LongTensor(4).zero_().view(-1, 2)", "ones(2).type(lib.DoubleTensor)", "ones(2).type('torch.HalfTensor')",
         "arange(3).type('torch.FloatTensor')", "ones(2).type()"]


@pytest.mark.parametrize("form", FORMS)
def test_construction_and_conversion_match_torch(form):
    results = []
    for lib in (torch, minitorch2):
        value = eval(f"lib.{form}")
        shape_and_dtype = value if isinstance(value, str) else (tuple(value.shape), str(value.dtype))
        data = None if isinstance(value, str) or "(2, 3)" in form or "(3)" in form or "Size" in form \
            else value.tolist()
        results.append((shape_and_dtype, data))
    assert results[1] == results[0]


def test_isinstance_repr_and_dtype_mismatch_match_torch():
    seen = []
    for lib in (torch, minitorch2):
        checks = (isinstance(lib.ones(2), lib.FloatTensor), isinstance(lib.ones(2), lib.DoubleTensor),
                  isinstance(lib.arange(2), lib.LongTensor), repr(lib.LongTensor), repr(type(lib.FloatTensor)),
                  lib.HalfTensor.dtype == lib.float16)
        with pytest.raises(TypeError) as info:
            lib.FloatTensor(lib.ones(2, dtype=lib.float64))
        seen.append((checks, str(info.value)))
    assert seen[1] == seen[0]


def test_real_is_the_tensor_itself_and_imag_refused_as_torch():
    """`x.real` of a real tensor is x (writes through it reach x); `x.imag` raises torch's RuntimeError; both work
    in a compiled frame (Dynamo-style functions read `x.real`)."""
    for lib in (torch, minitorch2):
        x = lib.arange(6.0).view(2, 3)
        assert x.real is x
        x.real[0, 0] = 5
        assert x[0, 0].item() == 5
        with pytest.raises(RuntimeError, match="imag is not implemented for tensors with non-complex dtypes"):
            x.imag
    compiled = minitorch2.compile(lambda x: x.real.sum() + x, backend="eager")
    x = minitorch2.ones(2, 2)
    assert compiled(x).tolist() == [[5.0, 5.0], [5.0, 5.0]]
