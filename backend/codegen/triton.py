"""Loop IR -> Triton kernels (plays torch._inductor.codegen.triton), run on a GPU or in Triton's interpreter.

Codegen layer, beside `llvm.py`, with the same interface (codegen/__init__.py); `.triton_source` is the
generated module. Value ops come from `triton_ops.py`; this module writes the structure around them.

The one idea to hold: a Triton program works on a block of iterations at once. The outer loop variables are
flattened into one `xindex` (a block of XBLOCK iterations; the grid has one program per block) and recovered
with // and %. A `Reduce` or an inner `Loop` walks its own flattened range in RBLOCK-wide chunks, so inside it
every value is an [XBLOCK, RBLOCK] tile:

    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]      # [XBLOCK, 1]
    x0 = xindex
    _tmp0 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)       # one running sum per lane
    for roffset in range(0, 1024, RBLOCK):
        rindex = roffset + rbase                           # [1, RBLOCK]
        r0 = rindex
        v0 = tl.load(in_ptr0 + (1024*x0 + r0), xmask & rmask, other=0)
        _tmp0 = tl.where(xmask & rmask, _tmp0 + v0, _tmp0)
    tmp0 = tl.reduce(_tmp0, 1, helpers.add)[:, None]       # the Reduce's temp, [XBLOCK, 1]

Masks keep the ragged last block out of memory. An indirect index out of range reads index 0 and sets a flag
in a small `error_flags` buffer, which `run` turns into eager's error (as `llvm.py` does). A scatter-add is
`tl.atomic_add`; a `serial` kernel runs as one program that walks its blocks in order (one element at a time
where only order can make duplicate writes come out right).

Dynamic shapes: a kernel over size symbols takes them as plain int parameters (`s0`, not tl.constexpr, so one
compiled kernel serves every size) and each other size expression it uses as one more (`ks0 = s0 - 1`, as
Inductor's), computed on the host; `run` takes the extents, the grid and the block sizes from each run's sizes.

Running: without a GPU, Triton's interpreter (`TRITON_INTERPRET=1`) runs the kernel over the buffers' own memory,
wrapped zero-copy as torch tensors (the carrier Triton's launcher accepts); with one, buffers are copied over and back.
"""
import importlib.util
import math
import os
import re
import tempfile
from dataclasses import dataclass, replace

import numpy as np

from minitorch2 import _dtype as dt

from .. import loop_ir as L
from .. import speed
from . import CompiledKernel, numpy_ref


def _torch():
    import torch  # Triton's launcher takes torch tensors; the rest of the library never imports torch

    return torch


# Without a GPU, Triton's interpreter. Triton reads TRITON_INTERPRET when its kernels are decorated: decide first.
if "TRITON_INTERPRET" not in os.environ and not _torch().cuda.is_available():
    os.environ["TRITON_INTERPRET"] = "1"

import triton  # noqa: E402  (after the interpreter decision above)

from . import triton_ops as ops  # noqa: E402
from .triton_ops import Term  # noqa: E402

INTERPRETED = bool(triton.knobs.runtime.interpret)
INDEX_OUT_OF_RANGE, ZERO_DIVISION = 0, 1  # positions in the error_flags buffer
ATOMIC_ADD_DTYPES = (dt.float16, dt.float32, dt.float64, dt.int32, dt.int64)
WIDE_INDEX_FROM = 2 ** 31  # kernels touching this many elements do their index arithmetic in int64
# Elements per block: the interpreter pays per block for every statement, so it wants big blocks; a GPU
# wants blocks that fit its registers.
MAX_BLOCK_ELEMENTS = 1 << 16 if INTERPRETED else 2048
MAX_RBLOCK = 2048 if INTERPRETED else 1024


# ---- emitting Triton source ---------------------------------------------------------------


@dataclass
class Scope:
    """Where statements are being written: the outer body or an RBLOCK chunk loop inside it."""
    indent: str
    mask: str  # the mask of the iterations this block really runs
    shape: str  # the shape of a full block here
    axes: frozenset  # which of the flattened ranges ("x", "r") vary across the block
    memo: dict  # loop-IR value -> Term already computed in this scope
    parent: object = None


