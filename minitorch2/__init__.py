"""minitorch2: a readable PyTorch 2 stack in Python (this package plays `torch`).

The runtime: Tensor over numpy memory, the aten operator registry (`minitorch2.ops.aten`), the dispatcher with its mode
stack, eager autograd, PyTorch-exact random numbers, nn, optim and the FX IR. See README.md for the pipeline built on
top of it (frontend/, autograd/, partition/, backend/).
"""
import math

from ._dtype import (
    bool_ as bool, dtype, float16, float32, float64, get_default_dtype, int8, int16, int32, int64, promote_types,
    set_default_dtype, uint8, can_cast, bfloat16, complex64, complex128, complex64 as cfloat, complex128 as cdouble,
)
from ._dtype import float16 as half, float32 as float, float64 as double, int64 as long, int32 as int, int16 as short
from ._tensor import Size, Tensor, device
from ._sym import SymBool, SymFloat, SymInt, _check, sym_float, sym_int, sym_max, sym_min, sym_not, sym_sum  # noqa: F401
from ._sym import (_sym_acos, _sym_asin, _sym_atan, _sym_cos, _sym_cosh, _sym_log2, _sym_sin, _sym_sinh,  # noqa: F401
                   _sym_sqrt, _sym_tan, _sym_tanh)  # (dynamic shapes)
from ._ops import ops, register_table as _register_table
from ._aten.table import TABLE as _TABLE

_register_table(_TABLE)

from . import _tensor_methods

_tensor_methods.install()

from ._functions import *  # noqa: E402,F401,F403  (the torch-level function namespace)
from ._factories import (  # noqa: E402,F401
    arange, as_tensor, bernoulli, empty, empty_like, eye, from_numpy, full, full_like, linspace, normal, ones, ones_like,
    rand, rand_like, randint, randint_like, randn, randn_like, randperm, scalar_tensor, tensor, zeros, zeros_like,
)
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled  # noqa: E402
from .autograd.grad_mode import is_inference_mode_enabled  # noqa: E402
from . import autograd  # noqa: E402
from ._random import Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state  # noqa: E402
from . import testing  # noqa: E402
from . import return_types  # noqa: E402
from . import nn  # noqa: E402
from . import optim  # noqa: E402
from . import fx  # noqa: E402
from . import distributions  # noqa: E402,F401
from .utils import checkpoint as _checkpoint, data as _data  # noqa: E402,F401  (torch.utils.data, .checkpoint)
from . import __config__, __future__, _C, _utils, accelerator, backends, cpu, cuda, export, fft, hub, jit, linalg, mps, onnx, overrides, random, serialization, special, version, xpu  # noqa: E402,F401,E501
from . import multiprocessing  # noqa: E402,F401  (torch.multiprocessing: the standard library's, re-exported)
from . import amp, profiler  # noqa: E402,F401  (torch.amp; torch.profiler, which registers torch.ops.profiler)
from .autograd import profiler as _autograd_profiler  # noqa: E402,F401  (torch.autograd.profiler)
from .amp import autocast  # noqa: E402,F401
from .amp._state import (  # noqa: E402,F401
    autocast_decrement_nesting, autocast_increment_nesting, clear_autocast_cache, get_autocast_cpu_dtype,
    get_autocast_dtype, get_autocast_gpu_dtype, is_autocast_cache_enabled, is_autocast_cpu_enabled,
    is_autocast_enabled, set_autocast_cache_enabled, set_autocast_cpu_dtype, set_autocast_cpu_enabled,
    set_autocast_dtype, set_autocast_enabled)
from .serialization import load, save  # noqa: E402,F401
from ._asserts import _assert_async, _check_is_size  # noqa: E402,F401  (private, so not in import *)
from ._functions_nn_level import *  # noqa: E402,F401,F403  (torch.conv2d, torch.layer_norm, torch.vmap, ...)
from ._method_signatures import wrap_all as _wrap_all  # noqa: E402  (and their arguments' kinds checked)
globals().update(_wrap_all({name: value for name, value in globals().items()  # (torch.sum(x, axis=0, keepdims=True))
                            if getattr(value, "__module__", "").startswith("minitorch2.")}))
from ._type_info import finfo, iinfo  # noqa: E402,F401
from ._legacy_tensor_types import (  # noqa: E402,F401
    BFloat16Tensor, BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor, LongTensor,
    ShortTensor)
from ._settings import *  # noqa: E402,F401,F403  (threads, determinism, matmul precision: _settings.__all__)
from .nn.parameter import Parameter as _Parameter  # noqa: E402,F401
from .sparse import sparse_coo, sparse_coo_tensor, spmm  # noqa: E402,F401  (torch.sparse: the COO layout)

from ._tensor import channels_last, channels_last_3d, contiguous_format, layout, memory_format, preserve_format, strided  # noqa: E402,F401
inf, nan = math.inf, math.nan
e = 2.718281828459045
pi = 3.141592653589793
from .version import __version__  # noqa: E402


def compile(model=None, *, fullgraph=False, dynamic=None, backend=None, mode=None, options=None, disable=False):
    """minitorch2.compile (torch.compile): capture with the frontend (frontend/), compile with `backend`.

    Works as a call or a decorator, on functions and nn.Modules (an OptimizedModule sharing the
    parameters, `_orig_mod`). The default backend (backend=None) is frontend.backends.DEFAULT_BACKEND:
    "inductor", which is backend.compile_fx, unless `python -m minitorch2 run --backend B` changed it.
    """
    if model is None:
        return lambda m: compile(m, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                                 options=options, disable=disable)
    backend = _compile_args.checked_backend(backend, mode, options, dynamic)  # (checked before disable=, as torch's)
    if disable:
        return model
    import frontend  # deferred: the runtime never loads the compiler layers until compile is called; they import it

    return frontend.optimize(backend, nopython=fullgraph, dynamic=dynamic)(model)


from ._unsupported import module_getattr as _module_getattr  # noqa: E402
from . import _compile_args  # noqa: E402

__getattr__ = _module_getattr("minitorch2", "torch")
