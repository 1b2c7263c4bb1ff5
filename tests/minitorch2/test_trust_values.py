"""Silent wrong values in the eager runtime, each case checked against torch (the Trust issue's values slice).

out= arguments are written as torch writes them; fill values that do not fit
an integer dtype raise torch's overflow error; Python types are dtypes;
Tensor-to-scalar conversions and torch.tensor's data errors have torch's
classes and words. Signed zeros and complex numbers: test_trust_signed_zeros_complex.py.
"""
import math
import warnings

import numpy as np
import pytest

import minitorch2 as mt

torch = pytest.importorskip("torch")


def outcome(fn, lib):
    """('ok', values, dtype name) or (exception class name, first words of the message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = fn(lib)
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e).__name__, str(e).splitlines()[0][:60] if str(e) else ""
    return "ok", _values(result, lib)


def _values(result, lib):
    if isinstance(result, (tuple, list)):
        return [_values(r, lib) for r in result]
    if isinstance(result, lib.Tensor):
        data = result.detach().numpy() if lib is torch else result.numpy(force=True)
        # formatted: keeps the sign of zero and nan, which == would not compare, and not the last ulp
        return str(result.dtype).split(".")[-1], list(result.shape), [f"{float(v):.6g}" for v in np.ravel(data)]
    if isinstance(result, float):
        return repr(result)
    return result


def assert_same_outcome(fn):
    expected, got = outcome(fn, torch), outcome(fn, mt)
    assert got == expected


# ================================================================== 1. out=
def _x(lib):
    return lib.tensor([[1.0, -2.0], [3.0, 0.5]])


def _y(lib):
    return lib.tensor([[0.5, 2.0], [-1.0, 4.0]])


def _i(lib):
    return lib.tensor([[1, 2], [3, 4]])


# name -> the call, given the library and out
OUT_CALLS = {
    "add": lambda L, o: L.add(_x(L), _y(L), alpha=2, out=o),
    "sub": lambda L, o: L.sub(_x(L), _y(L), out=o),
    "mul": lambda L, o: L.mul(_x(L), 3, out=o),
    "div": lambda L, o: L.div(_x(L), _y(L), out=o),
    "div floor": lambda L, o: L.div(_x(L), _y(L), rounding_mode="floor", out=o),
    "remainder": lambda L, o: L.remainder(_x(L), 1.5, out=o),
    "pow": lambda L, o: L.pow(_x(L), 2, out=o),
    "maximum": lambda L, o: L.maximum(_x(L), _y(L), out=o),
    "max binary": lambda L, o: L.max(_x(L), _y(L), out=o),
    "exp": lambda L, o: L.exp(_x(L), out=o),
    "sqrt": lambda L, o: L.sqrt(_x(L), out=o),
    "sigmoid": lambda L, o: L.sigmoid(_x(L), out=o),
    "abs": lambda L, o: L.abs(_x(L), out=o),
    "neg": lambda L, o: L.neg(_x(L), out=o),
    "floor": lambda L, o: L.floor(_x(L), out=o),
    "round": lambda L, o: L.round(_x(L), out=o),
    "clamp": lambda L, o: L.clamp(_x(L), -1.0, 1.0, out=o),
    "clamp_min": lambda L, o: L.clamp_min(_x(L), 0.0, out=o),
    "lerp": lambda L, o: L.lerp(_x(L), _y(L), 0.25, out=o),
    "addcmul": lambda L, o: L.addcmul(_x(L), _x(L), _y(L), value=2, out=o),
    "where": lambda L, o: L.where(_x(L) > 0, _x(L), _y(L), out=o),
    "eq": lambda L, o: L.eq(_x(L), _y(L), out=o),
    "gt scalar": lambda L, o: L.gt(_x(L), 0.7, out=o),
    "logical_and": lambda L, o: L.logical_and(_x(L), _y(L), out=o),
    "logical_not": lambda L, o: L.logical_not(_x(L), out=o),
    "bitwise_and": lambda L, o: L.bitwise_and(_i(L), 6, out=o),
    "bitwise_not": lambda L, o: L.bitwise_not(_i(L), out=o),
    "sum dim": lambda L, o: L.sum(_x(L), 1, out=o),
    "sum dim int": lambda L, o: L.sum(_i(L), 0, keepdim=True, out=o),
    "prod dim": lambda L, o: L.prod(_x(L), 0, out=o),
    "mean": lambda L, o: L.mean(_x(L), out=o),
    "mean dim": lambda L, o: L.mean(_x(L), [0, 1], out=o),
    "amax": lambda L, o: L.amax(_x(L), 1, out=o),
    "max": lambda L, o: L.max(_x(L), out=o),
    "argmax": lambda L, o: L.argmax(_x(L), 1, out=o),
    "var": lambda L, o: L.var(_x(L), 1, out=o),
    "std": lambda L, o: L.std(_x(L), out=o),
    "logsumexp": lambda L, o: L.logsumexp(_x(L), 1, out=o),
    "cumsum": lambda L, o: L.cumsum(_x(L), 1, out=o),
    "any": lambda L, o: L.any(_x(L) > 2, 1, out=o),
    "all": lambda L, o: L.all(_x(L) > -5, out=o),
    "softmax": lambda L, o: L.softmax(_x(L), 1, out=o),
    "mm": lambda L, o: L.mm(_x(L), _y(L), out=o),
    "matmul": lambda L, o: L.matmul(_x(L), _y(L), out=o),
    "matmul batched": lambda L, o: L.matmul(_x(L).expand(3, 2, 2), _y(L), out=o),
    "bmm": lambda L, o: L.bmm(_x(L)[None], _y(L)[None], out=o),
    "addmm": lambda L, o: L.addmm(_x(L), _x(L), _y(L), beta=0.5, out=o),
    "dot": lambda L, o: L.dot(_x(L)[0], _y(L)[0], out=o),
    "mv": lambda L, o: L.mv(_x(L), _y(L)[0], out=o),
    "outer": lambda L, o: L.outer(_x(L)[0], _y(L)[1], out=o),
    "cat": lambda L, o: L.cat([_x(L), _y(L)], 1, out=o),
    "stack": lambda L, o: L.stack([_x(L), _y(L)], out=o),
    "hstack": lambda L, o: L.hstack([_x(L), _y(L)], out=o),
    "tril": lambda L, o: L.tril(_x(L), out=o),
    "gather": lambda L, o: L.gather(_x(L), 1, L.tensor([[1, 0], [0, 0]]), out=o),
    "index_select": lambda L, o: L.index_select(_x(L), 0, L.tensor([1, 1, 0]), out=o),
    "take": lambda L, o: L.take(_x(L), L.tensor([3, 0]), out=o),
    "nonzero": lambda L, o: L.nonzero(_x(L) > 0, out=o),
    "zeros": lambda L, o: L.zeros(2, 3, out=o),
    "full": lambda L, o: L.full((3,), 2.5, out=o),
    "arange": lambda L, o: L.arange(1, 7, 2, out=o),
    "eye": lambda L, o: L.eye(3, out=o),
    "linspace": lambda L, o: L.linspace(0, 1, 5, out=o),
}

# what out= is (a function of the library and the plain call's result)
OUT_KINDS = {
    "same": lambda L, r: L.full(tuple(r.shape), 7, dtype=r.dtype),
    "empty": lambda L, r: L.empty(0, dtype=r.dtype),
    "resized": lambda L, r: L.full((5,), 7, dtype=r.dtype),
    "float64": lambda L, r: L.full(tuple(r.shape), 7, dtype=L.float64),
    "int64": lambda L, r: L.full(tuple(r.shape), 7, dtype=L.int64),
    "int32": lambda L, r: L.full(tuple(r.shape), 7, dtype=L.int32),
    "bool": lambda L, r: L.zeros(tuple(r.shape), dtype=L.bool),
    "column of a matrix": lambda L, r: L.zeros(*r.shape, 2, dtype=r.dtype)[..., 0],
}
# torch has no kernel for these dtypes (a gap of the ops, not of out=); nonzero's out= resizes to a
# column-major layout
SKIPPED = {("cumsum", "bool"), ("arange", "bool"), ("linspace", "bool"), ("nonzero", "empty"), ("nonzero", "resized")}


def _plain(call, L):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call(L, None)


def _out_case(call, kind):
    def run(L):
        out = OUT_KINDS[kind](L, _plain(call, L))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            returned = call(L, out)
        resized = [str(w.message)[:60] for w in caught if "resized" in str(w.message)]
        return returned is out, out, out.stride(), resized
    return run


@pytest.mark.parametrize("kind", list(OUT_KINDS))
@pytest.mark.parametrize("name", list(OUT_CALLS))
def test_out_writes_as_torch(name, kind):
    """The value written, the tensor returned, out's dtype/shape/strides after, the resize warning, or
    torch's error for an out dtype the op refuses."""
    if (name, kind) in SKIPPED:
        pytest.skip("not an out= behaviour")
    assert_same_outcome(_out_case(OUT_CALLS[name], kind))


