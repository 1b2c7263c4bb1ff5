"""Trust: guards on global state, constants that print badly, quoted names, backend failures, the cache limit.

Each test runs one program through minitorch2.compile and through torch.compile (a counting backend, or
aot_eager), and compares values, frame counts, and the words of torch's errors and warnings.
"""
import builtins
import contextlib
import enum
import logging
import math
import warnings

import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from autograd import aot_autograd
from frontend.testing import CompileCounter


@pytest.fixture
def torch_dynamo_config():
    """Sets torch._dynamo.config entries for one test with the config's own patch (monkeypatch's undo
    deletes a config module's key under pytest 9.2, and every later torch.compile then fails)."""
    with contextlib.ExitStack() as stack:
        yield lambda key, value: stack.enter_context(torch._dynamo.config.patch(key, value))


@pytest.fixture(autouse=True)
def _reset():
    torch._dynamo.reset()
    frontend.reset()
    yield
    torch.set_default_dtype(torch.float32)
    minitorch2.set_default_dtype(minitorch2.float32)
    torch._dynamo.reset()
    frontend.reset()


LIBS = {"mt": (minitorch2, CompileCounter), "torch": (torch, torch._dynamo.testing.CompileCounter)}


def _np(t):
    return np.asarray(t.detach().numpy())


def _same(ours, theirs):
    """Equal values, dtypes and signs of zeros (assert_allclose alone takes -0.0 for 0.0); nan equals nan."""
    a, b = _np(ours), _np(theirs)
    assert a.dtype == b.dtype and a.shape == b.shape, (a, b)
    np.testing.assert_allclose(a, b, rtol=1e-6, equal_nan=True)
    assert (np.signbit(a) == np.signbit(b)).all(), (a, b)


# ---- item 3: global state (default dtype, grad mode) is guarded --------------------------------------


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
def test_default_dtype_change_recompiles(backend):
    results = {}
    for name, (lib, Counter) in LIBS.items():
        cnt = Counter()
        compiled_backend = cnt if backend == "eager" else backend
        f = lib.compile(lambda x: lib.ones(3) + x, backend=compiled_backend)
        x = lib.tensor([1, 2, 3])
        outs = [f(x)]
        lib.set_default_dtype(lib.float64)
        outs.append(f(x))
        outs.append(lib.ones(3) + x)  # eager
        lib.set_default_dtype(lib.float32)
        outs.append(f(x))  # the first entry again
        results[name] = (outs, cnt.frame_count if backend == "eager" else None)
    (ours, our_count), (theirs, their_count) = results["mt"], results["torch"]
    assert [str(o.dtype) for o in ours] == [str(o.dtype) for o in theirs] == \
        ["torch.float32", "torch.float64", "torch.float64", "torch.float32"]
    for a, b in zip(ours, theirs):
        _same(a, b)
    assert our_count == their_count


def test_global_state_guard_names_what_changed_as_dynamo():
    f = minitorch2.compile(lambda x: x + 1, backend="eager")
    f(minitorch2.ones(2))
    guard_fn = frontend.eval_frame.CACHE[f.__wrapped__.__code__][0].guard_fn
    torch_guard = torch._C._dynamo.guards.GlobalStateGuard()
    torch.set_default_dtype(torch.float64)
    minitorch2.set_default_dtype(minitorch2.float64)
    with torch.no_grad(), minitorch2.no_grad():
        ours = guard_fn({"x": minitorch2.ones(2)}, {})
        assert not torch_guard.check()
        theirs = torch_guard.reason()
    assert ours == f"GLOBAL_STATE changed: {theirs.strip()}" == "GLOBAL_STATE changed: grad_mode default_dtype"
    minitorch2.set_default_dtype(minitorch2.float32)
    assert guard_fn({"x": minitorch2.ones(2)}, {}) is None


