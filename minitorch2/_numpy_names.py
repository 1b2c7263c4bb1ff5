"""NumPy's keyword names where torch's have others: `x.sum(axis=1, keepdims=True)` is `x.sum(dim=1, keepdim=True)`.

Runtime layer, coverage surface. PyTorch's C++ argument parser accepts `axis` for any `dim` and `keepdims` for any
`keepdim` (its numpy-compatibility names), so programs written by NumPy users pass them to torch.sum, Tensor.mean,
torch.cat... The torch-level functions and Tensor methods taking `dim` or `keepdim` are wrapped once, when
minitorch2 loads (minitorch2/__init__.py, _tensor_methods.install), to rename them. The functions PyTorch writes in
Python (torch/functional.py, torch/_tensor.py) take only their own keywords and are left as they are.
"""
import functools
import inspect
import types

ALIASES = {"axis": "dim", "keepdims": "keepdim"}
WRITTEN_IN_PYTHON = frozenset({"norm", "split", "unflatten", "unique", "unique_consecutive"})


def accepting_numpy_names(fn):
    """fn, or a wrapper of it renaming `axis` and `keepdims` in a call (only where fn has the torch names)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # (a builtin without a signature)
        return fn
    renames = {alias: name for alias, name in ALIASES.items() if name in params and alias not in params}
    if not renames:
        return fn

    @functools.wraps(fn)
    def call(*args, **kwargs):
        if kwargs and not renames.keys().isdisjoint(kwargs):
            kwargs = {renames.get(key, key): value for key, value in kwargs.items()}
        return fn(*args, **kwargs)

    return call


def wrap_all(functions):
    """{name: function} with each public function that PyTorch binds in C++ made to accept NumPy's names."""
    return {name: accepting_numpy_names(fn) if isinstance(fn, types.FunctionType) and not name.startswith("_")
            and name not in WRITTEN_IN_PYTHON else fn for name, fn in functions.items()}
