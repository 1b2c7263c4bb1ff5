"""The compiled-graph cache on disk (plays torch._inductor's FxGraphCache).

Speed wing, around `compile_fx.compile_fx_inner` (through `speed.graph_key`,
`speed.load_graph` and `speed.store_graph`; the plain path caches nothing). Lowering, fusion and
LLVM-IR emission of a big graph take seconds, and their result depends on
nothing but the aten graph, its inputs' metadata and the backend's own code,
so a second process compiling the same graph loads the result instead:

    key   = SHA-256 of: the aten graph's Python code, each input's (shape, stride, dtype),
            the graph kind, the knobs that change code (cpu_codegen, max_fusion_size),
            the host CPU (LLVM's fingerprint) and the source text of every backend module
    value = a JSON file: the generated wrapper source (output_code.py) and, per kernel, its
            loop_ir.Kernel (as data: the dataclass fields, rebuilt only as loop_ir classes) and
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

from minitorch2 import _dtype
from minitorch2._sym import is_symbolic

from .. import config
from .. import loop_ir as L
from ..codegen import llvm_jit
from . import disk_cache

FORMAT = 3  # bump when the entry layout changes
LOOP_IR_CLASSES = {name: cls for name, cls in vars(L).items()
                   if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == L.__name__}


@functools.lru_cache(maxsize=None)
def backend_source_digest():
    """A digest of every backend module's source: any change to the compiler invalidates every entry."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # backend/
    digest = hashlib.sha256()
    for folder, _, files in sorted(os.walk(root)):
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
    if any(is_symbolic(v) or any(map(is_symbolic, getattr(v, "shape", ()))) for v in example_inputs):
        return None  # a graph over symbolic sizes (one compile serves every size): its kernels stay in the kernel cache
    inputs = []
    for value in example_inputs:
        if hasattr(value, "shape") and hasattr(value, "stride"):
            inputs.append(("tensor", tuple(value.shape), tuple(value.stride()), str(value.dtype)))
        else:
            inputs.append(("value", repr(value)))
    parts = [str(FORMAT), backend_source_digest(), llvm_jit.host().fingerprint, graph_kind, config.cpu_codegen,
             str(config.max_fusion_size), repr(inputs), gm.code,
             str(_dtype.get_default_dtype())]  # `ones([3])` in gm.code lowers to the default dtype
    return hashlib.sha256("\n\0".join(parts).encode()).hexdigest()


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
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if value is None or type(value) in (bool, int, float, str):
        return value
    raise TypeError(f"graph cache: cannot store a {type(value).__name__} in a kernel")


def decode(data):
    """encode's inverse; builds nothing but loop_ir classes, dtypes and plain values (ValueError if asked to)."""
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if set(data) == {"tuple"}:
        return tuple(decode(v) for v in data["tuple"])
    if set(data) == {"dtype"}:
        return _dtype.from_name(data["dtype"])
    if set(data) == {"loop_ir", "fields"} and data["loop_ir"] in LOOP_IR_CLASSES:
        return LOOP_IR_CLASSES[data["loop_ir"]](**{k: decode(v) for k, v in data["fields"].items()})
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


def load(key):
    """The StoredGraph under key, or None."""
    data = disk_cache.read(config.graph_cache_dir, entry_path(key))
    if data is None:
        return None
    try:
        entry = json.loads(data)
        if entry.get("format") != FORMAT or entry.get("key") != key:
            return None
        kernels = [StoredKernel(k["name"], decode(k["kernel"]), k["llvm_ir"], k["error_flags"])
                   for k in entry["kernels"]]
        source, fallbacks = entry["source"], entry["fallbacks"]
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None
    if not isinstance(source, str) or not all(isinstance(k.kernel, L.Kernel) for k in kernels):
        return None
    return StoredGraph(source, kernels, fallbacks)
