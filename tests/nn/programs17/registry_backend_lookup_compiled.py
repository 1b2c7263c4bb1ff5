"""A tensor-library adapter in the manner of einops' backend lookup (found running lucidrains/vector-quantize-pytorch
compiled): the first call with a new tensor type walks `AbstractBackend.__subclasses__()`, instantiates the backend
whose framework is imported, caches it by type and then calls its methods. Here the lookup happens inside the
compiled frame (the cache is cleared between runs), so the classes come out of a folded `__subclasses__()` list
and are instantiated there, as Dynamo does; the compiled function is one graph."""
import sys

import torch

_type2backend = {}


class AbstractBackend:
    framework_name = None

    def is_appropriate_type(self, tensor):
        raise NotImplementedError

    def reshape(self, x, shape):
        return x.reshape(shape)


class NumpyLikeBackend(AbstractBackend):
    framework_name = "numpy"

    def is_appropriate_type(self, tensor):
        return False


class TorchBackend(AbstractBackend):
    framework_name = "torch"

    def __init__(self):
        self.torch = sys.modules["torch"]
        self.calls = 0

    def is_appropriate_type(self, tensor):
        return isinstance(tensor, self.torch.Tensor)

    def transpose(self, x, axes):
        self.calls += 1
        return x.permute(axes)


def get_backend(tensor):
    found = _type2backend.get(type(tensor))
    if found is not None:
        return found
    backends = AbstractBackend.__subclasses__()
    for backend_class in backends:
        if backend_class.framework_name in sys.modules:
            backend = backend_class()
            if backend.is_appropriate_type(tensor):
                _type2backend[type(tensor)] = backend
                return backend
    raise RuntimeError(f"Tensor type unknown to the adapter: {type(tensor)}")


def channels_last_tokens(x):
    backend = get_backend(x)
    x = backend.transpose(x, (0, 2, 3, 1))
    return backend.reshape(x, (x.shape[0], -1, x.shape[-1]))


@torch.compile(backend="eager")
def tokens_and_norms(x):
    tokens = channels_last_tokens(x)
    return tokens, tokens.norm(dim=-1)


torch.manual_seed(0)
for step in range(3):
    _type2backend.clear()
    tokens, norms = tokens_and_norms(torch.randn(2, 3, 2, 2))
    print(step, tuple(tokens.shape), [round(v, 4) for v in norms[0].tolist()])
print(sorted(cls.__name__ for cls in AbstractBackend.__subclasses__()), type(_type2backend[torch.Tensor]).__name__)
