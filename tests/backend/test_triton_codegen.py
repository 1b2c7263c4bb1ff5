"""backend/codegen/triton.py: loop-IR kernels as Triton (the interpreter, without a GPU) against numpy_ref and eager.

Part 1 builds kernels directly in loop IR (no lowering or scheduling), runs each
through Triton and through the numpy reference evaluator on copies of the same
buffers, and compares every output, so a failure points at the Triton code
generator alone. Part 2 compiles whole programs with
`backend.config.cpu_codegen = "triton"` and compares values and gradients with
eager minitorch2, checking that every kernel really was a Triton kernel.
(tests/backend/test_lowering.py runs every lowered op through Triton too.)
Part 3, with MINITORCH2_TRITON_SWEEP=1 only (a few minutes in the interpreter),
reruns the backend's program-level suites with `MINITORCH2_CPU_CODEGEN=triton`:
the hypothesis differential programs and the frontend corpus.
"""
import os
import subprocess
import sys
import zlib

import numpy as np
import pytest

import backend
import frontend
import minitorch2
import minitorch2.nn.functional as F
from backend import config
from backend import loop_ir as L
from backend.codegen import numpy_ref
from backend.codegen import triton as codegen
from minitorch2 import _dtype as dt
from tests.backend.llvm_kernel_helpers import run_arrays
from tests.backend.test_compile_fx import check_mlp_training_step

x0, x1, r0, r1 = L.Var("x0"), L.Var("x1"), L.Var("r0"), L.Var("r1")
RNG = np.random.default_rng(0)
SWEEP = os.environ.get("MINITORCH2_TRITON_SWEEP") == "1"


@pytest.fixture(autouse=True)
def private_cache_and_seed(tmp_path_factory, monkeypatch, request):
    monkeypatch.setattr(config, "kernel_cache_dir", str(tmp_path_factory.getbasetemp() / "kernels"))
    monkeypatch.setattr(sys.modules[__name__], "RNG", np.random.default_rng(zlib.crc32(request.node.name.encode())))


def arg(name, dtype, numel, role="in"):
    return L.KernelArg(name, name, dtype, numel, role)


def random_array(dtype, n, low=-5, high=5):
    if dtype is dt.bool_:
        return RNG.random(n) < 0.5
    if dtype.is_floating_point:
        return RNG.standard_normal(n).astype(dtype.np) * 3
    if dtype is dt.uint8:
        return RNG.integers(0, 200, n).astype(np.uint8)
    return RNG.integers(low, high, n).astype(dtype.np)


def run_both(kernel, inputs, expect_source=()):
    """Run `kernel` through Triton and numpy_ref on copies of `inputs` (name -> array; outputs zero-filled
    unless given) and return both results, name -> array."""
    buffers = {a.name: inputs[a.name] if a.name in inputs else np.zeros(a.numel, a.dtype.np) for a in kernel.args}
    mine = {name: array.copy() for name, array in buffers.items()}
    reference = {name: array.copy() for name, array in buffers.items()}
    compiled = codegen.compile_kernel(kernel)
    assert "@triton.jit" in compiled.triton_source
    for text in expect_source:
        assert text in compiled.triton_source, compiled.triton_source
    run_arrays(compiled, *(mine[a.name] for a in kernel.args))
    numpy_ref.compile_kernel(kernel).run_arrays(**reference)
    return mine, reference


def assert_same(mine, reference, rtol=1e-6, atol=1e-6):
    for name in reference:
        if reference[name].dtype.kind == "f":
            np.testing.assert_allclose(mine[name], reference[name], rtol=rtol, atol=atol, err_msg=name)
        else:
            np.testing.assert_array_equal(mine[name], reference[name], err_msg=name)


# ---- part 1: hand-written kernels --------------------------------------------------------------

UNARY_FLOAT = ["neg", "abs", "exp", "exp2", "log", "log2", "log1p", "expm1", "sqrt", "rsqrt", "reciprocal", "sin",
               "cos", "tan", "tanh", "sigmoid", "erf", "floor", "ceil", "trunc", "round", "sign", "relu",
               "logical_not", "isnan", "isinf"]
