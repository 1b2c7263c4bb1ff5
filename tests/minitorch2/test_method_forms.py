"""Tensor methods made from the torch-level functions (_tensor_methods._method_forms): a function is a method
exactly where torch's is, and the method calls the function with the tensor first."""
import torch

import minitorch2
from minitorch2 import _functions


def test_functions_are_methods_exactly_where_torch_has_them():
    public = [name for name in vars(_functions) if not name.startswith("_")]
    differ = [name for name in public if hasattr(minitorch2.Tensor, name) != hasattr(torch.Tensor, name)]
    assert differ == []


def test_method_forms_match_torch():
    def run(lib):
        x = lib.tensor([[1.0, -2.0], [3.0, 0.5]])
        return [x[0].ger(lib.tensor([1.0, 2.0])).tolist(), x.sum(0).tolist(), x.clamp(min=0).tolist(),
                x.where(x > 0, 0.0).tolist(), x.numel(), x.is_floating_point(),
                hasattr(x, "rsub"), hasattr(x, "var_mean")]

    assert run(minitorch2) == run(torch)