def test_grad_mode_change_recompiles_and_reuses():
    counts = {}
    for name, (lib, Counter) in LIBS.items():
        cnt = Counter()
        f = lib.compile(lambda x: x * 2, backend=cnt)
        x = lib.ones(2, requires_grad=True)
        outs = [f(x).requires_grad]
        with lib.no_grad():
            outs.append(f(x).requires_grad)
        outs.append(f(x).requires_grad)
        counts[name] = (outs, cnt.frame_count)
    assert counts["mt"] == counts["torch"] == ([True, False, True], 2)


# ---- item 10: constants with no plain literal (nan, inf, -0.0, huge ints, quotes) ----------------------


def _counted_values(fn_of_lib, calls):
    """[(value of each compiled call, eager value)], frame count: for each lib."""
    out = {}
    for name, (lib, Counter) in LIBS.items():
        cnt = Counter()
        fn = fn_of_lib(lib)
        f = lib.compile(fn, backend=cnt)
        out[name] = ([(f(*make(lib)), fn(*make(lib))) for make in calls], cnt.frame_count)
    return out


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, -0.0, 0.0, 2.5])
def test_float_argument_guards(value):
    def fn_of(lib):
        return lambda x, a: x * a + math.copysign(1.0, a) if a == a else x * a
    calls = [lambda lib: (lib.ones(2), value)] * 2
    res = _counted_values(fn_of, calls)
    for (ours, ours_eager), (theirs, _) in zip(res["mt"][0], res["torch"][0]):
        _same(ours, theirs)
        _same(ours, ours_eager)
    assert res["mt"][1] == res["torch"][1] == 1  # the second call is a cache hit, nan included


def test_nan_inf_and_signed_zero_arguments_in_turn():
    seq = [math.nan, math.nan, math.inf, -0.0, 0.0, -0.0, math.nan, 2.0]
    f = minitorch2.compile(lambda x, a: x / a, backend="eager")
    for a in seq:
        _same(f(minitorch2.ones(2), a), torch.ones(2) / a)


def test_zero_sign_is_guarded():
    """Dynamo 2.13 returns copysign(1.0, -0.0) for 0.0 here (its guard `== -0.0` passes); eager is the oracle."""
    f = minitorch2.compile(lambda x, a: x * math.copysign(1.0, a), backend=CompileCounter())
    for a in (-0.0, 0.0, -0.0):
        _same(f(minitorch2.ones(2), a), torch.ones(2) * math.copysign(1.0, a))


EPS = math.nan


def _reads_global(x):
    return x + EPS


def test_float_global_changes():
    cnt = CompileCounter()
    f = minitorch2.compile(_reads_global, backend=cnt)
    global EPS
    for value in (math.nan, math.nan, math.inf, -0.0, 1.0, math.nan):
        EPS = value
        _same(f(minitorch2.zeros(2)), torch.zeros(2) + value)
    assert cnt.frame_count == 3  # nan, inf, then -0.0 compiled dynamic (1.0 reuses it), as torch; nan reuses its entry
    EPS = math.nan


def test_huge_int_argument():
    n = 10 ** 5000  # more digits than repr() writes (sys.get_int_max_str_digits)
    cnt = CompileCounter()
    f = minitorch2.compile(lambda x, k: x + k % 7, backend=cnt)
    for k in (n, n, n + 1):
        _same(f(minitorch2.zeros(2), k), torch.zeros(2) + k % 7)
    assert cnt.frame_count == 2


@pytest.mark.parametrize("text", ["it's", 'say "hi"', "a'); __import__('os').system('true'); ('", "\\n\n"])
def test_string_arguments_and_dict_keys_are_quoted(text):
    res = _counted_values(lambda lib: (lambda x, s, d: x * len(s) + d[text]),
                          [lambda lib: (lib.ones(2), text, {text: 1.0})] * 2
                          + [lambda lib: (lib.ones(2), text + "!", {text: 2.0})])
    for (ours, ours_eager), (theirs, _) in zip(res["mt"][0], res["torch"][0]):
        _same(ours, theirs)
        _same(ours, ours_eager)
    assert res["mt"][1] == 2


