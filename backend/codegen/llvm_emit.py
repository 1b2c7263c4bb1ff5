"""Loop IR -> LLVM IR text: one LLVM function per `loop_ir.Kernel`.

Codegen layer, between the scheduler's `Kernel`s and `llvm.py` (which compiles and runs the text written
here). Value ops come from `llvm_ops.py`; this module writes the structure around them: loops, index
arithmetic, loads, stores and reductions.

The one idea to hold: the function for kernel `k` is

    void k(ptr noalias in_ptr0, ..., ptr noalias out_ptr0, i64 start, i64 end)

and runs the outermost loop variable `loop.vars[0]` over [start, end) only (then one pointer per error flag it
can raise: `zero_division`, `index_out_of_range`). Every loop is a plain counted loop over an i64 induction
variable and every element address is `getelementptr` from the flat index, the shape LLVM's loop vectorizer
recognizes; reductions accumulate in a stack slot that LLVM promotes to a register, and float sums carry
`reassoc` so that they may be reordered into vector lanes (over long ranges, in blocks of partial sums, as
accurate as torch's cascade summation); not `nsz`, with which LLVM factors sum(x * c) into sum(x) * c and
loses the NaN of 0 * inf or of inf - inf. Index arithmetic is `nsw` i64; `//` and `%` are unsigned division where
the operand is provably non-negative, Python's floor semantics otherwise. A store with mode "add" loads, adds and
stores back (a scatter-add; such kernels are serial, so this is race-free).
"""
import operator
import re

import sympy

from minitorch2 import _dtype as dt
from minitorch2.fx.experimental.symbolic_shapes import python_step

from .. import loop_ir as L
from .. import speed
from . import llvm_bfloat16, llvm_ops, numpy_ref
from .llvm_builder import (INDEX_OUT_OF_RANGE, ZERO_DIVISION, FunctionBuilder, Value, const, is_unsigned, memory_type,
                           register_type)
from .llvm_ops import combine

INDEX = dt.int64
# Inner loops up to this trip count may be fully unrolled (and their parent loop vectorized across them);
# longer ones stay loops, vectorized on their own (unrolling a bool `any` over 16 took 1 s to compile).
MAX_UNROLLED_TRIPS = 4
SUM_BLOCK = 4096  # float sums over longer ranges add up blocks of this many elements (emit_blocked_sum)
# i64 arithmetic on sizes over symbols (dynamic shapes), which never overflows; `//` and `%` round as Python's
SIZE_OPCODES = {operator.add: "add nsw", operator.sub: "sub nsw", operator.mul: "mul nsw"}


def kernel_error(kernel, raised_flags, addresses):
    """The exception for a run of `kernel` that set `raised_flags`, as eager would raise it."""
    return numpy_ref.flagged_error(kernel, ZERO_DIVISION in raised_flags, addresses)


