"""backend/codegen/llvm.py: the loops around the arithmetic, on hand-built loop-IR kernels.

Index arithmetic, row and column reductions, multi-stage kernels (softmax),
threads, the memory and disk caches of compiled code, and agreement with the
numpy reference evaluator of the loop IR. Elementwise arithmetic and the
transcendentals are in test_llvm_codegen.py.
"""
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

from backend import config
from backend import loop_ir as L
from backend.codegen import llvm as codegen
from backend.codegen import llvm_jit
from backend.codegen.llvm_emit import KernelEmitter
from backend.speed import kernel_cache, parallel, workers
from backend.speed.llvm_columns import is_column_reduction
from minitorch2 import _dtype as dt

from .llvm_kernel_helpers import (arg, cache_and_seed_fixture, has_float_vectors, optimized_ir, pointwise, r0, r1,
                                  run_arrays, run_pointwise, x0, x1)

RNG = np.random.default_rng(0)  # reseeded for every test by the fixture
private_cache_and_seed = cache_and_seed_fixture(__name__)


# ---- loop structure: index arithmetic, reductions, multi-stage kernels ----------------------


def test_two_dimensional_transpose_and_broadcast():
    """out[x0, x1] = a[x1, x0] + bias[x1], with a 2-d loop and with a flat loop using // and %."""
    rows, cols = 37, 53
    a = RNG.normal(size=(cols, rows)).astype(np.float32)
    bias = RNG.normal(size=cols).astype(np.float32)
    expected = (a.T + bias).ravel()
    args = [arg("a", dt.float32, a.size), arg("bias", dt.float32, cols), arg("out", dt.float32, a.size, "out")]

    def body(i, j, flat):
        value = L.Op("add", (L.Load("a", j * rows + i, dt.float32), L.Load("bias", j, dt.float32)), dt.float32)
        return [L.Store("out", flat, value)]

    nested = L.Kernel("transpose2d", args, L.Loop(("x0", "x1"), (rows, cols), body(x0, x1, x0 * cols + x1)))
    flat = L.Kernel("transpose_flat", args, L.Loop(("x0",), (rows * cols,), body(x0 // cols, x0 % cols, x0)))
    for kernel in (nested, flat):
        out = np.empty(a.size, np.float32)
        run_arrays(codegen.compile_kernel(kernel), a.ravel(), bias, out)
        np.testing.assert_array_equal(out, expected)


def test_index_value_with_negative_offsets_uses_floor_semantics():
    """iota-like values from (x0 - 7) // 3 and (x0 - 7) % 3 follow Python's rounding toward -inf."""
    n = 20
    shifted = x0 + (-7)
    stores = [L.Store("quotient", x0, L.IndexValue(shifted // 3, dt.int64)),
              L.Store("modulo", x0, L.IndexValue(shifted % 3, dt.int32)),
              L.Store("iota", x0, L.IndexValue(2 * x0 + 1, dt.float32))]
    kernel = L.Kernel("iota", [arg("quotient", dt.int64, n, "out"), arg("modulo", dt.int32, n, "out"),
                               arg("iota", dt.float32, n, "out")], L.Loop(("x0",), (n,), stores))
    quotient, modulo, iota = np.empty(n, np.int64), np.empty(n, np.int32), np.empty(n, np.float32)
    run_arrays(codegen.compile_kernel(kernel), quotient, modulo, iota)
    assert quotient.tolist() == [(i - 7) // 3 for i in range(n)]
    assert modulo.tolist() == [(i - 7) % 3 for i in range(n)]
    assert iota.tolist() == [2 * i + 1 for i in range(n)]


def row_reduction(kind, in_dtype, out_dtype, rows, cols):
    """out[x0] = kind over r0 of in[x0, r0]."""
    reduce = L.Reduce("tmp0", kind, ("r0",), (cols,), L.Load("in_ptr0", x0 * cols + r0, in_dtype), out_dtype)
    return L.Kernel(f"reduce_{kind}", [arg("in_ptr0", in_dtype, rows * cols), arg("out_ptr0", out_dtype, rows, "out")],
                    L.Loop(("x0",), (rows,), [reduce, L.Store("out_ptr0", x0, L.Temp("tmp0", out_dtype))]))


@pytest.mark.parametrize("kind", ["max", "min"])
def test_masked_float_extremum_reductions_vectorize(kind):
    """max over where(mask, -inf, x), as in causal attention's softmax, stays a vector reduction."""
    rows, cols = 16, 64
    masked = L.Op("where", (L.Load("in_ptr1", x0 * cols + r0, dt.bool_), L.Constant(-math.inf, dt.float32),
                            L.Load("in_ptr0", x0 * cols + r0, dt.float32)), dt.float32)
    kernel = L.Kernel(f"masked_{kind}", [arg("in_ptr0", dt.float32, rows * cols), arg("in_ptr1", dt.bool_, rows * cols),
                                         arg("out_ptr0", dt.float32, rows, "out")],
                      L.Loop(("x0",), (rows,), [L.Reduce("tmp0", kind, ("r0",), (cols,), masked, dt.float32),
                                                L.Store("out_ptr0", x0, L.Temp("tmp0", dt.float32))]))
    compiled = codegen.compile_kernel(kernel)
    assert has_float_vectors(optimized_ir(compiled))
    data = RNG.standard_normal((rows, cols)).astype(np.float32)
    data[3, 5] = np.nan
    mask = RNG.random((rows, cols)) < 0.5
    out = np.empty(rows, np.float32)
    run_arrays(compiled, data.ravel(), mask.ravel(), out)
    expected = torch.where(torch.from_numpy(mask), -math.inf, torch.from_numpy(data))
    expected = expected.amax(1) if kind == "max" else expected.amin(1)
    np.testing.assert_array_equal(out, expected.numpy())


REDUCTIONS_TORCH = {
    "sum": lambda t: t.sum(1), "prod": lambda t: t.prod(1), "max": lambda t: t.amax(1),
    "min": lambda t: t.amin(1), "argmax": lambda t: t.argmax(1), "argmin": lambda t: t.argmin(1),
    "any": lambda t: t.any(1), "all": lambda t: t.all(1),
}


def reduction_input(dtype, rows, cols):
    rng = np.random.default_rng(rows * cols)  # the same data whatever ran before
    if dtype is dt.bool_:
        data = rng.random((rows, cols)) < 0.03
        data[0], data[1] = True, False
        return data
    if dtype.is_floating_point:
        data = rng.normal(size=(rows, cols)).round(1).astype(dtype.np)  # rounding makes ties common
        data[1, 5], data[2, 3], data[2, 9] = np.nan, np.inf, np.nan  # NaN wins, first NaN wins
        data[3] = 1.0  # all ties: first position wins
        data[4, :4] = [-np.inf, np.inf, np.inf, -np.inf]
        return data
    return rng.integers(-3, 4, (rows, cols)).astype(dtype.np)


REDUCTION_CASES = [(kind, dtype) for kind in REDUCTIONS_TORCH
                   for dtype in (dt.float32, dt.float64, dt.int32, dt.int64, dt.bool_)
                   if not (dtype is dt.bool_ and kind in ("sum", "prod", "argmax", "argmin"))]


@pytest.mark.parametrize("kind,dtype", REDUCTION_CASES)
def test_row_reductions_match_torch(kind, dtype):
    rows, cols = 9, 41
    data = reduction_input(dtype, rows, cols)
    expected = REDUCTIONS_TORCH[kind](torch.from_numpy(data.copy())).numpy()
    out_dtype = dt.from_numpy(expected.dtype)
    out = np.empty(rows, out_dtype.np)
    run_arrays(codegen.compile_kernel(row_reduction(kind, dtype, out_dtype, rows, cols)), data.ravel(), out)
    if dtype.is_floating_point and kind in ("sum", "prod"):  # other summation orders: absolute slack too
        np.testing.assert_allclose(out, expected, rtol=1e-5 if dtype is dt.float32 else 1e-12,
                                   atol=1e-5 if dtype is dt.float32 else 1e-12)
    else:
        np.testing.assert_array_equal(out, expected)


def test_long_float_sums_add_blocks_of_partial_sums():
    """2^20 + 5 uniform values (full blocks and a remainder): within 1e-6 of the float64 sum."""
    n = (1 << 20) + 5
    data = RNG.uniform(0, 1, n).astype(np.float32)
    kernel = codegen.compile_kernel(row_reduction("sum", dt.float32, dt.float32, 1, n))
    assert "partial" in kernel.llvm_ir
    out = np.empty(1, np.float32)
    run_arrays(kernel, data, out)
    np.testing.assert_allclose(out[0], data.astype(np.float64).sum(), rtol=1e-6)


def test_float16_sum_accumulates_in_float32():
    data = np.full((2, 5000), 0.1, np.float16)  # a half accumulator would stall at 256
    out = np.empty(2, np.float16)
    run_arrays(codegen.compile_kernel(row_reduction("sum", dt.float16, dt.float16, 2, 5000)), data.ravel(), out)
    np.testing.assert_allclose(out, torch.from_numpy(data).sum(1).numpy(), rtol=1e-3)


def test_argmax_over_two_reduction_variables_counts_flat_positions():
    rows, r_outer, r_inner = 5, 6, 7
    data = RNG.normal(size=(rows, r_outer * r_inner)).astype(np.float32)
    data[2, 30] = data[2, 11] = 10.0
    value = L.Load("in_ptr0", x0 * (r_outer * r_inner) + r0 * r_inner + r1, dt.float32)
    reduce = L.Reduce("tmp0", "argmax", ("r0", "r1"), (r_outer, r_inner), value, dt.int64)
    kernel = L.Kernel("argmax2", [arg("in_ptr0", dt.float32, data.size), arg("out_ptr0", dt.int64, rows, "out")],
                      L.Loop(("x0",), (rows,), [reduce, L.Store("out_ptr0", x0, L.Temp("tmp0", dt.int64))]))
    out = np.empty(rows, np.int64)
    run_arrays(codegen.compile_kernel(kernel), data.ravel(), out)
    np.testing.assert_array_equal(out, data.argmax(1))


def softmax_kernel(rows, cols):
    """The loop_ir docstring's example: max, sum of exp, then a normalizing inner loop."""
    load = L.Load("in_ptr0", x0 * cols + r0, dt.float32)
    shifted_exp = L.Op("exp", (L.Op("sub", (load, L.Temp("tmp0", dt.float32)), dt.float32),), dt.float32)
    n = rows * cols
    return L.Kernel("softmax_0", [arg("in_ptr0", dt.float32, n), arg("out_ptr0", dt.float32, n, "out")],
                    L.Loop(("x0",), (rows,), [
                        L.Reduce("tmp0", "max", ("r0",), (cols,), load, dt.float32),
                        L.Reduce("tmp1", "sum", ("r0",), (cols,), shifted_exp, dt.float32),
                        L.Loop(("r0",), (cols,), [L.Store("out_ptr0", x0 * cols + r0, L.Op(
                            "truediv", (shifted_exp, L.Temp("tmp1", dt.float32)), dt.float32))]),
                    ]))


def test_softmax_kernel_matches_torch():
    rows, cols = 64, 1000
    data = RNG.normal(0, 5, (rows, cols)).astype(np.float32)
    data[3, 7] = np.inf
    data[5, 2] = np.nan
    out = np.empty(data.size, np.float32)
    run_arrays(codegen.compile_kernel(softmax_kernel(rows, cols)), data.ravel(), out)
    np.testing.assert_allclose(out.reshape(rows, cols), torch.softmax(torch.from_numpy(data), 1).numpy(),
                               rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("kind", ["sum", "max"])
def test_float_reductions_vectorize(kind):
    kernel = codegen.compile_kernel(row_reduction(kind, dt.float32, dt.float32, 4, 4096))
    assert has_float_vectors(optimized_ir(kernel))


def test_kernel_without_loop_variables_runs_its_body_once():
    n = 1000
    data = RNG.normal(size=n).astype(np.float32)
    reduce = L.Reduce("tmp0", "sum", ("r0",), (n,), L.Load("in_ptr0", r0, dt.float32), dt.float32)
    kernel = L.Kernel("total", [arg("in_ptr0", dt.float32, n), arg("out_ptr0", dt.float32, 1, "out")],
                      L.Loop((), (), [reduce, L.Store("out_ptr0", L.Const(0), L.Temp("tmp0", dt.float32))]))
    out = np.empty(1, np.float32)
    run_arrays(codegen.compile_kernel(kernel), data, out)
    np.testing.assert_allclose(out[0], data.astype(np.float64).sum(), rtol=1e-5)


# ---- running: threads, caches ----------------------------------------------------------------


@pytest.mark.speed_wing
def test_threaded_run_matches_single_thread(monkeypatch):
    rows, cols = 512, 1100  # 563k iterations: above the threading threshold
    assert rows * cols >= parallel.PARALLEL_MIN_WORK
    data = RNG.normal(size=rows * cols).astype(np.float32)
    kernel = codegen.compile_kernel(softmax_kernel(rows, cols))
    outputs = []
    for threads in (1, 3, 8):
        monkeypatch.setattr(config, "threads", threads)
        out = np.full(data.size, np.nan, np.float32)
        run_arrays(kernel, data, out)
        outputs.append(out)
    assert len(workers._workers) >= 7  # the 8-thread run went through the workers
    np.testing.assert_array_equal(outputs[0], outputs[1])
    np.testing.assert_array_equal(outputs[0], outputs[2])


@pytest.mark.speed_wing
def test_memory_cache_returns_the_same_machine_code():
    first = codegen.compile_kernel(softmax_kernel(3, 17))
    second = codegen.compile_kernel(softmax_kernel(3, 17))
    assert second.source == "memory" and second._loaded is first._loaded
    assert "define void @softmax_0(ptr noalias %in_ptr0, ptr noalias %out_ptr0, i64 %start, i64 %end)" in first.llvm_ir


DISK_CACHE_SCRIPT = textwrap.dedent("""
    import sys, numpy as np
    from backend import config, loop_ir as L
    from minitorch2 import _dtype as dt
    config.kernel_cache_dir = sys.argv[1]
    from backend.codegen import llvm as codegen
    x0 = L.Var("x0")
    value = L.Op("tanh", (L.Load("in_ptr0", x0, dt.float32),), dt.float32)
    kernel = codegen.compile_kernel(L.Kernel("tanh_0", [
        L.KernelArg("in_ptr0", "x", dt.float32, 400, "in"), L.KernelArg("out_ptr0", "y", dt.float32, 400, "out")],
        L.Loop(("x0",), (400,), [L.Store("out_ptr0", x0, value)])))
    data = np.linspace(-3, 3, 400, dtype=np.float32)
    out = np.empty_like(data)
    kernel.run(data.ctypes.data, out.ctypes.data)
    print(kernel.source, float(out.sum()), float(out[7]))
""")


@pytest.mark.speed_wing
def test_disk_cache_round_trip_in_fresh_processes(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    runs = [subprocess.run([sys.executable, "-c", DISK_CACHE_SCRIPT, str(tmp_path)], env=env, cwd=root,
                           capture_output=True, text=True, check=True).stdout.split() for _ in range(2)]
    assert runs[0][0] == "compiled" and runs[1][0] == "disk"
    assert runs[0][1:] == runs[1][1:]
    assert len(list(tmp_path.rglob("*.o"))) == 1


@pytest.mark.speed_wing
def test_damaged_disk_cache_file_is_recompiled_not_loaded():
    kernel = pointwise("k_damaged_cache", "exp", [dt.float32], dt.float32, 33)
    path = kernel_cache.disk_cache_path(kernel_cache.cache_key(KernelEmitter(kernel).module_text()))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"\x7fELF truncated")  # LLVM would crash the process on this
    assert codegen.compile_kernel(kernel).source == "compiled"
    assert kernel_cache.read_disk_cache(kernel_cache.cache_key(KernelEmitter(kernel).module_text())) is not None


def test_run_arrays_checks_buffers():
    kernel = codegen.compile_kernel(pointwise("k_neg", "neg", [dt.float32], dt.float32, 10))
    with pytest.raises(ValueError, match="in_ptr0"):
        run_arrays(kernel, np.zeros(10, np.float64), np.zeros(10, np.float32))


# ---- against the numpy reference evaluator of the loop IR -------------------------------------


def chain_kernel(n):
    """A 10-op pointwise chain with a broadcast operand: the shape of a fused GELU/bias/residual."""
    x, bias = L.Load("in_ptr0", x0, dt.float32), L.Load("in_ptr1", x0 % 64, dt.float32)

    def op(name, *args):
        return L.Op(name, args, dt.float32)

    def constant(value):
        return L.Constant(value, dt.float32)

    h = op("add", x, bias)
    erf = op("erf", op("mul", h, constant(0.7071067811865476)))
    gelu = op("mul", op("mul", h, constant(0.5)), op("add", constant(1.0), erf))
    value = op("add", op("mul", op("tanh", gelu), op("sigmoid", x)), op("exp", op("neg", op("abs", x))))
    return L.Kernel("chain_0", [arg("in_ptr0", dt.float32, n), arg("in_ptr1", dt.float32, 64),
                                arg("out_ptr0", dt.float32, n, "out")],
                    L.Loop(("x0",), (n,), [L.Store("out_ptr0", x0, value)]))


REFERENCE_CASES = {
    "chain": lambda: (chain_kernel(4096), [RNG.normal(0, 3, 4096).astype(np.float32),
                                           RNG.normal(size=64).astype(np.float32)]),
    "softmax": lambda: (softmax_kernel(16, 300), [RNG.normal(0, 4, 16 * 300).astype(np.float32)]),
    "sum": lambda: (row_reduction("sum", dt.float32, dt.float32, 8, 100), [RNG.normal(size=800).astype(np.float32)]),
    "argmin": lambda: (row_reduction("argmin", dt.float32, dt.int64, 8, 100),
                       [RNG.normal(size=800).round(1).astype(np.float32)]),
    "max_int": lambda: (row_reduction("max", dt.int32, dt.int32, 8, 100),
                        [RNG.integers(-50, 50, 800).astype(np.int32)]),
}


@pytest.mark.parametrize("case", sorted(REFERENCE_CASES))
def test_matches_numpy_reference(case):
    numpy_ref = pytest.importorskip("backend.codegen.numpy_ref")
    kernel, inputs = REFERENCE_CASES[case]()
    outputs = {}
    for name, generator in (("llvm", codegen), ("numpy_ref", numpy_ref)):
        out = np.zeros(kernel.args[-1].numel, kernel.args[-1].dtype.np)
        generator.compile_kernel(kernel).run(*(a.ctypes.data for a in inputs), out.ctypes.data)
        outputs[name] = out
    np.testing.assert_allclose(outputs["llvm"], outputs["numpy_ref"], rtol=2e-6, atol=1e-7)


def test_dropping_a_compiled_kernel_leaves_the_others_working():
    """Each engine owns its target machine: disposing one must not pull the shared one away."""
    import gc
    kernel = pointwise("k_dropped", "neg", [dt.float32], dt.float32, 8)
    loaded = llvm_jit.LoadedObject(llvm_jit.compile_to_object(KernelEmitter(kernel).module_text()), kernel.name)
    del loaded
    gc.collect()
    np.testing.assert_array_equal(run_pointwise("abs", [np.array([-1.5, 2.0], np.float32)], dt.float32), [1.5, 2.0])


# ---- column reductions (llvm_columns.py): the loops swapped for strided reductions ------------


def column_reduction(kinds, rows, cols):
    """out_k[x0] = kind_k over r0 of in[r0, x0] (+ a pointwise store of their sum): one kernel."""
    value = L.Load("in_ptr0", r0 * cols + x0, dt.float32)
    body = [L.Reduce(f"tmp{k}", kind, ("r0",), (rows,), value, dt.float32) for k, kind in enumerate(kinds)]
    body += [L.Store(f"out_ptr{k}", x0, L.Temp(f"tmp{k}", dt.float32)) for k in range(len(kinds))]
    args = [arg("in_ptr0", dt.float32, rows * cols)] + [arg(f"out_ptr{k}", dt.float32, cols, "out")
                                                       for k in range(len(kinds))]
    return L.Kernel("columns", args, L.Loop(("x0",), (cols,), body))


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("rows,cols", [(7, 1), (33, 130), (300, 64), (20, 1100)])  # 1100: two blocks
def test_column_reductions_swap_loops_and_match_numpy(rows, cols, threads, monkeypatch):
    monkeypatch.setattr(config, "threads", threads)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_WORK", 1)
    kinds = ("sum", "max", "min", "prod")
    kernel = column_reduction(kinds, rows, cols)
    assert is_column_reduction(kernel) == (cols > 1)  # a one-column "column" is contiguous already
    data = RNG.uniform(0.5, 1.5, (rows, cols)).astype(np.float32)
    data[rows // 2, cols // 2] = np.nan  # max/min propagate NaN, as torch
    outs = [np.empty(cols, np.float32) for _ in kinds]
    run_arrays(codegen.compile_kernel(kernel), data.ravel(), *outs)
    with np.errstate(invalid="ignore"):
        expected = [data.astype(np.float64).sum(0), data.max(0), data.min(0), data.astype(np.float64).prod(0)]
    for out, want in zip(outs, expected):
        np.testing.assert_allclose(out, want.astype(np.float32), rtol=2e-5)


def test_row_reductions_keep_the_row_loop_and_long_column_sums_keep_blocks():
    assert not is_column_reduction(row_reduction("sum", dt.float32, dt.float32, 64, 64))
    assert not is_column_reduction(column_reduction(("sum",), 5000, 64))  # > 4096 rows: blocked row sums


@pytest.mark.parametrize("reduction_type", ["argmax", "argmin"])
def test_arg_reduction_over_no_variables_is_position_zero(reduction_type):
    kernel = L.Kernel("k", [L.KernelArg("in_ptr0", "a", dt.float32, 3, "in"),
                            L.KernelArg("out_ptr0", "b", dt.int64, 3, "out")],
                      L.Loop(("x0",), (3,), [L.Reduce("t0", reduction_type, (), (),
                                                      L.Load("in_ptr0", L.Var("x0"), dt.float32), dt.int64),
                                             L.Store("out_ptr0", L.Var("x0"), L.Temp("t0", dt.int64))]))
    out = np.full(3, 7, dtype=np.int64)
    run_arrays(codegen.compile_kernel(kernel), np.array([1.0, 2.0, 3.0], dtype=np.float32), out)
    np.testing.assert_array_equal(out, [0, 0, 0])


@pytest.mark.speed_wing  # (the inline math makes the body long; plain, exp and tanh are calls to libm)
def test_long_loop_bodies_ask_llvm_to_interleave_and_short_ones_do_not():
    def kernel(depth):
        value = L.Load("in_ptr0", x0, dt.float32)
        for _ in range(depth):
            value = L.Op("tanh", (L.Op("exp", (value,), dt.float32),), dt.float32)
        return L.Kernel(f"chain{depth}", [L.KernelArg("in_ptr0", "a", dt.float32, 64, "in"),
                                          L.KernelArg("out_ptr0", "b", dt.float32, 64, "out")],
                        L.Loop(("x0",), (64,), [L.Store("out_ptr0", x0, value)]))

    assert "llvm.loop.interleave.count" not in codegen.compile_kernel(kernel(0)).llvm_ir  # a copy
    assert "llvm.loop.interleave.count" in codegen.compile_kernel(kernel(2)).llvm_ir
