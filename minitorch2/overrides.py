"""torch.overrides: the __torch_function__ protocol's helpers, for library code written against it (runtime layer,
coverage surface). A function that starts `if has_torch_function_variadic(input, weight): return
handle_torch_function(...)` works here: a plain tensor has no override, so the check is False; an argument whose type
defines its own __torch_function__ (an fx.Proxy, a user's subclass) is handed the call, most derived type first, as
PyTorch's dispatch does.
"""
from ._tensor import Tensor

_DEFAULT = Tensor.__dict__.get("__torch_function__")


def overrides_type(cls):
    """Whether instances of cls take over torch functions: cls defines a __torch_function__ of its own."""
    method = getattr(cls, "__torch_function__", None)
    return method is not None and getattr(method, "__func__", method) is not getattr(_DEFAULT, "__func__", _DEFAULT)


def _overrides(value):
    return overrides_type(type(value))


def _overloaded(relevant_args):
    types = []
    for arg in relevant_args:
        if _overrides(arg) and type(arg) not in types:
            types.append(type(arg))
    return types


def has_torch_function(relevant_args):
    return bool(_overloaded(relevant_args))


def has_torch_function_unary(arg):
    return _overrides(arg)


def has_torch_function_variadic(*args):
    return has_torch_function(args)


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Calls the __torch_function__ of each overriding argument's type, subclasses before their bases, until one
    returns something other than NotImplemented."""
    types = _overloaded(relevant_args)
    for cls in sorted(types, key=lambda t: -len(t.__mro__)):
        result = cls.__torch_function__(public_api, tuple(types), args, kwargs)
        if result is not NotImplemented:
            return result
    names = ", ".join(repr(t) for t in types)
    raise TypeError(f"no implementation found for '{public_api.__module__}.{public_api.__name__}' on types that "
                    f"implement __torch_function__: [{names}]")


def is_tensor_like(inp):
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")