class KernelEmitter:
    def __init__(self, kernel):
        self.kernel = kernel
        self.args = {arg.name: arg for arg in kernel.args}
        self.b = FunctionBuilder()
        self.temps = {}  # Reduce temp name -> Value, valid after its Reduce in program order
        self.size_refs = {}  # a size over symbols -> its i64 value, computed once in the entry block

    def module_text(self):
        kernel = self.kernel
        self.b.reserve([arg.name for arg in kernel.args] + list(kernel.sizes) + ["start", "end", "entry"])
        self.b.reserve([ZERO_DIVISION, INDEX_OUT_OF_RANGE])
        # (after module_text, self.b.flags lists the error-flag parameters the function takes)
        emit_columns = speed.column_reduction(kernel)  # fast: a column reduction's loops swapped, else None
        if emit_columns is not None:
            emit_columns(self)
        else:
            self.emit_loop(kernel.loop, {}, outermost=True)
        self.b.do("ret void")
        # one i64 parameter per size symbol, named as the symbol (s0), not ks0 as torch's: torch's kernels take size
        # expressions its wrapper computes (ks0 = s0*s1); ours take only symbols and compute expressions here
        # (size_ref), so one name reads the same in the wrapper (`s0 = arg0_1`) and in the kernel
        params = [f"ptr noalias %{arg.name}" for arg in kernel.args] + [f"i64 %{s}" for s in kernel.sizes]
        params += ["i64 %start", "i64 %end"]
        params += [f"ptr noalias %{flag}" for flag in self.b.flags]  # only kernels that can fail
        header = [f"; {line}" for line in str(kernel).splitlines()]
        symbol = kernel.name if re.fullmatch(r"[A-Za-z_][\w.]*", kernel.name) else f'"{kernel.name}"'
        signature = f"define void @{symbol}({', '.join(params)}) #0"
        parts = ["\n".join(header), "\n".join(sorted(self.b.declarations.values())), *self.b.helpers.values(),
                 self.b.function_text(signature), "attributes #0 = { nounwind }", "\n".join(self.b.metadata)]
        return "\n\n".join(part for part in parts if part) + "\n"

    # ---- statements ----

    def emit_loop(self, loop, env, outermost=False):
        variables, ranges = list(loop.vars), list(loop.ranges)
        if outermost and not variables:  # a kernel with no loop still runs its body once
            variables, ranges = ["x_once"], [1]

        def nest(level, env):
            if level == len(variables):
                for statement in loop.body:
                    self.emit_statement(statement, env)
                return
            start, end = ("%start", "%end") if outermost and level == 0 else ("0", self.size_ref(ranges[level]))
            self.b.counted_loop(variables[level], start, end,
                                lambda induction: nest(level + 1, {**env, variables[level]: induction}),
                                keep_rolled=not (outermost and level == 0) and not L.known(
                                    ranges[level] <= MAX_UNROLLED_TRIPS),
                                interleave_long_body=level == len(variables) - 1)

        nest(0, env)

    def emit_statement(self, statement, env):
        if isinstance(statement, L.Store):
            self.emit_store(statement, env)
        elif isinstance(statement, L.Reduce):
            self.emit_reduce(statement, env)
        elif isinstance(statement, L.Loop):
            self.emit_loop(statement, env)
        else:
            raise TypeError(f"unknown loop IR statement {statement!r}")

    def emit_store(self, store, env):
        arg = self.args[store.buffer]
        value = llvm_ops.cast(self.b, self.emit_value(store.value, env, {}), arg.dtype)
        pointer = self.element_pointer(arg, self.emit_index(store.index, env), "out")
        if store.mode == "add":
            value = llvm_ops.BINARY["add"](self.b, self.load_element(arg, pointer, store.buffer), value)
        if arg.dtype is dt.bool_:
            value = self.b.convert("zext", value, dt.uint8, hint="byte")
        value = llvm_bfloat16.as_stored(self.b, value, arg.dtype)
        self.b.do(f"store {memory_type(arg.dtype)} {value.ref}, ptr {pointer}")

    # ---- reductions ----

    def emit_reduce(self, reduce, env):
        b, kind = self.b, reduce.reduction_type
        self.b.comment(f"{reduce.temp} = {kind} over {', '.join(reduce.rvars)}")
        is_arg = kind in ("argmax", "argmin")
        value_dtype = reduce.accumulator_dtype()
        acc = self.new_accumulator(f"{reduce.temp}.acc", kind, value_dtype)
        # (a position starts at 0, the identity of a sum)
        position_acc = self.new_accumulator(f"{reduce.temp}.position", "sum", INDEX) if is_arg else None

        def accumulate(env, into):
            value = self.emit_value(reduce.value, env, {})
            if kind in ("any", "all"):
                value = llvm_ops.truthy(b, value)
            value = llvm_ops.cast(b, value, value_dtype)
            old = Value(b.op(f"{reduce.temp}.old", f"load {value.ty}, ptr {into}"), value_dtype)
            if is_arg:
                old_position = b.op(f"{reduce.temp}.old_position", f"load i64, ptr {position_acc}")
                better = arg_better(b, kind, value, old)
                new = b.select(better, value, old, hint=f"{reduce.temp}.new")
                position = b.select(better, Value(self.flat_position(reduce, env), INDEX),
                                    Value(old_position, INDEX), hint=f"{reduce.temp}.new_position")
                b.do(f"store i64 {position.ref}, ptr {position_acc}")
            else:
                new = combine(b, kind, old, value, hint=f"{reduce.temp}.new")
            b.do(f"store {new.ty} {new.ref}, ptr {into}")

        def nest(level, env):
            var, extent = reduce.rvars[level], reduce.rranges[level]
            if level == len(reduce.rvars) - 1 and kind == "sum" and value_dtype.is_floating_point \
                    and not L.known(extent <= SUM_BLOCK):  # (a range over symbols may be long)
                self.emit_blocked_sum(reduce, var, extent, env, acc, accumulate)
                return
            inner = (lambda i: nest(level + 1, {**env, var: i})) if level + 1 < len(reduce.rvars) \
                else (lambda i: accumulate({**env, var: i}, acc))
            b.counted_loop(var, "0", self.size_ref(extent), inner,
                           keep_rolled=not L.known(extent <= MAX_UNROLLED_TRIPS))

        if reduce.rvars:
            nest(0, env)
        else:
            accumulate(env, acc)
        slot, dtype = (position_acc, INDEX) if is_arg else (acc, value_dtype)
        result = Value(b.op(reduce.temp, f"load {register_type(dtype)}, ptr {slot}"), dtype)
        self.temps[reduce.temp] = llvm_bfloat16.as_reduced(b, llvm_ops.cast(b, result, reduce.dtype))

    def new_accumulator(self, hint, kind, dtype):
        slot = self.b.alloca(hint, register_type(dtype))
        self.b.do(f"store {register_type(dtype)} {const(L.reduction_identity(kind, dtype), dtype).ref}, ptr {slot}")
        return slot

    def emit_blocked_sum(self, reduce, var, extent, env, total, accumulate):
        """Sum SUM_BLOCK elements at a time into a fresh partial sum, then add the partials.

        A vectorized float sum keeps 8-32 running sums; over millions of elements each still grows large enough
        to swallow low bits. Blocking bounds that growth: long float32 sums stay within torch's cascade sums."""
        b = self.b
        value_dtype = reduce.accumulator_dtype()

        def partial_sum(start, end):
            partial = self.new_accumulator(f"{reduce.temp}.partial", "sum", value_dtype)
            b.counted_loop(var, start, end, lambda i: accumulate({**env, var: i}, partial), keep_rolled=True)
            loaded = [Value(b.op(f"{reduce.temp}.part", f"load {register_type(value_dtype)}, ptr {slot}"), value_dtype)
                      for slot in (total, partial)]
            new = combine(b, "sum", *loaded, hint=f"{reduce.temp}.new")
            b.do(f"store {new.ty} {new.ref}, ptr {total}")

        def block(index):
            start = b.op(f"{var}.start", f"mul nuw nsw i64 {index}, {SUM_BLOCK}")
            partial_sum(start, b.op(f"{var}.end", f"add nuw nsw i64 {start}, {SUM_BLOCK}"))

        full_blocks = L.floordiv(extent, SUM_BLOCK)
        b.counted_loop(f"{var}.block", "0", self.size_ref(full_blocks), block, keep_rolled=True)
        if L.is_size_expr(extent) or extent % SUM_BLOCK:  # (over symbols: a loop that may run no iteration)
            partial_sum(self.size_ref(full_blocks * SUM_BLOCK), self.size_ref(extent))

    def flat_position(self, reduce, env):
        if not reduce.rvars:
            return "0"  # a reduction over no variables has one element, at position 0
        position = env[reduce.rvars[0]]
        for var, extent in zip(reduce.rvars[1:], reduce.rranges[1:]):
            scaled = self.b.op("pos", f"mul nuw nsw i64 {position}, {self.size_ref(extent)}")
            position = self.b.op("pos", f"add nuw nsw i64 {scaled}, {env[var]}")
        return position

    # ---- values ----

    def emit_value(self, expr, env, memo):
        if id(expr) not in memo:
            memo[id(expr)] = self.compute_value(expr, env, memo)
        return memo[id(expr)]

    def compute_value(self, expr, env, memo):
        b = self.b
        if isinstance(expr, L.Load):
            arg = self.args[expr.buffer]
            return self.load_element(arg, self.element_pointer(arg, self.emit_index(expr.index, env), expr.buffer),
                                     expr.buffer)
        if isinstance(expr, L.Constant) and L.is_size_expr(expr.value):  # a size as a value (mean's count)
            return llvm_ops.cast(b, Value(self.size_ref(expr.value), INDEX), expr.dtype)
        if isinstance(expr, L.Constant):
            return const(expr.value, expr.dtype)
        if isinstance(expr, L.IndexValue):
            return llvm_ops.cast(b, Value(self.emit_index(expr.index, env), INDEX), expr.dtype)
        if isinstance(expr, L.Temp):
            return self.temps[expr.name]
        if isinstance(expr, L.Op):
            args = [self.emit_value(arg, env, memo) for arg in expr.args]
            return llvm_ops.cast(b, self.apply_op(expr, args), expr.dtype)
        raise TypeError(f"unknown loop IR value {expr!r}")

    def apply_op(self, op, args):
        b = self.b
        if op.name == "to_dtype":
            return llvm_ops.cast(b, llvm_bfloat16.converted_again(b, op, args[0]), op.dtype)
        if op.name == "where":
            condition, x, y = args
            return llvm_ops.where(b, condition, llvm_ops.cast(b, x, op.dtype), llvm_ops.cast(b, y, op.dtype))
        if op.name in llvm_ops.UNARY:
            (x,) = args
            inline = speed.inline_math(op.name, x.dtype)  # fast: float32 exp, tanh... as vectorizable code
            return (inline or llvm_ops.UNARY[op.name])(b, x)
        if op.name in llvm_ops.BINARY:
            common = L.common_dtype(args[0].dtype, args[1].dtype)
            x, y = (llvm_ops.cast(b, arg, common) for arg in args)
            return llvm_ops.BINARY[op.name](b, x, y)
        raise NotImplementedError(f"LLVM codegen has no handler for op {op.name!r}")

    # ---- addresses and index arithmetic ----

    def load_element(self, arg, pointer, hint):
        loaded = Value(self.b.op(f"{hint}.load", f"load {memory_type(arg.dtype)}, ptr {pointer}"),
                       dt.uint8 if arg.dtype is dt.bool_ else arg.dtype)
        loaded = llvm_bfloat16.as_loaded(self.b, loaded, arg.dtype)
        return llvm_ops.cast(self.b, loaded, dt.bool_) if arg.dtype is dt.bool_ else loaded

    def element_pointer(self, arg, index, hint):
        element = memory_type(arg.dtype)
        return self.b.op(f"{hint}.addr", f"getelementptr inbounds {element}, ptr %{arg.name}, i64 {index}")

    def emit_index(self, index, env):
        b = self.b
        if isinstance(index, L.Var):
            return env[index.name]
        if isinstance(index, L.Const):
            return self.size_ref(index.value)
        if isinstance(index, L.Add):
            total = self.emit_index(index.terms[0], env)
            for term in index.terms[1:]:
                total = b.op("idx", f"add nsw i64 {total}, {self.emit_index(term, env)}")
            return total
        if isinstance(index, L.Mul):
            return b.op("idx", f"mul nsw i64 {self.emit_index(index.term, env)}, {self.size_ref(index.factor)}")
        if isinstance(index, (L.FloorDiv, L.Mod)):
            term, divisor = self.emit_index(index.term, env), self.size_ref(index.divisor)
            if L.is_nonnegative(index.term) and L.known(index.divisor > 0):
                opcode = "udiv" if isinstance(index, L.FloorDiv) else "urem"
                return b.op("idx", f"{opcode} i64 {term}, {divisor}")
            operation = llvm_ops.floordiv if isinstance(index, L.FloorDiv) else llvm_ops.remainder
            return operation(b, Value(term, INDEX), Value(divisor, INDEX)).ref
        if isinstance(index, L.Indirect):
            return self.emit_indirect(index, env)
        raise TypeError(f"unknown index expression {index!r}")

    def size_ref(self, value):
        """An i64 operand for a size: a literal, or computed from the size parameters once, in the entry block."""
        L.check_integer(value)
        if not L.is_size_expr(value):
            return str(int(value))
        if value.is_Symbol:
            return f"%{value.name}"
        if value not in self.size_refs:
            operation, operands = python_step(value)
            if operation is operator.pow and operands[1].is_Integer and operands[1] > 1:  # s0**2: s0 * s0**1
                operation, operands = operator.mul, [operands[0], operands[0] ** (operands[1] - 1)]
            refs = [self.size_ref(sympy.sympify(o)) for o in operands]
            (a, b), entry = refs, self.b.entry_op
            if operation in (operator.floordiv, operator.mod):  # rounded as Python's (an int input may be negative):
                c_rem = entry("rem", f"srem i64 {a}, {b}")  # (C's: the dividend's sign; Python's: the divisor's)
                rem = entry("mod", f"srem i64 {entry('shifted', f'add i64 {c_rem}, {b}')}, {b}")
                exact = entry("exact", f"sub i64 {a}, {rem}")
                self.size_refs[value] = rem if operation is operator.mod else entry("div", f"sdiv i64 {exact}, {b}")
            elif operation not in SIZE_OPCODES:
                raise NotImplementedError(f"backend: the size {value} over symbolic sizes in LLVM code")
            else:
                self.size_refs[value] = entry("size", f"{SIZE_OPCODES[operation]} i64 {a}, {b}")
        return self.size_refs[value]

    def emit_indirect(self, index, env):
        """The checked position an Indirect reads: in [0, size), else 0 with the error flag set."""
        b = self.b
        raw = llvm_ops.cast(b, self.emit_value(index.value, env, {}), INDEX)
        size = Value(self.size_ref(index.size), INDEX)
        if index.wrap_negative:
            negative = b.icmp("slt", raw, const(0, INDEX), hint="negative")
            raw = b.select(negative, b.binop("add", raw, size, hint="wrapped"), raw, hint="indirect")
        out_of_range = b.icmp("uge", raw, size, hint="out_of_range")  # unsigned: negatives are huge
        b.flag_if(out_of_range, INDEX_OUT_OF_RANGE)
        return b.select(out_of_range, const(0, INDEX), raw, hint="indirect").ref


def arg_better(b, kind, value, best):
    """Does `value` replace `best`? Strictly better, so the first occurrence wins; NaN beats any number."""
    predicate = "gt" if kind == "argmax" else "lt"
    if value.dtype.is_floating_point:
        strictly = b.fcmp("o" + predicate, value, best)
        nan_first = b.binop("and", b.fcmp("uno", value, value), b.fcmp("ord", best, best))
        return b.binop("or", strictly, nan_first, hint="better")
    prefix = "u" if is_unsigned(value.dtype) else "s"
    return b.icmp(prefix + predicate, value, best, hint="better")
