"""How torch.fft, torch.linalg and torch.special functions are spelled in printed graphs and generated code.

FX layer, coverage surface (imported at the end of special.py). PyTorch implements each of them in C, and Dynamo's
graphs name them by their C home: `torch._C._fft.fft_fft`, `torch._C._linalg.linalg_vector_norm`,
`torch._C._special.special_expit`. Registered here, fx/_spelling.py spells them so and resolves the spellings back in
generated code. Where minitorch2 shares one function between the namespace and `torch` itself (special.log1p is
torch.log1p, linalg.inv is torch.inverse), the namespace gets a forwarding function of its own, so each call is
spelled as the name the program used, as torch's two distinct builtins are.
"""
from . import fft, linalg, special
from .fx._spelling import qualified_name, register_spelling


def _own(namespace, name, function):
    def forward(*args, **kwargs):
        return function(*args, **kwargs)
    forward.__name__ = forward.__qualname__ = name
    forward.__module__, forward.__doc__, forward.__wrapped__ = namespace.__name__, function.__doc__, function
    setattr(namespace, name, forward)
    return forward


for _namespace in (fft, linalg, special):
    _short = _namespace.__name__.rpartition(".")[2]
    for _name in _namespace.__all__:
        _function = getattr(_namespace, _name)
        if qualified_name(_function).count(".") == 1:  # spelled `torch.log1p`: shared with torch's namespace
            _function = _own(_namespace, _name, _function)
        register_spelling(f"torch._C._{_short}.{_short}_{_name}", _function)
