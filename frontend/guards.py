"""Guards: the assumptions a compiled graph makes, checked before each reuse.

Frontend layer, between the translator (which records assumptions while it reads a frame) and the cache in
`eval_frame.py` (which checks them on every call). The one idea to hold: a guard is one line of Python over `L` (the
frame's locals) and `G` (its globals), written from a Source's name, and all the guards of a cache entry compile to
ONE printable function, which returns None when every guard passes, else the text of the first that failed:

    def guards(L, G):
        try:
            if not (___check_global_state(grad_mode=True, autocast={}, ...)): return ...
            if not (___check_tensor(L['x'], torch.float32, (2, 3), (3, 1), False)): return "L['x'] ..."
        except Exception as e:
            return f'a guard raised {type(e).__name__}: {e}'
        return None
"""
import builtins
import dataclasses
import itertools
import math
import weakref

import minitorch2
from minitorch2._memory_overlap import overlap_groups
from minitorch2._sym import is_symbolic

from . import source
from .dynamic_shapes import dim_marks
from .exc import Unsupported
from .global_state import global_state
from .guard_failures import ___duplicate_tensors, ___global_state_mismatch, ___tensor_mismatch  # noqa: F401
from .source import literal


def ___check_tensor(value, dtype, size, stride, requires_grad, tensor_type, inference=False, marks=(None,) * 3):
    """The tensor's type and metadata; None in `size` or `stride` is a dynamic dim (its SHAPE_ENV guards check it).
    `inference`: an inference tensor (torch.inference_mode's), which Dynamo's dispatch key set check tells apart.
    `marks`: the dims mark_dynamic, maybe_mark_dynamic, mark_static marked (None: none); a call marks a subset."""
    return (type(value) is tensor_type and value.dtype == dtype and _matches(value.shape, size)
            and _matches(value.stride(), stride) and value.requires_grad == requires_grad
            and value._version_counter.inference == inference
            and all(now is None or (then is not None and now <= then) for now, then in zip(dim_marks(value), marks)))


def _matches(actual, expected):
    return len(actual) == len(expected) and all(e is None or a == e for a, e in zip(actual, expected))


def ___check_obj_id(value, expected):
    return id(value) == expected


def ___check_type_id(value, expected):
    return id(type(value)) == expected


def ___check_global_state(**expected):
    return global_state() == expected


def ___check_no_aliasing(*tensors):
    return len({id(t) for t in tensors}) == len(tensors)


def ___check_overlapping(groups, *tensors):
    return overlap_groups(tensors) == groups


# What guard code can name: every ___helper above (the checks, and the words of a failure from guard_failures.py),
# and the modules it spells values with.
GUARD_NAMESPACE = {name: value for name, value in globals().items() if name.startswith("___")}
GUARD_NAMESPACE.update(torch=minitorch2, builtins=builtins, math=math, FOREIGN_GLOBALS=source.FOREIGN_GLOBALS)


@dataclasses.dataclass
class Guard:
    """One assumption: `code` must be true; `kind` says what sort (TENSOR_MATCH, ID_MATCH...)."""

    kind: str
    code: str
    why: str
    failure: str = None  # an expression describing a failure with the actual values; default: why
    constants: dict = dataclasses.field(default_factory=dict)  # names in `code` bound to values without a literal

    def __repr__(self):
        return f"{self.kind}: {self.code}"


