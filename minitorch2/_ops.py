"""OpOverload, OpOverloadPacket and the `minitorch2.ops.aten` namespace (and `ops.prims`, the three
primitives torch's inductor decompositions record: convert_element_type, iota, fma).

Runtime layer. Every tensor operation in minitorch2, eager or traced, forward or backward, is a call of an
`OpOverload`: `minitorch2.ops.aten.addmm.default` prints as `aten.addmm.default`, exactly as in PyTorch. An
overload carries what every layer above needs to know about the op:

    schema        how it is called (and which arguments it mutates or aliases)
    tags          pointwise / reduction / view / inplace / random / core / wraps_numbers ...
    kernel        the eager numpy implementation
    meta          output shapes, dtypes and strides from input metadata alone
    derivative    the autograd formula, written with other registered ops
    decomposition the op in terms of simpler ops, where PyTorch has one
    functional_variant  an in-place op's functional form (add_.Tensor's is add.Tensor)

The overloads themselves are listed in one table, `minitorch2/_aten/table.py`; `register_table` makes the registry from
its rows. Calling an overload hands it to the dispatcher (`minitorch2/_dispatch.py`).
"""
import inspect

from ._schema import FunctionSchema
from ._tensor import Tensor
from ._unsupported import Unsupported


class OpOverload:
    def __init__(self, entry):
        # (wraps_numbers: an op ATen leaves untagged, floor_divide, that takes a Python number for a Tensor too)
        self._schema = FunctionSchema(entry.schema, numbers_as_tensors=bool(
            {"pointwise", "inplace", "wraps_numbers"} & set(entry.tags)))
        self._namespace, self._opname = self._schema.name.split("::")
        self.__name__ = f"{self._opname}.{self._schema.overload_name}"
        self._overloadname = self._schema.overload_name
        self.tags = frozenset(entry.tags)
        self.kernel = entry.kernel
        self.meta = entry.meta
        self.derivative = entry.derivative
        self.decomposition = entry.decomposition
        self.grad_fn_name = entry.grad_fn_name
        self.differentiable = entry.differentiable
        self.output_differentiability = entry.output_differentiability
        self.overloadpacket = None  # set by the packet
        self.is_view = "view" in self.tags
        self.is_inplace = "inplace" in self.tags
        self.is_random = "random" in self.tags
        self._functional_name = entry.functional
        self.functional_variant = None  # the OpOverload named by _functional_name, linked by register_table
        self.is_tensor_method = entry.method  # Tensor.<name> calls this overload (_tensor_methods.py)

    def __call__(self, *args, **kwargs):
        args, kwargs = self._schema.normalize(self, args, kwargs)
        args, kwargs = self._schema.check_types(self, args, kwargs)
        return _dispatch.dispatch(self, args, kwargs)

    def __str__(self):
        return f"{self._namespace}.{self.__name__}"

    def __repr__(self):
        return f"<OpOverload(op='{self._namespace}.{self._opname}', overload='{self._overloadname}')>"

    def name(self):
        return f"{self._namespace}::{self._opname}" + ("" if self._overloadname == "default" else f".{self._overloadname}")

    @property
    def namespace(self):
        return self._namespace

    def __reduce__(self):
        return (_lookup, (self._opname, self._overloadname, self._namespace))

    def decompose(self, *args, **kwargs):
        return NotImplemented if self.decomposition is None else self.decomposition(*args, **kwargs)


class OpOverloadPacket:
    """All overloads of one op name: `aten.add` holds `aten.add.Tensor`, `aten.add.Scalar`..."""

    def __init__(self, name, namespace="aten"):
        self._namespace = namespace
        self.__name__ = name
        self._overload_names = []

    def _add(self, overload):
        overload.overloadpacket = self
        self._overload_names.append(overload._overloadname)
        setattr(self, overload._overloadname, overload)

    def overloads(self):
        return list(self._overload_names)

    def __str__(self):
        return f"{self._namespace}.{self.__name__}"

    def __repr__(self):
        return f"<OpOverloadPacket(op='{self._namespace}.{self.__name__}')>"

    def __getattr__(self, key):
        raise AttributeError(f"'{self._namespace}.{self.__name__}' has no overload '{key}' (it has: {', '.join(self._overload_names)})")

    def __call__(self, *args, **kwargs):
        for name in self._overload_names:
            overload = getattr(self, name)
            try:
                normalized = overload._schema.normalize(overload, args, kwargs)
            except TypeError:
                continue
            if _types_fit(overload._schema, normalized[0]):
                return _dispatch.dispatch(overload, *overload._schema.check_types(overload, *normalized))
        raise TypeError(f"{self._namespace}.{self.__name__}: no overload accepts these arguments; overloads: {self._overload_names}")


def _types_fit(schema, args):
    for arg, value in zip(schema.positional, args):
        if arg.type == "Tensor" and not isinstance(value, Tensor):
            return False
        if arg.type == "Scalar" and isinstance(value, Tensor):
            return False
    return True


class _AtenNamespace:
    """`ops.aten` (or `ops.prims`: the primitives torch's decompositions bottom out in, fma, iota, ...)."""

    def __init__(self, name="aten"):
        self._name = name
        self._packets = {}

    def _register(self, overload):
        packet = self._packets.get(overload._opname)
        if packet is None:
            packet = self._packets[overload._opname] = OpOverloadPacket(overload._opname, self._name)
            setattr(self, overload._opname, packet)
        packet._add(overload)

    def __getattr__(self, name):
        raise Unsupported(f"minitorch2 has no operator {self._name}.{name} yet (the registry is minitorch2/_aten/table.py)")

    def __iter__(self):
        return iter(self._packets.values())

    def overloads(self):
        return [getattr(p, name) for p in self._packets.values() for name in p._overload_names]


class _Ops:
    def __init__(self):
        self.aten = _AtenNamespace()
        self.prims = _AtenNamespace("prims")


ops = _Ops()


def _lookup(name, overload, namespace="aten"):
    return getattr(getattr(getattr(ops, namespace), name), overload)


def python_signature(overload, first=None):
    """The schema as a Python signature, for help() on a function or method that only calls `overload`;
    `first` renames the first argument (torch's functions call the tensor `input`)."""
    parameters = []
    for i, arg in enumerate(overload._schema.arguments):
        kind = inspect.Parameter.KEYWORD_ONLY if arg.kwarg_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
        default = arg.default if arg.has_default else inspect.Parameter.empty
        parameters.append(inspect.Parameter(first if i == 0 and first else arg.name, kind, default=default))
    return inspect.Signature(parameters)


def register_table(rows):
    """Make the registry from the op table's rows (minitorch2/_aten/table.py): an OpOverload per row, in
    `ops.aten` or `ops.prims`; then link each in-place overload to its functional form, where that is
    registered (random_.from has none)."""
    overloads = [OpOverload(row) for row in rows]
    for overload in overloads:
        getattr(ops, overload.namespace)._register(overload)
    for overload in overloads:
        if overload._functional_name:
            name, overload_name = overload._functional_name.split(".")
            packet = ops.aten._packets.get(name)
            overload.functional_variant = getattr(packet, overload_name) if packet and overload_name in packet.overloads() else None


from . import _dispatch  # noqa: E402  (the dispatcher needs OpOverload defined first)
