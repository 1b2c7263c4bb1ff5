"""numpy code inside compiled frames, traced as Dynamo 2.13 traces it (torch._numpy), against torch.compile.

Each program below is written once against the names `torch` and `np` and run through torch.compile and
minitorch2.compile with a backend that counts frames and ops and keeps each graph's code: the counts, the graph
code (`wrapped_sin = torch__dynamo_utils_wrapped_sin(l_x_)`), the output types (an ndarray the frame returns is
numpy's, a 0-d result a 0-d array), dtypes and values must be Dynamo's. The programs are the shapes of Dynamo's
own numpy tests (test_functions.py, test_misc.py's numpy ones) and of real code: normalizing with np.mean/np.std,
np.clip of a loss, np.arange positions, x.numpy() round trips. Then the same programs through aot_eager and the
inductor (values: the graph's numpy nodes traced into aten ops under numpy's dtype rules), each row of
minitorch2/_numpy_ops.py run traced on real tensors against numpy itself, and what is not traced (a function with
no row, `a.dtype`) breaking the graph with numpy's value kept. KNOWN_DIFFS lists what differs from Dynamo.
"""
import textwrap

import numpy as np
import pytest
import torch
import torch._dynamo

import frontend
import minitorch2
from minitorch2 import _numpy_ops

SRC = r'''
def sin_plus_one(x):
    return np.sin(x) + 1
def mean_round_trip(x):
    return torch.from_numpy(np.mean(x.numpy(), axis=0) * 2) + x
def clip_sum_0d(x):
    a = x.numpy()
    return np.clip(a, 0, 1).sum()
def scalar_types_and_constants(x):
    return x * np.float32(2.5) + np.pi
def arange_sum(x, n: int):
    return x + np.arange(n).sum()
def normalize(x):
    a = x.numpy()
    return torch.from_numpy((a - np.mean(a, axis=0)) / np.std(a, axis=0))
def clip_of_loss(pred, y):
    loss = ((pred - y) ** 2).mean()
    return np.clip(loss.detach().numpy(), 0.0, 1.0), np.clip(pred.numpy(), a_min=-1, a_max=1)
def arange_positions(x):
    pos = np.arange(x.shape[1])
    return x + torch.from_numpy(pos).float()
def ndarray_methods(x):
    a = x.numpy()
    return a.T, a.sum(axis=1), a.astype(np.float64), a.reshape(-1), a.shape, a.max(0), a.argmax(), a.ndim, a.size
def int_dtypes(x, n: int):
    return np.sin(x.numpy().astype(np.int64)), x + torch.as_tensor(np.mean(np.arange(n)))
def where_maximum(x):
    a = x.numpy()
    return np.where(a > 0, a, 0.1 * a), np.maximum(a, 0.5), np.minimum(a, 0)
def dot_matmul(x, w):
    a, b = x.numpy(), w.numpy()
    return np.dot(a, b), a @ b, np.matmul(a, b).sum(0, keepdims=True)
def concatenate_stack(x):
    a = x.numpy()
    return np.concatenate([a, a * 2], axis=0), np.stack([a, -a], axis=1)
def factories(x):
    a = x.numpy()
    return np.ones(4) + a[0], np.zeros((3, 4), dtype=np.float32) - a, np.full((3, 4), 7) * a
def indexing_operators(x):
    a = x.numpy()
    return a[0], a[:, 1], a[a.shape[0] - 1] ** 2 // 1 % 3
def x_numpy_returned(x):
    return x.numpy(), torch.from_numpy(x.numpy() * 2) + 1
def reductions_and_comparisons(x):
    a = x.numpy()
    return ((a > 0.5).sum(), np.prod(a + 1, axis=1), np.var(a, ddof=1), np.exp(a).argmin(axis=0), np.abs(-a),
            np.sqrt(2.0) * a)
def builtins_on_ndarrays(x):
    a = x.numpy()
    rows = [r.sum() for r in a]
    return abs(a), max(a, 0.5), min(a, a * 2), len(a), a[0] + x, rows, isinstance(a, np.ndarray), -a, 2 - a
def array_constructors(x):
    a = np.asarray(x)
    b = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)
    return a * b + np.array(a), np.asarray([[1, 2, 3, 4]]) * a
MEAN = np.array([0.5, 0.25, 0.125, 1.0], np.float32)
def ndarray_arguments(a, x):
    return np.sin(a) + x.numpy(), x + torch.from_numpy(a * 2), (x - torch.from_numpy(MEAN)) * 2
def ndarray_argument_returned(a):
    return a, a * 1
def graph_break_with_an_array_live(x):
    a = x.numpy() * 2
    print("a break")
    return a + 1
def transpose_ravel(x):
    a = np.transpose(x.numpy())
    return np.ravel(a), a.flatten().mean(), np.reshape(a, (2, 6)).T, a.transpose(1, 0).std(axis=1, keepdims=True)
def scans_and_sorts(x):
    a = x.numpy()
    return np.cumsum(a, axis=0), a.cumsum(1), np.cumprod(a + 1, axis=1), np.sort(a, axis=1), a.argsort(kind="stable")
def more_ufuncs(x):
    a = x.numpy()
    return (np.tanh(a) + np.log1p(np.abs(a)) + np.expm1(a) + np.arctan2(a, 1.0), np.floor(a * 3), np.sign(a),
            np.logical_and(a > 0, a < 1))
def matrix_parts_and_norms(x):
    a = x.numpy()
    return np.triu(a), np.tril(a, -1), np.diag(a[:3, :3]), np.trace(a[:3, :3]), np.linalg.norm(a, axis=1)
def nan_checks(x):
    a = np.where(x.numpy() > 0, x.numpy() * np.float32(np.inf), x.numpy() * np.float32(np.nan))
    return np.isnan(a), np.nan_to_num(a), np.isinf(a).any(), np.isfinite(a).all(axis=0)
def dims_moved(x):
    a = x.numpy()
    return np.expand_dims(a, 0), np.squeeze(a[None]), np.swapaxes(a, 0, 1), np.flip(a, 0), a.squeeze()
def in_place_writes(x):
    a = x.numpy() * 2
    a += 1
    a *= 3
    b = a.copy()
    b[0] = 0
    b[:, 1] = -1
    b.fill(2.0) if b.shape[0] > 5 else None
    return a, b
def in_place_on_the_input(x):
    a = x.numpy()
    a -= 1
    a[0] = 5
    a /= 2
    return x * 2
'''

X = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
W = np.random.default_rng(1).standard_normal((4, 2)).astype(np.float32)
CASES = {"sin_plus_one": (X,), "mean_round_trip": (X,), "clip_sum_0d": (X,), "scalar_types_and_constants": (X,),
         "arange_sum": (X[0], 4), "normalize": (X,), "clip_of_loss": (X, X * 0.5), "arange_positions": (X,),
         "ndarray_methods": (X,), "int_dtypes": (X, 5), "where_maximum": (X,), "dot_matmul": (X, W),
         "concatenate_stack": (X,), "factories": (X,), "indexing_operators": (X,), "x_numpy_returned": (X,),
         "reductions_and_comparisons": (X,), "transpose_ravel": (X,), "builtins_on_ndarrays": (X,),
         "ndarray_arguments": (("ndarray", X[0]), X[1]), "ndarray_argument_returned": (("ndarray", X),),
         "graph_break_with_an_array_live": (X,), "array_constructors": (X,), "scans_and_sorts": (X,),
         "more_ufuncs": (X,), "matrix_parts_and_norms": (X,), "nan_checks": (X,), "dims_moved": (X,),
         "in_place_writes": (X,), "in_place_on_the_input": (X,)}

# programs whose compiled result is not their eager one, in Dynamo as in ours: program -> why
NOT_EAGERS = {"sin_plus_one": "np.sin of a tensor gives a Tensor eagerly (Tensor.__array_wrap__); Dynamo, numpy's "
                              "ndarray",
              "builtins_on_ndarrays": "max(a, 0.5) of an array raises eagerly (its truth value); Dynamo traces np.clip"}
