"""What nn.Module offers beyond what the compiler reads: state dicts (with extra state), dtype and device moves,
zero_grad, apply, lookups and replacements by dotted name, `del module.name` and dir(module) over its members, and
printing (ModuleList's and the convolutions' too).

Runtime layer, coverage surface. Module (module.py) keeps what every stage uses: registration by attribute
assignment, traversal in PyTorch's order, train/eval and `__call__` with its hooks. These methods, the surface
that saving, loading, converting and printing a model use, reach every Module through this base class.
"""
from collections import OrderedDict, namedtuple
from collections.abc import Mapping
from multiprocessing import reduction

from ... import _shared_memory
from ..._dtype import dtype as dtype_class
from ..._factories import empty_like
from ..._tensor import Tensor, device
from ..._tensor_methods_more import require_cpu
from ... import __future__ as future_switches
from ...autograd.grad_mode import no_grad
from ..parameter import Parameter


def _reduce_parameter(parameter):
    """How multiprocessing's pickler sends a Parameter: over its shared memory when it has some (_shared_memory.py)."""
    if not _shared_memory.is_shared(parameter):
        return parameter.__reduce_ex__(2)
    return Parameter, (parameter.detach(), parameter.requires_grad)


reduction.ForkingPickler.register(Parameter, _reduce_parameter)