class TritonEmitter:
    """One loop_ir.Kernel -> the text of a Python module holding its @triton.jit function."""

    def __init__(self, kernel):
        self.kernel = kernel
        self.args = {arg.name: arg for arg in kernel.args}
        self.function_name = re.sub(r"\W", "_", kernel.name) if re.match(r"[A-Za-z_]", kernel.name) \
            else "kernel_" + re.sub(r"\W", "_", kernel.name)
        body = kernel.loop.body
        check_structure(kernel)
        self.two_d = any(isinstance(s, (L.Loop, L.Reduce)) for s in body)
        self.rnumels = [math.prod(s.ranges if isinstance(s, L.Loop) else s.rranges)
                        for s in body if isinstance(s, (L.Loop, L.Reduce))] or [1]
        self.xnumel = math.prod(kernel.loop.ranges)
        # over symbolic sizes the extents are unknown here: index in int64
        wide = kernel.sizes or max([self.xnumel, *self.rnumels] + [arg.numel for arg in kernel.args]) >= WIDE_INDEX_FROM
        self.index_dtype = dt.int64 if wide else dt.int32
        self.size_params = {}  # a size expression over symbols -> the parameter (ks0, ...) the host computes it into
        self.loaded = {load.buffer for load in L.statement_loads(kernel.loop)}
        self.ordered = kernel.serial and any(needs_order(s, self.args) for s in L.statements(kernel.loop))
        self.axis_of = {var: "x" for var in kernel.loop.vars}
        self.temps, self.flags, self.lines, self.counter = {}, set(), [], 0

    # ---- the module ----

    def module_text(self):
        self.emit_body()
        params = [arg.name for arg in self.kernel.args] + (["error_flags"] if self.flags else [])
        params += list(self.kernel.sizes) + list(self.size_params.values())
        params += ["xnumel", "XBLOCK: tl.constexpr"] + (["RBLOCK: tl.constexpr"] if self.two_d else [])
        header = [f"# Generated by backend.codegen.triton from loop IR kernel {self.kernel.name}:"]
        header += ["#   " + line for line in str(self.kernel).splitlines()]
        header += ["import triton", "import triton.language as tl", "",
                   "from backend.codegen import triton_ops as helpers",
                   "from backend.codegen.triton_ops import libdevice", "", "",
                   "@triton.jit", f"def {self.function_name}({', '.join(params)}):"]
        return "\n".join(header + self.lines) + "\n"

    def emit_body(self):
        outer = Scope("    ", "xmask", "[XBLOCK, 1]" if self.two_d else "[XBLOCK]", frozenset("x"), {})
        wide = self.index_dtype is dt.int64
        if self.kernel.serial:  # one program walks the blocks in order
            self.line(outer, "for xoffset in range(0, xnumel, XBLOCK):")
            outer.indent += "    "
        else:
            self.line(outer, f"xoffset = tl.program_id(0){'.to(tl.int64)' if wide else ''} * XBLOCK")
        arange = "tl.arange(0, XBLOCK)" + (".to(tl.int64)" if wide else "") + ("[:, None]" if self.two_d else "")
        self.line(outer, f"xindex = xoffset + {arange}")
        self.line(outer, "xmask = xindex < xnumel")
        self.split_flat_index(outer, "xindex", self.kernel.loop.vars, self.kernel.loop.ranges)
        if self.two_d:
            self.line(outer, f"rbase = tl.arange(0, RBLOCK){'.to(tl.int64)' if wide else ''}[None, :]")
        for statement in self.kernel.loop.body:
            self.statement(statement, outer)

    def split_flat_index(self, scope, flat, variables, ranges):
        """var_i = (flat // (product of the later ranges)) % range_i; vars[-1] varies fastest."""
        for position, (var, n) in enumerate(zip(variables, ranges)):
            stride = math.prod(ranges[position + 1:])
            text = flat if stride == 1 else f"{flat} // {self.size_text(stride)}"
            if n == 1:
                text = f"{flat} * 0"
            elif position > 0:
                text = f"({text}) % {self.size_text(n)}" if stride != 1 else f"{text} % {self.size_text(n)}"
            self.line(scope, f"{var} = {text}")

    def size_text(self, value):
        """A size in the kernel's source: an int, a symbol's parameter, or a parameter the host computes (ks0)."""
        L.check_integer(value)
        if not L.is_size_expr(value):
            return str(int(value))
        if value.is_Symbol:
            return value.name
        return self.size_params.setdefault(value, f"ks{len(self.size_params)}")

    def line(self, scope, text):
        self.lines.append(scope.indent + text)

    def assign(self, scope, term, hint="v"):
        name = f"{hint}{self.counter}"
        self.counter += 1
        self.line(scope, f"{name} = {term.text}")
        return Term(name, term.dtype)

    # ---- statements ----

    def statement(self, statement, scope):
        if isinstance(statement, L.Store):
            self.store(statement, scope)
        elif isinstance(statement, L.Reduce):
            self.reduce(statement, scope)
        elif isinstance(statement, L.Loop):
            self.chunked_loop(scope, statement.vars, statement.ranges,
                              lambda inner: [self.statement(s, inner) for s in statement.body])
        else:
            raise TypeError(f"unknown loop IR statement {statement!r}")

    def chunked_loop(self, scope, variables, ranges, emit_body):
        """for roffset in range(0, rnumel, RBLOCK): the flattened `variables`, RBLOCK at a time."""
        rnumel = self.size_text(math.prod(ranges))
        self.line(scope, f"for roffset in range(0, {rnumel}, RBLOCK):")
        inner = Scope(scope.indent + "    ", "xmask & rmask", "[XBLOCK, RBLOCK]", frozenset("xr"), dict(scope.memo),
                      scope)
        self.line(inner, "rindex = roffset + rbase")
        self.line(inner, f"rmask = rindex < {rnumel}")
        for var in variables:
            self.axis_of[var] = "r"
        self.split_flat_index(inner, "rindex", variables, ranges)
        emit_body(inner)

    def store(self, store, scope):
        arg = self.args[store.buffer]
        value = ops.cast(self.value(store.value, scope), arg.dtype)
        pointer = self.pointer(store.buffer, store.index, scope, whole_block=True)
        if store.mode == "add" and arg.dtype in ATOMIC_ADD_DTYPES:
            self.line(scope, f'tl.atomic_add({pointer}, {_rounded(value)}, {scope.mask}, sem="relaxed")')
        elif store.mode == "add":  # read-modify-write; `ordered` launches make it one element at a time
            old = Term(f"tl.load({pointer}, {scope.mask}, other=0){_WIDENED.get(arg.dtype, '')}", arg.dtype)
            self.line(scope, f"tl.store({pointer}, {_rounded(ops.BINARY['add'](old, value))}, {scope.mask})")
        else:
            self.line(scope, f"tl.store({pointer}, {_rounded(value)}, {scope.mask})")
        if store.buffer in self.loaded:  # later loads of this buffer must read memory again, after every
            self.line(scope, "tl.debug_barrier()")  # thread's store (a no-op in the interpreter)
            while scope is not None:
                scope.memo.clear()
                scope = scope.parent

    def reduce(self, reduce, scope):
        kind, acc = reduce.reduction_type, f"_{reduce.temp}"
        is_arg = kind in ("argmax", "argmin")
        acc_dtype = ops.accumulator_dtype(reduce)
        self.line(scope, f"# {reduce.temp} = {kind} over {', '.join(reduce.rvars) or 'one element'}")
        self.line(scope, f"{acc} = tl.full([XBLOCK, RBLOCK], {ops.identity(kind, acc_dtype)}, "
                         f"{ops.triton_dtype(acc_dtype)})")
        if is_arg:
            rnumel = self.size_text(math.prod(reduce.rranges))
            self.line(scope, f"{acc}_index = tl.full([XBLOCK, RBLOCK], {rnumel}, tl.int64)")

        def accumulate(inner):
            value = self.value(reduce.value, inner)
            if kind in ("any", "all"):
                value = ops.cast(ops.cast(value, dt.bool_), acc_dtype)
            value = ops.cast(value, acc_dtype)
            if is_arg:
                self.line(inner, f"{acc}_next, {acc}_index_next = helpers.{kind}_combine("
                                 f"{acc}, {acc}_index, {value.text}, rindex.to(tl.int64))")
                self.line(inner, f"{acc} = tl.where({inner.mask}, {acc}_next, {acc})")
                self.line(inner, f"{acc}_index = tl.where({inner.mask}, {acc}_index_next, {acc}_index)")
            else:
                combined = ops.combine(kind, Term(acc, acc_dtype), value)
                self.line(inner, f"{acc} = tl.where({inner.mask}, {combined}, {acc})")

        self.chunked_loop(scope, reduce.rvars, reduce.rranges, accumulate)
        if is_arg:
            self.line(scope, f"_, {reduce.temp} = tl.reduce(({acc}, {acc}_index), 1, helpers.{kind}_combine)")
            result = f"{reduce.temp}[:, None]"
        else:
            result = f"{ops.block_reduction(kind, acc, acc_dtype)}[:, None]"
        if reduce.dtype is dt.bool_:
            self.line(scope, f"{reduce.temp} = {result} != 0")
        elif reduce.dtype in dt.HALVES:  # (rounded, as torch's reduction stores its result for its consumer)
            self.line(scope, f"{reduce.temp} = {_rounded(Term(result, reduce.dtype))}.to(tl.float32)")
        elif reduce.dtype is acc_dtype and (acc_dtype.is_floating_point or acc_dtype.itemsize >= 4):
            self.line(scope, f"{reduce.temp} = {result}")
        else:  # (bring every result back to the Reduce's dtype)
            self.line(scope, f"{reduce.temp} = {result}.to({ops.triton_dtype(reduce.dtype)})")
        self.temps[reduce.temp] = Term(reduce.temp, reduce.dtype)

    # ---- values ----

    def value(self, expr, scope):
        try:
            if expr in scope.memo:
                return scope.memo[expr]
        except TypeError:  # an unhashable constant
            return self.compute_value(expr, scope)
        term = self.compute_value(expr, scope)
        scope.memo[expr] = term
        return term

    def compute_value(self, expr, scope):
        if isinstance(expr, L.Load):
            arg = self.args[expr.buffer]
            pointer = self.pointer(expr.buffer, expr.index, scope, whole_block=False)
            loaded = self.assign(scope, Term(f"tl.load({pointer}, {scope.mask}, other=0){_WIDENED.get(arg.dtype, '')}",
                                             arg.dtype))
            return loaded if arg.dtype is expr.dtype else self.assign(scope, ops.cast(loaded, expr.dtype))
        if isinstance(expr, L.Constant) and L.is_size_expr(expr.value):  # a size as a value (mean's count)
            return ops.cast(Term(f"tl.full([1], {self.size_text(expr.value)}, tl.int64)", dt.int64), expr.dtype)
        if isinstance(expr, L.Constant):
            return Term(ops.literal(expr.value, expr.dtype), expr.dtype)
        if isinstance(expr, L.IndexValue):
            if isinstance(expr.index, L.Const) and not L.is_size_expr(expr.index.value):
                return Term(ops.literal(expr.index.value, expr.dtype), expr.dtype)
            index_dtype = dt.int64 if L.indirect_values(expr.index) else self.index_dtype  # (indirects load int64)
            position = Term(f"({self.index(expr.index, scope)})", index_dtype)
            return self.assign(scope, ops.cast(position, expr.dtype))
        if isinstance(expr, L.Temp):
            return self.temps[expr.name]
        if isinstance(expr, L.Op):
            return self.assign(scope, ops.cast(self.apply_op(expr, scope), expr.dtype))
        raise TypeError(f"unknown loop IR value {expr!r}")

    def apply_op(self, op, scope):
        args = [self.value(arg, scope) for arg in op.args]
        if op.name == "to_dtype":
            return ops.cast(args[0], op.dtype)
        if op.name == "where":
            condition, x, y = args
            return ops.where(condition, ops.cast(x, op.dtype), ops.cast(y, op.dtype))
        if op.name in ops.UNARY:
            return ops.UNARY[op.name](args[0])
        if op.name in ops.BINARY:
            common = L.common_dtype(args[0].dtype, args[1].dtype)
            x, y = (ops.cast(arg, common) for arg in args)
            if op.name in L.INTEGER_DIVISIONS and not common.is_floating_point \
                    and not (isinstance(op.args[1], L.Constant) and op.args[1].value != 0):
                y = self.safe_divisor(y, scope)  # (a literal 0, `x % 0`, is flagged too)
            return ops.BINARY[op.name](x, y)
        raise NotImplementedError(f"Triton codegen has no handler for op {op.name!r}")

    def safe_divisor(self, divisor, scope):
        """The divisor with 0 replaced by 1, flagging the zero (torch raises for integer division by zero)."""
        zero = self.assign(scope, Term(f"{divisor.text} == 0", dt.bool_))
        self.flag_if(scope, zero, ZERO_DIVISION)
        return self.assign(scope, Term(f"tl.where({zero.text}, {ops.literal(1, divisor.dtype)}, {divisor.text})",
                                       divisor.dtype))

    def flag_if(self, scope, condition, flag):
        self.flags.add(flag)
        self.line(scope, f"helpers.flag_if(error_flags + {flag}, {condition.text} & {scope.mask})")

    # ---- addresses and index arithmetic ----

    def pointer(self, buffer, index, scope, whole_block):
        """buffer + index, broadcast to the block where the index does not vary along all of it (a store's
        pointer must have the value's shape; a load's must at least be a block)."""
        offset = self.index(index, scope)
        pointer = f"{buffer} + {offset}" if re.fullmatch(r"\w+", offset) else f"{buffer} + ({offset})"
        varying = {self.axis_of[var] for var in L.variables(index) if var in self.axis_of}
        if (whole_block and varying != scope.axes) or not varying:
            pointer = f"tl.broadcast_to({pointer}, {scope.shape})"
        return pointer

    def index(self, index, scope):
        if isinstance(index, L.Var):
            return index.name
        if isinstance(index, L.Const):
            return self.size_text(index.value)
        if isinstance(index, L.Add):
            return " + ".join(self.index(term, scope) for term in index.terms)
        if isinstance(index, L.Mul):
            term = self.index(index.term, scope)
            factor = self.size_text(index.factor)
            return f"{factor}*{term}" if isinstance(index.term, (L.Var, L.Const)) else f"{factor}*({term})"
        if isinstance(index, (L.FloorDiv, L.Mod)):
            term = self.index(index.term, scope)
            divisor = self.size_text(index.divisor)
            if L.is_nonnegative(index.term) and L.known(index.divisor > 0):  # C's // and % agree with Python's here
                return f"({term}) {'//' if isinstance(index, L.FloorDiv) else '%'} {divisor}"
            helper = "floordiv_int" if isinstance(index, L.FloorDiv) else "remainder_int"
            return f"helpers.{helper}({term}, {divisor})"
        if isinstance(index, L.Indirect):
            return self.indirect(index, scope)
        raise TypeError(f"unknown index expression {index!r}")

    def indirect(self, index, scope):
        """The checked position an Indirect reads: in [0, size), else 0 with the error flag set."""
        raw = self.assign(scope, ops.cast(self.value(index.value, scope), dt.int64), hint="i")
        size = self.size_text(index.size)
        if index.wrap_negative:
            raw = self.assign(scope, Term(f"tl.where({raw.text} < 0, {raw.text} + {size}, {raw.text})",
                                          dt.int64), hint="i")
        bad = self.assign(scope, Term(f"({raw.text} < 0) | ({raw.text} >= {size})", dt.bool_), hint="i")
        self.flag_if(scope, bad, INDEX_OUT_OF_RANGE)
        return self.assign(scope, Term(f"tl.where({bad.text}, 0, {raw.text})", dt.int64), hint="i").text


