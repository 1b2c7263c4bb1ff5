"""Column reductions: emit `for x0: tmp = sum(r0: load(1024*r0 + x0))` with the loops swapped.

Speed wing, a special case of `codegen/llvm_emit.KernelEmitter.emit_loop`
(through `speed.column_reduction`; the plain path keeps the scheduler's loop order). A
reduction over the rows of a row-major array for each column (the weight and
bias gradients of layer_norm and linear, sums over a batch) is written by the
scheduler with the kept dimension outside: each output element walks memory
with a stride of a whole row, touching one float per cache line, which runs
at a few percent of memory bandwidth. This module emits the same kernel with
the outer range cut into blocks of columns (all of them when their
accumulators fit in L1) and, inside a block, the reduction loop outside and
the columns inside:

    for each block [lo, hi) of x0 (within the thread's [start, end)):
        acc[0:hi-lo] = identity                      (a stack array per Reduce)
        for r0 in range(R):
            for j in range(hi - lo):                 (contiguous: vectorized)
                acc[j] = combine(acc[j], value(x0=lo+j, r0))
        for j in range(hi - lo):
            tmp = acc[j]; the loop body's stores for x0 = lo+j

The result is the same sum in the same order per column, as the scheduler's
loop would compute it element by element.
"""
import functools

from minitorch2 import _dtype as dt

from .. import loop_ir as L
from ..codegen import llvm_ops
from ..codegen.llvm_builder import Value, const, register_type
from ..codegen.llvm_ops import combine

ACCUMULATOR_BYTES = 16384  # a block's accumulators stay in L1 (32 KiB here) next to the streamed rows
MIN_COLUMN_BLOCK = 64
LONGEST_SEQUENTIAL_SUM = 4096  # longer float sums keep the row-wise blocked summation (accuracy)


def affine_coefficient(index, var):
    """The coefficient of `var` in an affine index, or None when the index has // or %."""
    if isinstance(index, L.Var):
        return 1 if index.name == var else 0
    if isinstance(index, L.Const):
        return 0
    if isinstance(index, L.Add):
        parts = [affine_coefficient(term, var) for term in index.terms]
        return None if None in parts else sum(parts)
    if isinstance(index, L.Mul):
        inner = affine_coefficient(index.term, var)
        return None if inner is None else inner * index.factor
    return None


def value_nodes(expr):
    yield expr
    if isinstance(expr, L.Op):
        for arg in expr.args:
            yield from value_nodes(arg)


def is_column_reduction(kernel):
    """Does the kernel reduce, for each outer index, along a strided dimension with the outer index
    contiguous? Only plain sum/prod/max/min reductions whose values use no earlier temp qualify."""
    loop = kernel.loop
    if len(loop.vars) != 1 or any(arg.role == "inout" for arg in kernel.args):
        return False
    x = loop.vars[0]
    reduces = [s for s in loop.body if isinstance(s, L.Reduce)]
    stores = [s for s in loop.body if isinstance(s, L.Store)]
    if not reduces or len(reduces) + len(stores) != len(loop.body):
        return False
    if any(L.variables(store.index) - {x} for store in stores):
        return False
    strided = False
    for reduce in reduces:
        if reduce.reduction_type not in ("sum", "prod", "max", "min") or not reduce.rvars:
            return False
        nodes = list(value_nodes(reduce.value))
        if any(isinstance(node, L.Temp) for node in nodes):
            return False
        if _float_sum(reduce) and L.known(reduce.rranges[-1] > LONGEST_SEQUENTIAL_SUM):
            return False  # (a range over symbols that may be longer: decided at run time, emit_column_reduction)
        for load in (node for node in nodes if isinstance(node, L.Load)):
            along_x = affine_coefficient(load.index, x)
            along_r = affine_coefficient(load.index, reduce.rvars[-1])
            if along_x is None or along_r is None:
                return False
            strided |= along_x == 1 and L.known(abs(along_r) > 1)
    return strided


def column_block(columns, accumulator_sizes):
    """Columns per block: all of them when their accumulators fit in ACCUMULATOR_BYTES, so each row is
    read once, front to back (a block narrower than a row jumps a whole row per step, missing the TLB
    at every 4 KiB row); else as many as fit, at least MIN_COLUMN_BLOCK."""
    fitting = ACCUMULATOR_BYTES // sum(accumulator_sizes)
    return columns if L.known(columns <= fitting) else max(MIN_COLUMN_BLOCK, fitting)


def _float_sum(reduce):
    return reduce.reduction_type == "sum" and reduce.dtype.is_floating_point


