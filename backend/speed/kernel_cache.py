"""Compiled kernels kept in memory and on disk, keyed by their LLVM IR text (the speed wing's
`compile_ir`; the plain path compiles every kernel afresh with `codegen/llvm_jit.compile_ir`).

Speed wing, under `codegen/llvm.py`. Optimizing a kernel at O3 and generating
its machine code takes LLVM 10-100 ms, and the result depends on nothing but
the IR text and the CPU, so it is done once per machine:

    loaded, where = load_function(llvm_ir, name)   # where: "memory", "disk" or "compiled"

The one idea to hold: the key is a hash of the IR text plus the host CPU's
fingerprint. In a process the engine is found in a dict (weakly: an engine
whose kernels are all gone is disposed of, its machine code freed); across
processes the object file is read back from `config.kernel_cache_dir`, which
skips LLVM's optimizer and code generator entirely (a warm start costs the
parse of a few KB of object code). That file is machine code this process
will run: `disk_cache.py` reads it only from directories the user owns and
nobody else can write, and caps the cache's size.
"""
import hashlib
import os
import weakref

from .. import config
from ..codegen import llvm_jit
from . import disk_cache

# cache key -> LoadedObject, for this process. Weak: an engine is disposed of (its machine code freed) once
# no compiled kernel uses it, e.g. after frontend.reset() dropped the compiled functions.
_compiled = weakref.WeakValueDictionary()


def cache_key(llvm_ir):
    return hashlib.sha256((llvm_jit.host().fingerprint + "\n" + llvm_ir).encode()).hexdigest()


def disk_cache_path(key):
    return os.path.join(config.kernel_cache_dir, key[:2], key + ".o")


def read_disk_cache(key):
    """The cached object code, or None (also for a file disk_cache.py does not trust). Each file holds
    the SHA-256 of its payload first: LLVM crashes the process on a malformed object file, so a damaged
    file must never reach it."""
    if not config.kernel_cache:
        return None
    data = disk_cache.read(config.kernel_cache_dir, disk_cache_path(key))
    if data is None:
        return None
    digest, object_code = data[:32], data[32:]
    return object_code if hashlib.sha256(object_code).digest() == digest else None


def write_disk_cache(key, object_code):
    if config.kernel_cache:
        disk_cache.write(config.kernel_cache_dir, disk_cache_path(key), hashlib.sha256(object_code).digest()
                         + object_code, config.kernel_cache_max_bytes)


def load_function(llvm_ir, function_name):
    """(LoadedObject, where it came from): 'memory', 'disk' or 'compiled'."""
    key = cache_key(llvm_ir)
    with llvm_jit.llvm_lock:  # (the dict too: two threads compiling the same kernel make one engine)
        loaded = _compiled.get(key)
        if loaded is not None:
            return loaded, "memory"
        object_code = read_disk_cache(key)
        source = "disk"
        if object_code is None:
            object_code, source = llvm_jit.compile_to_object(llvm_ir), "compiled"
            write_disk_cache(key, object_code)
        loaded = _compiled[key] = llvm_jit.LoadedObject(object_code, function_name)
        return loaded, source


def live_engines():
    """How many MCJIT engines this process holds (one per distinct kernel still in use)."""
    with llvm_jit.llvm_lock:
        return len(_compiled)