def tensor_guard(source, value, fake, shape_env=None):
    """The tensor's metadata as compiled; where its fake has a symbolic size or stride, that entry is None (or
    the int the ShapeEnv pinned it to since). `value` may be the (dtype, requires_grad, type, inference, dim marks) of a
    guard's `of`."""
    name = source.name()
    is_parameter = isinstance(value, minitorch2.nn.Parameter)
    dtype, requires_grad, type_text, inference, marks = value if isinstance(value, tuple) else (
        value.dtype, value.requires_grad, "torch.nn.Parameter" if is_parameter else "torch.Tensor",
        value._version_counter.inference, dim_marks(value))
    size, stride = (tuple(_pinned(s, shape_env) for s in values) for values in (fake.shape, fake.stride()))
    code = (f"___check_tensor({name}, {dtype!r}, {size!r}, {stride!r}, {requires_grad!r}, {type_text}"
            f"{', inference=True' if inference else ''}{f', marks={marks!r}' if any(marks) else ''})")
    why = (f"tensor {name}: expected {type_text} {dtype} size {list(size)} stride {list(stride)} "
           f"requires_grad={requires_grad}")
    failure = code.replace("___check_tensor(", "___tensor_mismatch(", 1).replace(f"({name}, ", f"({name}, {name!r}, ", 1)
    guard = Guard("TENSOR_MATCH", code, why, failure)
    guard.of = (source, (dtype, requires_grad, type_text, inference, marks), fake)  # (not the tensor: it must not live on)
    return guard


def _pinned(size, shape_env):
    if not is_symbolic(size):
        return size
    expr = shape_env.simplify(size.node.expr) if shape_env is not None else size.node.expr
    return int(expr) if expr.is_Integer else None


_constant_ids = itertools.count()


def _value_text(value, constants):
    """Python text for value in a guard: a literal that evaluates back to it, else a name bound in `constants`."""
    if type(value) is float and math.isfinite(value):
        return float.__repr__(value)
    if type(value) is float:
        return "math.inf" if value > 0 else "-math.inf" if value < 0 else "math.nan"
    try:
        return literal(value)
    except Unsupported:
        name = f"___const_{next(_constant_ids)}"
        constants[name] = value
        return name


def _equals_text(name, value, constants):
    """Python text true when the value at `name` equals value; a float must also agree in nan-ness and sign."""
    if type(value) is float and math.isnan(value):
        return f"math.isnan({name})"
    if type(value) is float and value == 0.0:  # 1 / x and copysign tell -0.0 from 0.0
        return f"{name} == 0.0 and math.copysign(1.0, {name}) == {math.copysign(1.0, value)!r}"
    if type(value) in (range, slice):  # (range(0, 10, 3) == range(0, 11, 3), yet their .stop differ)
        parts = (value.start, value.stop, value.step)
        expected = ", ".join(_value_text(v, constants) for v in parts)
        return f"({name}.start, {name}.stop, {name}.step) == ({expected})"
    return f"{name} == {_value_text(value, constants)}"


def constant_guard(source, value):
    """value is None, a bool, or of one of builder.CONSTANT_TYPES' exact types (int, float, str, range, slice...)."""
    name = source.name()
    if value is None or isinstance(value, bool):
        return Guard("CONSTANT_MATCH", f"{name} is {value!r}", f"{name} is {value!r}")
    constants = {}
    code = f"___check_type_id({name}, {id(type(value))}) and {_equals_text(name, value, constants)}"
    return Guard("CONSTANT_MATCH", code, f"{name} == {_describe(value)} (type {type(value).__name__})",
                 constants=constants)


def _describe(value):
    try:
        return repr(value)
    except ValueError:  # an int with more digits than repr() writes
        return f"an int of {value.bit_length()} bits"


def dict_keys_guard(source, keys):
    """The dict's keys in order, and their types (exact str, int or bool), as {True: v} and {1: v} have equal keys."""
    name = source.name()
    text = "[" + ", ".join(literal(k) for k in keys) + "]"
    types = "[" + ", ".join(f"builtins.{type(k).__name__}" for k in keys) + "]"
    return Guard("DICT_KEYS", f"list({name}) == {text} and [type(k) for k in {name}] == {types}",
                 f"{name} has keys {text}")


def hasattr_guard(source, attribute, present):
    code = f"{'' if present else 'not '}hasattr({source.name()}, {literal(attribute)})"
    return Guard("HASATTR", code, code)


