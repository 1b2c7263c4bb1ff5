"""torch._foreach_*: one op over a list of tensors (timm's ModelEmaV3, optimizers written with foreach=True call
them directly). ATen's CPU kernels for them are the slow path, the op applied tensor by tensor, so each is that
loop here: the same values, rounding included. As torch's, an out-of-place one returns a tuple, an in-place one the
list it was given.

Runtime layer, coverage surface (re-exported by _functions_nn_level.py into the torch-level namespace). The second
operand is a Python number, a tensor, or a list (of tensors or numbers) paired with the first list.
"""
from . import _functions
from .linalg import vector_norm
from ._tensor import Tensor

_CLAMP_OF = {"maximum": "clamp_min", "minimum": "clamp_max"}
_BINARY = ("add", "sub", "mul", "div", "maximum", "minimum", "pow", "clamp_min", "clamp_max")
_UNARY = ("sqrt", "neg", "abs", "exp", "log", "sign", "reciprocal", "sigmoid", "tanh", "zero")


def _paired(other, n):
    """other as one operand per tensor: a list is paired item by item, a number or tensor repeated."""
    if isinstance(other, (list, tuple)):
        if len(other) != n:
            raise RuntimeError(f"Tensor lists must have the same number of tensors, got {n} and {len(other)}")
        return list(other)
    return [other] * n


def _binary(name, inplace):
    method = f"{name}_" if inplace else name

    def foreach(self, other, **kwargs):
        if not isinstance(self, (list, tuple)):  # (a number first: torch._foreach_pow(beta1, steps))
            return tuple(_functions.__dict__[name](self, o, **kwargs) for o in other)
        pairs = zip(self, _paired(other, len(self)))
        results = tuple(_apply(t, method, name, o, **kwargs) for t, o in pairs)
        return self if inplace else results

    foreach.__name__ = f"_foreach_{method}"
    return foreach


def _apply(t, method, name, other, **kwargs):
    """t.method(other); an in-place form Tensor has no method for (maximum_, minimum_): computed, then copied in.
    A number for maximum / minimum is a clamp_min / clamp_max bound (the Scalar overloads torch's foreach ops have)."""
    if name in ("maximum", "minimum") and not isinstance(other, Tensor):
        method, name = method.replace(name, _CLAMP_OF[name]), _CLAMP_OF[name]
    if hasattr(t, method):
        return getattr(t, method)(other, **kwargs)
    return t.copy_(getattr(t, name)(other, **kwargs))


def _unary(name, inplace):
    method = f"{name}_" if inplace else name

    def foreach(self):
        results = tuple(getattr(t, method)() for t in self)
        return self if inplace else results

    foreach.__name__ = f"_foreach_{method}"
    return foreach


def _foreach_lerp_(self, tensors1, weight):
    for t, end, w in zip(self, tensors1, _paired(weight, len(self))):
        t.lerp_(end, w)
    return self


def _foreach_lerp(self, tensors1, weight):
    return tuple(t.lerp(end, w) for t, end, w in zip(self, tensors1, _paired(weight, len(self))))


def _foreach_addcmul_(self, tensor1, tensor2, value=1):
    for t, a, b, v in zip(self, tensor1, tensor2, _paired(value, len(self))):
        t.addcmul_(a, b, value=v)
    return self


def _foreach_addcmul(self, tensor1, tensor2, value=1):
    return tuple(t.addcmul(a, b, value=v) for t, a, b, v in zip(self, tensor1, tensor2, _paired(value, len(self))))


def _foreach_addcdiv(self, tensor1, tensor2, value=1):
    return tuple(t.addcdiv(a, b, value=v) for t, a, b, v in zip(self, tensor1, tensor2, _paired(value, len(self))))


def _foreach_addcdiv_(self, tensor1, tensor2, value=1):
    for t, a, b, v in zip(self, tensor1, tensor2, _paired(value, len(self))):
        t.addcdiv_(a, b, value=v)
    return self


def _foreach_copy_(self, src, non_blocking=False):
    for t, s in zip(self, src):
        t.copy_(s, non_blocking)
    return self


def _foreach_norm(self, ord=2, dtype=None):
    return tuple(vector_norm(t, ord, dtype=dtype) for t in self)


_FOREACH = {f"_foreach_{name}{suffix}": make(name, suffix == "_")
            for names, make in ((_BINARY, _binary), (_UNARY, _unary)) for name in names for suffix in ("", "_")
            if not (name == "zero" and suffix == "")}
globals().update(_FOREACH)
__all__ = [*_FOREACH, "_foreach_lerp_", "_foreach_lerp", "_foreach_addcmul_", "_foreach_addcdiv_",
           "_foreach_addcmul", "_foreach_addcdiv", "_foreach_copy_",
           "_foreach_norm"]
for _name in __all__:
    globals()[_name].__module__ = "minitorch2"  # (graph code prints `torch._foreach_add_(...)`, as Dynamo's)
