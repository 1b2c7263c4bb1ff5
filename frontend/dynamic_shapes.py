"""Which sizes are dynamic: `dynamic=`, mark_dynamic/mark_static, and automatic dynamic shapes.

Frontend layer, asked by the output graph when it makes a tensor input's fake value. Dynamo's rules:

    dynamic=False                  every size static: a new size is a new graph
    dynamic=True                   every size a symbol from the first compile (but 0 and 1, which specialise)
    dynamic=None (the default)     static at first; when a recompile sees a size that changed since the last
                                   compile of that code, that dim is a symbol from then on ("automatic dynamic")
    mark_dynamic(t, d)             dim d of that tensor is a symbol from the first compile (mark_static: never)

An int or float argument of the frame follows the same rules: a constant at first, a graph input once it changed
(an int a SymInt `L_n_`, a float a 0-d float64 tensor `L_eps_` that the graph reads with `.item()`). The sizes and
numbers each code was compiled for are kept per source in FRAME_STATE (cleared by reset()), keyed as Dynamo keys its
code state: by file, first line and name, so the resume functions of one break's two branches (two code objects, one
name) share what they saw.
"""
import contextlib
import math
import threading

from . import config

# (file, first line, name) of a code -> {source name: the sizes it was last compiled for, None where a dim became
# dynamic}
FRAME_STATE = {}
_setting = threading.local()  # the `dynamic=` of the compile now translating (None, True or False)


def mark_dynamic(t, index, *, min=None, max=None):
    """Make dim `index` (an int or a list of them) of t a symbol in every graph it enters, within [min, max]; a
    program that specializes it, or a size out of that range, then fails to compile (ConstraintViolationError)."""
    t.__dict__.setdefault("_dynamo_dynamic_indices", set()).update(_indices(index))
    t.__dict__.setdefault("_dynamo_dynamic_range", {}).update({d: (min, max) for d in _indices(index)})


def maybe_mark_dynamic(t, index):
    """As mark_dynamic, but a program may specialize the dim."""
    t.__dict__.setdefault("_dynamo_weak_dynamic_indices", set()).update(_indices(index))


def _indices(index):
    assert isinstance(index, (int, list, tuple)), f"Expected index to be int, list, or tuple, got {type(index)}"
    return [index] if isinstance(index, int) else index


DIM_MARKS = ("_dynamo_dynamic_indices", "_dynamo_weak_dynamic_indices", "_dynamo_static_indices")


def dim_marks(tensor):
    """The dims each of mark_dynamic, maybe_mark_dynamic and mark_static marked on tensor (None: not called)."""
    return tuple(tensor.__dict__.get(name) for name in DIM_MARKS)


def mark_static(t, index=None):
    """Keep dim `index` (all dims when None) of t static, even where automatic dynamic would not."""
    t.__dict__.setdefault("_dynamo_static_indices", set()).update(range(t.dim()) if index is None else _indices(index))


@contextlib.contextmanager
def compiling_with(dynamic):
    """The `dynamic=` argument of the compile now translating a frame, for dynamic_dims()."""
    previous, _setting.dynamic = getattr(_setting, "dynamic", None), dynamic
    try:
        yield
    finally:
        _setting.dynamic = previous


def dynamic_dims(code, source_name, tensor):
    """{dim: may share a symbol (duck sizing)} for the dims of a tensor input that get symbols in this
    translation of `code`; records its sizes."""
    dynamic = getattr(_setting, "dynamic", None)
    static = tensor.__dict__.get("_dynamo_static_indices", set())
    strict = tensor.__dict__.get("_dynamo_dynamic_indices", set())  # mark_dynamic's (maybe_mark's may specialize)
    marked = strict | tensor.__dict__.get("_dynamo_weak_dynamic_indices", set())
    state = _code_state(code)
    seen = state.get(source_name)
    # a dim mark_dynamic marked is recorded as dynamic: the frame's later compiles keep it a symbol, as Dynamo's
    sizes = tuple(None if d in strict else n for d, n in enumerate(tensor.shape))
    recorded, automatic = sizes, dynamic is not False and config.automatic_dynamic_shapes
    if automatic and (seen == _ANY_RANK or isinstance(seen, tuple) and len(seen) != len(sizes)):
        sizes, recorded = (None,) * len(sizes), _ANY_RANK  # (another rank: every dim of every rank is dynamic)
    elif automatic and isinstance(seen, tuple):
        sizes = recorded = tuple(None if old is None or old != new else new for old, new in zip(seen, sizes))
    state[source_name] = recorded
    if dynamic is False:
        return {}
    every = dynamic is True or not config.assume_static_by_default
    # a dim made dynamic by dynamic=True may share a symbol with an equal size (duck sizing); one marked, or
    # made dynamic by a change, gets its own
    return {d: every and d not in marked and sizes[d] is not None for d in range(tensor.dim())
            if d not in static and (every or d in marked or sizes[d] is None)}


def dynamic_number(code, source_name, value):
    """Whether an int or float argument of `code` is a graph input in this translation: with dynamic=True, or
    (automatic dynamic) once it has changed between two compiles; else a constant, guarded."""
    dynamic = getattr(_setting, "dynamic", None)
    state = _code_state(code)
    seen = state.get(source_name, value)
    state[source_name] = None if seen is None or seen != value else value  # (a NaN: always a change)
    return (dynamic is True or dynamic is None and state[source_name] is None and config.automatic_dynamic_shapes) \
        and (type(value) is int or math.isfinite(value))  # a NaN or inf is recorded, yet stays a constant


_SPECIALIZED = "specialized floats"  # (a key no source name has)
_ANY_RANK = "any rank"  # a source's recorded sizes once it came with two ranks (Dynamo's auto_dynamic size)


def specialize_floats(code, source_names):
    """Make these floats of `code` constants from now on (AOT could not take them as tensors: Dynamo's
    tensorify restart); whether any is new."""
    specialized = _code_state(code).setdefault(_SPECIALIZED, set())
    new = set(source_names) - specialized
    specialized |= new
    return bool(new)


def is_pinned_float(code, source_name):
    return source_name in _code_state(code).get(_SPECIALIZED, ())


def _code_state(code):
    return FRAME_STATE.setdefault((code.co_filename, code.co_firstlineno, code.co_name), {})


def reset():
    FRAME_STATE.clear()