# program -> (what differs from torch.compile, why); the rest of the comparison still runs
KNOWN_DIFFS = {
    "clip_of_loss": ("dtype", "torch._numpy clips a 0-d float32 array with Python floats to float64; numpy (and so "
                              "torch's eager run of the same code) keeps float32, as ours does"),
}


def _namespace(lib):
    namespace = {"torch": lib, "np": np}
    exec(compile(textwrap.dedent(SRC), "<numpy programs>", "exec"), namespace)
    return namespace


NAMESPACES = {torch: _namespace(torch), minitorch2: _namespace(minitorch2)}


class _Recorder:
    """A backend that counts frames and ops and keeps each graph's code, then runs the graph (or `then`'s)."""

    def __init__(self, then=None):
        self.frame_count, self.op_count, self.codes, self.then = 0, 0, [], then

    def __call__(self, gm, example_inputs):
        self.frame_count += 1
        self.op_count += sum(1 for node in gm.graph.nodes if "call" in node.op)
        self.codes.append(gm.code.strip())
        return gm.forward if self.then is None else self.then(gm, example_inputs)


def _args(lib, args):
    """Each array as a tensor of lib, but ("ndarray", array): a copy of the array itself."""
    return [lib.tensor(a) if isinstance(a, np.ndarray) else a[1].copy() if isinstance(a, tuple) else a for a in args]


def _run(lib, name, backend):
    (torch._dynamo if lib is torch else frontend).reset()
    fn = NAMESPACES[lib][name]
    return lib.compile(fn, backend=backend)(*_args(lib, CASES[name])), backend


def _plain(value, scalar_as_array=False):
    """(kind, dtype, value) of each output: an ndarray, a tensor, or a Python value (a numpy scalar as a 0-d array
    when `scalar_as_array`: numpy's eager result where the compiled frame, as Dynamo's, returns a 0-d array)."""
    if isinstance(value, (tuple, list)):
        return [_plain(v, scalar_as_array) for v in value]
    if isinstance(value, np.ndarray) or (scalar_as_array and isinstance(value, np.generic)):
        return ("ndarray", str(value.dtype), np.asarray(value))
    if hasattr(value, "detach"):
        return ("tensor", str(value.dtype).split(".")[-1], np.asarray(value.detach().numpy()))
    return ("python", type(value).__name__, value)


def _assert_same_outputs(ours, theirs, check_dtype=True, scalar_as_array=False):
    _assert_same_plain(_plain(ours), _plain(theirs, scalar_as_array), check_dtype)


