"""The compiled-graph cache on disk (plays torch._inductor's FxGraphCache).

Speed wing, around `compile_fx.compile_fx_inner` (through `speed.graph_key`,
`speed.load_graph` and `speed.store_graph`; the plain path caches nothing). Lowering, fusion and
LLVM-IR emission of a big graph take seconds, and their result depends on
nothing but the aten graph, its inputs' metadata and the backend's own code,
so a second process compiling the same graph loads the result instead:

    key   = SHA-256 of: the aten graph's Python code, each input's (shape, stride, dtype) (sizes over
            symbols as text, `s77`, with the ShapeEnv's facts: each symbol's range, replacements, guards),
            the graph kind, the knobs that change code (cpu_codegen, max_fusion_size),
            the host CPU (LLVM's fingerprint) and the source text of every backend module
    value = a JSON file: the generated wrapper source (output_code.py) and, per kernel, its
            loop_ir.Kernel (as data: the dataclass fields, rebuilt only as loop_ir classes and sizes over the graph's
            size symbols, which a hit finds by name in its own inputs) and
            LLVM IR text; speed.load_graph rebuilds each kernel from that text (an LLVMKernel over each),
            whose machine code the kernel cache (kernel_cache.py) finds by that text: no optimizer runs

The one idea to hold: a hit rebuilds exactly what a miss would return (same
wrapper source, same kernels) without lowering or scheduling; an unreadable
entry is a miss, and an evicted object file is compiled again from the IR.
A hit exec's the stored wrapper source, so entries are read only from a
directory and files the user owns and nobody else can write (disk_cache.py,
which also keeps the cache under `config.graph_cache_max_bytes`).

Graphs with get_attr nodes (constants whose values are not in the code) are
never cached. `config.graph_cache = False` (MINITORCH2_GRAPH_CACHE=0) turns
the cache off; entries live in `config.graph_cache_dir` (removing it clears the cache).
"""
import dataclasses
import functools
import hashlib
import json
import os
from dataclasses import dataclass

import sympy

from minitorch2 import _dtype
from minitorch2._sym import is_symbolic
from minitorch2.fx.experimental.symbolic_shapes import FloorDiv, Mod, PythonMod

from .. import config
from .. import loop_ir as L
from ..codegen import llvm_jit
from . import disk_cache

FORMAT = 4  # bump when the entry layout changes
LOOP_IR_CLASSES = {name: cls for name, cls in vars(L).items()
                   if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == L.__name__}
SIZE_CLASSES = {cls.__name__: cls for cls in (sympy.Add, sympy.Mul, sympy.Pow, sympy.Max, sympy.Min, FloorDiv, Mod, PythonMod)}


@functools.lru_cache(maxsize=None)
def backend_source_digest():
    """A digest of every backend module's source, and of the size expressions' (which print into the generated
    code): any change to the compiler invalidates every entry."""
    backend = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sizes = os.path.join(os.path.dirname(backend), "minitorch2", "fx", "experimental")
    digest = hashlib.sha256()
    for folder, _, files in sorted(os.walk(backend)) + sorted(os.walk(sizes)):
        for name in sorted(files):
            if name.endswith(".py"):
                with open(os.path.join(folder, name), "rb") as f:
                    digest.update(name.encode() + b"\0" + f.read())
    return digest.hexdigest()


def graph_key(gm, example_inputs, graph_kind):
    """The cache key, or None for graphs the cache must not hold."""
    if not config.graph_cache or config.cpu_codegen != "llvm" or config.debug:
        return None
    if any(node.op == "get_attr" for node in gm.graph.nodes):
        return None
    inputs = []
    for value in example_inputs:
        if hasattr(value, "shape") and hasattr(value, "stride"):
            inputs.append(("tensor", tuple(map(str, value.shape)), tuple(map(str, value.stride())), str(value.dtype)))
        else:
            inputs.append(("value", str(value.node.expr) if is_symbolic(value) else repr(value)))
    parts = [str(FORMAT), backend_source_digest(), llvm_jit.host().fingerprint, graph_kind, config.cpu_codegen,
             str(config.max_fusion_size), repr(inputs), gm.code, size_facts(example_inputs),
             str(_dtype.get_default_dtype())]  # `ones([3])` in gm.code lowers to the default dtype
    return hashlib.sha256("\n\0".join(parts).encode()).hexdigest()


def size_facts(example_inputs):
    """What the compile of a graph over symbolic sizes may decide from besides the graph: its ShapeEnv's ranges,
    replacements and guards (compile_fx_inner refuses a compile that adds to them). "" for a static graph."""
    sizes = symbolic_sizes(example_inputs)
    if not sizes:
        return ""
    env = sizes[0].node.shape_env
    return repr((sorted((str(s), str(r)) for s, r in env.var_to_range.items()),
                 sorted((str(s), str(e)) for s, e in env.replacements.items()), [str(g) for g in env.guards]))


def symbolic_sizes(example_inputs):
    """The inputs' SymInts and SymFloats: themselves, and tensors' sizes and strides."""
    found = []
    for value in example_inputs:
        if hasattr(value, "shape") and hasattr(value, "stride"):
            found += [v for v in (*value.shape, *value.stride()) if is_symbolic(v)]
        elif is_symbolic(value):
            found.append(value)
    return found