def test_out_dtype_errors_have_torch_words():
    x = mt.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        mt.add(x, x, out=mt.empty(2, dtype=mt.int64))
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype float, but got long int instead"):
        mt.mm(x[None], x[:, None], out=mt.empty(1, 1, dtype=mt.int64))
    with pytest.raises(TypeError, match="torch.cat\\(\\): input types can't be cast to the desired output type Long"):
        mt.cat([x, x], out=mt.empty(4, dtype=mt.int64))
    with pytest.raises(RuntimeError, match="Found dtype Long but expected Float"):
        mt.neg(x, out=mt.empty(2, dtype=mt.int64))
    with pytest.raises(RuntimeError, match="dtype Double does not match dtype of out parameter \\(Float\\)"):
        mt.zeros(2, dtype=mt.float64, out=mt.empty(2))


def test_out_resize_warns_with_torch_words():
    out = mt.empty(3)
    with pytest.warns(UserWarning, match="An output with one or more elements was resized since it had shape \\[3\\]"):
        mt.add(mt.ones(2), 1, out=out)
    assert out.shape == (2,) and out.tolist() == [2.0, 2.0]


def test_out_tuple_of_max_and_sort():
    for L in (torch, mt):
        x = L.tensor([[1.0, 5.0], [3.0, 2.0]])
        values, indices = L.empty(0), L.empty(0, dtype=L.int64)
        returned = L.max(x, 1, out=(values, indices))
        assert returned[0] is values and returned[1] is indices
        assert returned.values is values and values.tolist() == [5.0, 3.0] and indices.tolist() == [1, 0]
        values, indices = L.empty(2), L.empty(2, dtype=L.int64)
        L.sort(x[0], descending=True, out=(values, indices))
        assert values.tolist() == [5.0, 1.0] and indices.tolist() == [1, 0]
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype long int, but got float instead"):
        mt.max(mt.ones(2, 2), 1, out=(mt.empty(2), mt.empty(2)))


