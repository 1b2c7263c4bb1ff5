"""How torch.fft, torch.linalg and torch.special functions are spelled in printed graphs and generated code.

FX layer, coverage surface (imported at the end of special.py). PyTorch implements each of them in C, and Dynamo's
graphs name them by their C home: `torch._C._fft.fft_fft`, `torch._C._linalg.linalg_vector_norm`,
`torch._C._special.special_expit`. Registered here, fx/_spelling.py spells them so and resolves the spellings back in
generated code. A function the namespace takes from elsewhere or shares with `torch` (special.log1p is
torch.log1p, linalg.inv is torch.inverse) is replaced there by a forwarding function of its own, so each call is
spelled by the name the program used, as torch's two distinct builtins are.

Also torch._C._autograd._get_data_attr, the call Dynamo records for a tensor's `.data` read in a compiled frame.
"""
import sys

from . import fft, linalg, special
from ._ops import ops
from ._tensor import _VersionCounter
from .fx._spelling import register_spelling


def _own(namespace, name, function):
    def forward(*args, **kwargs):
        return function(*args, **kwargs)
    forward.__name__ = forward.__qualname__ = name
    forward.__module__, forward.__doc__, forward.__wrapped__ = namespace.__name__, function.__doc__, function
    setattr(namespace, name, forward)
    return forward


_elsewhere = {id(value) for name in ("minitorch2", "minitorch2.nn.functional") if name in sys.modules
              for value in vars(sys.modules[name]).values()}
for _namespace in (fft, linalg, special):
    _short = _namespace.__name__.rpartition(".")[2]
    for _name in _namespace.__all__:
        _function = getattr(_namespace, _name)
        if isinstance(_function, type):  # linalg.LinAlgError
            continue
        if _function.__module__ != _namespace.__name__ or id(_function) in _elsewhere:
            _function = _own(_namespace, _name, _function)
        register_spelling(f"torch._C._{_short}.{_short}_{_name}", _function)


def _get_data_attr(tensor):
    """`tensor.data` as a graph computes it: a detached alias with a version counter of its own (so in-place ops
    through it are hidden from autograd); traced, it is aten.detach, as torch's."""
    out = ops.aten.detach.default(tensor)
    out._version_counter = _VersionCounter()
    return out


register_spelling("torch._C._autograd._get_data_attr", _get_data_attr)