def check_structure(kernel):
    """The nests the scheduler emits: an outer loop of stores, reductions and inner loops of stores."""
    for statement in kernel.loop.body:
        if isinstance(statement, L.Loop) and not all(isinstance(s, L.Store) for s in statement.body):
            raise NotImplementedError(f"Triton codegen: {kernel.name} nests a Reduce or a Loop inside an inner "
                                      "loop; only stores are supported there")


def needs_order(statement, args):
    """Does this store of a serial kernel need its writes made one at a time to come out in loop order?"""
    if not isinstance(statement, L.Store):
        return False
    if statement.mode == "add":
        return args[statement.buffer].dtype not in ATOMIC_ADD_DTYPES
    return bool(L.indirect_values(statement.index))


# ---- loading and running ---------------------------------------------------------------------


def import_file(path, module_name):
    """The Python module in the file at `path` (Triton reads a kernel's source back with inspect)."""
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_kernel_files = None  # the process's temporary folder of kernel files, removed when the process ends


def load_module(source, name):
    """The generated module, imported from a file: Triton reads a kernel's source back with inspect. The speed
    wing keeps one per source for the process, its file in the kernel cache; else a fresh file in a temporary
    folder that lives as long as the process."""
    global _kernel_files
    module = speed.cached_module(source, name)
    if module is None:
        if _kernel_files is None:
            _kernel_files = tempfile.TemporaryDirectory(prefix="minitorch2_triton_")
        with tempfile.NamedTemporaryFile("w", suffix=".py", prefix=f"{name}_", dir=_kernel_files.name,
                                         delete=False) as f:
            f.write(source)
        module = import_file(f.name, f"minitorch2_triton_{name}")
    return module