def _assert_same_plain(ours, theirs, check_dtype):
    if isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), (ours, theirs)
        for a, b in zip(ours, theirs):
            _assert_same_plain(a, b, check_dtype)
        return
    assert ours[0] == theirs[0], (ours, theirs)
    if check_dtype:
        assert ours[1] == theirs[1], (ours, theirs)
    if ours[0] == "python":
        assert ours[2] == theirs[2]
    else:
        assert np.shape(ours[2]) == np.shape(theirs[2])
        np.testing.assert_allclose(np.asarray(ours[2], np.float64), np.asarray(theirs[2], np.float64),
                                   rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", list(CASES))
def test_counts_graphs_and_outputs_are_dynamos(name):
    ours, our_counter = _run(minitorch2, name, _Recorder())
    theirs, their_counter = _run(torch, name, _Recorder())
    assert (our_counter.frame_count, our_counter.op_count) == (their_counter.frame_count, their_counter.op_count)
    assert our_counter.codes == their_counter.codes
    _assert_same_outputs(ours, theirs, check_dtype=KNOWN_DIFFS.get(name, ("",))[0] != "dtype")
    if name not in NOT_EAGERS:  # compiled or not, the same values
        _assert_same_outputs(ours, NAMESPACES[minitorch2][name](*_args(minitorch2, CASES[name])),
                             scalar_as_array=True)


# the programs through AOT and the backends: a numpy node traced into aten ops
AOT_CASES = ["sin_plus_one", "mean_round_trip", "clip_sum_0d", "normalize", "int_dtypes", "where_maximum",
             "dot_matmul", "concatenate_stack", "factories", "indexing_operators", "reductions_and_comparisons",
             "transpose_ravel", "ndarray_methods", "builtins_on_ndarrays", "ndarray_arguments", "array_constructors",
             "scans_and_sorts", "more_ufuncs", "matrix_parts_and_norms", "nan_checks", "dims_moved", "in_place_writes",
             "in_place_on_the_input"]


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
@pytest.mark.parametrize("name", AOT_CASES)
def test_aot_eager_and_inductor_values(name, backend):
    ours, _ = _run(minitorch2, name, backend)
    if name not in NOT_EAGERS:
        _assert_same_outputs(ours, NAMESPACES[minitorch2][name](*_args(minitorch2, CASES[name])),
                             scalar_as_array=True)
    theirs, _ = _run(torch, name, "eager")
    _assert_same_outputs(ours, theirs, check_dtype=False)


def test_frame_returns_numpys_array_over_the_tensors_memory():
    x = minitorch2.tensor(X)
    out = minitorch2.compile(NAMESPACES[minitorch2]["x_numpy_returned"], backend="eager")(x)[0]
    assert isinstance(out, np.ndarray) and np.shares_memory(out, x.numpy())
    t = torch.tensor(X)
    their_out = torch.compile(NAMESPACES[torch]["x_numpy_returned"], backend="eager")(t)[0]
    assert np.shares_memory(their_out, t.numpy())


# ---- each row against numpy itself ----------------------------------------------------------------

_F32 = np.array([[0.5, -1.5, 2.0], [3.0, 0.25, -0.75]], np.float32)
_I64 = np.array([[1, -2, 3], [4, 0, 6]], np.int64)
_I32 = _I64.astype(np.int32)
_BOOL = _I64 > 0
_ROW_CALLS = [
    *[(fn, (a,), {}) for fn in (np.sin, np.cos, np.tan, np.exp, np.tanh, np.abs, np.negative, np.square)
      for a in (_F32, _I64, _I32)],
    *[(fn, (np.abs(a) + 1,), {}) for fn in (np.log, np.sqrt) for a in (_F32, _I64)],
    *[(fn, (a, b), {}) for fn in (np.add, np.subtract, np.multiply, np.divide, np.maximum, np.minimum, np.greater,
                                  np.less_equal, np.equal) for a, b in ((_F32, 2), (_I64, 2.5), (_I32, _F32),
                                                                        (_BOOL, 1), (3, _I64))],
    (np.power, (_F32, 2), {}), (np.floor_divide, (_I64, 4), {}), (np.remainder, (_I64, 4), {}),
    *[(fn, (a,), kw) for fn in (np.sum, np.mean, np.prod, np.max, np.min, np.argmax, np.argmin, np.std, np.var)
      for a in (_F32, _I64, _BOOL) for kw in ({}, {"axis": 0}, {"axis": 1, "keepdims": True})],
    (np.std, (_F32,), {"ddof": 1}), (np.sum, (_I32,), {"dtype": "float32"}),
    (np.clip, (_F32, 0, 1), {}), (np.clip, (_I64, 0.5, 3), {}), (np.clip, (_I64, None, 2), {}),
    (np.clip, (_F32,), {"min": -1, "max": 1}),
    (np.where, (_BOOL, _F32, 0), {}), (np.where, (_BOOL, _I64, 0.5), {}),
    (np.arange, (4,), {}), (np.arange, (1, 2.5, 0.5), {}), (np.arange, (3,), {"dtype": "float32"}),
    (np.zeros, ((2, 3),), {}), (np.ones, (3,), {"dtype": "int32"}), (np.full, ((2, 2), 7), {}),
    (np.full, ((2,), 1.5), {}), (np.concatenate, ([_F32, _I64],), {"axis": 1}), (np.stack, ([_I32, _I64],), {}),
    (np.dot, (_F32, _F32.T), {}), (np.dot, (_I64[0], _I64[1]), {}), (np.matmul, (_I64, _F32.T), {}),
    (np.reshape, (_F32, (3, 2)), {}), (np.transpose, (_I64,), {}), (np.ravel, (_F32,), {}),
    (np.astype, (_F32, "int64"), {}), (np.float32, (2.5,), {}), (np.int64, (_F32,), {}), (np.float64, (3,), {}),
    (np.sqrt, (2.0,), {}), (np.add, (1, 2), {}),
    (np.array, ([1.5, 2],), {}), (np.array, (_I64,), {"dtype": "float32"}), (np.asarray, (_F32,), {}),
    (np.asarray, ([[1, 2]],), {"dtype": "int32"}),
    *[(fn, (a,), {}) for fn in (np.log1p, np.expm1, np.log2, np.log10, np.exp2, np.sinh, np.cosh, np.arctan,
                                np.floor, np.ceil, np.trunc, np.isnan, np.isinf, np.isfinite, np.logical_not)
      for a in (np.abs(_F32), _I64, _I32, _BOOL)],
    (np.sign, (_F32,), {}), (np.sign, (_I32,), {}),
    *[(fn, (a, b), {}) for fn in (np.arctan2, np.hypot, np.logaddexp, np.fmax, np.fmin, np.logical_and,
                                  np.logical_xor) for a, b in ((_F32, 2), (_I64, 2.5), (_I32, _F32), (_BOOL, 1))],
    (np.arcsin, (_F32 / 4,), {}), (np.arccos, (_F32 / 4,), {}), (np.reciprocal, (_F32,), {}),
    *[(fn, (a,), kw) for fn in (np.cumsum, np.cumprod) for a in (_F32, _I32, _BOOL)
      for kw in ({}, {"axis": 0}, {"axis": 1, "dtype": "float64"})],
    *[(fn, (a,), kw) for fn in (np.any, np.all) for a in (_F32, _I64, _BOOL) for kw in ({}, {"axis": 0},
                                                                                         {"axis": 1, "keepdims": True})],
    (np.sort, (_F32,), {}), (np.sort, (_I64,), {"axis": 0}), (np.sort, (_F32,), {"axis": None}),
    (np.argsort, (_I64,), {"kind": "stable"}), (np.argsort, (_BOOL,), {"axis": 0, "kind": "stable"}),
    (np.triu, (_F32,), {}), (np.tril, (_I64, -1), {}), (np.diag, (_F32,), {}), (np.diag, (_I64[0],), {}),
    (np.trace, (_I32,), {}), (np.trace, (_F32,), {"offset": 1}), (np.squeeze, (_F32[None],), {}),
    (np.expand_dims, (_I64, (0, -1)), {}), (np.swapaxes, (_F32, 0, 1), {}), (np.flip, (_I64,), {}),
    (np.flip, (_F32, 1), {}), (np.nan_to_num, (np.array([np.nan, np.inf, -np.inf, 1], np.float32),), {}), (np.nan_to_num, (_I64,), {}),
    (np.linalg.norm, (_F32,), {}), (np.linalg.norm, (_I64,), {"axis": 1}), (np.copy, (_I32,), {}),
]


def _as_tensors(value):
    if isinstance(value, np.ndarray):
        return minitorch2.tensor(value)
    if isinstance(value, list):
        return [_as_tensors(v) for v in value]
    return value


_ROW_CALLS_BY_FUNCTION = {}
for _row_fn, _row_args, _row_kwargs in _ROW_CALLS:
    _ROW_CALLS_BY_FUNCTION.setdefault(_row_fn, []).append((_row_args, _row_kwargs))


@pytest.mark.parametrize("fn", list(_ROW_CALLS_BY_FUNCTION), ids=lambda fn: fn.__name__)
def test_row_traced_matches_numpy(fn):
    """The row (what AOT and the backend trace) gives numpy's dtype, shape and values, for each argument kind."""
    for args, kwargs in _ROW_CALLS_BY_FUNCTION[fn]:
        with np.errstate(divide="ignore", invalid="ignore"):
            expected = np.asarray(fn(*args, **kwargs))
        got = _numpy_ops.ROWS[fn].run(fn, *[_as_tensors(a) for a in args], **kwargs)
        where = f"np.{fn.__name__}{args!r} {kwargs}"
        assert got.dtype.np == expected.dtype and tuple(got.shape) == expected.shape, where
        np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6, err_msg=where)


