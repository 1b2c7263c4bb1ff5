"""The module alias table: `import torch` in a user script gets minitorch2.

CLI layer, installed by `python -m minitorch2 run` (run.py). A meta-path
finder maps each PyTorch module name in the table below to the minitorch2
module playing its part, so an unmodified PyTorch script imports us instead.
A PyTorch module with no counterpart yet fails with `MissingFeature`, an
ImportError naming the module, instead of some unrelated error from deep
inside. Installing also lends the runtime `aliased_package`, so that an
attribute such as `torch.func` (no `import torch.func` in the script) finds
the package the table names, as the import would.

The one idea to hold: the table is the only place that knows which of our
packages plays which PyTorch module; the runtime never names the layers above it.
"""
import importlib
import importlib.abc
import importlib.util
import multiprocessing.spawn
import sys

from .. import _unsupported

# PyTorch module prefix -> minitorch2 module; the longest matching prefix wins.
ALIASES = {
    "torch": "minitorch2",
    "torch._dynamo": "frontend",
    "torch._functorch": "autograd",
    "torch._decomp": "autograd",  # core_aten_decompositions, get_decompositions
    "torch._functorch.aot_autograd": "autograd",
    "torch._functorch.partitioners": "partition",
    "functorch": "autograd",
    "functorch.compile": "autograd",
    "torch.fx.experimental": "minitorch2.fx.experimental",  # symbolic_shapes (the ShapeEnv of dynamic shapes)
    "torch.fx.experimental.proxy_tensor": "autograd",  # make_fx
    "torch.func": "autograd.func",
    "torch._inductor": "backend",
    "torch.compiler": "frontend.compiler",
    "torch.cuda.amp": "minitorch2.amp.cuda_amp",
    "torch.cpu.amp": "minitorch2.amp.cpu_amp",
}


class MissingFeature(ModuleNotFoundError):
    """A PyTorch module or name that minitorch2 does not provide (yet)."""


def target_name(fullname):
    best = None
    for prefix in ALIASES:
        if fullname == prefix or fullname.startswith(prefix + "."):
            if best is None or len(prefix) > len(best):
                best = prefix
    if best is None:
        return None
    return ALIASES[best] + fullname[len(best):]


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, module):
        self.module = module

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        pass


class AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        target_module = target_name(fullname)
        if target_module is None:
            return None
        try:
            module = importlib.import_module(target_module)
        except ModuleNotFoundError as e:
            if e.name and target_module.startswith(e.name):
                raise MissingFeature(
                    f"minitorch2 has no counterpart for PyTorch module '{fullname}' yet (it would be '{target_module}')",
                    name=fullname,
                ) from None
            raise
        return importlib.util.spec_from_loader(fullname, _AliasLoader(module))


def aliased_package(torch_path):
    """The package outside minitorch2 that plays torch_path's part (`torch.func` -> autograd), imported; or None."""
    target = target_name(torch_path)
    if target is None or target.startswith("minitorch2"):
        return None
    return importlib.import_module(target)


class _InstallInChild:
    """Rides in multiprocessing's spawn preparation data: unpickled in the child before the script is re-run
    there, it routes the child's `import torch` too (mnist_hogwild trains in spawned processes)."""

    def __reduce__(self):
        return install, ()


def _preparation_data_with_aliases(name, _original=multiprocessing.spawn.get_preparation_data):
    return {**_original(name), "minitorch2_aliases": _InstallInChild()}


def install():
    """Route `import torch...` to minitorch2 for the rest of this process and the processes it spawns."""
    if not any(isinstance(f, AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, AliasFinder())
    multiprocessing.spawn.get_preparation_data = _preparation_data_with_aliases
    _unsupported.aliased_package = aliased_package
    for name in list(sys.modules):
        if target_name(name) is not None and not _is_ours(sys.modules[name]):
            raise RuntimeError(f"real PyTorch is already imported ({name}); run the script in a fresh process")


def _is_ours(module):
    return getattr(module, "__name__", "").split(".")[0] in set(v.split(".")[0] for v in ALIASES.values())
