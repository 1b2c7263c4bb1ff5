"""How Python objects are spelled in printed graphs and generated code.

FX layer. minitorch2 plays `torch`, so it is spelled `torch`: a graph traced on minitorch2 prints, character for
character, what the same program traced on PyTorch prints:

    minitorch2.relu                    ->  torch.relu
    minitorch2.nn.functional.silu      ->  torch.nn.functional.silu
    minitorch2.ops.aten.mm.default     ->  torch.ops.aten.mm.default
    minitorch2.Tensor                  ->  torch.Tensor
    minitorch2.nn.functional.linear    ->  torch._C._nn.linear   (PyTorch implements it in C)
    minitorch2.split                   ->  torch.functional.split (PyTorch implements it in Python)

Generated code runs with `torch` bound to `TORCH`, which resolves each spelling
back to the minitorch2 object (the `minitorch2` package first, then the table below).
"""
import builtins
import sys
import types

from .._ops import OpOverload, OpOverloadPacket
from .._tensor import Tensor

# Where PyTorch spells a function differently from `torch.<name>` or
# `torch.nn.functional.<name>` (because its implementation lives elsewhere).
# Keys are minitorch2 paths relative to the package.
TORCH_SPELLINGS = {
    "nn.functional.logsigmoid": "torch._C._nn.log_sigmoid",
    "nn.functional.threshold": "torch.nn.functional._threshold",
    **{f"nn.functional.{name}": f"torch._C._nn.{name}"
       for name in "linear gelu softplus avg_pool2d avg_pool3d one_hot scaled_dot_product_attention".split()},
    **{f"nn.functional.{name}": f"torch.{name}" for name in """bilinear conv1d conv2d conv3d conv_transpose1d
       conv_transpose2d conv_transpose3d avg_pool1d adaptive_avg_pool1d cosine_similarity pairwise_distance
       pixel_shuffle pixel_unshuffle prelu hardshrink""".split()},
    **{name: f"torch.functional.{name}" for name in """split einsum broadcast_tensors meshgrid tensordot
       cartesian_prod block_diag cdist atleast_1d atleast_2d atleast_3d norm unravel_index chain_matmul stft
       unique""".split()},
}

# Objects minitorch2.fx defines itself for names PyTorch has (`torch._assert`).
_EXTRA_SPELLINGS = {}


def register_spelling(spelled, obj):
    _EXTRA_SPELLINGS[spelled] = obj


# The namespaces whose public functions are "torch functions": calling one on a
# Proxy records a call_function node (see _symbolic_trace.py).
FUNCTION_NAMESPACES = ("minitorch2", "minitorch2.nn.functional")


def public_functions():
    """(module, path prefix, name, value) for each public minitorch2 function and class of the function namespaces:
    (minitorch2, "", "relu", relu), (minitorch2.nn.functional, "nn.functional.", "silu", silu), ..."""
    for namespace in FUNCTION_NAMESPACES:
        module = sys.modules.get(namespace)
        prefix = namespace[len("minitorch2."):] + "." if "." in namespace else ""
        for name, value in list(vars(module).items()) if module is not None else ():
            if name.startswith("_") or isinstance(value, types.ModuleType) or not callable(value):
                continue
            if getattr(value, "__module__", "").startswith("minitorch2"):
                yield module, prefix, name, value


def _package():
    return sys.modules["minitorch2"]


_spellings = {}  # id(object) -> (object, torch spelling), for every public minitorch2 function and class
_spellings_key = None  # the namespaces _spellings was built from


def forget_spellings():
    """Build the spellings again at the next lookup (the namespaces' functions were replaced for good)."""
    global _spellings_key
    _spellings_key = None


def _spelling_of(obj):
    global _spellings, _spellings_key
    key = tuple(id(sys.modules.get(name)) for name in FUNCTION_NAMESPACES)
    if key != _spellings_key:
        _spellings, _spellings_key = _build_spellings(), key
    entry = _spellings.get(id(obj))
    return entry[1] if entry is not None and entry[0] is obj else None


def _build_spellings():
    best = {}
    for _, relative, name, value in public_functions():
        spelled = TORCH_SPELLINGS.get(relative + name, "torch." + relative + name)
        score = _alias_score(value, name, relative)
        # a recording wrapper (while tracing, or for good) is spelled as the function it wraps
        recording = getattr(value, "__fx_already_patched", False)
        for spelled_value in {value, value.__wrapped__ if recording else value}:
            if id(spelled_value) not in best or score > best[id(spelled_value)][0]:
                best[id(spelled_value)] = (score, spelled_value, spelled)
    return {key: (value, spelled) for key, (_, value, spelled) in best.items()}


