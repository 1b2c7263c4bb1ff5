"""Backends: what the frontend hands its graphs to (plays torch._dynamo.backends.registry).

One visible table, BACKENDS: name -> function(gm, example_inputs) -> callable. "eager" runs the graph as is;
"aot_eager" traces it with `autograd` and runs the pieces eagerly; "inductor" (the default) is
`backend.compile_fx.compile_fx`. A backend imports its layer when first called: `import frontend` stays below them.
"""
from ..exc import InvalidBackend


def eager(gm, example_inputs):
    return gm.forward


def aot_eager(gm, example_inputs):
    from autograd import aot_eager as _aot_eager  # deferred by layering: frontend imports only minitorch2

    return _aot_eager(gm, example_inputs)


def inductor(gm, example_inputs):
    from backend.compile_fx import compile_fx  # deferred by layering: frontend imports only minitorch2

    return compile_fx(gm, example_inputs)


BACKENDS = {
    "eager": eager,
    "aot_eager": aot_eager,
    "inductor": inductor,
}

# The backend of every `optimize()` / `minitorch2.compile()` call that names none (backend=None).
# `python -m minitorch2 run --backend B` sets it before running a script.
DEFAULT_BACKEND = "inductor"


TAGS = {"eager": ("debug",), "aot_eager": ("debug",)}  # (as torch's registry tags them)


def register_backend(compiler_fn=None, name=None, tags=()):
    """Add a backend to the table; usable as a decorator."""
    if compiler_fn is None:
        return lambda fn: register_backend(fn, name, tags)
    BACKENDS[name or compiler_fn.__name__], TAGS[name or compiler_fn.__name__] = compiler_fn, tuple(tags)
    return compiler_fn


def list_backends(exclude_tags=("debug", "experimental")):
    return sorted(name for name in BACKENDS if not set(exclude_tags or ()) & set(TAGS.get(name, ())))


def lookup_backend(compiler_fn):
    """A backend name (None: DEFAULT_BACKEND) or a callable -> the callable; unknown names raise InvalidBackend."""
    if compiler_fn is None:
        compiler_fn = DEFAULT_BACKEND
    if isinstance(compiler_fn, str):
        if compiler_fn not in BACKENDS:
            raise InvalidBackend(compiler_fn)
        return BACKENDS[compiler_fn]
    return compiler_fn