AUTOGRAD_CASES = {
    "add input": lambda L: L.add(L.ones(2, requires_grad=True), 1, out=L.empty(2)),
    "add out requires grad": lambda L: L.add(L.ones(2), 1, out=L.empty(2, requires_grad=True)),
    "multiply names mul": lambda L: L.multiply(L.ones(2, requires_grad=True), 2, out=L.empty(2)),
    "clip names clamp": lambda L: L.clip(L.ones(2, requires_grad=True), 0, 1, out=L.empty(2)),
    "mm": lambda L: L.mm(L.ones(2, 2, requires_grad=True), L.ones(2, 2), out=L.empty(2, 2)),
    "cat": lambda L: L.cat([L.ones(2, requires_grad=True)], out=L.empty(2)),
    "sum": lambda L: L.sum(L.ones(2, requires_grad=True), 0, out=L.empty(())),
    "max dim": lambda L: L.max(L.ones(2, requires_grad=True), 0, out=(L.empty(()), L.empty((), dtype=L.int64))),
    "eq is not differentiable": lambda L: L.eq(L.ones(2, requires_grad=True), 1, out=L.empty(2, dtype=L.bool)),
    "argmax is not differentiable": lambda L: L.argmax(L.ones(2, requires_grad=True), out=L.empty((), dtype=L.int64)),
    "no_grad": lambda L: _no_grad(L, lambda: L.add(L.ones(2, requires_grad=True), 1, out=L.empty(2))),
}


def _no_grad(L, fn):
    with L.no_grad():
        return fn()


@pytest.mark.parametrize("case", list(AUTOGRAD_CASES))
def test_out_refuses_autograd_as_torch(case):
    assert_same_outcome(AUTOGRAD_CASES[case])


