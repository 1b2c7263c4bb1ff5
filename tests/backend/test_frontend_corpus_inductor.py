"""The frontend corpus through the inductor backend: every program of tests/frontend/corpus.py and
tests/frontend/cases.py under `minitorch2.compile(backend="inductor")`, compared with minitorch2 eager.

For each case the program runs twice on the same fresh inputs per call (the
corpus's calls: several calls exercise recompiles and guards): eagerly and
compiled. Outputs, inputs after the call (in-place mutations), printed output,
Python side effects and the case's watched state must match; where an input
(or a module parameter) requires grad, the gradients of a weighted sum of the
float outputs must match too.

Compilation must be real: every graph the frontend hands the backend is
counted, and each one must have become backend graphs (aot forward/inference,
plus backward) whose work is not all eager fallbacks. Tolerance: rtol 1e-4,
atol 1e-5 (float32; fusion reorders float arithmetic, see
test_differential_inductor.py).
"""
import contextlib
import io

import numpy as np
import pytest

import backend
import frontend
import minitorch2
from minitorch2._sym import is_symbolic
from tests.frontend import cases as old_cases
from tests.frontend.corpus import CASES, PROGRAM, Arg, build

TOLERANCE = dict(rtol=1e-4, atol=1e-5)
CORPUS_NS = {"eager": None, "compiled": None}


def _namespaces():
    if CORPUS_NS["eager"] is None:  # two copies: side effects (globals, module state) stay apart
        CORPUS_NS["eager"], CORPUS_NS["compiled"] = seeded_build(build), seeded_build(build)
    return CORPUS_NS["eager"], CORPUS_NS["compiled"]


def seeded_build(build_fn):
    minitorch2.manual_seed(0)  # module-level modules (GLOBAL_LINEAR) get the same weights in both copies
    return build_fn(minitorch2)


# ---- inputs -------------------------------------------------------------------------------------------

def make_arg(spec, rng, shared):
    if not isinstance(spec, Arg):
        return spec
    if spec.kind in ("list", "dict"):
        return shared.setdefault(spec.kind, [] if spec.kind == "list" else {})
    if spec.kind == "tensor_list":
        return [make_arg(Arg(spec.shape[1:]), rng, shared) for _ in range(spec.shape[0])]
    if spec.kind == "tensor_dict":
        return {k: make_arg(Arg(spec.shape), rng, shared) for k in ("a", "b")}
    if spec.dtype == "int64":
        return minitorch2.tensor(rng.integers(0, 10, spec.shape).astype(np.int64))
    t = minitorch2.tensor(rng.standard_normal(spec.shape).astype(spec.dtype))
    return t.requires_grad_(True) if spec.requires_grad else t


def call_spec(call):
    return (call["args"], call.get("grad", True)) if isinstance(call, dict) else (call, True)


# ---- comparing ----------------------------------------------------------------------------------------

def tensors_in(value):
    if isinstance(value, minitorch2.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors_in(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in tensors_in(v)]
    return []


def assert_same(ours, expected, where):
    if isinstance(expected, minitorch2.Tensor):
        assert isinstance(ours, minitorch2.Tensor), f"{where}: {type(ours)} is not a tensor"
        assert ours.dtype == expected.dtype and tuple(ours.shape) == tuple(expected.shape), \
            f"{where}: {ours.dtype}{tuple(ours.shape)} != {expected.dtype}{tuple(expected.shape)}"
        assert ours.requires_grad == expected.requires_grad, f"{where}: requires_grad"
        np.testing.assert_allclose(ours.detach().numpy(), expected.detach().numpy(), err_msg=where, **TOLERANCE)
    elif isinstance(expected, (list, tuple)):
        assert type(ours) is type(expected) and len(ours) == len(expected), f"{where}: {ours!r} vs {expected!r}"
        for i, (a, b) in enumerate(zip(ours, expected)):
            assert_same(a, b, f"{where}[{i}]")
    elif isinstance(expected, dict):
        assert isinstance(ours, dict) and list(ours) == list(expected), f"{where}: keys {list(ours)}"
        for k in expected:
            assert_same(ours[k], expected[k], f"{where}[{k!r}]")
    else:
        assert ours == expected, f"{where}: {ours!r} != {expected!r}"


# ---- running ------------------------------------------------------------------------------------------

class CountingInductor:
    """backend.compile_fx, counting the graphs the frontend hands it."""

    def __init__(self):
        self.frontend_graphs = 0
        self.symbolic_graphs = 0  # over symbolic sizes: compiled once per set of sizes (docs/architecture.md)

    def __call__(self, gm, example_inputs):
        self.frontend_graphs += 1
        self.symbolic_graphs += any(is_symbolic(e) for e in example_inputs)
        return backend.compile_fx.compile_fx(gm, example_inputs)


def make_program(ns, name):
    obj = ns[PROGRAM.get(name, name)]
    if isinstance(obj, type):
        minitorch2.manual_seed(0)
        obj = obj()
    return obj


def run_calls(fn, obj, calls, watched, ns):
    """Each call on fresh inputs; what a user sees: outputs, inputs after, stdout, gradients, state."""
    for name in watched:
        if name.startswith("G."):
            ns[name[2:]] = 0
    shared, record = {}, []
    params = list(obj.parameters()) if isinstance(obj, minitorch2.nn.Module) else []
    for i, call in enumerate(calls):
        specs, grad = call_spec(call)
        args = [make_arg(s, np.random.default_rng(100 * i + j), shared) for j, s in enumerate(specs)]
        for p in params:
            p.grad = None
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer), minitorch2.set_grad_enabled(grad):
            out = fn(*args)
        leaves = [t for t in tensors_in(args) if t.requires_grad] + params
        differentiable = [t for t in tensors_in(out) if t.requires_grad and t.dtype.is_floating_point]
        grads = None
        if leaves and differentiable:
            rng = np.random.default_rng(i)
            loss = sum((t * minitorch2.tensor(rng.uniform(-1, 1, tuple(t.shape)).astype(np.float32)).to(t.dtype))
                       .sum() for t in differentiable)
            loss.backward()
            grads = [leaf.grad for leaf in leaves]
        record.append({"out": out, "args": args, "stdout": buffer.getvalue(), "grads": grads})
    state = {n: ns[n[2:]] if n.startswith("G.") else getattr(obj, n) for n in watched}
    return record, state


