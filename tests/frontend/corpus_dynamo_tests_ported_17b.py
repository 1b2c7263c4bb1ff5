"""The seventeenth batch of Dynamo-style programs, second half: functions made in the frame and dressed there,
as decorators and context managers are written inside a forward or a training step: @contextlib.contextmanager
applied to a nested generator (annotated, nested twice, suppressing an exception, wrapping no_grad),
functools.wraps on a decorator made in the frame, and the attributes functools.update_wrapper reads from a nested
function (__module__, __doc__, __annotations__); DYNAMIC_SRC (run with dynamic=True on lengths 3, 5, 3 and 8: sizes
read by `match`, the walrus operator, a dataclass field and a context manager's yield) and RECOMPILE_SRC (a `match`
on a string argument, a dataclass argument's field, a slice argument, a bytes argument and a context manager made
in the frame over an int argument). The calls are in test_dynamo_tests_ported_9on.py. Our own programs; the names
given to exec are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import contextlib, functools

def cm17_local_contextmanager_annotated(a, b):
    @contextlib.contextmanager
    def scope(k: int) -> "Iterator[int]":
        yield k * 2
    with scope(3) as k:
        c = a * k
    return c + b

def cm17_local_wraps_decorator(a, b):
    def twice(fn):
        @functools.wraps(fn)
        def inner(t):
            return fn(fn(t))
        return inner
    @twice
    def step(t):
        """doubles"""
        return t * 2
    return step(a) + b * len(step.__doc__) + (step.__name__ == "step")

def cm17_local_function_attributes(a, b):
    def f(t: float, k: int = 2) -> float:
        "docstring here"
        return t * k
    n = len(f.__annotations__) + len(f.__doc__) + (f.__module__ is not None)
    return f(a) * n + b

def cm17_local_contextmanager_suppresses(a, b):
    @contextlib.contextmanager
    def guard():
        try:
            yield
        except ValueError:
            pass
    with guard():
        a = a + 1
        raise ValueError("x")
    return a + b

def cm17_local_contextmanager_twice(a, b):
    @contextlib.contextmanager
    def scale(k):
        yield k
    with scale(2) as k1:
        with scale(3) as k2:
            c = a * k1 * k2
    return c + b

def cm17_global_contextmanager_decorating(a, b):
    @contextlib.contextmanager
    def off():
        with torch.no_grad():
            yield
    with off():
        c = a * 2
    return c + b + c.requires_grad

def cm17_lambda_doc(a, b):
    f = lambda t: "s"
    return a * (f.__doc__ is None) + b * len(f(a))

def cm17_partial_of_local(a, b):
    def mul(t, k):
        return t * k
    g = functools.partial(mul, k=4)
    return g(a) + b
'''

DYNAMIC_SRC = r'''
import contextlib, dataclasses, functools, math

def dy17_match_on_shape(a, b):
    match a.shape:
        case (n,):
            return a * n + b
        case _:
            return a

def dy17_walrus_size(a, b):
    if (n := a.size(0)) > 2:
        return a * n + b
    return a - b

def dy17_local_contextmanager_uses_size(a, b):
    @contextlib.contextmanager
    def scaled(t):
        yield t.shape[0]
    with scaled(a) as n:
        c = a * n
    return c + b

def dy17_divmod_free_floor(a, b):
    n = a.shape[0]
    return a * (n // 2) + b * (n % 2)

def dy17_dataclass_of_size(a, b):
    @dataclasses.dataclass
    class Dims:
        n: int
    d = Dims(a.shape[0])
    return a * d.n + b

def dy17_range_len_loop(a, b):
    out = b.clone()
    for i in range(len(a)):
        out[i] = out[i] + a[i] * 2
    return out

def dy17_slice_half(a, b):
    h = a.shape[0] // 2
    return torch.cat([a[:h] * 2, a[h:]]) + b
'''

RECOMPILE_SRC = r'''
import dataclasses, enum

def rc17_match_on_mode(a, mode):
    match mode:
        case "double":
            return a * 2
        case "neg":
            return -a
        case _:
            return a

def rc17_dataclass_arg_field(a, cfg):
    return a * cfg.k

def rc17_local_contextmanager_param(a, k):
    import contextlib
    @contextlib.contextmanager
    def scale():
        yield k
    with scale() as s:
        return a * s

def rc17_slice_arg(a, s):
    return a[s] * 2

def rc17_bytes_arg(a, key):
    return a * len(key) + key[0]
'''