UNARY_INT = ["neg", "abs", "sign", "relu", "logical_not", "bitwise_not", "isnan", "isinf", "floor", "round"]
BINARY_FLOAT = ["add", "sub", "mul", "truediv", "floordiv", "remainder", "pow", "maximum", "minimum", "eq", "ne", "lt",
                "le", "gt", "ge", "logical_and", "logical_or", "atan2"]
BINARY_INT = ["add", "sub", "mul", "floordiv", "remainder", "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge",
              "logical_and", "logical_or", "bitwise_and", "bitwise_or", "bitwise_xor"]
BOOL_RESULT = {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_not", "isnan", "isinf"}


def all_ops_kernel(dtype, unary, binary, n):
    """One kernel storing every op of the lists, applied to in_ptr0 (and in_ptr1), into out_ptr<i>."""
    a, b = L.Load("in_ptr0", x0, dtype), L.Load("in_ptr1", x0, dtype)
    ops = [(name, (a,)) for name in unary] + [(name, (a, b)) for name in binary]
    args = [arg("in_ptr0", dtype, n), arg("in_ptr1", dtype, n)]
    body = []
    for i, (name, operands) in enumerate(ops):
        out_dtype = dt.bool_ if name in BOOL_RESULT else dtype
        args.append(arg(f"out_ptr{i}", out_dtype, n, "out"))
        body.append(L.Store(f"out_ptr{i}", x0, L.Op(name, operands, out_dtype)))
    return L.Kernel(f"ops_{dtype.name}", args, L.Loop(("x0",), (n,), body)), [name for name, _ in ops]


def special_floats(dtype, n):
    values = random_array(dtype, n)
    values[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 2.5, -2.5, 0.5]
    return values


@pytest.mark.parametrize("dtype", [dt.float32, dt.float64, dt.float16])
def test_every_float_op_matches_numpy_ref(dtype):
    kernel, names = all_ops_kernel(dtype, UNARY_FLOAT, BINARY_FLOAT, 203)
    a, b = special_floats(dtype, 203), special_floats(dtype, 203)[::-1].copy()
    b[20:30] = 0.0  # division and remainder by zero
    mine, reference = run_both(kernel, {"in_ptr0": a, "in_ptr1": b})
    tolerance = 2e-3 if dtype is dt.float16 else 1e-5
    failures = []
    for i, name in enumerate(names):
        got, want = mine[f"out_ptr{i}"], reference[f"out_ptr{i}"]
        if name in ("sign", "relu"):  # numpy_ref's sign(NaN) is NaN and relu(-inf) NaN; torch's (and llvm's) 0
            import torch

            want = getattr(torch, name)(torch.from_numpy(a)).numpy()
        if name == "remainder":  # torch's Triton kernels: fmod corrected to the divisor's sign (eager's), where
            import torch  # its CPU kernels (and numpy_ref) compute a - (a // b) * b

            want = torch.remainder(torch.from_numpy(a), torch.from_numpy(b)).numpy()
        try:
            if want.dtype.kind == "f":
                np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance, err_msg=name)
                np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=name)
            else:
                np.testing.assert_array_equal(got, want, err_msg=name)
        except AssertionError as error:
            failures.append(str(error))
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype", [dt.int32, dt.int64, dt.int8, dt.int16, dt.uint8])
def test_every_integer_op_matches_numpy_ref(dtype):
    kernel, _ = all_ops_kernel(dtype, UNARY_INT, BINARY_INT, 101)
    a = random_array(dtype, 101, -20, 20)
    b = random_array(dtype, 101, -6, 6)
    b[b == 0] = 3  # (division by zero is its own test)
    mine, reference = run_both(kernel, {"in_ptr0": a, "in_ptr1": b})
    assert_same(mine, reference)


