"""ParameterList and ParameterDict (as torch.nn), and the in-place edits of the other containers (a ModuleList's
insert, a Sequential's `del seq[1]`, a ModuleDict's pop). Runtime layer, coverage surface.

Each element is an attribute of the container named by its index ("0", "1", ...) or key, so a Parameter lands
in `_parameters` and the state-dict keys read `params.0`, `params.left`, as in torch. A plain tensor stored in
either is wrapped in a Parameter first; any other object is kept as an ordinary attribute.
"""
import operator
from collections import OrderedDict, abc

from ..._tensor import Tensor
from ..parameter import Parameter
from .module import Module

__all__ = ["ParameterList", "ParameterDict"]


class IndexedEditing:
    """Sequential's and ModuleList's children set and deleted (the rest renumbered from 0) by position."""

    def __setitem__(self, idx, module):
        setattr(self, self._key(idx), module)

    def __delitem__(self, idx):
        for key in list(self._modules)[idx] if isinstance(idx, slice) else [self._key(idx)]:
            delattr(self, key)
        modules = list(self._modules.values())
        self._modules.clear()
        for i, module in enumerate(modules):
            self._modules[str(i)] = module


class ModuleListInsert:
    """ModuleList.insert: a child placed at a position, those after it renumbered."""

    def insert(self, index, module):
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(modules):
            self.add_module(str(i), m)


class DictEditing:
    """ModuleDict's entries deleted and popped."""

    def __delitem__(self, key):
        del self._modules[key]

    def clear(self):
        self._modules.clear()

    def pop(self, key):
        v = self[key]
        del self[key]
        return v


def _describe(key, value, type_name):
    """One line of the repr: `  (0): Parameter containing: [torch.float32 of size 2x3]`."""
    if isinstance(value, Tensor):
        kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
        shape = "x".join(str(size) for size in value.shape)
        return f"  ({key}): {kind} containing: [{type_name(value)} of size {shape}]"
    return f"  ({key}): Object of type: {type(value).__name__}"


def _as_parameter(value):
    return Parameter(value) if isinstance(value, Tensor) and not isinstance(value, Parameter) else value


class ParameterList(Module):
    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _index_name(self, idx):
        idx = operator.index(idx)
        if not -len(self) <= idx < len(self):
            raise IndexError(f"index {idx} is out of range")
        return str(idx % len(self))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__([self[i] for i in range(*idx.indices(len(self)))])
        return getattr(self, self._index_name(idx))

    def __setitem__(self, idx, param):
        setattr(self, self._index_name(idx), _as_parameter(param))

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, value):
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values):
        if not isinstance(values, abc.Iterable) or isinstance(values, Tensor):
            raise TypeError(f"ParameterList.extend should be called with an iterable, but got {type(values).__name__}")
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        return "\n".join(_describe(i, p, lambda t: t.dtype) for i, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _key_to_attr(key):
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string (type is "
                            f"'{type(key).__name__}'). Open an issue on github if you need non-string keys.")
        return key

    def __getitem__(self, key):
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key, value):
        self._keys[key] = None
        setattr(self, self._key_to_attr(key), _as_parameter(value))

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __reversed__(self):
        return reversed(self._keys)

    def __contains__(self, key):
        return key in self._keys

    def copy(self):
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self):
        for key in list(self._keys):
            del self[key]

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def popitem(self):
        key = next(reversed(self._keys))
        return key, self.pop(key)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def fromkeys(self, keys, default=None):
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def update(self, parameters):
        """A mapping's items in key order (an OrderedDict's or ParameterDict's in theirs), or (key, value) pairs."""
        if not isinstance(parameters, abc.Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of key/value pairs, but got "
                            + type(parameters).__name__)
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = parameters.items()
        elif isinstance(parameters, abc.Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = parameters
        for j, pair in enumerate(pairs):
            if not isinstance(pair, abc.Iterable):
                raise TypeError(f"ParameterDict update sequence element #{j} should be Iterable; is"
                                + type(pair).__name__)
            if len(pair) != 2:
                raise ValueError(f"ParameterDict update sequence element #{j} has length {len(pair)}; 2 is required")
            self[pair[0]] = pair[1]

    def extra_repr(self):
        return "\n".join(_describe(k, p, lambda t: t.type()) for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other):
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other):
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other):
        self.update(other)
        return self
