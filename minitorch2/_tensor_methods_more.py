"""Tensor methods beyond what the pipeline calls: the new_* constructors (`x.new_zeros(2, 3)`, the legacy `x.new(...)`),
the in-place samplers uniform_ and random_, `~x` (refused on floats, as torch's binding refuses it), the shift
operators (`x << y` and its reflected and in-place forms), index_fill_, detach_, the *_as shape methods, type_as,
split (whose keyword is split_size, not torch.split's split_size_or_sections), tile, flip, mT, polygamma,
sum_to_size, the int16/int8/uint8 conversions and a complex tensor's real and imag; and how x.to(...) reads its
arguments (a device other than the CPU, or a wrong argument, refused in torch's words).

Runtime layer, coverage surface. Each hands its aten op the arguments PyTorch's bindings pass (new_* the factory
options as _factories.py's do); _tensor_methods.install binds them onto Tensor with the others.
"""
import numbers
import warnings

from ._factories import _COPY_CONSTRUCT, _finish, _options, _size, tensor as make_tensor
from . import _dtype, _functions_complex
from ._functions_common_math import bitwise_left_shift, bitwise_right_shift, polygamma, sum_to_size
from ._functions_pointwise import scalar_tensor_like
from ._functions_shape import split
from ._functions_shape_more import flip, tile
from ._ops import ops
from ._tensor import Size, Tensor, device
from ._inference_tensors import is_inference

aten = ops.aten


def no_cuda():
    raise AssertionError("Torch not compiled with CUDA enabled")  # as a CPU-only build of torch


def cuda(self, place=None, *args, **kwargs):
    """Tensor.cuda on a CPU-only torch: its argument parsed first (a device index, or another device type, refused
    in its words), then the missing CUDA."""
    place = kwargs.pop("device", place)
    if isinstance(place, int):
        raise RuntimeError("Cannot access accelerator device when none is available.")
    if place is not None and device(place).type != "cuda":
        raise RuntimeError("Invalid device, must be cuda device")
    no_cuda()


def require_cpu(place):
    if place.type == "cuda":
        no_cuda()
    if place.type not in ("cpu", "meta"):
        raise RuntimeError(f"PyTorch is not linked with support for {place.type} devices")


def to_dtype(args, kwargs):
    """The dtype Tensor.to(...) names (None: none), its arguments read as torch's binding reads them: a dtype (Python's
    float is float64), a tensor (its dtype), a device (only the CPU here); anything else refused in torch's words."""
    dtype = _dtype.as_dtype(kwargs.get("dtype"))
    for a in (*args, kwargs.get("device")):
        a = _dtype.as_dtype(a)  # x.to(float) is x.to(torch.float64), as in torch
        if isinstance(a, _dtype.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, (str, device)):
            require_cpu(device(a))  # (a string that names no device raises, as in torch)
        elif isinstance(a, int) and not isinstance(a, bool):
            raise RuntimeError("Cannot access accelerator device when none is available.")
        elif a is not None:
            raise TypeError(f"to() received an invalid combination of arguments - got "
                            f"({', '.join(type(v).__name__ for v in args)})")
    return dtype


def invert(self):
    """`~x`: bitwise_not of an integer or bool tensor (of a bool one a logical not); torch's binding refuses others."""
    if self.dtype.is_floating_point or self.dtype.is_complex:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return aten.bitwise_not.default(self)