def builtin_guard(globals_text, name, value):
    """A builtin the frame reads by name is still that builtin: no module global shadows it, none was patched in."""
    code = f"{literal(name)} not in {globals_text} and ___check_obj_id(getattr(builtins, {literal(name)}), {id(value)})"
    return Guard("BUILTIN_MATCH", code, f"{name} is the builtin it was when compiled")


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
    code = f"{first_source.name()} is {source.name()}"  # (Dynamo's order)
    return Guard("DUPLICATE_INPUT", code, code)


def no_aliasing_guard(sources):
    """The graph's tensor inputs are distinct objects (two sources holding one tensor need another graph)."""
    names = ", ".join(s.name() for s in sources)
    return Guard("NO_TENSOR_ALIASING", f"___check_no_aliasing({names})", "Duplicate tensors found",
                 f"___duplicate_tensors({[s.name() for s in sources]!r}, {names})")


def overlap_guard(sources, groups):
    """Which tensor inputs share memory is as when compiled (needed when the graph changes an input in place)."""
    names = ", ".join(s.name() for s in sources)
    described = "; ".join(" and ".join(sources[i].name() for i in g) + " overlap" for g in groups) or "no overlap"
    return Guard("STORAGE_OVERLAPPING", f"___check_overlapping({groups!r}, {names})",
                 f"tensor inputs' memory overlap changed (compiled for: {described})")


def global_state_guard(state):
    """The global settings (global_state()) are as when the graph was traced: as Dynamo's GLOBAL_STATE guard."""
    args = ", ".join(f"{key}={value!r}" for key, value in state.items())  # True, torch.float32
    return Guard("GLOBAL_STATE", f"___check_global_state({args})", f"global state is {args}",
                 f"___global_state_mismatch({args})")


class GuardSet:
    """The guards of one translation, in the order they were installed, without duplicates."""

    def __init__(self):
        self.guards = {}  # code -> Guard
        self.keepalive = []  # objects guarded by id: watched (weakly) so a reused id cannot pass

    def add(self, guard, keepalive=None):
        if guard.code not in self.guards:
            self.guards[guard.code] = guard
            if keepalive is not None:
                self.keepalive.append(keepalive)

    def replace(self, old, new):
        """new in old's place (None: old removed)."""
        guards = [new if g.code == old.code else g for g in self.guards.values()]
        self.guards = {g.code: g for g in guards if g is not None}

    def source_text(self):
        """The guard function's source (the global state is always guarded); a guard that raises fails with it."""
        lines = ["def guards(L, G):", "    try:"]
        for g in self.guards.values():
            lines.append(f"        if not ({g.code}): return {g.failure or repr(g.why)}")
        lines += ["    except Exception as e:", "        return f'a guard raised {type(e).__name__}: {e}'",
                  "    return None"]
        return "\n".join(lines)

    def compile(self):
        """The one guard function of a cache entry; its source is kept on it as `.source`."""
        text = self.source_text()
        namespace = dict(GUARD_NAMESPACE)
        for g in self.guards.values():
            namespace.update(g.constants)
        exec(compile(text, "<frontend guards>", "exec"), namespace)
        fn = namespace["guards"]
        fn.source = text
        fn.guard_list = list(self.guards.values())
        fn.invalidated = False
        fn.keepalive = [_watch(obj, fn, namespace) for obj in self.keepalive]
        return fn


def _watch(obj, guard_fn, namespace):
    """A weak reference to an object guarded by id, whose death (its id may be reused) fails every id guard
    of guard_fn: as in Dynamo, an entry does not keep alive what it specialised on. Builtins are held strongly."""
    def invalidate(_ref):
        guard_fn.invalidated = True
        namespace["___check_obj_id"] = lambda value, expected: False

    try:
        return weakref.ref(obj, invalidate)
    except TypeError:
        return obj
