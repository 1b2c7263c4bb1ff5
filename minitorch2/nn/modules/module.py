"""nn.Module (as torch.nn.Module): parameters, buffers and submodules by attribute assignment.

Runtime layer. Assigning a Parameter, a Module or (through `register_buffer`) a tensor to an attribute files it in
`_parameters`, `_modules` or `_buffers`, in assignment order; every traversal (`named_parameters`, `state_dict`,
`modules`, ...) walks those dicts depth-first, which gives PyTorch's key names and order (`0.weight`, `fc.bias`,
`bn.running_mean`). `__call__` runs forward hooks around `forward`. State dicts, dtype moves, zero_grad, `del` and dir()
of members, and printing come from the base class in module_more.py (coverage surface).
"""
from collections import OrderedDict

from ..._functions_extra import typename
from ..._tensor import Tensor
from ..parameter import Parameter
from .module_hooks import BackwardHooks, ModuleHooks
from .module_more import ModuleConveniences

_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()


class Module(ModuleHooks, ModuleConveniences):
    training: bool
    _version = 1

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes no arguments")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        for store in ("_parameters", "_buffers", "_modules", "_forward_hooks", "_forward_pre_hooks", "_backward_hooks",
                      "_backward_pre_hooks", "_forward_hooks_with_kwargs", "_forward_pre_hooks_with_kwargs"):
            object.__setattr__(self, store, OrderedDict())

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        for key, hook in (*_global_forward_pre_hooks.items(), *self._forward_pre_hooks.items()):
            with_kwargs = key in self._forward_pre_hooks_with_kwargs  # (such a hook returns args and kwargs)
            result = hook(self, args, kwargs) if with_kwargs else hook(self, args)
            if result is not None:
                args, kwargs = result if with_kwargs else (result if isinstance(result, tuple) else (result,), kwargs)
        backward_hooks = BackwardHooks(self) if self._backward_hooks or self._backward_pre_hooks else None
        if backward_hooks:  # (module_hooks.py: the inputs and outputs pass through a node that calls the hooks)
            args = backward_hooks.setup_input(args)
        output = self.forward(*args, **kwargs)
        for key, hook in (*_global_forward_hooks.items(), *self._forward_hooks.items()):
            with_kwargs = key in self._forward_hooks_with_kwargs
            result = hook(self, args, kwargs, output) if with_kwargs else hook(self, args, output)
            if result is not None:
                output = result
        return backward_hooks.setup_output(output) if backward_hooks else output

    # ------------------------------------------------------------------ registration
    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._remove_from(name, self.__dict__, self._buffers, self._modules)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' (torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            modules = self.__dict__.get("_modules")
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._remove_from(name, self.__dict__, self._parameters, self._buffers)
            modules[name] = value
        elif self.__dict__.get("_modules") is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' (torch.nn.Module or None expected)")
            self._modules[name] = value
        elif self.__dict__.get("_buffers") is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' (torch.nn.Buffer, "
                                "torch.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    @staticmethod
    def _remove_from(name, *dicts):
        for d in dicts:
            d.pop(name, None)

    def __getattr__(self, name):
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def register_parameter(self, name, param):
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_new_name("parameter", name, self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' (torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_new_name("buffer", name, self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' (torch Tensor or None required)")
        self._buffers[name] = tensor
        (self._non_persistent_buffers_set.discard if persistent else self._non_persistent_buffers_set.add)(name)

    def _check_new_name(self, kind, name, members):
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."' + (f", got: {name}" if kind == "module" else ""))
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in members:
            raise KeyError(f"attribute '{name}' already exists")

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_new_name("module", name, self._modules)
        self._modules[name] = module

    register_module = add_module

    # ------------------------------------------------------------------ traversal
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def _named_members(self, get_members, prefix="", recurse=True, remove_duplicate=True):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in get_members(module):
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        yield from (p for _, p in self.named_parameters(recurse=recurse))

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        yield from (b for _, b in self.named_buffers(recurse=recurse))

    # ------------------------------------------------------------------ modes
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for _, module in self.named_children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)