class _IncompatibleKeys(namedtuple("_IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()


_NEVER_CALLED = ("Reached a code path in Module.{}() that should never be called. Please file an issue at "
                 "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to report this bug.")


class ModuleConveniences:
    """The base of nn.Module holding the methods listed above (self is always a Module)."""

    call_super_init = False  # (class attributes torch's Module has: a module can't register members by these names)
    dump_patches = False

    def __delattr__(self, name):
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(self._parameters) | set(self._buffers) | set(self._modules))

    def get_parameter(self, target):
        return self._get_member(target, "parameter", "_parameters")

    def get_buffer(self, target):
        return self._get_member(target, "buffer", "_buffers")

    def _get_member(self, target, kind, store):
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        members = getattr(module, store)
        if name not in members:
            raise AttributeError(f"{type(module).__name__} has no {kind} `{name}`")
        return members[name]

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                p.grad = p.grad.detach()
                p.grad.zero_()

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def _apply_to_tensors(self, fn, recurse=True):
        for module in self.children() if recurse else ():
            module._apply_to_tensors(fn)
        with no_grad():
            for name, p in self._parameters.items():
                # in place, as torch's _apply: a Parameter keeps its identity (tied weights stay tied, an optimizer
                # made before `.double()` still holds the model's parameters), and so does its grad
                if p is not None and future_switches.get_overwrite_module_params_on_conversion():  # (torch.__future__)
                    self._parameters[name] = type(p)(fn(p), p.requires_grad)
                elif p is not None:
                    p.data = fn(p)
                    if p.grad is not None:
                        p.grad.data = fn(p.grad)
            for name, b in self._buffers.items():
                if b is not None:
                    self._buffers[name] = fn(b)
        return self

    _apply = _apply_to_tensors  # (torch's name, which some programs call)

    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        for a in (*args, kwargs.get("device")):
            if isinstance(a, dtype_class):
                dtype = a
            elif isinstance(a, (str, device)):
                require_cpu(device(a))  # model.to("cuda") fails as on a CPU-only torch
        memory_format = kwargs.get("memory_format")
        if dtype is None and memory_format is None:
            return self
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point dtypes, but got desired dtype={dtype}")

        def convert(t):  # (torch's: the memory format only for 4-d and 5-d tensors, the dtype only for floats)
            layout = {"memory_format": memory_format} if memory_format is not None and t.dim() in (4, 5) else {}
            return t.to(dtype if dtype is not None and t.is_floating_point() else t.dtype, **layout)

        return self._apply_to_tensors(convert)

    def compile(self, backend=None, fullgraph=False, dynamic=None, **options):
        """Module.compile: the module's later calls run as torch's torch.compile(self._call_impl) runs them. That
        frame is one Dynamo skips, so the forward is the first frame it sees: compiled if it is the user's; a
        torch.nn forward (Sequential's) runs as written, and the user modules it calls compile."""
        import frontend  # deferred: the compiler layers load at the first compile (as minitorch2.compile)
        from frontend.profile_capture import is_user_or_exec_code  # (deferred with it)
        from ..._compile_args import checked_backend  # (deferred with it: it imports the frontend's backends)

        backend = checked_backend(backend, options.get("mode"), options.get("options"), dynamic)  # torch.compile's
        wrapper, forward = frontend.optimize(backend, nopython=fullgraph, dynamic=dynamic), type(self).forward
        call = frontend.eager_frame.run_skipped if not is_user_or_exec_code(forward.__code__) else \
            lambda fn, args, kwargs, compile_wrapper: compile_wrapper.call(fn, args, kwargs)
        object.__setattr__(self, "forward", lambda *args, **kwargs: call(forward, (self, *args), kwargs, wrapper))

    def float(self):
        return self._apply_to_tensors(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply_to_tensors(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply_to_tensors(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply_to_tensors(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def cpu(self):
        return self

    def cuda(self, device=None):
        return self._apply_to_tensors(lambda t: t.cuda(device))  # (fails as on a CPU-only torch)

    def type(self, dst_type):
        """Every parameter and buffer converted to dst_type (a dtype or a tensor type name), integers included."""
        return self._apply_to_tensors(lambda t: t.type(dst_type))

    def to_empty(self, *, device, recurse=True):
        """Parameters and buffers replaced by uninitialized ones on `device` (of this module only, recurse=False)."""
        return self._apply_to_tensors(lambda t: empty_like(t, device=device), recurse)

    def modules(self):
        yield from (m for _, m in self.named_modules())

    def children(self):
        yield from (m for _, m in self.named_children())

    def _get_name(self):
        return type(self).__name__

    def get_submodule(self, target):
        """The module at a dotted path of attributes (as torch's, through getattr: a compiled module's names too)."""
        module = self
        for item in target.split(".") if target else ():
            if not hasattr(module, item):
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, ModuleConveniences):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return module

    def set_submodule(self, target, module, strict=False):
        """Replace (or, strict=False, add) the submodule at dotted `target`: only a module, only over a module."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        parent_path, _, name = target.rpartition(".")
        if not isinstance(module, ModuleConveniences):  # (every nn.Module)
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent = self.get_submodule(parent_path)
        if strict and not hasattr(parent, name):
            raise AttributeError(f"{parent._get_name()} has no attribute `{name}`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), ModuleConveniences):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(parent, name, module)

    def get_extra_state(self):
        """What state_dict saves as `_extra_state` for a module that overrides it (set_extra_state loads it)."""
        raise RuntimeError(_NEVER_CALLED.format("get_extra_state"))

    def set_extra_state(self, state):
        raise RuntimeError(_NEVER_CALLED.format("set_extra_state"))

    def share_memory(self):
        return self._apply_to_tensors(lambda t: t.share_memory_())

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """This module's own parameters, persistent buffers and extra state (not its children's)."""
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if type(self).get_extra_state is not ModuleConveniences.get_extra_state:
            destination[prefix + "_extra_state"] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, local_metadata)
            if result is not None and not getattr(hook, "_from_public_api", False):
                destination = result  # (a hook from the private _register_state_dict_hook may replace the dict)
            elif result is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        """Load this module's own entries of state_dict (keys under `prefix`), noting what is missing, unexpected
        or wrong in the three lists; programs override it to convert old checkpoints."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        local_state = OrderedDict((k, v) for k, v in self._parameters.items() if v is not None)
        local_state.update((k, v) for k, v in self._buffers.items()
                           if v is not None and k not in self._non_persistent_buffers_set)
        for name, target in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                                  f"object from checkpoint but received {type(value)}")
            elif tuple(value.shape) != tuple(target.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {value.shape} from checkpoint, "
                                  f"the shape in current model is {target.shape}.")
            elif local_metadata.get("assign_to_params_buffers", False):
                is_param = isinstance(target, Parameter)
                setattr(self, name, Parameter(value, target.requires_grad) if is_param else value)
            else:
                with no_grad():
                    target.copy_(value)
        extra_key = prefix + "_extra_state"
        if type(self).set_extra_state is not ModuleConveniences.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        for key in state_dict if strict else ():
            if key.startswith(prefix) and key != extra_key:
                head, *rest = key[len(prefix):].split(".", 1)
                if head not in (self._modules if rest else local_state):
                    unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)  # (pre hooks may edit it; the caller's dict stays as it was)

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = True
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True, missing, unexpected, errors)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}, child_prefix)
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, _IncompatibleKeys(missing, unexpected)) is not None:
                    raise AssertionError("Hooks registered with ``register_load_state_dict_post_hook`` are not "
                                         "expected to return new values, if incompatible_keys need to be modified, it "
                                         "should be done inplace.")

        load(self, state_dict)
        if strict:
            if unexpected:
                keys = ", ".join(f'"{k}"' for k in unexpected)
                errors.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
            if missing:
                keys = ", ".join(f'"{k}"' for k in missing)
                errors.insert(0, f"Missing key(s) in state_dict: {keys}. ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def extra_repr(self):
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        lines = extra.split("\n") if extra else []
        lines += [f"({name}): {_indent(repr(module), 2)}" for name, module in self._modules.items()]
        if not lines or (len(lines) == 1 and not self._modules):
            return f"{self._get_name()}({lines[0] if lines else ''})"
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class NormStateDictVersion2:
    """The batch and instance norms' state dicts are at version 2, which added `num_batches_tracked`: one saved
    before (no version in its metadata, as a plain dict of tensors) loads with the module's count kept, as torch's."""

    _version = 2

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, *rest):
        version = local_metadata.get("version")
        if (version is None or version < 2) and self.track_running_stats:
            state_dict.setdefault(prefix + "num_batches_tracked", self.num_batches_tracked)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, *rest)


def _indent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


def module_list_repr(self):
    """Runs of identical reprs print once, as `(0-2): 3 x Linear(...)` (as torch does)."""
    reprs = [repr(m) for m in self]
    if not reprs:
        return self._get_name() + "()"
    lines, start = [], 0
    for end in range(1, len(reprs) + 1):
        if end == len(reprs) or reprs[end] != reprs[start]:
            label = f"({start})" if end - start == 1 else f"({start}-{end - 1}): {end - start} x"
            body = _indent(reprs[start], 2)
            lines.append(f"{label}: {body}" if end - start == 1 else f"{label} {body}")
            start = end
    return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


def conv_repr(self):
    """The convolutions' extra_repr (Conv*d, ConvTranspose*d), as torch's _ConvNd: the arguments not at their
    defaults."""
    s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
    for name, default in (("padding", 0), ("dilation", 1), ("output_padding", 0)):
        if getattr(self, name) != (default,) * self._nd:
            s += f", {name}={getattr(self, name)}"
    if self.groups != 1:
        s += f", groups={self.groups}"
    if self.bias is None:
        s += ", bias=False"
    if self.padding_mode != "zeros":
        s += f", padding_mode={self.padding_mode}"
    return s