def test_bool_ops_and_casts_between_every_dtype():
    dtypes = [dt.bool_, dt.uint8, dt.int8, dt.int16, dt.int32, dt.int64, dt.float16, dt.float32, dt.float64]
    n = 64
    args, body = [arg("in_ptr0", dt.float32, n)], []
    source = L.Load("in_ptr0", x0, dt.float32)
    for i, first in enumerate(dtypes):
        for j, second in enumerate(dtypes):
            name = f"out_ptr{len(body)}"
            args.append(arg(name, second, n, "out"))
            body.append(L.Store(name, x0, L.Op("to_dtype", (L.Op("to_dtype", (source,), first),), second)))
    flags = L.Op("to_dtype", (source,), dt.bool_)
    for name in ["add", "mul", "maximum", "minimum", "logical_and", "bitwise_xor", "eq", "lt"]:
        out = f"out_ptr{len(body)}"
        args.append(arg(out, dt.bool_, n, "out"))
        body.append(L.Store(out, x0, L.Op(name, (flags, L.Op("logical_not", (flags,), dt.bool_)), dt.bool_)))
    kernel = L.Kernel("casts", args, L.Loop(("x0",), (n,), body))
    values = (RNG.standard_normal(n) * 300).astype(np.float32)
    values[:4] = [0.0, -0.0, 255.9, -128.5]
    assert_same(*run_both(kernel, {"in_ptr0": values}))


def test_where_index_value_and_constants():
    n = 50
    a = L.Load("in_ptr0", x0, dt.float32)
    value = L.Op("where", (L.Op("gt", (a, L.Constant(0.0, dt.float32)), dt.bool_),
                           L.Op("mul", (a, L.Constant(float("inf"), dt.float32)), dt.float32),
                           L.IndexValue(x0 * 2 + 1, dt.float32)), dt.float32)
    kernel = L.Kernel("where", [arg("in_ptr0", dt.float32, n), arg("out_ptr0", dt.float32, n, "out"),
                                arg("out_ptr1", dt.int64, n, "out")],
                      L.Loop(("x0",), (n,), [L.Store("out_ptr0", x0, value),
                                             L.Store("out_ptr1", x0, L.IndexValue(x0 * 3 + 2, dt.int64))]))
    assert_same(*run_both(kernel, {"in_ptr0": random_array(dt.float32, n)}))


