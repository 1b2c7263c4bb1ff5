"""Guards: the assumptions a compiled graph makes, checked before each reuse.

Frontend layer, between the translator (which records assumptions while it
reads a frame) and the cache in `eval_frame.py` (which checks them on every
call). The one idea to hold: a guard is one line of Python over `L` (the
frame's locals) and `G` (its globals), written from a Source's name, and all
the guards of a cache entry compile to ONE printable function:

    def guards(L, G):
        if not (___check_tensor(L['x'], torch.float32, (2, 3), (3, 1), False)): return "L['x'] ..."
        if not (___check_obj_id(L['self'], 140234)): return "L['self'] is a different object"
        if not (___is_grad_enabled()): return "grad mode changed"
        return None

It returns None when every guard passes, else the text of the first guard
that failed, which is what recompile logs and the cache-limit warning print.
"""
import builtins
import weakref

import minitorch2
from minitorch2._memory_overlap import overlap_groups

from . import source


def ___check_tensor(value, dtype, size, stride, requires_grad, tensor_type):
    return (type(value) is tensor_type and value.dtype == dtype and tuple(value.shape) == size
            and tuple(value.stride()) == stride and value.requires_grad == requires_grad)


_SCALAR_TYPE_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
                      "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _scalar_type(dtype):
    name = str(dtype).rsplit(".", 1)[-1]
    return _SCALAR_TYPE_NAMES.get(name, name)


def ___tensor_mismatch(value, name, dtype, size, stride, requires_grad, tensor_type):
    """Why ___check_tensor failed, in Dynamo's words: the first property that differs, expected and actual."""
    if type(value) is not tensor_type:
        return f"tensor '{name}' type mismatch. expected {tensor_type.__name__}, actual {type(value).__name__}"
    if value.dtype != dtype:
        return f"tensor '{name}' dtype mismatch. expected {_scalar_type(dtype)}, actual {_scalar_type(value.dtype)}"
    if value.requires_grad != requires_grad:
        return f"tensor '{name}' requires_grad mismatch. expected requires_grad={int(requires_grad)}"
    if value.dim() != len(size):
        return f"tensor '{name}' rank mismatch. expected {len(size)}, actual {value.dim()}"
    for what, expected, actual in (("size", size, tuple(value.shape)), ("stride", stride, tuple(value.stride()))):
        for i, (e, a) in enumerate(zip(expected, actual)):
            if e != a:
                return f"tensor '{name}' {what} mismatch at index {i}. expected {e}, actual {a}"
    return f"tensor '{name}' mismatch"


def ___check_obj_id(value, expected):
    return id(value) == expected


def ___check_type_id(value, expected):
    return id(type(value)) == expected


def ___is_grad_enabled():
    return minitorch2.is_grad_enabled()


def ___check_no_aliasing(*tensors):
    return len({id(t) for t in tensors}) == len(tensors)


def ___duplicate_tensors(names, *tensors):
    """Why ___check_no_aliasing failed, in Dynamo's words: the sources that hold one tensor."""
    holders = {}
    for name, t in zip(names, tensors):
        holders.setdefault(id(t), []).append(name)
    return f"Duplicate tensors found: {[name for group in holders.values() if len(group) > 1 for name in group]}"


def ___check_overlapping(groups, *tensors):
    return overlap_groups(tensors) == groups


GUARD_NAMESPACE = {
    "___check_tensor": ___check_tensor,
    "___tensor_mismatch": ___tensor_mismatch,
    "___check_obj_id": ___check_obj_id,
    "___check_type_id": ___check_type_id,
    "___is_grad_enabled": ___is_grad_enabled,
    "___check_no_aliasing": ___check_no_aliasing,
    "___duplicate_tensors": ___duplicate_tensors,
    "___check_overlapping": ___check_overlapping,
    "torch": minitorch2,
    "builtins": builtins,
    "FOREIGN_GLOBALS": source.FOREIGN_GLOBALS,
}


class Guard:
    """One assumption: `code` must be true; `kind` says what sort (TENSOR_MATCH, ID_MATCH...)."""

    def __init__(self, kind, code, why, failure=None):
        self.kind = kind
        self.code = code
        self.why = why
        self.failure = failure  # an expression describing a failure with the actual values; default: why

    def __repr__(self):
        return f"{self.kind}: {self.code}"


def _type_expr(t):
    """How a guard spells a tensor class: torch.Tensor or torch.nn.Parameter."""
    return "torch.nn.Parameter" if isinstance(t, minitorch2.nn.Parameter) else "torch.Tensor"


