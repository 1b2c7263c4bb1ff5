"""Lazy modules (as torch.nn.LazyLinear, LazyConv1d/2d/3d): layers that read their input size from their first input.

Runtime layer, coverage surface. A lazy layer is built as its regular class with zero input features and its
parameters UninitializedParameters (no shape yet). A forward pre-hook runs once, on the first call: it reads the
input's size, gives the parameters their shapes, initialises them as the regular layer does (so the first call
draws from the random generator where torch's does), removes itself and turns the module into the regular class
(`LazyLinear(in_features=0, ...)` prints as `Linear(in_features=4, ...)` after).
"""
from ... import _factories
from ...autograd.grad_mode import no_grad
from ..parameter import Parameter
from .conv import Conv1d, Conv2d
from .conv_more import Conv3d
from .linear import Linear

__all__ = ["LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d"]


class UninitializedParameter(Parameter):
    """A parameter without a shape yet; materialize(shape) gives it (uninitialised) memory and makes it a Parameter."""

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return Parameter.__new__(cls, _factories.empty(0, dtype=dtype), requires_grad)

    def materialize(self, shape, device=None, dtype=None):
        requires_grad, data = self.requires_grad, _factories.empty(*shape, dtype=dtype or self.dtype)
        self._init_from(data._np, data._storage, data._shape, data._stride, data._offset, data.dtype)
        self.requires_grad, self.__class__ = requires_grad, Parameter

    def __repr__(self):
        return "<UninitializedParameter>"


class LazyModuleMixin:
    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters, with_kwargs=True)

    def has_uninitialized_params(self):
        return any(isinstance(p, UninitializedParameter) for p in self._parameters.values())

    def _infer_parameters(self, module, args, kwargs=None):
        with no_grad():
            self.initialize_parameters(*args, **(kwargs or {}))
        if self.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        self._initialize_hook.remove()
        del self._initialize_hook
        if self.cls_to_become is not None:
            self.__class__ = self.cls_to_become


class LazyLinear(LazyModuleMixin, Linear):
    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            self.in_features = input.shape[-1]
            self.weight.materialize((self.out_features, self.in_features))
            if self.bias is not None:
                self.bias.materialize((self.out_features,))
            self.reset_parameters()


class _LazyConvXdMixin(LazyModuleMixin):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode, dtype=dtype)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if not self.has_uninitialized_params():
            return
        spatial = len(self.kernel_size)
        if input.dim() not in (spatial + 1, spatial + 2):
            raise RuntimeError(f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input to "
                               f"{self.__class__.__name__}, but got input of size: {input.shape}")
        self.in_channels = input.shape[1] if input.dim() == spatial + 2 else input.shape[0]
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        self.weight.materialize((self.out_channels, self.in_channels // self.groups, *self.kernel_size))
        if self.bias is not None:
            self.bias.materialize((self.out_channels,))
        self.reset_parameters()


class LazyConv1d(_LazyConvXdMixin, Conv1d):
    cls_to_become = Conv1d


class LazyConv2d(_LazyConvXdMixin, Conv2d):
    cls_to_become = Conv2d


class LazyConv3d(_LazyConvXdMixin, Conv3d):
    cls_to_become = Conv3d