def emit_column_reduction(emitter, kernel):
    """Write kernel (is_column_reduction) into emitter.b, the outer range being [%start, %end). Where a float sum's
    range is over symbols, the kernel holds the scheduler's loops too and takes them when the range is longer than
    LONGEST_SEQUENTIAL_SUM (accuracy: their sums are blocked), the swapped loops otherwise."""
    b = emitter.b
    lengths = [reduce.rranges[-1] for reduce in kernel.loop.body if isinstance(reduce, L.Reduce) and _float_sum(reduce)
               and L.is_size_expr(reduce.rranges[-1])]
    if not lengths:
        return _emit_swapped(emitter, kernel)
    fits = [b.icmp("sle", Value(emitter.size_ref(n), dt.int64), const(LONGEST_SEQUENTIAL_SUM, dt.int64))
            for n in lengths]
    swapped, rows, done = (b.new_label(name) for name in ("swapped", "rows", "done"))
    b.do(f"br i1 {functools.reduce(lambda x, y: b.binop('and', x, y), fits).ref}, label %{swapped}, label %{rows}")
    b.start_block(rows)
    emitter.emit_loop(kernel.loop, {}, outermost=True)
    b.do(f"br label %{done}")
    b.start_block(swapped)
    _emit_swapped(emitter, kernel)
    b.do(f"br label %{done}")
    b.start_block(done)


def _emit_swapped(emitter, kernel):
    b, loop = emitter.b, kernel.loop
    x = loop.vars[0]
    reduces = [s for s in loop.body if isinstance(s, L.Reduce)]
    stores = [s for s in loop.body if isinstance(s, L.Store)]
    block_size = column_block(loop.ranges[0], [reduce.accumulator_dtype().itemsize for reduce in reduces])
    accumulators = {}
    for reduce in reduces:
        ty = register_type(reduce.accumulator_dtype())
        accumulators[reduce.temp] = (b.alloca(f"{reduce.temp}.columns", f"[{block_size} x {ty}]"), ty)
    count = b.op("columns", "sub nsw i64 %end, %start")
    rounded = b.op("columns", f"add nsw i64 {count}, {block_size - 1}")
    blocks = b.op("blocks", f"sdiv i64 {rounded}, {block_size}")

    def slot(temp, j):
        array, ty = accumulators[temp]
        return b.op(f"{temp}.slot", f"getelementptr inbounds [{block_size} x {ty}], ptr {array}, i64 0, i64 {j}")

    def block(index):
        offset = b.op("block.offset", f"mul nsw i64 {index}, {block_size}")
        low = b.op("block.low", f"add nsw i64 %start, {offset}")
        high = b.op("block.high", f"add nsw i64 {low}, {block_size}")
        past_end = b.op("block.past_end", f"icmp sgt i64 {high}, %end")
        high = b.op("block.high", f"select i1 {past_end}, i64 %end, i64 {high}")
        width = b.op("block.width", f"sub nsw i64 {high}, {low}")

        def column(j):
            return b.op(x, f"add nsw i64 {low}, {j}")

        for reduce in reduces:
            value_dtype = reduce.accumulator_dtype()
            identity = const(L.reduction_identity(reduce.reduction_type, value_dtype), value_dtype).ref
            _, ty = accumulators[reduce.temp]
            b.counted_loop("j", "0", width, lambda j: b.do(f"store {ty} {identity}, ptr {slot(reduce.temp, j)}"))

            def accumulate(env, j, reduce=reduce, value_dtype=value_dtype, ty=ty):
                env = {**env, x: column(j)}
                value = llvm_ops.cast(b, emitter.emit_value(reduce.value, env, {}), value_dtype)
                pointer = slot(reduce.temp, j)
                old = Value(b.op(f"{reduce.temp}.old", f"load {ty}, ptr {pointer}"), value_dtype)
                new = combine(b, reduce.reduction_type, old, value, hint=f"{reduce.temp}.new")
                b.do(f"store {ty} {new.ref}, ptr {pointer}")

            def nest(level, env, reduce=reduce, accumulate=accumulate):
                var, extent = reduce.rvars[level], reduce.rranges[level]
                if level + 1 < len(reduce.rvars):
                    inner = lambda i: nest(level + 1, {**env, var: i})  # noqa: E731
                else:
                    inner = lambda i: b.counted_loop("j", "0", width,  # noqa: E731
                                                     lambda j: accumulate({**env, var: i}, j))
                b.counted_loop(var, "0", emitter.size_ref(extent), inner, keep_rolled=True)

            nest(0, {})

        def finish(j):
            for reduce in reduces:
                _, ty = accumulators[reduce.temp]
                result = Value(b.op(reduce.temp, f"load {ty}, ptr {slot(reduce.temp, j)}"),
                               reduce.accumulator_dtype())
                emitter.temps[reduce.temp] = llvm_ops.cast(b, result, reduce.dtype)
            env = {x: column(j)}
            for store in stores:
                emitter.emit_store(store, env)

        b.counted_loop("j", "0", width, finish)

    b.counted_loop("block", "0", blocks, block, keep_rolled=True)