def test_eager_run_of_the_graph_is_numpys_own():
    """On real tensors a node runs numpy itself (its values bit for bit); with a gradient wanted, the row."""
    x = minitorch2.tensor(_F32)
    assert np.array_equal(_numpy_ops.numpy_call(np.tanh)(x).numpy(), np.tanh(_F32))
    w = minitorch2.tensor(_F32, requires_grad=True)
    out = _numpy_ops.numpy_call(np.sin)(w)
    out.sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), np.cos(_F32), rtol=1e-6)


# ---- what is not traced -----------------------------------------------------------------------------

BREAKS = r'''
def outside_the_table(x):
    return np.gradient(x.numpy(), axis=0) + 1
def dtype_attribute(x):
    a = x.numpy() * 2
    d = a.dtype
    return a + 1
def data_dependent(x):
    a = x.numpy()
    return a * 2 if float(a.sum()) > 0 else a
'''


BREAK_WORDS = {"outside_the_table": "numpy function gradient is not traced", "dtype_attribute": "ndarray.dtype",
               "data_dependent": "builtin float"}


@pytest.mark.parametrize("name", list(BREAK_WORDS))
def test_what_is_not_traced_breaks_the_graph_with_numpys_value(name):
    namespace = {"torch": minitorch2, "np": np}
    exec(compile(BREAKS, "<numpy breaks>", "exec"), namespace)
    frontend.reset()
    explained = frontend.explain(namespace[name])(minitorch2.tensor(X))
    reasons = " ".join(str(r) for r in [*explained.break_reasons, *explained.eager_frames])
    assert BREAK_WORDS[name] in reasons
    frontend.reset()
    out = minitorch2.compile(namespace[name], backend="eager")(minitorch2.tensor(X))
    eager = namespace[name](minitorch2.tensor(X))
    assert isinstance(out, np.ndarray) and out.dtype == eager.dtype
    np.testing.assert_allclose(out, eager, rtol=1e-6)


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_in_place_operator_on_an_array_writes_the_tensor(backend):
    """`a = x.numpy(); a += 1` writes x's memory, as eagerly (not traced: numpy runs it, after a graph break)."""
    def program(lib, x):
        a = x.numpy()
        a += 1
        return x * 2
    results = []
    for lib in (minitorch2, torch):
        (torch._dynamo if lib is torch else frontend).reset()
        x = lib.tensor(X)
        out = lib.compile(lambda t: program(lib, t), backend=backend)(x)
        results.append((out.numpy(), x.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_ndarray_argument_read_anew_at_each_call_and_guarded():
    """An ndarray argument is a graph input fetched at every call (a new array's values, no recompile); another
    dtype or shape recompiles, as Dynamo's guards on `___from_numpy(L['a'])`."""
    arrays = [X[0], X[1] * 3, X[0].astype(np.float64)]
    results = {}
    for lib in (minitorch2, torch):
        (torch._dynamo if lib is torch else frontend).reset()
        backend = _Recorder()
        compiled = lib.compile(NAMESPACES[lib]["ndarray_arguments"], backend=backend)
        x = lib.tensor(X[2])
        results[lib] = [(compiled(a.copy(), x.to(lib.float64) if a.dtype == np.float64 else x), backend.frame_count)
                        for a in arrays]
    for (ours, our_frames), (theirs, their_frames) in zip(results[minitorch2], results[torch]):
        assert our_frames == their_frames
        _assert_same_outputs(ours, theirs)
