"""torch.mps as a build of PyTorch without Metal has it: no device, so scripts take their CPU path.

Runtime library surface, beside cuda.py and xpu.py. `is_available()` is False, `device_count()` 0 and
manual_seed does nothing; every other call reaches the missing backend and raises its RuntimeError
("Cannot execute emptyCache() without MPS backend.").
"""


def is_available():
    return False


def device_count():
    return 0


def manual_seed(seed):
    return None


def _no_backend(what):
    def call(*args, **kwargs):
        raise RuntimeError(f"Cannot execute {what}() without MPS backend.")
    return call


seed = get_rng_state = set_rng_state = _no_backend("getDefaultGenerator")
empty_cache = _no_backend("emptyCache")
synchronize = _no_backend("deviceSynchronize")
current_allocated_memory = _no_backend("getCurrentAllocatedMemory")
driver_allocated_memory = _no_backend("getDriverAllocatedMemory")
recommended_max_memory = _no_backend("getRecommendedMaxMemory")
set_per_process_memory_fraction = _no_backend("setMemoryFraction")
