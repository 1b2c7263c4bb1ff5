"""The compiled call's hot path: argument binding (eval_frame's per-code-object binder) and cache hits.

Every call below runs twice through frontend.optimize (translation, then a cache hit) and must
give eager's values: positional calls, trailing defaults, keywords, *args/**kwargs, a
functools.wraps wrapper (whose signature must not be read through __wrapped__), closures, and
generator expressions consumed by builtins.
"""
import functools

import pytest

import frontend
import minitorch2
from frontend import eval_frame
from frontend.testing import CompileCounter


def _scaled(x, scale=2.0, shift=0.5):
    return x * scale + shift


def _varargs(x, y=1, *rest, k=3, **extra):
    return x + y + k + len(rest) + len(extra)


def _add_one(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) + 1
    return wrapper


@_add_one
def _wrapped(x, scale=2.0):
    return x * scale


def _make_closure(factor):
    def inner(x):
        return x * factor
    return inner


def _genexps(x, y):
    return sum(t.sum() for t in [x, y]), tuple(t + 1 for t in (x, y)), any(n > 1 for n in [0, 2])


def _flat(value):
    if isinstance(value, (list, tuple)):
        return [_flat(v) for v in value]
    return value.tolist() if isinstance(value, minitorch2.Tensor) else value


X = minitorch2.randn(3)
Y = minitorch2.randn(3)
CALLS = [
    (_scaled, (X,), {}), (_scaled, (X, 3.0), {}), (_scaled, (X, 3.0, 1.0), {}), (_scaled, (X,), {"shift": 2.0}),
    (_varargs, (X,), {}), (_varargs, (X, 2, 3, 4), {"k": 1, "z": 0}),
    (_wrapped, (X,), {}), (_wrapped, (X, 3.0), {}), (_wrapped, (X,), {"scale": 4.0}),
    (_make_closure(3.0), (X,), {}), (_genexps, (X, Y), {}),
]


@pytest.mark.parametrize("fn, args, kwargs", CALLS, ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CALLS)])
def test_binding_matches_eager(fn, args, kwargs):
    frontend.reset()
    counter = CompileCounter()
    compiled = frontend.optimize(counter)(fn)
    expected = _flat(fn(*args, **kwargs))
    assert _flat(compiled(*args, **kwargs)) == expected
    assert _flat(compiled(*args, **kwargs)) == expected  # the cache hit
    assert counter.frame_count == 1


def test_binder_matches_python_binding():
    """The fast binder gives the locals Python's own binding gives, defaults included."""
    code = _scaled.__code__
    assert eval_frame.frame_locals(_scaled, (1,), {}) == {"x": 1, "scale": 2.0, "shift": 0.5}
    assert eval_frame.frame_locals(_scaled, (1, 2), {}) == {"x": 1, "scale": 2, "shift": 0.5}
    assert eval_frame.frame_locals(_scaled, (1,), {"shift": 7}) == {"x": 1, "scale": 2.0, "shift": 7}
    assert eval_frame._make_binder(code) is eval_frame._make_binder(code)  # made once per code object
    with pytest.raises(TypeError):
        eval_frame.frame_locals(_scaled, (1, 2, 3, 4), {})
    with pytest.raises(TypeError):
        eval_frame.frame_locals(_scaled, (), {})
    assert eval_frame.frame_locals(_wrapped, (1,), {"scale": 3}) == \
        {"args": (1,), "kwargs": {"scale": 3}, "fn": _wrapped.__wrapped__}


def _nested_keyword_only(x, scale):
    def affine(y, *, scale=scale, shift=1.0):
        return y * scale + shift
    return affine(x.sin()) + affine(x, shift=-1.0)


def test_a_nested_function_keeps_its_keyword_only_defaults():
    """MAKE_FUNCTION with keyword-only defaults breaks the graph: the frame makes the function natively, and
    the frame resumed after it calls that function with its defaults (a new default is a guard failure)."""
    frontend.reset()
    compiled = minitorch2.compile(_nested_keyword_only, backend="eager")
    for scale in (2.0, 3.0, 2.0):
        x = minitorch2.randn(4)
        assert _flat(compiled(x, scale)) == pytest.approx(_flat(_nested_keyword_only(x, scale)))


def test_a_nested_function_keeps_its_keyword_only_defaults_as_under_torch_compile():
    torch = pytest.importorskip("torch")  # the oracle (absent on the CI's other Pythons)
    x = minitorch2.randn(4)
    ours = minitorch2.compile(_nested_keyword_only, backend="eager")(x, 3.0)
    theirs = torch.compile(_nested_keyword_only, backend="eager")(torch.tensor(x.tolist()), 3.0)
    assert _flat(ours) == pytest.approx(theirs.tolist(), rel=1e-6)


def _input_or_sum(x, bias=None):
    return x if bias is None else x + bias


@pytest.mark.parametrize("fullgraph", [False, True])
def test_a_frame_with_no_ops_is_skipped_for_good_as_dynamo_skips_it(fullgraph):
    """Dynamo's SkipFrame("No ops traced"): the first call returns its input, so its code object is
    never compiled again, even for calls that would add; under fullgraph the empty graph is compiled.
    Frame counts per call, against Dynamo's."""
    torch = pytest.importorskip("torch")  # the oracle (absent on the CI's other Pythons)
    from torch._dynamo.testing import CompileCounter as TorchCompileCounter

    counts = []
    for lib, counter, reset in ((minitorch2, CompileCounter(), frontend.reset),
                                (torch, TorchCompileCounter(), torch._dynamo.reset)):
        reset()
        compiled = lib.compile(_input_or_sum, backend=counter, fullgraph=fullgraph)
        seen = []
        for args in [(lib.ones(2),), (lib.ones(2), lib.ones(2)), (lib.ones(2),)]:
            assert compiled(*args).tolist() == _input_or_sum(*args).tolist()
            seen.append(counter.frame_count)
        counts.append(seen)
    assert counts[0] == counts[1] == ([1, 2, 2] if fullgraph else [0, 0, 0])
    frontend.reset()
    assert not eval_frame.SKIPPED_CODE
