"""The torch-level functions and Tensor methods of complex numbers: view_as_real, view_as_complex, real, imag, conj,
resolve_conj, angle, complex, polar.

Runtime layer, coverage surface (gathered into the `minitorch2` namespace by _functions.py; the methods bound by
_tensor_methods.install). The ops are table_complex.py's rows; real, imag and conj are written here as torch writes
them (CompositeImplicitAutograd), so their traced graphs and grad_fns are torch's: x.real is
select(view_as_real(x), x.dim(), 0), and conj of a real tensor is the tensor itself.
"""
from ._aten.complex_ops import is_conj as _is_conj
from ._functions_shape import _function_of
from ._ops import ops

aten = ops.aten
__all__ = ["view_as_real", "view_as_complex", "real", "imag", "conj", "conj_physical", "is_conj", "resolve_conj",
           "angle", "complex", "polar"]

view_as_complex = _function_of(aten.view_as_complex.default)
conj_physical = _function_of(aten.conj_physical.default)
angle = _function_of(aten.angle.default)
complex = _function_of(aten.complex.default)
polar = _function_of(aten.polar.default)

# torch.Tensor has no method of these (torch.view_as_real(x), never x.view_as_real())
NOT_METHODS = ("view_as_real", "view_as_complex", "complex", "polar")


def view_as_real(input):
    if _is_conj(input):
        raise RuntimeError("view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate "
                           "tensor so you can view it as real, use self.resolve_conj(); however, be warned that the "
                           "resulting tensor will NOT alias the original.")
    return aten.view_as_real.default(input)


def real(input):
    if not input.dtype.is_complex:
        return input
    return aten.select.int(aten.view_as_real.default(input), input.dim(), 0)


def imag(input):
    if not input.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return aten.select.int(aten.view_as_real.default(input), input.dim(), 1)


def conj(input):
    return aten._conj.default(input) if input.dtype.is_complex else input


def is_conj(input):
    return _is_conj(input)


def resolve_conj(input):
    """A conjugated tensor's values in a tensor not marked conjugated (torch's copy; ours were already computed)."""
    return aten.clone.default(input) if _is_conj(input) else input


def tensor_methods():
    """x.real and x.imag are properties (torch's setters write into the parts)."""
    def set_part(part):
        def setter(self, value):
            part(self).copy_(value) if isinstance(value, type(self)) else part(self).fill_(value)
        return setter

    return {"real": property(real, set_part(real)), "imag": property(imag, set_part(imag))}
