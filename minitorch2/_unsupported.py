"""The error for a PyTorch name minitorch2 does not provide (runtime layer): `minitorch2.foo` for an unknown `foo`
raises `Unsupported`, an AttributeError (so `hasattr` works) naming `torch.foo`, which `python -m minitorch2 run`
reports as one line with the script's file and line. Under `run`, names the alias table sends elsewhere
(`torch.func`, `torch._dynamo`) resolve to those packages: the CLI installs its lookup in `aliased_package`."""

# Set by `python -m minitorch2 run` (minitorch2/cli/aliases.py): a PyTorch module path -> the package
# outside minitorch2 that plays its part (`torch.func` -> autograd), or None. Unset, no name leads elsewhere.
aliased_package = None


class Unsupported(AttributeError):
    pass


def module_getattr(module_name, torch_name):
    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        package = aliased_package(f"{torch_name}.{name}") if aliased_package is not None else None
        if package is not None:
            return package
        raise Unsupported(f"{torch_name}.{name} is not supported ({module_name} has no attribute '{name}')")

    return __getattr__