def test_range_guard_compares_start_stop_step():
    """range(0, 10, 3) == range(0, 11, 3) as sequences, yet their .stop differ."""
    f = minitorch2.compile(lambda x, r: x * r.stop, backend="eager")
    for r in (range(0, 10, 3), range(0, 11, 3)):
        _same(f(minitorch2.ones(2), r), torch.ones(2) * r.stop)


class Color(enum.IntEnum):
    RED = 2
    BLUE = 3


class Shouty(str):
    def __repr__(self):
        builtins._trust_repr_ran = True
        return "__import__('builtins').setattr(__import__('builtins'), '_trust_pwned', 1) or 'x'"


@pytest.mark.parametrize("make", [lambda: Color.RED, lambda: np.float64(1.5), lambda: Shouty("ab")],
                         ids=["intenum", "numpy_float", "str_subclass"])
def test_constant_subclasses_run_as_eager(make):
    def fn(lib):
        return lambda x, c: x * (len(c) if isinstance(c, str) else c)
    ours = minitorch2.compile(fn(minitorch2), backend="eager")
    for _ in range(2):
        _same(ours(minitorch2.ones(2), make()), fn(torch)(torch.ones(2), make()))
    assert not hasattr(builtins, "_trust_pwned")


# ---- item 14: attribute names reach guard and fetch code quoted ------------------------------------


def _module_with_attr(lib, name, value):
    class M(lib.nn.Module):
        def forward(self, x):
            return x * getattr(self, name)

    m = M()
    setattr(m, name, value)
    return m


@pytest.mark.parametrize("name", ["my-scale", "a b", "0x", "class"])
def test_non_identifier_module_attribute(name):
    res = {}
    for lib_name, (lib, Counter) in LIBS.items():
        cnt = Counter()
        m = _module_with_attr(lib, name, 2.0)
        f = lib.compile(m, backend=cnt) if (lib_name, name) != ("torch", "class") else m  # (Dynamo 2.13 fails
        outs = [f(lib.ones(2)), f(lib.ones(2))]                                        # on `L['self'].class`)
        setattr(m, name, 3.0)
        outs.append(f(lib.ones(2)))
        res[lib_name] = (outs, cnt.frame_count)
    for a, b in zip(res["mt"][0], res["torch"][0]):
        _same(a, b)
    assert res["mt"][1] == 2
    assert name == "class" or res["torch"][1] == 2


def test_crafted_attribute_name_is_not_run():
    name = "s if __import__('builtins').setattr(__import__('builtins'), '_trust_pwned', 1) else s"
    m = _module_with_attr(minitorch2, name, 2.0)
    f = minitorch2.compile(m, backend="eager")
    for _ in range(3):
        _same(f(minitorch2.ones(2)), torch.ones(2) * 2.0)
    assert not hasattr(builtins, "_trust_pwned")
    guard_source = frontend.eval_frame.CACHE[type(m).forward.__code__][0].guard_fn.source
    assert f"getattr(L['self'], {name!r})" in guard_source