OVERLAP_OUT_CASES = {
    "out is the input": lambda L: (lambda z: (L.add(z, 1, out=z), z)[1])(L.arange(4.0)),
    "out partly overlaps the input": lambda L: (lambda z: L.add(z[:3], 1, out=z[1:]))(L.arange(4.0)),
    "cat into its own input": lambda L: (lambda z: L.cat([z[:2], z[:2]], out=z))(L.arange(4.0)),
    "expanded out": lambda L: L.add(L.ones(2), 1, out=L.empty(1).expand(2)),
    "exp in place through out": lambda L: (lambda z: (L.exp(z, out=z), z)[1])(L.arange(3.0)),
    # ops whose ATen kernels refuse out=x itself too (assert_no_overlap): they computed into their own input
    "cat into an input, resized": lambda L: (lambda z: L.cat([z, z], out=z))(L.arange(3.0)),
    "cat of one input into it": lambda L: (lambda z: L.cat([z], out=z))(L.arange(3.0)),
    "stack into an input": lambda L: (lambda z: L.stack([z, z], out=z))(L.arange(3.0)),
    "hstack into an input": lambda L: (lambda z: L.hstack([z, z], out=z))(L.arange(3.0)),
    "vstack into an input": lambda L: (lambda z: L.vstack([z, z], out=z))(L.arange(4.0).reshape(2, 2)),
    "index_select into self": lambda L: (lambda z: L.index_select(z, 0, L.tensor([1, 0]), out=z))(L.arange(2.0)),
    "index_select into index": lambda L: (lambda i: L.index_select(L.arange(4), 0, i, out=i))(L.tensor([1, 0])),
    "gather into self": lambda L: (lambda z: L.gather(z, 0, L.tensor([1, 0]), out=z))(L.arange(2.0)),
    "gather into index": lambda L: (lambda i: L.gather(L.arange(4), 0, i, out=i))(L.tensor([1, 0])),
    "take into self": lambda L: (lambda z: L.take(z, L.tensor([1, 0, 2, 3]), out=z))(L.arange(4.0)),
    "nonzero into self": lambda L: (lambda z: L.nonzero(z, out=z))(L.tensor([0, 1, 2])),
    "masked_select into self": lambda L: (lambda z: L.masked_select(z, z > -1, out=z))(L.arange(4.0)),
    "masked_select": lambda L: L.masked_select(L.arange(4.0), L.arange(4) > 1, out=L.empty(2)),
    "masked_select dtype": lambda L: L.masked_select(L.arange(4.0), L.arange(4) > 1, out=L.empty(2, dtype=L.int64)),
    "cumprod": lambda L: L.cumprod(L.arange(1.0, 4.0), 0, out=L.empty(3)),
    "cumprod into int64": lambda L: L.cumprod(L.tensor([1.5, 2.0]), 0, out=L.empty(2, dtype=L.int64)),
    "cumprod into self": lambda L: (lambda z: (L.cumprod(z, 0, out=z), z)[1])(L.arange(1.0, 5.0)),
}


@pytest.mark.parametrize("case", list(OVERLAP_OUT_CASES))
def test_out_memory_overlap_as_torch(case):
    assert_same_outcome(OVERLAP_OUT_CASES[case])


def test_out_bumps_version_and_resizes_a_view_in_its_storage():
    for L in (torch, mt):
        base = L.zeros(2, 2)
        column = base[:, 0]
        before = column._version
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            L.add(L.ones(3), 1, out=column)
        assert column._version > before
        assert base.tolist() == [[2.0, 2.0], [2.0, 0.0]], L  # resized in place: contiguous from its offset


def test_out_refused_where_torch_has_no_out():
    for name, call in {"relu": lambda L: L.relu(L.ones(2), out=L.empty(2)),
                       "isnan": lambda L: L.isnan(L.ones(2), out=L.empty(2, dtype=L.bool)),
                       "masked_fill": lambda L: L.masked_fill(L.ones(2), L.ones(2) > 0, 0.0, out=L.empty(2))}.items():
        with pytest.raises(TypeError):
            call(torch)
        with pytest.raises(TypeError, match="out"):
            call(mt)
    with pytest.raises(TypeError):
        torch.sum(torch.ones(2), out=torch.empty(()))
    with pytest.raises(TypeError, match="sum\\(\\) received an invalid combination of arguments"):
        mt.sum(mt.ones(2), out=mt.empty(()))