def compile_kernel(kernel):
    emitter = TritonEmitter(kernel)
    source = emitter.module_text()
    function = getattr(load_module(source, emitter.function_name), emitter.function_name)
    return TritonKernel(kernel, source, function, emitter)


def next_power_of_2(n):
    return 1 << max(0, (n - 1).bit_length())


class TritonKernel(CompiledKernel):
    """One compiled kernel for every size: the sizes that follow the addresses in `run` give the extents, the
    kernel's size parameters and the block sizes of each launch."""

    def __init__(self, kernel, source, function, emitter):
        self.kernel, self.name, self.triton_source, self.function = kernel, kernel.name, source, function
        self.error_flags = sorted(emitter.flags)
        self.ordered, self.two_d = emitter.ordered, emitter.two_d
        self.rnumel_count, self.size_param_count = len(emitter.rnumels), len(emitter.size_params)
        self.sizes_of = L.size_function([emitter.xnumel, *emitter.rnumels, *emitter.size_params,
                                         *(arg.numel for arg in kernel.args)], kernel.sizes)

    def __repr__(self):
        return f"<TritonKernel {self.name} ({'interpreted' if INTERPRETED else 'GPU'})>"

    def blocks(self, xnumel, rnumel_max):
        if self.ordered:
            xblock, rblock = 1, 1
        else:
            rblock = min(next_power_of_2(rnumel_max), MAX_RBLOCK)
            per_row = rblock if self.two_d else 1
            xblock = max(1, min(next_power_of_2(xnumel), MAX_BLOCK_ELEMENTS // per_row))
        return {"XBLOCK": xblock, **({"RBLOCK": rblock} if self.two_d else {})}

    def run(self, *addresses):
        self.check_arity(addresses)
        symbols = addresses[len(self.kernel.args):]
        xnumel, *rest = self.sizes_of(*symbols)
        rnumels, rest = rest[:self.rnumel_count], rest[self.rnumel_count:]
        size_params, numels = rest[:self.size_param_count], rest[self.size_param_count:]
        if xnumel == 0:
            return
        torch = _torch()
        buffers = [_torch_buffer(torch, _array_at(address, arg, numel))
                   for address, arg, numel in zip(addresses, self.kernel.args, numels)]
        flags = np.zeros(2, np.int32)
        extra = [torch.from_numpy(flags)] if self.error_flags else []
        blocks = self.blocks(xnumel, max(rnumels))
        grid = (1,) if self.kernel.serial else (triton.cdiv(xnumel, blocks["XBLOCK"]),)
        scalars = [*symbols, *size_params, xnumel]
        with np.errstate(all="ignore"):
            if INTERPRETED:
                self.function[grid](*buffers, *extra, *scalars, **blocks)
            else:
                self.run_on_gpu(grid, buffers, extra, scalars, blocks)
        if flags.any():
            raise numpy_ref.flagged_error(self.kernel, flags[ZERO_DIVISION], addresses)

    def run_on_gpu(self, grid, buffers, extra, scalars, blocks):
        on_device = [buffer.to("cuda") for buffer in buffers + extra]
        self.function[grid](*on_device, *scalars, **blocks)
        written = [arg.role != "in" for arg in self.kernel.args] + [True] * len(extra)
        for host, device, copy_back in zip(buffers + extra, on_device, written):
            if copy_back:
                host.copy_(device)


_WIDENED = {dt.bfloat16: ".to(tl.float32)", dt.float16: ".to(tl.float32)"}  # (float32 in registers: triton_ops)


def _rounded(value):
    """A value as stored: a 16-bit float rounded to nearest-even from its float32 register."""
    if value.dtype is dt.float16:
        return f"({value.text}).to(tl.float16)"
    return f"helpers.round_to_bfloat16({value.text})" if value.dtype is dt.bfloat16 else value.text


def _torch_buffer(torch, array):
    """A torch tensor over the array's memory (torch reads no ml_dtypes array: bfloat16's bits go as int16)."""
    if array.dtype == dt.bfloat16.np:
        return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(array)


def _array_at(address, arg, numel):
    if numel == 0:
        return np.empty(1, arg.dtype.np)  # Triton wants a real pointer even where nothing is touched
    return numpy_ref.array_at(address, replace(arg, numel=numel))