def _alias_score(value, name, relative):
    """Among aliases (`clip`/`clamp`, `torch.relu`/`F.relu`), prefer the object's own name and home."""
    in_nn = getattr(value, "__module__", "").startswith("minitorch2.nn")
    at_home = in_nn == bool(relative)
    return (at_home, name == getattr(value, "__name__", None), not relative, name)


def qualified_name(obj):
    """`torch.relu`, `torch.ops.aten.mm.default`, `_operator.abs`, `__main__.my_fn` ..."""
    name = getattr(obj, "__name__", None)
    if name is not None and getattr(builtins, name, None) is obj:
        return name
    if isinstance(obj, OpOverload):
        return f"torch.ops.{obj.namespace}.{obj._opname}.{obj._overloadname}"
    if isinstance(obj, OpOverloadPacket):
        return f"torch.ops.{obj._namespace}.{obj.__name__}"
    spelled = _spelling_of(obj)
    if spelled is not None:
        return spelled
    if name is not None and getattr(Tensor, name, None) is obj:
        return f"torch.Tensor.{name}"
    for spelled, extra in _EXTRA_SPELLINGS.items():
        if extra is obj:
            return spelled
    if name == "<lambda>":
        raise RuntimeError("Unable to represent lambda")
    module = getattr(obj, "__module__", None)
    if module is None:
        raise RuntimeError(f"cannot find module for {obj}")
    qualname = getattr(obj, "__qualname__", name) if isinstance(obj, type) else name
    return f"{torch_module_name(module)}.{qualname}"


def torch_module_name(module):
    """minitorch2 module paths are spelled as PyTorch's: `minitorch2.nn` -> `torch.nn`."""
    if module == "minitorch2" or module.startswith("minitorch2."):
        return "torch" + module[len("minitorch2"):]
    return module


def is_from_torch(obj):
    """True for minitorch2's own objects (which generated code reaches through `torch.`)."""
    module = getattr(obj, "__module__", None)
    if isinstance(module, str):
        return module == "minitorch2" or module.startswith("minitorch2.")
    return isinstance(obj, (OpOverload, OpOverloadPacket))


def pretty_print_target(target):
    """How `str(graph)` shows a target: `builtins.getattr`, `operator.add`, `torch.relu`."""
    if isinstance(target, str):
        return target
    name = getattr(target, "__name__", None)
    module = {"builtins": "builtins", "_operator": "operator"}.get(getattr(target, "__module__", None))
    return f"{module}.{name}" if name is not None and module else qualified_name(target)


def type_repr(obj):
    """A short, importable spelling of a type annotation (`torch.Tensor`, `int`)."""
    if isinstance(obj, type) and not isinstance(obj, types.GenericAlias):
        if obj.__module__ == "builtins":
            return obj.__qualname__
        return _spelling_of(obj) or f"{torch_module_name(obj.__module__)}.{obj.__qualname__}"
    return "..." if obj is ... else obj.__name__ if isinstance(obj, types.FunctionType) else repr(obj)


class TorchNamespace:
    """What `torch` means inside generated code: minitorch2, plus PyTorch's extra spellings."""

    def __init__(self, prefix="torch"):
        self._prefix = prefix

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if self._prefix == "torch" and hasattr(_package(), name):
            return getattr(_package(), name)
        spelled = f"{self._prefix}.{name}"
        spelled_objects = _spelled_objects()
        if spelled in spelled_objects:
            return spelled_objects[spelled]
        if any(key.startswith(spelled + ".") for key in spelled_objects):
            return TorchNamespace(spelled)  # `torch._C`, `torch._C._nn`, `torch.functional`
        raise AttributeError(f"generated code refers to {spelled}, which minitorch2 does not provide")

    def __repr__(self):
        return f"<minitorch2 as '{self._prefix}'>"


def _spelled_objects():
    """Spelling -> object, for the entries of TORCH_SPELLINGS that minitorch2 defines."""
    result = dict(_EXTRA_SPELLINGS)
    for path, spelled in TORCH_SPELLINGS.items():
        obj = _package()
        for atom in path.split("."):
            obj = getattr(obj, atom, None)
            if obj is None:
                break
        if obj is not None:
            result[spelled] = obj
    return result


TORCH = TorchNamespace()