def test_out_under_compile():
    def f(x, y, o):
        mt.add(x, y, out=o)
        return o * 2

    x, y = mt.tensor([1.0, 2.0]), mt.tensor([3.0, 4.0])
    o = mt.zeros(2)
    assert mt.compile(f)(x, y, o).tolist() == [8.0, 12.0] and o.tolist() == [4.0, 6.0]
    o = mt.zeros(3)  # resizing runs eagerly; the warning is given once, as in eager
    with pytest.warns(UserWarning, match="was resized") as caught:
        assert mt.compile(f)(x, y, o).tolist() == [8.0, 12.0]
    assert o.shape == (2,) and len([w for w in caught if "resized" in str(w.message)]) == 1

    def g(x):
        mt.exp(x, out=x)
        return x + 1

    z = mt.tensor([0.0, 1.0])
    assert mt.compile(g)(z).tolist() == pytest.approx([2.0, math.e + 1])
    assert z.tolist() == pytest.approx([1.0, math.e])


# ================================================================== 3. fill values that do not fit an integer dtype
NAN, INF = math.nan, math.inf
FILL_CASES = {
    "fill_ nan int64": lambda L: L.zeros(2, dtype=L.int64).fill_(NAN),
    "fill_ inf int64": lambda L: L.zeros(2, dtype=L.int64).fill_(INF),
    "fill_ -inf int32": lambda L: L.zeros(2, dtype=L.int32).fill_(-INF),
    "fill_ 1e10 int32": lambda L: L.zeros(2, dtype=L.int32).fill_(1e10),
    "fill_ 300. int8": lambda L: L.zeros(2, dtype=L.int8).fill_(300.0),
    "fill_ 300 int8": lambda L: L.zeros(2, dtype=L.int8).fill_(300),
    "fill_ 127.5 int8": lambda L: L.zeros(2, dtype=L.int8).fill_(127.5),
    "fill_ -1. uint8": lambda L: L.zeros(2, dtype=L.uint8).fill_(-1.0),
    "fill_ -1 uint8 wraps": lambda L: L.zeros(2, dtype=L.uint8).fill_(-1),
    "fill_ -255 uint8 wraps": lambda L: L.zeros(2, dtype=L.uint8).fill_(-255),
    "fill_ -256 uint8": lambda L: L.zeros(2, dtype=L.uint8).fill_(-256),
    "fill_ 256 uint8": lambda L: L.zeros(2, dtype=L.uint8).fill_(256),
    "fill_ nan bool": lambda L: L.zeros(2, dtype=L.bool).fill_(NAN),
    "fill_ 2.7 int64": lambda L: L.zeros(2, dtype=L.int64).fill_(2.7),
    "fill_ -2.7 int64": lambda L: L.zeros(2, dtype=L.int64).fill_(-2.7),
    "fill_ 1e300 float32": lambda L: L.zeros(2).fill_(1e300),
    "zero_ view": lambda L: L.ones(2, 2, dtype=L.int64)[0].fill_(7),
    "full nan int64": lambda L: L.full((2,), NAN, dtype=L.int64),
    "full inf int32": lambda L: L.full((2,), INF, dtype=L.int32),
    "full_like nan int64": lambda L: L.full_like(L.tensor([1, 2]), NAN),
    "full_like 2**40 int32": lambda L: L.full_like(L.tensor([1, 2], dtype=L.int32), 2 ** 40),
    "new_full nan": lambda L: L.tensor([1, 2]).new_full((2,), NAN),
    "scalar_tensor nan int64": lambda L: L.scalar_tensor(NAN, dtype=L.int64),
    "masked_fill nan": lambda L: L.zeros(2, dtype=L.int64).masked_fill(L.tensor([True, False]), NAN),
    "masked_fill 1e10 int32": lambda L: L.zeros(2, dtype=L.int32).masked_fill(L.tensor([True, False]), 1e10),
    "masked_fill 2**40 int32": lambda L: L.zeros(2, dtype=L.int32).masked_fill(L.tensor([True, False]), 2 ** 40),
    "masked_fill_ nan": lambda L: L.zeros(2, dtype=L.int64).masked_fill_(L.tensor([True, False]), NAN),
    "masked_fill -1 uint8": lambda L: L.zeros(2, dtype=L.uint8).masked_fill(L.tensor([True, False]), -1),
    "index_fill nan": lambda L: L.zeros(2, dtype=L.int64).index_fill(0, L.tensor([0]), NAN),
    "index_fill 2**40 int32": lambda L: L.zeros(2, dtype=L.int32).index_fill(0, L.tensor([0]), 2 ** 40),
    "index_fill_ inf": lambda L: L.zeros(2, dtype=L.int64).index_fill_(0, L.tensor([0]), INF),
    "scatter value nan": lambda L: L.zeros(2, dtype=L.int64).scatter(0, L.tensor([0]), NAN),
    "scatter value -1 uint8": lambda L: L.zeros(2, dtype=L.uint8).scatter(0, L.tensor([0]), -1),
    "setitem nan": lambda L: (lambda t: (t.__setitem__(0, NAN), t)[1])(L.tensor([1, 2])),
    "setitem 2.7": lambda L: (lambda t: (t.__setitem__(0, 2.7), t)[1])(L.tensor([1, 2])),
    "setitem 1e30": lambda L: (lambda t: (t.__setitem__(0, 1e30), t)[1])(L.tensor([1, 2])),
    "setitem 2**40 int32": lambda L: (lambda t: (t.__setitem__(0, 2 ** 40), t)[1])(L.tensor([1, 2], dtype=L.int32)),
    "setitem mask nan": lambda L: (lambda t: (t.__setitem__(t > 1, NAN), t)[1])(L.tensor([1, 2])),
    "clamp nan int (float result)": lambda L: L.tensor([1, 2]).clamp(NAN),
    "clamp max nan int": lambda L: L.tensor([1, 2]).clamp(max=NAN),
    "int + nan (float result)": lambda L: L.tensor([1, 2]) + NAN,
    "int add_ nan": lambda L: L.tensor([1, 2]).add_(NAN),
    "int mul_ 1.5": lambda L: L.tensor([1, 2]).mul_(1.5),
    "where int nan": lambda L: L.where(L.tensor([True, False]), L.tensor([1, 2]), NAN),
    "arange to nan": lambda L: L.arange(0, NAN),
    "arange from -inf": lambda L: L.arange(-INF, 0),
    "arange step nan": lambda L: L.arange(0, 5, NAN),
}


