"""nn.utils.parametrize (as torch's): register_parametrization, is_parametrized, remove_parametrizations, cached.

Runtime layer, coverage surface. Registering a parametrization on `module.weight` moves the parameter into
`module.parametrizations.weight` (a ParametrizationList) as `original` (or `original0`, `original1`, ... when
the parametrization's right_inverse returns several tensors), swaps the module's class for a subclass named
`Parametrized<Class>` whose `weight` property recomputes the parametrized tensor on every read, as torch does;
state-dict keys read `parametrizations.weight.original0`.
"""
import contextlib

from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ..modules.container import ModuleDict, ModuleList
from ..parameter import Parameter

_cache = {}
_cache_depth = 0


@contextlib.contextmanager
def cached():
    """Within the block, each parametrized tensor is computed once (on its first read)."""
    global _cache_depth
    _cache_depth += 1
    try:
        yield
    finally:
        _cache_depth -= 1
        if not _cache_depth:
            _cache.clear()


def _register(module, name, tensor):
    if isinstance(tensor, Parameter):
        module.register_parameter(name, tensor)
    else:
        module.register_buffer(name, tensor)


class ParametrizationList(ModuleList):
    def __init__(self, modules, original, unsafe=False):
        super().__init__(modules)
        self.unsafe = unsafe
        with no_grad():
            new = original
            for module in reversed(list(self)):
                new = module.right_inverse(new) if hasattr(module, "right_inverse") else new
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if new is not original:
                original.data = new.detach()
            _register(self, "original", original)
            return
        for i, tensor in enumerate(new):
            if isinstance(original, Parameter):
                tensor = Parameter(tensor.detach(), original.requires_grad)
            _register(self, f"original{i}", tensor)

    def right_inverse(self, value):
        with no_grad():
            for module in reversed(list(self)):
                value = module.right_inverse(value) if hasattr(module, "right_inverse") else value
            if self.is_tensor:
                self.original.copy_(value)
            else:
                for i, tensor in enumerate(value):
                    getattr(self, f"original{i}").copy_(tensor)

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _parametrized_property(name):
    def get(self):
        parametrization = self.parametrizations[name]
        if not _cache_depth:
            return parametrization()
        key = (id(self), name)
        if key not in _cache:
            _cache[key] = parametrization()
        return _cache[key]

    def set_(self, value):
        self.parametrizations[name].right_inverse(value)

    return property(get, set_)


def is_parametrized(module, tensor_name=None):
    parametrizations = getattr(module, "parametrizations", None)
    if not isinstance(parametrizations, ModuleDict):
        return False
    return len(parametrizations) > 0 if tensor_name is None else tensor_name in parametrizations


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        module.parametrizations[tensor_name].append(parametrization)
        return module
    if tensor_name not in module._buffers and tensor_name not in module._parameters:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a parametrized element with "
                         f"name '{tensor_name}'")
    parametrizations = ParametrizationList([parametrization], getattr(module, tensor_name), unsafe=unsafe)
    delattr(module, tensor_name)
    if not is_parametrized(module):
        cls = type(module)
        module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), {})
        module.parametrizations = ModuleDict()
    setattr(type(module), tensor_name, _parametrized_property(tensor_name))
    module.parametrizations[tensor_name] = parametrizations
    return module


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with no_grad():
                original.data = getattr(module, tensor_name).detach()
    else:
        if not leave_parametrized:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is parametrized "
                             "in terms of a sequence of tensors.")
        value = getattr(module, tensor_name)
        original = Parameter(value.detach(), value.requires_grad)
    delattr(type(module), tensor_name)
    del module.parametrizations[tensor_name]
    _register(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = type(module).__bases__[0]
    return module
