"""Sources: where a value the translator reads came from, in the running frame.

Frontend layer, used by the variable builder (to name graph inputs), by guards (to say what they check) and by the
cache entry (to fetch inputs on every call). The one idea to hold: a Source's `name()` is both Dynamo's name for the
value and the Python expression that fetches it, with `L` bound to the frame's locals and `G` to its globals:

    LocalSource("x")                                      L['x']
    AttrSource(LocalSource("self"), "training")           L['self'].training
    self.fc.weight (nn.Module internals spelled out)      L['self']._modules['fc']._parameters['weight']

Its placeholder name turns every run of non-identifier characters into `_` (`L_self_modules_fc_parameters_weight_`).
Keys and attribute names the user chose arrive as quoted literals (`literal()`), never as raw text.
"""
import functools
import keyword
import re

import minitorch2
from minitorch2._subclasses.strided_symbols import tensor_property as ___tensor_property

from .exc import Unsupported


def literal(value):
    """value as Python source that evaluates back to an equal value: only None, bool, int and str of exactly
    those types (a subclass could print itself as any code). Anything else cannot name a source."""
    if value is None or type(value) is bool:
        return repr(value)
    if type(value) is int:
        try:
            return int.__repr__(value)
        except ValueError:  # more digits than sys.get_int_max_str_digits() allows
            pass
    elif isinstance(value, str):
        return str.__repr__(value)  # quoted and escaped, whatever the subclass's own __repr__ says
    raise Unsupported(f"a key or name of type {type(value).__name__} in a source", "unsupported")


class Source:
    def name(self):
        raise NotImplementedError

    def placeholder_name(self):
        return re.sub(r"[^a-zA-Z0-9]+", "_", self.name())

    @functools.cached_property
    def fetch(self):
        """(L, G) -> the value this source names, in a frame whose locals are L and globals G."""
        return eval(f"lambda L, G: {self.name()}")

    def __repr__(self):
        return f"{type(self).__name__}({self.name()})"

    def __eq__(self, other):
        return type(self) is type(other) and self.name() == other.name()

    def __hash__(self):
        return hash(self.name())


def fetch_function(sources):
    """One compiled function (L, G) -> [value of each source]: a cache hit fetches a graph's inputs in one call."""
    return eval(f"lambda L, G: [{', '.join(s.name() for s in sources)}]")


class LocalSource(Source):
    def __init__(self, local_name):
        self.local_name = local_name

    def name(self):
        return f"L[{literal(self.local_name)}]"


class GlobalSource(Source):
    def __init__(self, global_name):
        self.global_name = global_name

    def name(self):
        return f"G[{literal(self.global_name)}]"


# Globals dicts of inlined functions from other modules, by id: `FOREIGN_GLOBALS[id][name]` names a value there.
FOREIGN_GLOBALS = {}


class ForeignGlobalSource(Source):
    """A global of an inlined function whose module is not the frame's (its dict is held in FOREIGN_GLOBALS)."""

    def __init__(self, globals_dict, global_name):
        FOREIGN_GLOBALS[id(globals_dict)] = globals_dict
        self.globals_dict, self.global_name = globals_dict, global_name

    def dict_name(self):
        return f"FOREIGN_GLOBALS[{id(self.globals_dict)}]"

    def name(self):
        return f"{self.dict_name()}[{literal(self.global_name)}]"


class AttrSource(Source):
    def __init__(self, base, member):
        self.base = base
        self.member = str.__str__(member)  # a str subclass becomes a plain str: its methods are never run

    def name(self):
        if self.member.isidentifier() and not keyword.iskeyword(self.member):  # `base.<member>` is valid Python
            return f"{self.base.name()}.{self.member}"
        return f"getattr({self.base.name()}, {literal(self.member)})"


class GetItemSource(Source):
    def __init__(self, base, index):
        self.base, self.index = base, index

    def name(self):
        return f"{self.base.name()}[{literal(self.index)}]"

    def is_parameter_or_buffer(self):
        return isinstance(self.base, AttrSource) and self.base.member in ("_parameters", "_buffers")


class TensorSizeSource(Source):
    """A size, stride or the storage offset of a tensor input (`L['x'].stride()[1]`): a symbol's graph input's."""

    def __init__(self, base, dim, prop="size"):
        self.base, self.dim, self.prop, self.parts = base, dim, prop, (prop, dim)

    def name(self):
        return f"{self.base.name()}.{self.prop}()" + ("" if self.dim is None else f"[{self.dim}]")


def ___as_tensor(value):
    return minitorch2.tensor(value, dtype=minitorch2.float64)


class FloatTensorSource(Source):
    """A dynamic float argument as the graph takes it: a 0-d float64 tensor (`___as_tensor(L['eps'])`, placeholder
    `L_eps_`), made from the float at every call."""

    def __init__(self, base):
        self.base = base

    def name(self):
        return f"___as_tensor({self.base.name()})"

    def placeholder_name(self):
        return self.base.placeholder_name()


# What generated code calls to load each (assemble.load_source): helper(base, *parts). (Set outside the class bodies,
# where the names' leading underscores would be mangled.)
TensorSizeSource.helper = staticmethod(___tensor_property)
FloatTensorSource.helper, FloatTensorSource.parts = staticmethod(___as_tensor), ()


def module_member_source(module_source, kind, key):
    """Source of `module.<key>` when it lives in `module.<kind>` (`_modules`, `_parameters`, `_buffers`)."""
    return GetItemSource(AttrSource(module_source, kind), key) if module_source is not None else None


def attr_source(base, member):
    """AttrSource(base, member); None for an object made in the frame, which has no source to read it through."""
    return AttrSource(base, member) if base is not None else None