@pytest.mark.parametrize("case", list(FILL_CASES))
def test_scalar_into_integer_dtype_as_torch(case):
    """torch's checked conversion: 'value cannot be converted to type int64_t without overflow', an int
    wrapping into uint8 from -255, a float truncating; where the result is float, its values."""
    assert_same_outcome(FILL_CASES[case])


def test_clamp_in_place_of_int_by_nan_is_refused():
    # (torch's clamp_ names the dtype "long int" here, its add_ "Long": the start of the words is shared)
    for L in (torch, mt):
        with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type"):
            L.tensor([1, 2]).clamp_(NAN)


def test_fill_checks_under_compile_too():
    def f(x):
        return x.clone().fill_(NAN) + 1

    with pytest.raises(RuntimeError, match="value cannot be converted to type int64_t without overflow"):
        mt.compile(f)(mt.zeros(2, dtype=mt.int64))


# ================================================================== 4. Python types as dtypes
DTYPE_CASES = {
    "zeros float": lambda L: L.zeros(2, dtype=float),
    "zeros int": lambda L: L.zeros(2, dtype=int),
    "ones bool": lambda L: L.ones(2, dtype=bool),
    "full int": lambda L: L.full((2,), 3, dtype=int),
    "arange float": lambda L: L.arange(3, dtype=float),
    "tensor float": lambda L: L.tensor([1, 2], dtype=float),
    "tensor bool": lambda L: L.tensor([0, 2], dtype=bool),
    "ones_like int": lambda L: L.ones_like(L.ones(2), dtype=int),
    "sum dtype float": lambda L: L.ones(2).sum(dtype=float),
    "cumsum dtype int": lambda L: L.ones(2).cumsum(0, dtype=int),
    "to float": lambda L: L.ones(2).to(float),
    "to int": lambda L: L.tensor([1.5, -2.5]).to(int),
    "to bool": lambda L: L.tensor([0.0, 2.0]).to(bool),
    "to dtype=float": lambda L: L.ones(2).to(dtype=float),
    "softmax dtype float": lambda L: L.softmax(L.ones(2), 0, dtype=float),
    "type float (refused)": lambda L: L.ones(2).type(float),
    "type legacy name": lambda L: L.ones(2).type("torch.LongTensor"),
    "type bad name": lambda L: L.ones(2).type("torch.Nope"),
    "zeros str (refused)": lambda L: L.zeros(2, dtype="float32"),
}


