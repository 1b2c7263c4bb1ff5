"""LLVM IR text -> machine code in memory, with llvmlite: the host target, the O3 pipeline, an engine.

Codegen layer, under `llvm.py` (which writes a kernel's IR with `llvm_emit.py` and wraps the function this
module loads). Three steps, each one call:

    module = host().parse(llvm_ir)            # text -> verified module, for this CPU
    object_code = compile_to_object(llvm_ir)  # + the O3 pipeline (loop and SLP vectorizers on) + codegen
    loaded = LoadedObject(object_code, name)  # an MCJIT engine holding the code; loaded.address to call

The one idea to hold: LLVM's global context is not thread-safe, and compiles run on several threads at once,
so every use of it takes `llvm_lock`; `compile_ir` is the whole path under that lock.
"""
import ctypes.util
import threading

_host = None
host_lock = threading.Lock()
llvm_lock = threading.Lock()  # one thread at a time inside LLVM (speed/forking.py holds both across os.fork)


class HostTarget:
    """The target machine for this CPU, the llvmlite binding that drives it, and the fingerprint that
    identifies the code it makes (llvmlite version, triple, CPU and its features)."""

    def __init__(self):
        import llvmlite  # its shared library takes 0.2 s to load: not at `import backend` (see the module doc)
        import llvmlite.binding as llvm  # (the same)

        self.llvm = llvm
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        # libm for expf/sinf/pow..., libc for memset/memcpy, libgcc_s for half-float helpers LLVM may call
        for library in ("m", "c", "gcc_s"):
            path = ctypes.util.find_library(library)
            if path:
                llvm.load_library_permanently(path)
        self.cpu = llvm.get_host_cpu_name()
        self.features = llvm.get_host_cpu_features().flatten()
        self.machine = self.new_machine()
        self.triple = self.machine.triple
        self.data_layout = str(self.machine.target_data)
        self.fingerprint = "|".join([llvmlite.__version__, self.triple, self.cpu, self.features])

    def new_machine(self):
        return self.llvm.Target.from_default_triple().create_target_machine(cpu=self.cpu, features=self.features, opt=3)

    def optimize(self, module):
        tuning = self.llvm.create_pipeline_tuning_options(speed_level=3)  # (loop vectorizer and unrolling on)
        tuning.slp_vectorization = True  # (off by default)
        builder = self.llvm.create_pass_builder(self.machine, tuning)
        builder.getModulePassManager().run(module, builder)

    def parse(self, llvm_ir):
        module = self.llvm.parse_assembly(llvm_ir)
        module.triple = self.triple
        module.data_layout = self.data_layout
        module.verify()
        return module


def host():
    global _host
    with host_lock:
        if _host is None:
            _host = HostTarget()
        return _host


class LoadedObject:
    """An object file loaded into its own MCJIT engine (kept alive as long as the code may run)."""

    def __init__(self, object_code, function_name):
        llvm = host().llvm
        # an engine owns (and on disposal deletes) its target machine, so each gets its own
        self.engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), host().new_machine())
        self.engine.add_object_file(llvm.ObjectFileRef.from_data(object_code))
        self.engine.finalize_object()
        self.address = self.engine.get_function_address(function_name)
        if not self.address:
            raise RuntimeError(f"LLVM object code has no function {function_name!r}")


def optimized_module(llvm_ir):
    module = host().parse(llvm_ir)
    host().optimize(module)
    return module


def compile_to_object(llvm_ir):
    return host().machine.emit_object(optimized_module(llvm_ir))


def compile_ir(llvm_ir, function_name):
    """LLVM IR text -> a LoadedObject whose `address` is `function_name`'s."""
    with llvm_lock:
        return LoadedObject(compile_to_object(llvm_ir), function_name)

