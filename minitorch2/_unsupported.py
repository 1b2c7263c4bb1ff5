"""The error for a PyTorch name minitorch2 does not provide.

Runtime layer. `minitorch2.foo` for an unknown `foo` raises `Unsupported`,
an AttributeError (so `hasattr` still works) whose message names the
missing `torch.foo`; `python -m minitorch2 run` reports it as one line with
the script's file and line instead of a traceback. Under `run`, names the
alias table sends elsewhere (`torch.func`, `torch._dynamo`) resolve to those
packages instead.
"""
import importlib
import sys

from . import _aliases


class Unsupported(AttributeError):
    pass


def module_getattr(module_name, torch_name):
    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        aliased = _aliased_module(f"{torch_name}.{name}")
        if aliased is not None:
            return aliased
        raise Unsupported(f"{torch_name}.{name} is not supported ({module_name} has no attribute '{name}')")

    return __getattr__


def _aliased_module(torch_path):
    """Under `python -m minitorch2 run`, `torch.func` and friends are other packages (the alias table)."""
    if not any(isinstance(f, _aliases.AliasFinder) for f in sys.meta_path):
        return None
    target = _aliases.target_name(torch_path)
    if target is None or target.startswith("minitorch2"):
        return None
    return importlib.import_module(target)