@pytest.mark.parametrize("case", list(DTYPE_CASES))
def test_python_types_as_dtypes_as_torch(case):
    assert_same_outcome(DTYPE_CASES[case])


def test_python_type_dtype_under_compile():
    def f(x):
        return mt.zeros(2, dtype=float) + x.to(int)

    x = mt.tensor([1.5, 2.5])
    got, want = mt.compile(f)(x), f(x)
    assert got.dtype is mt.float64 and got.tolist() == want.tolist() == [1.0, 2.0]


# ================================================================== 5. Tensor -> Python scalar
SCALAR_CASES = {
    "int of two": lambda L: int(L.ones(2)),
    "float of two": lambda L: float(L.ones(2)),
    "int of none": lambda L: int(L.ones(0)),
    "float of none": lambda L: float(L.ones(0)),
    "bool of two": lambda L: bool(L.ones(2)),
    "bool of none": lambda L: bool(L.ones(0)),
    "index of two": lambda L: [1, 2, 3][L.ones(2, dtype=L.int64)],
    "index of a float": lambda L: [1, 2, 3][L.ones(1)],
    "item of two": lambda L: L.ones(2).item(),
    "item of none": lambda L: L.ones(0).item(),
    "int of one": lambda L: int(L.tensor([[2.7]])),
    "float of one int": lambda L: float(L.tensor([3])),
    "bool of one": lambda L: bool(L.tensor([0.0])),
    "index of one": lambda L: [1, 2, 3][L.tensor([2])],
}


@pytest.mark.parametrize("case", list(SCALAR_CASES))
def test_tensor_to_python_scalar_as_torch(case):
    assert_same_outcome(SCALAR_CASES[case])


# ================================================================== 6. torch.tensor's data
DATA_CASES = {
    "2**64": lambda L: L.tensor([2 ** 64]),
    "2**63": lambda L: L.tensor([2 ** 63]),
    "-2**63": lambda L: L.tensor([-2 ** 63]),
    "-2**63-1": lambda L: L.tensor([-2 ** 63 - 1]),
    "2**64 scalar": lambda L: L.tensor(2 ** 64),
    "2**63 into float32": lambda L: L.tensor([2 ** 63], dtype=L.float32),
    "2**64 next to floats": lambda L: L.tensor([2 ** 64, 1.5]),
    "str": lambda L: L.tensor(["a"]),
    "str nested": lambda L: L.tensor([["ab"]]),
    "str scalar": lambda L: L.tensor("a"),
    "str among numbers": lambda L: L.tensor([1, "a"]),
    "None": lambda L: L.tensor([None]),
    "None among numbers": lambda L: L.tensor([1, None]),
    "object": lambda L: L.tensor([object()]),
    "ragged": lambda L: L.tensor([[1, 2], [3]]),
    "ragged longer": lambda L: L.tensor([[1], [2, 3]]),
    "ragged tuple": lambda L: L.tensor(((1, 2), (3,))),
    "ragged deep": lambda L: L.tensor([[[1, 2]], [[3]]]),
    "number where a list was": lambda L: L.tensor([[1, 2], 3]),
    "list where a number was": lambda L: L.tensor([1, [2, 3]]),
    "list where a float was": lambda L: L.tensor([1, [2, 3]], dtype=L.float32),
    "nan into int64": lambda L: L.tensor([NAN], dtype=L.int64),
    "inf into int64": lambda L: L.tensor([INF], dtype=L.int64),
    "1e10 into int32": lambda L: L.tensor([1e10], dtype=L.int32),
    "2**40 into int32": lambda L: L.tensor([2 ** 40], dtype=L.int32),
    "300 into uint8": lambda L: L.tensor([300], dtype=L.uint8),
    "-1 into uint8 wraps": lambda L: L.tensor([-1, -255], dtype=L.uint8),
    "-1. into uint8": lambda L: L.tensor([-1.0], dtype=L.uint8),
    "127.5 into int8": lambda L: L.tensor([127.5], dtype=L.int8),
    "nan into bool": lambda L: L.tensor([NAN, 0.0], dtype=L.bool),
    "1e300 into float32 is inf": lambda L: L.tensor([1e300, -1e300]),
    "nan scalar into int64": lambda L: L.tensor(NAN, dtype=L.int64),
    "2.7 into int64": lambda L: L.tensor([2.7, -2.7], dtype=L.int64),
    "numpy float64 scalar": lambda L: L.tensor([np.float64(1.5), 2]),
    "numpy int32 scalar": lambda L: L.tensor([np.int32(1)]),
    "bools and ints": lambda L: L.tensor([True, 2]),
    "empty": lambda L: L.tensor([]),
    "nested empty": lambda L: L.tensor([[], []]),
}


