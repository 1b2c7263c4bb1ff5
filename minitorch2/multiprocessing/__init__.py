"""torch.multiprocessing: Python's multiprocessing under torch's name, with torch's tensor-sharing strategies.

Runtime layer, coverage surface. torch re-exports every public name of the standard library's multiprocessing
(Process, Queue, Pool, set_start_method, get_start_method, cpu_count, ...), the same objects, and adds how CPU
tensors cross between processes: by file descriptors or by files in shared memory. Scripts mostly use it to pick a
start method or count CPUs. minitorch2's tensors cross by pickling their numpy memory, so the strategy is kept and
reported but changes nothing.
"""
import multiprocessing
import sys

from .._unsupported import module_getattr

__all__ = ["set_sharing_strategy", "get_sharing_strategy", "get_all_sharing_strategies", *multiprocessing.__all__]

# torch's choices per platform: macOS has no file-descriptor passing it relies on
_all_sharing_strategies = {"file_system"} if sys.platform == "darwin" else {"file_descriptor", "file_system"}
_sharing_strategy = "file_system" if sys.platform == "darwin" else "file_descriptor"


def set_sharing_strategy(new_strategy):
    global _sharing_strategy
    if new_strategy not in _all_sharing_strategies:
        raise AssertionError(f"invalid sharing strategy {new_strategy!r}, expected one of {_all_sharing_strategies}")
    _sharing_strategy = new_strategy


def get_sharing_strategy():
    return _sharing_strategy


def get_all_sharing_strategies():
    return _all_sharing_strategies


_missing = module_getattr("minitorch2.multiprocessing", "torch.multiprocessing")


def __getattr__(name):
    """The standard library's names, looked up when asked for, so they are its very objects (its default context's
    Queue, Pool, set_start_method, ...)."""
    if name in multiprocessing.__all__:
        return getattr(multiprocessing, name)
    return _missing(name)


def __dir__():
    return sorted(set(globals()) | set(multiprocessing.__all__))
