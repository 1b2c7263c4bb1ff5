"""torch.cuda as a CPU-only build of PyTorch has it: no device, so scripts take their CPU path.

Runtime library surface. `is_available()` is False and `device_count()` 0; seeding and cache calls do
nothing (torch queues them until a GPU initialises, which never happens); memory counters are 0; every
call that needs a device raises torch's AssertionError, "Torch not compiled with CUDA enabled".
"""


def _not_compiled(*args, **kwargs):
    raise AssertionError("Torch not compiled with CUDA enabled")


def _nothing(*args, **kwargs):
    return None


def _zero(device=None):
    return 0


def is_available():
    return False


def device_count():
    return 0


_initialized = False  # read directly by code that saves the GPU's random state only once CUDA has started


def is_initialized():
    return _initialized


def is_bf16_supported(including_emulation=True):
    return False


manual_seed = manual_seed_all = seed = seed_all = empty_cache = _nothing
memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = _zero
current_device = synchronize = get_device_name = get_device_properties = get_device_capability = _not_compiled
get_rng_state = set_rng_state = current_stream = ipc_collect = init = set_device = _not_compiled


from .amp import cuda_amp as amp  # noqa: E402  (torch.cuda.amp: its deprecated spellings, disabled as on a CPU-only torch)

__path__ = []  # torch.cuda.amp is a submodule: `import torch.cuda.amp` needs a package here to reach the alias table