@pytest.mark.parametrize("case", list(DATA_CASES))
def test_tensor_data_as_torch(case):
    assert_same_outcome(DATA_CASES[case])


def test_zero_dim_bernoulli_and_elementwise_bce_keep_their_shape():
    """bernoulli of a 0-d probability and binary_cross_entropy_with_logits(reduction='none') of 0-d tensors are
    0-d, as torch's (np.ascontiguousarray had made them 1-d, or raised; found by the distributions tests)."""
    shapes = []
    for lib in (torch, mt):
        lib.manual_seed(0)
        sample = lib.bernoulli(lib.tensor(0.3))
        loss = lib.nn.functional.binary_cross_entropy_with_logits(lib.tensor(0.2), lib.tensor(1.0), reduction="none")
        shapes.append((tuple(sample.shape), tuple(loss.shape), round(loss.item(), 6)))
    assert shapes[1] == shapes[0]


def test_erfinv_keeps_the_sign_of_a_zero():
    torch = pytest.importorskip("torch")
    ours, theirs = mt.erfinv(mt.tensor([-0.0, 0.0, 0.5])), torch.erfinv(torch.tensor([-0.0, 0.0, 0.5]))
    assert ours.numpy().tobytes() == theirs.numpy().tobytes()


def test_logical_and_in_place_on_a_float_keeps_its_history():
    torch = pytest.importorskip("torch")
    grads = []
    for lib in (mt, torch):
        leaf = lib.ones(3, requires_grad=True)
        x = leaf * 2
        x.logical_and_(lib.tensor([1.0, 0.0, 1.0]))
        assert type(x.grad_fn).__name__ == "MulBackward0"
        x.sum().backward()
        grads.append(leaf.grad.numpy())
    np.testing.assert_array_equal(*grads)


def test_meshgrid_of_mixed_dtypes_says_what_torch_says():
    torch = pytest.importorskip("torch")
    messages = []
    for lib in (mt, torch):
        with pytest.raises(RuntimeError) as info:
            lib.meshgrid(lib.ones(2), lib.ones(3, dtype=lib.int64), indexing="ij")
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("expression", ["np.float64(2.5) * t", "np.float32(2) + t", "np.int64(3) - t",
                                        "np.float64(1) / t", "np.float64(2) ** t", "np.float64(2) > t"])
def test_a_numpy_scalar_on_the_left_gives_a_tensor_as_torch(expression):
    """numpy defers to a tensor's reflected operator (torch.Tensor.__array_priority__); it used to convert
    the tensor and return an ndarray (found by the frontend's adversarial fuzzer: a namedtuple field of
    np.float64 times a tensor)."""
    torch = pytest.importorskip("torch")
    results = []
    for lib in (mt, torch):
        result = eval(expression, {"np": np, "t": lib.ones(2)})
        assert type(result).__name__ == "Tensor"
        results.append((str(result.dtype), result.numpy().tolist()))
    assert results[0] == results[1]


def test_tensor_from_any_python_sequence():
    """torch.tensor takes any sequence (a deque of returns in the REINFORCE example, a range, an array.array)."""
    import array
    import collections
    torch = pytest.importorskip("torch")
    for make in (lambda: collections.deque([1.0, 2.0]), lambda: range(3), lambda: array.array("f", [1, 2]),
                 lambda: [range(2), range(2)]):
        ours, theirs = mt.tensor(make()), torch.tensor(make())
        assert (str(ours.dtype), ours.tolist()) == (str(theirs.dtype), theirs.tolist())
