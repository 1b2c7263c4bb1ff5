"""torch.xpu as a build of PyTorch without Intel GPUs has it: no device, so scripts take their CPU path.

Runtime library surface, beside cuda.py and mps.py. `is_available()` is False and `device_count()` 0;
seeding, cache and rng-setting calls do nothing, memory counters are 0, and each call that needs a device
raises torch's AssertionError, "Torch not compiled with XPU enabled".
"""


def _not_compiled(*args, **kwargs):
    raise AssertionError("Torch not compiled with XPU enabled")


def _nothing(*args, **kwargs):
    return None


def _zero(device=None):
    return 0


def _false(*args, **kwargs):
    return False


def is_available():
    return False


def device_count():
    return 0


manual_seed = manual_seed_all = seed = seed_all = empty_cache = set_rng_state = set_rng_state_all = _nothing
memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = _zero
is_initialized = is_bf16_supported = is_tf32_supported = _false
current_device = synchronize = get_device_name = get_device_properties = get_device_capability = _not_compiled
get_rng_state = initial_seed = current_stream = init = set_device = mem_get_info = _not_compiled
set_per_process_memory_fraction = _not_compiled


def get_arch_list():
    return []


def get_rng_state_all():
    return []


def memory_stats(device=None):
    return {}