def tensor_guard(source, value):
    name = source.name()
    code = (f"___check_tensor({name}, {value.dtype!r}, {tuple(value.shape)!r}, {tuple(value.stride())!r}, "
            f"{value.requires_grad!r}, {_type_expr(value)})")
    why = (f"tensor {name}: expected {_type_expr(value)} {value.dtype} size {list(value.shape)} "
           f"stride {list(value.stride())} requires_grad={value.requires_grad}")
    failure = code.replace("___check_tensor(", "___tensor_mismatch(", 1).replace(f"({name}, ", f"({name}, {name!r}, ", 1)
    return Guard("TENSOR_MATCH", code, why, failure)


def constant_guard(source, value):
    name = source.name()
    if value is None or isinstance(value, bool):
        return Guard("CONSTANT_MATCH", f"{name} is {value!r}", f"{name} is {value!r}")
    return Guard("CONSTANT_MATCH", f"___check_type_id({name}, {id(type(value))}) and {name} == {value!r}",
                 f"{name} == {value!r} (type {type(value).__name__})")


def id_guard(source, value):
    name = source.name()
    return Guard("ID_MATCH", f"___check_obj_id({name}, {id(value)})", f"{name} is the same object as when compiled")


def type_guard(source, value):
    name = source.name()
    return Guard("TYPE_MATCH", f"___check_type_id({name}, {id(type(value))})", f"type({name}) is {type(value).__name__}")


def length_guard(source, value):
    name = source.name()
    return Guard("SEQUENCE_LENGTH", f"len({name}) == {len(value)}", f"len({name}) == {len(value)}")


def duplicate_input_guard(source, first_source):
    """One tensor reached by two sources is one graph input: the next call must pass one tensor there too."""
    code = f"{source.name()} is {first_source.name()}"
    return Guard("DUPLICATE_INPUT", code, code)


def no_aliasing_guard(sources):
    """The graph's tensor inputs are distinct objects (two sources holding one tensor need another graph)."""
    names = ", ".join(s.name() for s in sources)
    return Guard("NO_TENSOR_ALIASING", f"___check_no_aliasing({names})", "Duplicate tensors found",
                 f"___duplicate_tensors({[s.name() for s in sources]!r}, {names})")


def overlap_guard(sources, groups):
    """Which of the graph's tensor inputs share memory (minitorch2/_memory_overlap.py), as when compiled:
    installed when the graph changes an input in place, where a view overlapping it would see the change."""
    names = ", ".join(s.name() for s in sources)
    described = "; ".join(" and ".join(sources[i].name() for i in g) + " overlap" for g in groups) or "no overlap"
    return Guard("STORAGE_OVERLAPPING", f"___check_overlapping({groups!r}, {names})",
                 f"tensor inputs' memory overlap changed (compiled for: {described})")


def grad_mode_guard(enabled):
    code = "___is_grad_enabled()" if enabled else "not ___is_grad_enabled()"
    return Guard("GRAD_MODE", code, f"grad mode is {'enabled' if enabled else 'disabled'}")


class GuardSet:
    """The guards of one translation, in the order they were installed, without duplicates."""

    def __init__(self):
        self.guards = []
        self._codes = set()
        self.keepalive = []  # objects guarded by id: watched (weakly) so a reused id cannot pass

    def add(self, guard, keepalive=None):
        if guard.code not in self._codes:
            self._codes.add(guard.code)
            self.guards.append(guard)
            if keepalive is not None:
                self.keepalive.append(keepalive)

    def source_text(self):
        lines = ["def guards(L, G):"]
        for g in self.guards:
            lines.append(f"    if not ({g.code}): return {g.failure or repr(g.why)}")
        lines.append("    return None")
        return "\n".join(lines)

    def compile(self):
        """The one guard function of a cache entry; its source is kept on it as `.source`."""
        text = self.source_text()
        namespace = dict(GUARD_NAMESPACE)
        exec(compile(text, "<frontend guards>", "exec"), namespace)
        fn = namespace["guards"]
        fn.source = text
        fn.guard_list = list(self.guards)
        fn.invalidated = False
        fn.keepalive = [_watch(obj, fn, namespace) for obj in self.keepalive]
        return fn


def _watch(obj, guard_fn, namespace):
    """A weak reference to an object guarded by id; its death makes every id guard of guard_fn fail.

    As Dynamo does, a cache entry must not keep the modules and functions it specialised on alive;
    once one dies its id may be reused by a new object, so the entry can never match again.
    Objects that cannot be weakly referenced (builtins) are held strongly.
    """
    def invalidate(_ref):
        guard_fn.invalidated = True
        namespace["___check_obj_id"] = lambda value, expected: False

    try:
        return weakref.ref(obj, invalidate)
    except TypeError:
        return obj
