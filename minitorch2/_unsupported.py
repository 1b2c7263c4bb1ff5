"""The error for a PyTorch name minitorch2 does not provide.

Runtime layer. `minitorch2.foo` for an unknown `foo` raises `Unsupported`,
an AttributeError (so `hasattr` still works) whose message names the
missing `torch.foo`; `python -m minitorch2 run` reports it as one line with
the script's file and line instead of a traceback.
"""


class Unsupported(AttributeError):
    pass


def module_getattr(module_name, torch_name):
    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise Unsupported(f"{torch_name}.{name} is not supported ({module_name} has no attribute '{name}')")

    return __getattr__