def test_submodule_name_with_quotes():
    res = {}
    for lib_name, (lib, Counter) in LIBS.items():
        lib.manual_seed(0)

        class M(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.add_module("lin'\"ear", lib.nn.Linear(2, 2))

            def forward(self, x):
                return getattr(self, "lin'\"ear")(x)

        cnt = Counter()
        f = lib.compile(M(), backend=cnt)
        res[lib_name] = ([f(lib.ones(1, 2)), f(lib.ones(1, 2))], cnt.frame_count)
    for a, b in zip(res["mt"][0], res["torch"][0]):
        np.testing.assert_allclose(_np(a), _np(b), rtol=1e-5)
    assert res["mt"][1] == res["torch"][1] == 1


def test_class_attribute_change_recompiles():
    res = {}
    for lib_name, (lib, Counter) in LIBS.items():
        class M(lib.nn.Module):
            scale = 2.0

            def forward(self, x):
                return x * self.scale

        cnt = Counter()
        f = lib.compile(M(), backend=cnt)
        outs = [f(lib.ones(2))]
        M.scale = 3.0
        outs.append(f(lib.ones(2)))
        res[lib_name] = (outs, cnt.frame_count)
    for a, b in zip(res["mt"][0], res["torch"][0]):
        _same(a, b)
    assert res["mt"][1] == res["torch"][1] == 2


# ---- item 13: a backend failure never changes the result ------------------------------------------------


def _failing_fw_compiler(calls):
    def fw_compiler(gm, example_inputs):
        calls.append(1)
        raise ValueError("boom")
    return fw_compiler


def test_backend_failure_at_first_call_is_backend_compiler_failed():
    for lib, aot, exc in ((torch, torch._dynamo.backends.common.aot_autograd, torch._dynamo.exc.BackendCompilerFailed),
                          (minitorch2, aot_autograd, frontend.exc.BackendCompilerFailed)):
        f = lib.compile(lambda x: x.sin() + 1, backend=aot(fw_compiler=_failing_fw_compiler([])))
        with pytest.raises(exc, match="^backend='compiler_fn' raised:\nValueError: boom"):
            f(lib.ones(2))


def test_backend_failure_with_suppress_errors_runs_eagerly(monkeypatch, torch_dynamo_config):
    torch_dynamo_config("suppress_errors", True)
    monkeypatch.setattr(frontend.config, "suppress_errors", True)
    calls = {}
    outs = {}
    logging.getLogger("torch._dynamo").disabled = True  # (torch logs the suppressed error with its traceback)
    try:
        for lib, aot in ((torch, torch._dynamo.backends.common.aot_autograd), (minitorch2, aot_autograd)):
            calls[lib] = []
            f = lib.compile(lambda x: x.sin() + 1, backend=aot(fw_compiler=_failing_fw_compiler(calls[lib])))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                outs[lib] = [f(lib.ones(2)), f(lib.ones(3, dtype=lib.float64)), f(lib.ones(2))]
    finally:
        logging.getLogger("torch._dynamo").disabled = False
    for a, b in zip(outs[minitorch2], outs[torch]):
        _same(a, b)
    assert len(calls[minitorch2]) == len(calls[torch]) == 1  # the code is skipped from then on


def test_backend_failure_in_a_graph_before_a_break_with_suppress_errors(monkeypatch):
    monkeypatch.setattr(frontend.config, "suppress_errors", True)

    def g(x):
        y = x.sin()
        print("between")
        return y + 1

    f = minitorch2.compile(g, backend=aot_autograd(fw_compiler=_failing_fw_compiler([])))
    with pytest.warns(UserWarning, match="running it eagerly"):
        out = f(minitorch2.ones(2))
    _same(out, torch.ones(2).sin() + 1)


def test_runtime_error_in_compiled_code_is_not_wrapped():
    """A compiled graph that fails when it runs raises what eager raises, as with Dynamo (compile came first)."""
    f = minitorch2.compile(lambda x, i: x.index_select(0, i), backend="aot_eager")
    f(minitorch2.ones(3), minitorch2.tensor([0]))
    with pytest.raises(IndexError):
        f(minitorch2.ones(3), minitorch2.tensor([7]))
    with pytest.raises(IndexError):
        torch.compile(lambda x, i: x.index_select(0, i), backend="aot_eager")(torch.ones(3), torch.tensor([7]))


# ---- item 18: past the cache limit, warn once and run only what is compiled ----------------------------


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def test_cache_limit_warns_once_and_keeps_using_hits(monkeypatch, torch_dynamo_config):
    torch_dynamo_config("cache_size_limit", 2)
    monkeypatch.setattr(frontend.config, "cache_size_limit", 2)
    record = {}
    for lib in (torch, minitorch2):
        runs = record[lib] = []

        def backend(gm, example_inputs, runs=runs):
            def run(*args):
                runs.append(tuple(args[0].shape))
                return gm.forward(*args)
            return run

        f = lib.compile(lambda x: x.sin() + 1, backend=backend, dynamic=False)
        torch_log = _Collect()
        logging.getLogger("torch._dynamo").addHandler(torch_log)  # (torch's loggers do not propagate)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                for n in (1, 2, 3, 4, 1, 2, 3, 3):
                    _same(f(lib.ones(n)), torch.ones(n).sin() + 1)
        finally:
            logging.getLogger("torch._dynamo").removeHandler(torch_log)
        if lib is minitorch2:
            texts = [str(w.message) for w in caught if "cache_size_limit" in str(w.message)]
        else:
            texts = [m for m in torch_log.messages if "recompile_limit" in m]
        record[lib, "warnings"] = texts
    assert record[minitorch2] == record[torch] == [(1,), (2,), (1,), (2,)]
    assert len(record[minitorch2, "warnings"]) == len(record[torch, "warnings"]) == 1
    ours, theirs = record[minitorch2, "warnings"][0], record[torch, "warnings"][0]
    assert ours.splitlines()[2] == theirs.splitlines()[2].replace("'x'", "'L['x']'")  # last reason: 0/1: ...


def test_cache_limit_under_fullgraph_fails(monkeypatch, torch_dynamo_config):
    torch_dynamo_config("cache_size_limit", 1)
    monkeypatch.setattr(frontend.config, "cache_size_limit", 1)
    for lib, exc in ((torch, torch._dynamo.exc.FailOnRecompileLimitHit),
                     (minitorch2, frontend.exc.FailOnRecompileLimitHit)):
        f = lib.compile(lambda x: x + 1, backend="eager", fullgraph=True, dynamic=False)
        f(lib.ones(1))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(exc, match="Hard failure due to fullgraph=True"):
                f(lib.ones(2))


# ---- getattr with a default, hasattr: the attribute's presence is guarded, an untraceable one is not skipped --


def test_getattr_default_tracks_the_attribute_being_set():
    res = {}
    for lib_name, (lib, Counter) in LIBS.items():
        class M(lib.nn.Module):
            def forward(self, x):
                return x * getattr(self, "scale", 1.0) + (1 if hasattr(self, "shift") else 0)

        cnt = Counter()
        m = M()
        f = lib.compile(m, backend=cnt)
        outs = [f(lib.ones(2))]
        m.scale = 3.0
        m.shift = 1
        outs.append(f(lib.ones(2)))
        del m.scale
        outs.append(f(lib.ones(2)))
        res[lib_name] = (outs, cnt.frame_count)
    for a, b in zip(res["mt"][0], res["torch"][0]):
        _same(a, b)
    assert res["mt"][1] == res["torch"][1] == 3


def test_getattr_default_is_not_used_for_an_attribute_that_cannot_be_traced():
    class M(minitorch2.nn.Module):
        def forward(self, x):
            return x * getattr(self, "scale", 1.0)

    m = M()
    m.scale = np.float64(2.0)  # not folded as a constant (a float subclass): a graph break, not the default
    _same(minitorch2.compile(m, backend="eager")(minitorch2.ones(2)), torch.ones(2) * 2.0)


# ---- graph code: a submodule name reaches fx's generated code as a string literal ------------------------


@pytest.mark.parametrize("name", ['a"); import os #', "class", "0", "it's", "back\\slash"])
def test_fx_codegen_quotes_submodule_names(name):
    def build(lib):
        lib.manual_seed(0)

        class M(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.add_module(name, lib.nn.Linear(2, 2))

            def forward(self, x):
                return getattr(self, name)(x)

        return M()

    ours, theirs = build(minitorch2), build(torch)
    with torch.no_grad():
        for p, q in zip(ours.parameters(), theirs.parameters()):
            q.copy_(torch.tensor(_np(p)))
    gm = minitorch2.fx.symbolic_trace(ours)
    assert "import os" not in gm.code.replace(repr(name), "")
    x = [[1.0, -2.0]]
    np.testing.assert_allclose(_np(gm(minitorch2.tensor(x))), _np(theirs(torch.tensor(x))), rtol=1e-6)