def tensor_methods():
    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        if isinstance(data, Tensor):
            warnings.warn(_COPY_CONSTRUCT.format("tensor.new_tensor(sourceTensor)"), stacklevel=2)
            with warnings.catch_warnings():  # (not torch.tensor's words as well)
                warnings.simplefilter("ignore")
                return make_tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)
        return make_tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new(self, *args, **kwargs):
        """The legacy constructor: x.new() is empty, x.new(2, 3) (or a Size) uninitialised, x.new(data) from a
        list, x.new(tensor) that tensor (an alias), all in self's dtype."""
        if len(args) == 1 and isinstance(args[0], Tensor):
            if args[0].dtype is not self.dtype:
                raise TypeError(f"expected {self.dtype} (got {args[0].dtype})")
            return aten.alias.default(args[0])
        if len(args) == 1 and isinstance(args[0], (list, tuple)) and not isinstance(args[0], Size):
            return make_tensor(args[0], dtype=self.dtype)
        if len(args) == 1 and not isinstance(args[0], (int, Size)):
            raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")
        return new_sized(aten.new_empty.default)(self, *(args or ((0,),)), **kwargs)

    def new_sized(op):
        """new_zeros / new_ones / new_empty(*size), with the options PyTorch's bindings pass."""
        def new(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
            options = _options(dtype, layout, device, pin_memory, from_tensor=True)
            return _finish(op(self, _size(size), **options), requires_grad)

        return new

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None,
                 pin_memory=False):
        options = _options(dtype, layout, device, pin_memory, from_tensor=True)
        return _finish(aten.new_full.default(self, _size((size,)), fill_value, **options), requires_grad)

    def new_empty_strided(self, size, stride, *, dtype=None, device=None, requires_grad=False, layout=None,
                          pin_memory=False):
        options = _options(dtype, layout, device, pin_memory, from_tensor=True)
        return _finish(aten.new_empty_strided.default(self, list(size), list(stride), **options), requires_grad)

    def div_(self, other, *, rounding_mode=None):
        """x.div_(y) (div_.Tensor) or, with a rounding mode, div_.Tensor_mode (a number y: a 0-d tensor, a float one in
        the op's dtype)."""
        if rounding_mode is None:
            return aten.div_.Tensor(self, other)
        if not isinstance(other, Tensor):
            other = scalar_tensor_like(other, self)
        return aten.div_.Tensor_mode(self, other, rounding_mode=rounding_mode)

    def uniform_(self, a=0.0, b=1.0, *, generator=None):
        return aten.uniform_.default(self, a, b, generator=generator)

    def random_(self, from_=None, to=None, *, generator=None):
        if from_ is None:
            return aten.random_.default(self, generator=generator)
        if to is None:
            from_, to = 0, from_
        return getattr(aten.random_, "from")(self, from_, to, generator=generator)

    def shift_operator(packet):
        """x << y records aten.__lshift__ (not bitwise_left_shift), as torch's operator binding does."""
        return lambda self, other: (packet.Tensor(self, other) if isinstance(other, Tensor)
                                    else packet.Scalar(self, other))

    def shift_(packet):
        return lambda self, other: (packet.Tensor(self, other) if isinstance(other, Tensor)
                                    else packet.Tensor_Scalar(self, other))

    def index_fill_(self, dim, index, value):
        if isinstance(value, Tensor):
            return aten.index_fill_.int_Tensor(self, dim, index, value)
        return aten.index_fill_.int_Scalar(self, dim, index, value)

    def detach_(self):
        if self._base is not None:  # (autograd's views share their base's history: detach() is the way out)
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        self.grad_fn = None
        self._requires_grad = False
        return self

    def contains(self, element):
        """`v in x`: whether any element equals v (a number or a tensor), as torch's Tensor.__contains__."""
        if not isinstance(element, (Tensor, numbers.Number)):
            raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type(element)}.")
        return bool((element == self).any().item())

    def matrix_transpose(self):
        if self.dim() == 0:  # (torch's deprecated identity: the tensor itself, not a view of it)
            warnings.warn("Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases.",
                          UserWarning, stacklevel=2)
            return self
        if self.dim() < 2:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got "
                               f"{self.dim()}-D tensor.")
        return self.transpose(-2, -1)

    def as_list(values):  # x.tile(2, 3) or x.tile((2, 3))
        return list(values[0]) if len(values) == 1 and isinstance(values[0], (list, tuple)) else list(values)

    def over_dims(fn):  # x.flip(0, 1), x.flip((0, 1)), or x.flip(dims=(0, 1)): the functional form checks the keyword
        def method(self, *dims, **kwargs):
            if not dims and not kwargs:
                raise TypeError(f'{fn.__name__}() missing 1 required positional arguments: "dims"')
            return fn(self, **kwargs) if kwargs and not dims else fn(self, as_list(dims))
        return method

    return {
        **_functions_complex.tensor_methods(),  # x.real, x.imag
        "detach_": detach_, "view_as": lambda self, other: aten.view.default(self, list(other.shape)),
        "expand_as": lambda self, other: aten.expand.default(self, list(other.shape)),
        "reshape_as": lambda self, other: self.reshape(list(other.shape)),
        # (the method's keyword is split_size; torch.split's, split_size_or_sections)
        "split": lambda self, split_size, dim=0: split(self, split_size, dim),
        "type_as": lambda self, other: self.to(other.dtype),
        "tile": over_dims(tile), "flip": over_dims(flip), "ndimension": lambda self: self.dim(),
        "mT": property(matrix_transpose), "__contains__": contains,
        "polygamma": lambda self, n: polygamma(n, self), "sum_to_size": sum_to_size,
        "short": lambda self, memory_format=None: self.to(_dtype.int16),
        "byte": lambda self, memory_format=None: self.to(_dtype.uint8),
        "char": lambda self, memory_format=None: self.to(_dtype.int8),
        "cfloat": lambda self, memory_format=None: self.to(_dtype.complex64),
        "cdouble": lambda self, memory_format=None: self.to(_dtype.complex128),
        "__lshift__": shift_operator(aten.__lshift__), "__rshift__": shift_operator(aten.__rshift__),
        "__ilshift__": shift_operator(aten.__ilshift__), "__irshift__": shift_operator(aten.__irshift__),
        # (without these, `mask &= m` or `view //= 2` would rebind the name to a new tensor: no write to self)
        "__ifloordiv__": lambda self, other: self.floor_divide_(other), "__idiv__": lambda self, other: self.div_(other),
        "__imod__": lambda self, other: self.remainder_(other), "__iand__": lambda self, other: self.bitwise_and_(other),
        "__ior__": lambda self, other: self.bitwise_or_(other), "__ixor__": lambda self, other: self.bitwise_xor_(other),
        "__rlshift__": lambda self, other: bitwise_left_shift(other, self),
        "__rrshift__": lambda self, other: bitwise_right_shift(other, self),
        "bitwise_left_shift_": shift_(aten.bitwise_left_shift_), "bitwise_right_shift_": shift_(aten.bitwise_right_shift_),
        "index_fill_": index_fill_,
        "div_": div_,
        "new": new, "new_tensor": new_tensor, "new_zeros": new_sized(aten.new_zeros.default),
        "new_ones": new_sized(aten.new_ones.default), "new_empty": new_sized(aten.new_empty.default),
        "is_inference": is_inference, "__invert__": invert,
        "new_full": new_full, "new_empty_strided": new_empty_strided, "uniform_": uniform_, "random_": random_,
    }
