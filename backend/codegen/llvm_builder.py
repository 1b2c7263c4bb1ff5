"""A tiny writer of LLVM IR text, the vocabulary the LLVM code generator speaks.

Codegen layer, under `llvm_emit.py` (loops, loads, reductions), `llvm_ops.py` (value ops) and the speed wing's
`llvm_math.py` (inline float32 transcendentals) and `llvm_columns.py`. We write the IR as text rather than through
`llvmlite.ir` because the text *is* the product: it goes verbatim into output_code.py, so names follow the loop IR
(`%x0`, `%tmp1`, `%in_ptr0`) and every instruction reads as one line.

The one idea to hold: a `Value` is an SSA name plus the minitorch2 dtype it carries. The dtype decides the LLVM type
(bool is `i1` in registers, `i8` in memory) and whether integer ops are signed. All value arithmetic is branch-free
(selects, not branches), which is what lets LLVM's loop vectorizer turn the inner loops into `<8 x float>` code.
"""
import struct
from collections import Counter
from dataclasses import dataclass

from minitorch2 import _dtype as dt

REGISTER_TYPES = {"bool": "i1", "uint8": "i8", "int8": "i8", "int16": "i16", "int32": "i32",
                  "int64": "i64", "float16": "float", "bfloat16": "float", "float32": "float", "float64": "double"}
MEMORY_TYPES = dict(REGISTER_TYPES, bool="i8", float16="half", bfloat16="i16")  # (the 16-bit floats: llvm_bfloat16.py)
FLOAT_SUFFIXES = {"half": "f16", "float": "f32", "double": "f64"}  # of intrinsic names: llvm.fabs.f32

# A loop body longer than this many IR lines is one long dependency chain per vector (chains of inline
# exp/tanh/erf polynomials and divisions), and the CPU's reorder window cannot reach the next iteration
# to overlap it; LLVM's cost model still picks one vector per iteration, so such loops ask for
# INTERLEAVE_COUNT independent vectors per iteration. Measured on the development VM (AVX2, one thread,
# 2^15 float32 elements in cache, ns per element, threshold 150 -> 30 lines): the 5-op GELU chain of
# benchmarks/inductor.py 0.94 -> 0.56, with tanh 1.47 -> 0.97, with tanh and exp 2.76 -> 1.58, the 10-op
# chain 3.72 -> 2.26, sigmoid 0.79 -> 0.67; one-op bodies (exp, erf, tanh) are below the threshold.
LONG_BODY_LINES = 30
INTERLEAVE_COUNT = 4


def register_type(dtype):
    try:
        return REGISTER_TYPES[dtype.name]
    except KeyError:
        raise NotImplementedError(f"the LLVM backend has no code for dtype {dtype.name}") from None


def memory_type(dtype):
    register_type(dtype)
    return MEMORY_TYPES[dtype.name]


def is_unsigned(dtype):
    return dtype.name in ("bool", "uint8")


@dataclass(frozen=True)
class Value:
    ref: str  # an SSA name (%a) or a literal constant
    dtype: object

    @property
    def ty(self):
        return register_type(self.dtype)


def constant_text(value, dtype):
    """An LLVM literal for a Python number; floats as exact hex doubles (LLVM's rule for float too)."""
    if dtype is dt.bool_:
        return "true" if value else "false"
    if dtype.is_floating_point:
        rounded = float(dt.opmath(dtype).np.type(value) if dtype in dt.HALVES else dtype.np.type(value))  # (exact)
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", rounded))[0]
    return str(int(value))


def const(value, dtype):
    return Value(constant_text(value, dtype), dtype)


# The error flags a kernel can raise, each a pointer parameter it ORs a byte into (see `flag_if`).
ZERO_DIVISION, INDEX_OUT_OF_RANGE = "zero_division", "index_out_of_range"


