"""minitorch2.autograd.profiler (torch.autograd.profiler): the profiler's older entry point.

Runtime layer, coverage surface. `profile(use_cpu=True, record_shapes=..., profile_memory=..., with_stack=...)`
is one recording session with the same results as torch.profiler.profile (key_averages(), table(),
function_events, export_chrome_trace()); `print(prof)` prints every event's row. record_function is the very
class torch.profiler.record_function is, so a patch of one (pytorch/examples fx/profiling_tracer.py patches
its __enter__/__exit__) is a patch of both. Everything here lives in minitorch2/profiler/.
"""
from ..profiler._events import EventList, FunctionEvent, FunctionEventAvg
from ..profiler._legacy import profile
from ..profiler._ops import record_function

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg"]