def input_symbols(example_inputs):
    """The sympy symbols the inputs' sizes are over (what a stored kernel's sizes are rebuilt over)."""
    return {symbol for v in symbolic_sizes(example_inputs) for symbol in v.node.expr.free_symbols}


def entry_path(key):
    return os.path.join(config.graph_cache_dir, key[:2], key + ".json")


# ---- loop_ir kernels as JSON data ------------------------------------------------------------


def encode(value):
    """A loop_ir value as JSON data: dataclasses by class name and the fields they are built from (a field computed
    in __post_init__, Constant's sign of zero, is computed again), dtypes by name, tuples marked."""
    if type(value) in LOOP_IR_CLASSES.values():
        return {"loop_ir": type(value).__name__,
                "fields": {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}}
    if isinstance(value, _dtype.dtype):
        return {"dtype": value.name}
    if isinstance(value, sympy.Basic):
        return encode_size(value)
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if value is None or type(value) in (bool, int, float, str):
        return value
    raise TypeError(f"graph cache: cannot store a {type(value).__name__} in a kernel")


def encode_size(size):
    """A size (a sympy integer, or an expression over size symbols) as JSON data: symbols by name."""
    if size.is_Symbol:
        return {"symbol": size.name}
    if size.is_Integer:
        return {"integer": int(size)}
    if size.is_Rational:
        return {"rational": [int(size.p), int(size.q)]}
    if type(size).__name__ in SIZE_CLASSES and SIZE_CLASSES[type(size).__name__] is type(size):
        return {"size": type(size).__name__, "args": [encode_size(a) for a in size.args]}
    raise TypeError(f"graph cache: cannot store the size {size}")


def decode(data, symbols):
    """encode's inverse; builds nothing but loop_ir classes, dtypes, sizes over `symbols` (the graph's size symbols
    by name) and plain values (ValueError if asked to)."""
    if isinstance(data, list):
        return [decode(v, symbols) for v in data]
    if not isinstance(data, dict):
        return data
    if set(data) == {"tuple"}:
        return tuple(decode(v, symbols) for v in data["tuple"])
    if set(data) == {"dtype"}:
        return _dtype.from_name(data["dtype"])
    if set(data) == {"loop_ir", "fields"} and data["loop_ir"] in LOOP_IR_CLASSES:
        return LOOP_IR_CLASSES[data["loop_ir"]](**{k: decode(v, symbols) for k, v in data["fields"].items()})
    return decode_size(data, symbols)


def decode_size(data, symbols):
    """encode_size's inverse, over the symbols of the graph being compiled (ValueError for any other name)."""
    if set(data) == {"symbol"} and data["symbol"] in symbols:
        return symbols[data["symbol"]]
    if set(data) == {"integer"} and type(data["integer"]) is int:
        return sympy.Integer(data["integer"])
    if set(data) == {"rational"} and all(type(v) is int for v in data["rational"]):
        return sympy.Rational(*data["rational"])
    if set(data) == {"size", "args"} and data["size"] in SIZE_CLASSES:
        return SIZE_CLASSES[data["size"]](*(decode_size(a, symbols) for a in data["args"]))
    raise ValueError("graph cache: not a stored loop_ir value")


# ---- entries -----------------------------------------------------------------------------------


@dataclass
class StoredKernel:
    name: str  # the wrapper's name for it (kernel0, ...)
    kernel: L.Kernel
    llvm_ir: str
    error_flags: list


@dataclass
class StoredGraph:
    source: str  # the wrapper module (output_code.py)
    kernels: list  # StoredKernel, in the wrapper's order
    fallbacks: list


def save(key, source, compiled_kernels, fallbacks):
    """Store a compiled graph (written atomically: other processes may read the same entry)."""
    try:
        entry = {"format": FORMAT, "key": key, "source": source, "fallbacks": list(fallbacks),
                 "kernels": [{"name": name, "kernel": encode(kernel.kernel), "llvm_ir": kernel.llvm_ir,
                              "error_flags": list(kernel.error_flags)} for name, kernel in compiled_kernels.items()]}
        data = json.dumps(entry).encode()
    except (TypeError, ValueError):
        return  # a kernel holding a value JSON cannot: the next process compiles it again
    disk_cache.write(config.graph_cache_dir, entry_path(key), data, config.graph_cache_max_bytes)


def load(key, example_inputs):
    """The StoredGraph under key, or None. Its sizes are over the size symbols of example_inputs."""
    data = disk_cache.read(config.graph_cache_dir, entry_path(key))
    if data is None:
        return None
    try:
        entry = json.loads(data)
        if entry.get("format") != FORMAT or entry.get("key") != key:
            return None
        symbols = {s.name: s for s in input_symbols(example_inputs)}
        kernels = [StoredKernel(k["name"], decode(k["kernel"], symbols), k["llvm_ir"], k["error_flags"])
                   for k in entry["kernels"]]
        source, fallbacks = entry["source"], entry["fallbacks"]
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None
    if not isinstance(source, str) or not all(isinstance(k.kernel, L.Kernel) for k in kernels):
        return None
    return StoredGraph(source, kernels, fallbacks)