class FunctionBuilder:
    """Collects the lines of one function, its stack slots, and the declarations it needs."""

    def __init__(self):
        self.lines = []
        self.allocas = []
        self.declarations = {}  # callee name -> declare line
        self.helpers = {}  # internal helper function name -> its definition text
        self.metadata = []  # module-level !N = ... lines (loop hints)
        self.flags = []  # the error flags the function sets (ZERO_DIVISION, ...); each is an extra `ptr` parameter
        self.current_block = "entry"
        self._used = Counter()

    # ---- names and blocks ----

    def fresh(self, hint):
        count = self._used[hint]
        self._used[hint] += 1
        return f"%{hint}" if count == 0 else f"%{hint}.{count}"

    def reserve(self, names):
        """Mark names (the function's parameters) as taken, so no instruction reuses them."""
        for name in names:
            self._used[name] += 1

    def new_label(self, hint):
        return self.fresh(hint)[1:]

    def start_block(self, label):
        self.lines.append(f"{label}:")
        self.current_block = label

    def op(self, hint, text):
        name = self.fresh(hint)
        self.lines.append(f"  {name} = {text}")
        return name

    def do(self, text):
        self.lines.append(f"  {text}")

    def comment(self, text):
        self.lines.append(f"  ; {text}")

    def alloca(self, hint, ty):
        return self.entry_op(hint, f"alloca {ty}")

    def entry_op(self, hint, text):
        """An instruction in the entry block, before every other (stack slots; sizes computed from arguments)."""
        name = self.fresh(hint)
        self.allocas.append(f"  {name} = {text}")
        return name

    # ---- typed helpers returning Values ----

    def binop(self, opcode, a, b, hint="t"):  # (opcode with its flags: "fadd reassoc", "add nsw")
        return Value(self.op(hint, f"{opcode} {a.ty} {a.ref}, {b.ref}"), a.dtype)

    def fneg(self, x, hint="neg"):
        return Value(self.op(hint, f"fneg {x.ty} {x.ref}"), x.dtype)

    def fcmp(self, predicate, a, b, hint="c"):
        return Value(self.op(hint, f"fcmp {predicate} {a.ty} {a.ref}, {b.ref}"), dt.bool_)

    def icmp(self, predicate, a, b, hint="c"):
        return Value(self.op(hint, f"icmp {predicate} {a.ty} {a.ref}, {b.ref}"), dt.bool_)

    def select(self, cond, a, b, hint="sel"):
        return Value(self.op(hint, f"select i1 {cond.ref}, {a.ty} {a.ref}, {b.ty} {b.ref}"), a.dtype)

    def convert(self, opcode, x, dtype, hint="cast"):
        return Value(self.op(hint, f"{opcode} {x.ty} {x.ref} to {register_type(dtype)}"), dtype)

    def call(self, callee, ret_dtype, args, hint="call"):
        """Call an intrinsic or libm function by name, declaring it on first use."""
        ret_ty = register_type(ret_dtype)
        arg_types = ", ".join(a.ty for a in args)
        self.declarations[callee] = f"declare {ret_ty} @{callee}({arg_types})"
        arg_text = ", ".join(f"{a.ty} {a.ref}" for a in args)
        return Value(self.op(hint, f"call {ret_ty} @{callee}({arg_text})"), ret_dtype)

    def intrinsic(self, name, ret_dtype, args, hint=None):
        """llvm.<name>.<type suffix>, e.g. intrinsic('fabs', f32, [x]) calls llvm.fabs.f32."""
        suffix = FLOAT_SUFFIXES.get(args[0].ty, args[0].ty)
        return self.call(f"llvm.{name}.{suffix}", ret_dtype, args, hint=hint or name)

    def flag_if(self, condition, flag):
        """flag |= condition, through the flag's pointer parameter (LLVM keeps it in a register)."""
        if flag not in self.flags:
            self.flags.append(flag)
        old = self.op(f"{flag}.old", f"load i8, ptr %{flag}")
        raised = self.convert("zext", condition, dt.uint8, hint=f"{flag}.now")
        new = self.op(f"{flag}.new", f"or i8 {old}, {raised.ref}")
        self.do(f"store i8 {new}, ptr %{flag}")

    # ---- control flow ----

    def counted_loop(self, var_hint, start, end, body, keep_rolled=False, interleave_long_body=False):
        """for var in range(start, end): body(var) -- the canonical i64 loop the vectorizer wants.

        `start`/`end` are i64 refs; `body` receives the induction variable's ref and may open blocks of its own
        (nested loops). `keep_rolled` forbids unrolling (the vectorizer may still widen the loop): fully unrolling
        a long inner loop makes its parent loop an innermost loop with a huge interleaved access group, which
        takes LLVM seconds to compile. `interleave_long_body` asks the vectorizer to keep INTERLEAVE_COUNT vectors
        in flight when the body is longer than LONG_BODY_LINES (see there)."""
        preheader = self.current_block
        header, body_label, exit_label = (self.new_label(f"{var_hint}.{part}") for part in ("header", "body", "exit"))
        self.do(f"br label %{header}")
        self.start_block(header)
        induction = self.fresh(var_hint)
        phi_position = len(self.lines)
        self.lines.append(None)  # the phi, written once the latch block is known
        in_range = self.op("in_range", f"icmp slt i64 {induction}, {end}")
        self.do(f"br i1 {in_range}, label %{body_label}, label %{exit_label}")
        self.start_block(body_label)
        body(induction)
        step = self.op(f"{var_hint}.next", f"add nuw nsw i64 {induction}, 1")
        self.lines[phi_position] = (f"  {induction} = phi i64 [ {start}, %{preheader} ], "
                                    f"[ {step}, %{self.current_block} ]")
        properties = ['!"llvm.loop.unroll.disable"'] if keep_rolled else []
        if interleave_long_body and len(self.lines) - phi_position > LONG_BODY_LINES:
            properties.append(f'!"llvm.loop.interleave.count", i32 {INTERLEAVE_COUNT}')
        hint = f", !llvm.loop {self.loop_hint(properties)}" if properties else ""
        self.do(f"br label %{header}{hint}")
        self.start_block(exit_label)

    def loop_hint(self, properties):
        """A distinct loop-metadata node carrying `properties` (each the inside of one `!{...}`)."""
        loop_id = f"!{len(self.metadata)}"
        first = len(self.metadata) + 1
        refs = "".join(f", !{first + i}" for i in range(len(properties)))
        self.metadata.append(f"{loop_id} = distinct !{{{loop_id}{refs}}}")
        for prop in properties:
            self.metadata.append(f"!{len(self.metadata)} = !{{{prop}}}")
        return loop_id

    def function_text(self, signature):
        body = ["entry:"] + self.allocas + self.lines
        return "\n".join([f"{signature} {{"] + body + ["}"])
