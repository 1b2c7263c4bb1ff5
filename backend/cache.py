"""The compiled-graph cache on disk (plays torch._inductor's FxGraphCache).

Backend layer, around `compile_fx.compile_fx_inner`. Lowering, fusion and
LLVM-IR emission of a big graph take seconds, and their result depends on
nothing but the aten graph, its inputs' metadata and the backend's own code,
so a second process compiling the same graph loads the result instead:

    key   = SHA-256 of: the aten graph's Python code, each input's (shape, stride, dtype),
            the graph kind, the knobs that change code (cpu_codegen, max_fusion_size),
            the host CPU (LLVM's fingerprint) and the source text of every backend module
    value = the generated wrapper source (output_code.py) and, per kernel, its loop_ir.Kernel
            and LLVM IR text; the machine code comes from the kernel object cache
            (codegen/llvm.py), keyed by that IR text, so a hit runs no optimizer either

The one idea to hold: a hit rebuilds exactly what a miss would return (same
wrapper source, same kernels) without lowering or scheduling; an unreadable
entry is a miss, and an evicted object file is compiled again from the IR.

Graphs with get_attr nodes (constants whose values are not in the code) are
never cached. `config.graph_cache = False` (MINITORCH2_GRAPH_CACHE=0) turns
the cache off; entries live in `config.graph_cache_dir`.
"""
import functools
import hashlib
import os
import pickle
import tempfile

import minitorch2

from . import config

FORMAT = 1  # bump when the entry layout changes


@functools.lru_cache(maxsize=None)
def backend_source_digest():
    """A digest of every backend module's source: any change to the compiler invalidates every entry."""
    root = os.path.dirname(os.path.abspath(__file__))
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
    from .codegen.llvm import host

    inputs = []
    for value in example_inputs:
        if hasattr(value, "shape") and hasattr(value, "stride"):
            inputs.append(("tensor", tuple(value.shape), tuple(value.stride()), str(value.dtype)))
        else:
            inputs.append(("value", repr(value)))
    parts = [str(FORMAT), backend_source_digest(), host().fingerprint, graph_kind, config.cpu_codegen,
             str(config.max_fusion_size), repr(inputs), gm.code,
             str(minitorch2.get_default_dtype())]  # `ones([3])` in gm.code lowers to the default dtype
    return hashlib.sha256("\n\0".join(parts).encode()).hexdigest()


def entry_path(key):
    return os.path.join(config.graph_cache_dir, key[:2], key + ".pickle")


def save(key, source, compiled_kernels, fallbacks):
    """Store a compiled graph (written atomically: other processes may read the same entry)."""
    entry = {"format": FORMAT, "source": source, "fallbacks": list(fallbacks),
             "kernels": [(name, kernel.kernel, kernel.llvm_ir, list(kernel.error_flags))
                         for name, kernel in compiled_kernels.items()]}
    path = entry_path(key)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=os.path.dirname(path), delete=False, suffix=".tmp") as f:
            pickle.dump(entry, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(f.name, path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass  # an unwritable cache only costs the next process a compile


def load(key):
    """(source, {name: LLVMKernel}, fallbacks) for a stored graph, or None."""
    from .codegen import llvm

    try:
        with open(entry_path(key), "rb") as f:
            entry = pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("format") != FORMAT:
        return None
    compiled = {}
    for name, kernel, llvm_ir, error_flags in entry["kernels"]:
        loaded, source = llvm.load_function(llvm_ir, kernel.name)  # (an evicted object: compiled from the IR)
        compiled[name] = llvm.LLVMKernel(kernel, llvm_ir, error_flags, loaded, source, 0.0)
    return entry["source"], compiled, entry["fallbacks"]
