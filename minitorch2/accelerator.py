"""torch.accelerator as a CPU-only build of PyTorch has it: no accelerator, so scripts take their CPU path.

Runtime library surface, beside cuda.py. `is_available()` is False, `current_accelerator()` None and
`device_count()` 0; every call that needs a device (the current index, synchronize, memory counters,
streams) raises torch's RuntimeError, and `device_index(None)` is the one context that does nothing.
"""


def _no_accelerator(*args, **kwargs):
    raise RuntimeError("Cannot access accelerator device when none is available.")


def is_available():
    return False


def current_accelerator(check_available=False):
    return None


def device_count():
    return 0


class device_index:
    """`with torch.accelerator.device_index(i):` switches device for the block; only None is accepted here."""

    def __init__(self, device, /):
        self.idx = device

    def __enter__(self):
        if self.idx is not None:
            _no_accelerator()

    def __exit__(self, *exc):
        return False


current_device_index = current_device_idx = set_device_index = set_device_idx = synchronize = _no_accelerator
current_stream = set_stream = empty_cache = empty_host_cache = get_device_capability = get_memory_info = _no_accelerator
memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = memory_stats = _no_accelerator
reset_peak_memory_stats = reset_accumulated_memory_stats = _no_accelerator