def test_broadcast_transpose_and_views_with_floordiv_and_mod():
    """out[x0, x1] = a[x1, x0] + b[2*(x1 // 2)] + c[((x0*7 + x1) // 3) % 5] + d[(x0 - 4) % 9]: a Python-style % of a
    possibly negative index, and a 2-d outer loop flattened into one xindex and split with // and %."""
    rows, cols = 13, 7
    index_c = ((x0 * cols + x1) // 3) % 5
    index_d = (x0 + (-4)) % 9
    value = L.Op("add", (L.Op("add", (L.Load("in_ptr0", x1 * rows + x0, dt.float32),
                                      L.Load("in_ptr1", (x1 // 2) * 2, dt.float32)), dt.float32),
                         L.Op("add", (L.Load("in_ptr2", index_c, dt.float32),
                                      L.Load("in_ptr3", index_d, dt.float32)), dt.float32)), dt.float32)
    kernel = L.Kernel("views", [arg("in_ptr0", dt.float32, rows * cols), arg("in_ptr1", dt.float32, cols),
                                arg("in_ptr2", dt.float32, 5), arg("in_ptr3", dt.float32, 9),
                                arg("out_ptr0", dt.float32, rows * cols, "out"),
                                arg("out_ptr1", dt.int64, rows * cols, "out")],
                      L.Loop(("x0", "x1"), (rows, cols), [
                          L.Store("out_ptr0", x0 * cols + x1, value),
                          L.Store("out_ptr1", x0 * cols + x1, L.IndexValue((x1 + (-3)) // 2, dt.int64))]))
    inputs = {name: random_array(dt.float32, n) for name, n in [("in_ptr0", rows * cols), ("in_ptr1", cols),
                                                                 ("in_ptr2", 5), ("in_ptr3", 9)]}
    assert_same(*run_both(kernel, inputs, expect_source=["helpers.remainder_int", "helpers.floordiv_int"]))


REDUCTIONS = ["sum", "prod", "max", "min", "argmax", "argmin", "any", "all"]


def reduction_kernel(kind, dtype, rows, cols):
    result_dtype = {"argmax": dt.int64, "argmin": dt.int64, "any": dt.bool_, "all": dt.bool_}.get(kind, dtype)
    value = L.Load("in_ptr0", x0 * cols + r0, dtype)
    body = [L.Reduce("tmp0", kind, ("r0",), (cols,), value, result_dtype), L.Store("out_ptr0", x0,
                                                                                   L.Temp("tmp0", result_dtype))]
    return L.Kernel(f"{kind}_{dtype.name}", [arg("in_ptr0", dtype, rows * cols), arg("out_ptr0", result_dtype, rows,
                                                                                         "out")],
                    L.Loop(("x0",), (rows,), body))


@pytest.mark.parametrize("kind", REDUCTIONS)
def test_float_reductions_with_nan_inf_and_ties(kind):
    rows, cols = 9, 37  # a ragged last chunk of the reduction range
    values = np.round(RNG.standard_normal((rows, cols)) * 2).astype(np.float32)  # many ties
    values[1, 5] = np.nan
    values[2, [3, 30]] = np.nan  # two NaNs: the first wins argmax and argmin
    values[3, :] = 7.0  # all tied
    values[4, :] = -np.inf
    values[5, 10] = np.inf
    values[6, :] = 0.0
    values[7] = np.where(RNG.random(cols) < 0.5, 1.0, 0.99)
    if kind == "prod":
        values = np.where(np.isfinite(values), values / 4 + 1, values).astype(np.float32)
    kernel = reduction_kernel(kind, dt.float32, rows, cols)
    mine, reference = run_both(kernel, {"in_ptr0": values.reshape(-1)})
    assert_same(mine, reference, rtol=1e-5)


@pytest.mark.parametrize("dtype", [dt.int32, dt.int64, dt.bool_, dt.int8, dt.float16, dt.float64])
def test_reductions_of_other_dtypes(dtype):
    rows, cols = 6, 70
    values = random_array(dtype, rows * cols, -3, 3)
    kinds = ["max", "min", "argmax", "argmin", "any", "all"] + (["sum", "prod"] if dtype is not dt.bool_ else [])
    for kind in kinds:
        data = values if kind != "prod" or dtype is dt.bool_ else np.clip(values, -1, 2).astype(dtype.np)
        mine, reference = run_both(reduction_kernel(kind, dtype, rows, cols), {"in_ptr0": data})
        assert_same(mine, reference, rtol=2e-3 if dtype is dt.float16 else 1e-6)


def test_reduction_over_two_variables_and_a_constant():
    """tmp0 = argmax over (r0, r1) (the position in the flattened range), tmp1 = sum of a constant (a count)."""
    rows, a, b = 5, 3, 11
    value = L.Load("in_ptr0", x0 * a * b + r0 * b + r1, dt.float32)
    body = [L.Reduce("tmp0", "argmax", ("r0", "r1"), (a, b), value, dt.int64),
            L.Reduce("tmp1", "sum", ("r0", "r1"), (a, b), L.Constant(1.0, dt.float32), dt.float32),
            L.Store("out_ptr0", x0, L.Temp("tmp0", dt.int64)), L.Store("out_ptr1", x0, L.Temp("tmp1", dt.float32))]
    kernel = L.Kernel("argmax2", [arg("in_ptr0", dt.float32, rows * a * b), arg("out_ptr0", dt.int64, rows, "out"),
                                  arg("out_ptr1", dt.float32, rows, "out")], L.Loop(("x0",), (rows,), body))
    assert_same(*run_both(kernel, {"in_ptr0": random_array(dt.float32, rows * a * b)}))


def softmax_kernel(rows, cols):
    def load():
        return L.Load("in_ptr0", x0 * cols + r0, dt.float32)

    def shifted_exp():
        return L.Op("exp", (L.Op("sub", (load(), L.Temp("tmp0", dt.float32)), dt.float32),), dt.float32)

    body = [L.Reduce("tmp0", "max", ("r0",), (cols,), load(), dt.float32),
            L.Reduce("tmp1", "sum", ("r0",), (cols,), shifted_exp(), dt.float32),
            L.Loop(("r0",), (cols,), [L.Store("out_ptr0", x0 * cols + r0,
                                              L.Op("truediv", (shifted_exp(), L.Temp("tmp1", dt.float32)),
                                                   dt.float32))])]
    return L.Kernel("softmax", [arg("in_ptr0", dt.float32, rows * cols), arg("out_ptr0", dt.float32, rows * cols,
                                                                            "out")],
                    L.Loop(("x0",), (rows,), body))


@pytest.mark.parametrize("rows, cols", [(7, 33), (3, 3000)])
def test_softmax_shaped_kernel(rows, cols):
    """Reduce, Reduce over a Temp, then an inner Loop of stores; 3000 columns take several RBLOCK chunks."""
    values = random_array(dt.float32, rows * cols)
    values[:cols] = -np.inf  # a row of -inf: NaN everywhere, as torch
    mine, reference = run_both(softmax_kernel(rows, cols), {"in_ptr0": values})
    assert_same(mine, reference, rtol=1e-5)


def test_store_then_reload_in_the_same_kernel():
    """kernel_rewrites' shape: an inner loop stores exp(x), a reduction reloads it, a second loop divides."""
    rows, cols = 4, 19
    exp = L.Op("exp", (L.Load("in_ptr0", x0 * cols + r0, dt.float32),), dt.float32)
    stored = L.Load("out_ptr0", x0 * cols + r0, dt.float32)
    body = [L.Loop(("r0",), (cols,), [L.Store("out_ptr0", x0 * cols + r0, exp)]),
            L.Reduce("tmp0", "sum", ("r0",), (cols,), stored, dt.float32),
            L.Loop(("r0",), (cols,), [L.Store("out_ptr0", x0 * cols + r0,
                                              L.Op("truediv", (stored, L.Temp("tmp0", dt.float32)), dt.float32))])]
    kernel = L.Kernel("reload", [arg("in_ptr0", dt.float32, rows * cols),
                                 arg("out_ptr0", dt.float32, rows * cols, "inout")], L.Loop(("x0",), (rows,), body))
    assert_same(*run_both(kernel, {"in_ptr0": random_array(dt.float32, rows * cols)}), rtol=1e-5)


def test_library_math_with_a_constant_first_operand_inside_a_tile():
    """pow(2, x) and atan2(1, x) in an inner loop: the result takes the tile's shape, not the constant's."""
    rows, cols = 3, 5
    value = L.Load("in_ptr0", x0 * cols + r0, dt.float32)
    body = [L.Loop(("r0",), (cols,), [
        L.Store("out_ptr0", x0 * cols + r0, L.Op("pow", (L.Constant(2.0, dt.float32), value), dt.float32)),
        L.Store("out_ptr1", x0 * cols + r0, L.Op("atan2", (L.Constant(1.0, dt.float32), value), dt.float32))])]
    kernel = L.Kernel("math", [arg("in_ptr0", dt.float32, rows * cols), arg("out_ptr0", dt.float32, rows * cols, "out"),
                               arg("out_ptr1", dt.float32, rows * cols, "out")], L.Loop(("x0",), (rows,), body))
    assert_same(*run_both(kernel, {"in_ptr0": random_array(dt.float32, rows * cols)}), rtol=1e-6)


def test_int64_index_arithmetic(monkeypatch):
    """Kernels over 2**31 elements index in int64; forced here on small kernels, which must still agree."""
    monkeypatch.setattr(codegen, "WIDE_INDEX_FROM", 16)
    kernel = softmax_kernel(5, 40)
    assert_same(*run_both(kernel, {"in_ptr0": random_array(dt.float32, 200)},
                          expect_source=["tl.arange(0, XBLOCK).to(tl.int64)"]), rtol=1e-5)
    ids = RNG.integers(-10, 10, 23).astype(np.int64)
    assert_same(*run_both(embedding_kernel(23, 6, 10, wrap=True), {"in_ptr0": random_array(dt.float32, 60),
                                                                   "in_ptr1": ids}))


def embedding_kernel(rows, dim, table_rows, wrap=False):
    index = L.Indirect(L.Load("in_ptr1", x0, dt.int64), table_rows, wrap_negative=wrap)
    return L.Kernel("embedding", [arg("in_ptr0", dt.float32, table_rows * dim), arg("in_ptr1", dt.int64, rows),
                                  arg("out_ptr0", dt.float32, rows * dim, "out")],
                    L.Loop(("x0", "x1"), (rows, dim), [L.Store("out_ptr0", x0 * dim + x1,
                                                               L.Load("in_ptr0", index * dim + x1, dt.float32))]))


def test_indirect_load_gathers_rows():
    table = random_array(dt.float32, 10 * 6)
    ids = RNG.integers(-10, 10, 23).astype(np.int64)
    assert_same(*run_both(embedding_kernel(23, 6, 10, wrap=True), {"in_ptr0": table, "in_ptr1": ids}))
    ids = np.abs(ids)
    assert_same(*run_both(embedding_kernel(23, 6, 10), {"in_ptr0": table, "in_ptr1": np.minimum(ids, 9)}))


def test_indirect_out_of_range_raises_eagers_error_and_touches_no_memory():
    ids = np.array([1, 2, 10, 3, -1], np.int64)
    table, out = random_array(dt.float32, 10 * 4), np.zeros(5 * 4, np.float32)
    kernel = embedding_kernel(5, 4, 10)
    with pytest.raises(IndexError) as reference_error:
        numpy_ref.compile_kernel(kernel).run_arrays(in_ptr0=table.copy(), in_ptr1=ids.copy(), out_ptr0=out.copy())
    with pytest.raises(IndexError) as error:
        run_arrays(codegen.compile_kernel(kernel), table, ids, out)
    assert str(error.value) == str(reference_error.value) == "index out of range in self"
    out_of_bounds = L.OutOfRange("RuntimeError", "index {} is out of bounds")
    error_kernel = L.Kernel("gather", kernel.args, L.Loop(("x0", "x1"), (5, 4), [L.Store(
        "out_ptr0", x0 * 4 + x1, L.Load("in_ptr0", L.Indirect(L.Load("in_ptr1", x0, dt.int64), 10, True,
                                                               out_of_bounds) * 4 + x1,
                                        dt.float32))]))
    with pytest.raises(RuntimeError, match="index 10 is out of bounds"):
        run_arrays(codegen.compile_kernel(error_kernel), table, ids, out)


def test_integer_division_by_zero_raises_torchs_error():
    kernel, _ = all_ops_kernel(dt.int32, [], ["floordiv"], 8)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        run_arrays(codegen.compile_kernel(kernel), np.arange(8, dtype=np.int32), np.arange(8, dtype=np.int32),
                                                  np.zeros(8, np.int32))


@pytest.mark.parametrize("dtype", [dt.float32, dt.int64, dt.int8, dt.float16])
def test_scatter_add_accumulates_duplicates(dtype):
    """out[index[x0], x1] += src[x0, x1] with repeated indices: every duplicate adds up (serial kernel; int8 has
    no atomic add, so it runs one element at a time)."""
    rows, dim, targets = 40, 3, 5
    index = L.Indirect(L.Load("in_ptr1", x0, dt.int64), targets)
    kernel = L.Kernel("scatter_add", [arg("in_ptr0", dtype, rows * dim), arg("in_ptr1", dt.int64, rows),
                                      arg("out_ptr0", dtype, targets * dim, "inout")],
                      L.Loop(("x0", "x1"), (rows, dim), [L.Store("out_ptr0", index * dim + x1,
                                                                 L.Load("in_ptr0", x0 * dim + x1, dtype), "add")]),
                      serial=True)
    ids = RNG.integers(0, targets, rows).astype(np.int64)
    src = random_array(dtype, rows * dim, -3, 3)
    mine, reference = run_both(kernel, {"in_ptr0": src, "in_ptr1": ids,
                                        "out_ptr0": np.ones(targets * dim, dtype.np)})
    # On a GPU the atomic adds land in any order, and every float16 partial sum rounds (its ulp is 2^-7 near
    # 10): the result can differ from eager's order by an ulp of those sums, as torch's CUDA scatter_add does.
    atol = 1e-2 if dtype is dt.float16 and not codegen.INTERPRETED else 1e-6
    assert_same(mine, reference, rtol=2e-3 if dtype is dt.float16 else 1e-5, atol=atol)


def test_plain_scatter_keeps_the_last_write():
    rows = 30
    kernel = L.Kernel("scatter", [arg("in_ptr0", dt.float32, rows), arg("in_ptr1", dt.int64, rows),
                                  arg("out_ptr0", dt.float32, 4, "inout")],
                      L.Loop(("x0",), (rows,), [L.Store("out_ptr0", L.Indirect(L.Load("in_ptr1", x0, dt.int64), 4),
                                                        L.Load("in_ptr0", x0, dt.float32))]), serial=True)
    mine, reference = run_both(kernel, {"in_ptr0": random_array(dt.float32, rows),
                                        "in_ptr1": RNG.integers(0, 4, rows).astype(np.int64)})
    assert_same(mine, reference)


def test_kernel_without_loop_variables_and_empty_ranges():
    body = [L.Reduce("tmp0", "sum", ("r0",), (10,), L.Load("in_ptr0", r0, dt.float32), dt.float32),
            L.Store("out_ptr0", L.Const(0), L.Temp("tmp0", dt.float32))]
    kernel = L.Kernel("total", [arg("in_ptr0", dt.float32, 10), arg("out_ptr0", dt.float32, 1, "out")],
                      L.Loop(("x0",), (1,), body))
    assert_same(*run_both(kernel, {"in_ptr0": random_array(dt.float32, 10)}))
    empty = L.Kernel("empty", [arg("in_ptr0", dt.float32, 0), arg("out_ptr0", dt.float32, 0, "out")],
                     L.Loop(("x0",), (0,), [L.Store("out_ptr0", x0, L.Load("in_ptr0", x0, dt.float32))]))
    run_arrays(codegen.compile_kernel(empty), np.zeros(0, np.float32), np.zeros(0, np.float32))


# ---- part 2: whole programs through compile_fx with cpu_codegen = "triton" ---------------------


@pytest.fixture
def triton_backend():
    saved = backend.config.cpu_codegen
    backend.config.cpu_codegen = "triton"
    backend.metrics.reset()
    frontend.reset()
    yield
    backend.config.cpu_codegen = saved
    frontend.reset()


def assert_compiled_with_triton():
    assert backend.metrics.graphs, "nothing was compiled"
    assert backend.metrics.generated_kernel_count > 0
    for graph in backend.metrics.graphs:
        assert graph.fallbacks == [], graph.fallbacks
        assert "@triton.jit" in graph.source and "_triton_source = r'''" in graph.source
        assert "_llvm_ir" not in graph.source


def tensor(array, requires_grad=False):
    return minitorch2.tensor(np.asarray(array), requires_grad=requires_grad)


def test_pointwise_chain(triton_backend):
    def fn(x, y):
        return (minitorch2.sin(x) * y + 1).relu() / (y.abs() + 1)

    x, y = tensor(RNG.standard_normal((17, 9)).astype(np.float32)), tensor(RNG.standard_normal(9).astype(np.float32))
    got = minitorch2.compile(fn, backend="inductor")(x, y)
    np.testing.assert_allclose(got.numpy(), fn(x, y).numpy(), rtol=1e-6, atol=1e-6)
    assert_compiled_with_triton()


def test_softmax_and_layer_norm_forward_and_backward(triton_backend):
    def fn(x, weight, bias):
        return F.layer_norm(F.softmax(x, dim=-1) * 10, (x.shape[-1],), weight, bias).sum()

    arrays = [RNG.standard_normal((12, 40)).astype(np.float32), RNG.standard_normal(40).astype(np.float32),
              RNG.standard_normal(40).astype(np.float32)]
    eager_inputs = [tensor(a, requires_grad=True) for a in arrays]
    compiled_inputs = [tensor(a, requires_grad=True) for a in arrays]
    expected = fn(*eager_inputs)
    expected.backward()
    got = minitorch2.compile(fn, backend="inductor")(*compiled_inputs)
    got.backward()
    np.testing.assert_allclose(got.item(), expected.item(), rtol=1e-4, atol=1e-4)
    for mine, reference in zip(compiled_inputs, eager_inputs):
        np.testing.assert_allclose(mine.grad.numpy(), reference.grad.numpy(), rtol=1e-4, atol=1e-5)
    assert [g.name.split("_")[0] for g in backend.metrics.graphs] == ["forward", "backward"]
    assert_compiled_with_triton()


def test_mlp_training_step(triton_backend):
    check_mlp_training_step()
    assert_compiled_with_triton()


def test_embedding_and_cross_entropy_against_torch(triton_backend):
    import torch

    table = RNG.standard_normal((20, 6)).astype(np.float32)
    ids = RNG.integers(0, 20, (4, 5)).astype(np.int64)
    ids[0, :2] = 3  # repeated rows: the backward's scatter-add accumulates them
    targets = RNG.integers(0, 6, 20).astype(np.int64)

    def fn(weight, ids, targets):
        return F.cross_entropy(F.embedding(ids, weight).reshape(20, 6), targets)

    weight = tensor(table, requires_grad=True)
    got = minitorch2.compile(fn, backend="inductor")(weight, tensor(ids), tensor(targets))
    got.backward()
    torch_weight = torch.tensor(table, requires_grad=True)
    expected = torch.nn.functional.cross_entropy(
        torch.nn.functional.embedding(torch.tensor(ids), torch_weight).reshape(20, 6), torch.tensor(targets))
    expected.backward()
    np.testing.assert_allclose(got.item(), expected.item(), rtol=1e-5)
    np.testing.assert_allclose(weight.grad.numpy(), torch_weight.grad.numpy(), rtol=1e-5, atol=1e-6)
    assert_compiled_with_triton()


def test_compiled_out_of_range_embedding_raises_eagers_error(triton_backend):
    def fn(weight, ids):
        return F.embedding(ids, weight) * 2

    weight, ids = tensor(RNG.standard_normal((5, 3)).astype(np.float32)), tensor(np.array([0, 7], np.int64))
    with pytest.raises(IndexError, match="index out of range in self"):
        minitorch2.compile(fn, backend="inductor")(weight, ids)


# ---- part 3: the backend's program suites with Triton as the code generator (MINITORCH2_TRITON_SWEEP=1) ----

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.skipif(not SWEEP, reason="the long Triton sweep runs with MINITORCH2_TRITON_SWEEP=1")
@pytest.mark.parametrize("suite", ["tests/backend/test_differential_inductor.py",
                                   "tests/backend/test_frontend_corpus_inductor.py"])
def test_program_suite_with_triton(suite):
    environment = {**os.environ, "MINITORCH2_CPU_CODEGEN": "triton"}
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", suite],
                            cwd=REPOSITORY, env=environment, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]


def test_plain_kernel_files_are_removed_when_the_process_ends(tmp_path):
    program = ("import minitorch2, backend; backend.config.cpu_codegen = 'triton'\n"
               "f = minitorch2.compile(lambda x: (x * 2).sin().sum())\n"
               "print(f(minitorch2.ones(5)).item())")
    environment = {**os.environ, "MINITORCH2_BACKEND_SPEED": "plain", "TMPDIR": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", program], cwd=REPOSITORY, env=environment, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    assert float(result.stdout) == pytest.approx(5 * np.sin(2.0))
    assert list(tmp_path.iterdir()) == []
