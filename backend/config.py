"""backend.config: the knobs of the Inductor-like backend (plays torch._inductor.config).

Read at compile time (and, for `threads`, at each kernel launch); set them as module attributes, e.g.
`backend.config.threads = 1`.
"""
import os

cpu_codegen = os.environ.get("MINITORCH2_CPU_CODEGEN", "llvm")  # "llvm", "triton" or "numpy_ref"
# MINITORCH2_COMPILE_DEBUG=1: each graph's stages in the debug folder (debug.py; where: _logging.debug_dir_root)
debug = os.environ.get("MINITORCH2_COMPILE_DEBUG", "") == "1"
max_fusion_size = 64  # most ir nodes fused into one kernel
# "fast": the speed wing (backend/speed/) runs beside the plain path: worker threads, our own OpenBLAS, inline
# float32 math, column-reduction kernels, kernel and graph caches, the preload thread. "plain": the plain path
# alone, with the same results: one thread, no caches, numpy's matmul, libm's math.
speed = os.environ.get("MINITORCH2_BACKEND_SPEED", "fast")

# ---- the speed wing's knobs (read only when speed == "fast") ----
threads = int(os.environ.get("MINITORCH2_THREADS", 0)) or os.cpu_count() or 1  # kernel worker threads
# OpenBLAS kernels for the matmul jobs ("Zen", "Haswell", "SkylakeX"...); None: chosen for the host (speed/blas.py)
blas_coretype = os.environ.get("MINITORCH2_BLAS_CORETYPE") or None
# The disk caches (README "What runs from disk"): read only when owned by the user and writable by nobody
# else (speed/disk_cache.py); beyond their size cap the least recently used files are removed.
kernel_cache = os.environ.get("MINITORCH2_KERNEL_CACHE", "1") != "0"  # kernel object files (speed/kernel_cache.py)
kernel_cache_dir = os.environ.get("MINITORCH2_CACHE_DIR",
                                  os.path.join(os.path.expanduser("~"), ".cache", "minitorch2", "kernels"))
kernel_cache_max_bytes = int(os.environ.get("MINITORCH2_KERNEL_CACHE_MAX_MB", 256)) << 20
graph_cache = os.environ.get("MINITORCH2_GRAPH_CACHE", "1") != "0"  # whole compiled graphs (speed/graph_cache.py)
graph_cache_dir = os.environ.get("MINITORCH2_GRAPH_CACHE_DIR",
                                 os.path.join(os.path.expanduser("~"), ".cache", "minitorch2", "graphs"))
graph_cache_max_bytes = int(os.environ.get("MINITORCH2_GRAPH_CACHE_MAX_MB", 256)) << 20

from minitorch2._config_patch import Patcher  # noqa: E402

patch = Patcher(__name__)  # patch(name=value): the knobs set for a with block or a decorated call, then put back
