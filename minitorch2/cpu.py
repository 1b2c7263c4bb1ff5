"""torch.cpu: the CPU as a device module, so device-agnostic scripts (`getattr(torch, device_type)`) run on it.

Runtime library surface, beside cuda.py and xpu.py. The CPU is always available, one device, initialised;
synchronize and set_device do nothing; its streams and events exist only so such code runs (a stream's
context switches nothing that matters). `torch.cpu.amp` holds the deprecated spellings of autocast and
GradScaler (amp/cpu_amp.py).
"""
import contextlib
import os
import platform
import types


def is_available():
    return True


def device_count():
    return 1


def current_device():
    return "cpu"


def is_initialized():
    return True


def synchronize(device=None):
    return None


def set_device(device):
    return None


class Stream:
    """A stand-in stream: waiting and recording do nothing on the CPU."""

    def __init__(self, priority=-1):
        pass

    def wait_stream(self, stream):
        pass

    def record_event(self):
        pass

    def wait_event(self, event):
        pass


class Event:
    def query(self):
        return True

    def record(self, stream=None):
        pass

    def synchronize(self):
        pass

    def wait(self, stream=None):
        pass


_current = _default = Stream()


def current_stream(device=None):
    return _current


class StreamContext(contextlib.AbstractContextManager):
    """`with torch.cpu.stream(s):` makes s the current stream for the block (None: leaves it)."""

    def __init__(self, stream):
        self.stream, self.prev_stream = stream, _default

    def __enter__(self):
        global _current
        if self.stream is not None:
            self.prev_stream, _current = _current, self.stream

    def __exit__(self, *exc):
        global _current
        if self.stream is not None:
            _current = self.prev_stream


def stream(stream):
    return StreamContext(stream)


def get_capabilities():
    """What torch reports of the processor; here only what Python's platform module knows."""
    cores = os.cpu_count() or 1
    return types.MappingProxyType({"architecture": platform.machine(), "num_logical_cores": cores})


from .amp import cpu_amp as amp  # noqa: E402,F401  (torch.cpu.amp: its deprecated spellings of autocast and GradScaler)

__path__ = []  # torch.cpu.amp is a submodule: `import torch.cpu.amp` needs a package here to reach the alias table