def check_case(name, calls, watched, eager_ns, compiled_ns):
    backend.metrics.reset()
    frontend.reset()
    eager_obj = make_program(eager_ns, name)
    expected, expected_state = run_calls(eager_obj, eager_obj, calls, watched, eager_ns)
    obj = make_program(compiled_ns, name)
    counter = CountingInductor()
    compiled = minitorch2.compile(obj, backend=counter)
    ours, our_state = run_calls(compiled, obj, calls, watched, compiled_ns)
    for i, (o, e) in enumerate(zip(ours, expected)):
        assert_same(o["out"], e["out"], f"call {i} output")
        assert_same(o["args"], e["args"], f"call {i} inputs after the call")
        assert o["stdout"] == e["stdout"], f"call {i} printed output"
        assert (o["grads"] is None) == (e["grads"] is None), f"call {i}: gradients computed in one run only"
        for j, (g_o, g_e) in enumerate(zip(o["grads"] or [], e["grads"] or [])):
            assert (g_o is None) == (g_e is None), f"call {i} gradient {j}: None in one run only"
            if g_e is not None:
                assert_same(g_o, g_e, f"call {i} gradient {j}")
    assert_same(our_state, expected_state, "state after the calls")
    assert_really_compiled(counter)


def assert_really_compiled(counter):
    graphs = backend.metrics.graphs
    first_graphs = [g for g in graphs if not g.name.startswith("backward")]
    static_graphs = counter.frontend_graphs - counter.symbolic_graphs
    assert static_graphs + counter.symbolic_graphs <= len(first_graphs) and (
        counter.symbolic_graphs or len(first_graphs) == static_graphs), (
        f"the frontend handed inductor {counter.frontend_graphs} graphs, the backend compiled {len(first_graphs)}")
    for graph in graphs:
        steps = graph.scheduler.steps
        all_fallbacks = steps and not graph.kernels and all(getattr(getattr(s, "kernel", None), "fallback", False)
                                                            for s in steps)
        assert not all_fallbacks, f"{graph.name}: every step fell back to eager ({graph.fallbacks})"


@pytest.fixture(autouse=True)
def _clean():
    frontend.reset()
    backend.metrics.reset()
    yield
    frontend.reset()
    backend.metrics.reset()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_corpus_program_compiled_by_inductor_matches_eager(case):
    eager_ns, compiled_ns = _namespaces()
    check_case(case.name, case.calls, case.state, eager_ns, compiled_ns)


OLD_CASES = {**old_cases.CASES, **old_cases.BREAKS}


@pytest.mark.parametrize("name", sorted(OLD_CASES))
def test_oracle_case_compiled_by_inductor_matches_eager(name):
    eager_ns, compiled_ns = seeded_build(old_cases.build), seeded_build(old_cases.build)
    calls = [tuple(Arg(tuple(shape)) for shape in OLD_CASES[name])] * 2
    check_case(name, calls, [], eager_ns, compiled_ns)
