"""nn.Parameter (as torch.nn.Parameter): a leaf tensor a Module registers as learnable.

Runtime layer. A Parameter shares its memory with the tensor it was made
from, requires grad by default, and prints as `Parameter containing:`.
"""
from .._factories import empty
from .._tensor import Tensor


class Parameter(Tensor):
    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        p = object.__new__(cls)
        p._init_from(data._np, data._storage, data._shape, data._stride, data._offset, data.dtype)
        if requires_grad and not p.dtype.is_inexact:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        p.requires_grad = requires_grad
        return p

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return (Parameter, (self.data.clone(), self.requires_grad))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = Parameter(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result


class Buffer(Tensor):
    """torch.nn.Buffer, accepted where torch code writes one: Buffer(t) is t itself, which a Module stores as a plain
    tensor attribute, not among its buffers (register_buffer does that), so `persistent` has nothing to mark."""

    def __new__(cls, data, *, persistent=True):
        return data
