"""parameters_to_vector and vector_to_parameters (as torch.nn.utils). Runtime layer, coverage surface."""
from ... import _functions
from ..._tensor import Tensor


def parameters_to_vector(parameters):
    """Every parameter flattened, concatenated in order (differentiable, as torch's view + cat)."""
    return _functions.cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    """Each parameter's data replaced by its slice of `vec`, in order."""
    if not isinstance(vec, Tensor):
        module, name = type(vec).__module__, type(vec).__qualname__
        raise TypeError(f"expected torch.Tensor, but got: {name if module == 'builtins' else module + '.' + name}")
    start = 0
    for param in parameters:
        param.data = vec[start:start + param.numel()].view_as(param).data
        start += param.numel()
