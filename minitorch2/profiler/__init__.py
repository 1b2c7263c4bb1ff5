"""minitorch2.profiler (torch.profiler): what ran, for how long, with which shapes, allocating how much.

Runtime layer, coverage surface. `profile` records every aten op dispatched in its thread while it is on (a
dispatch mode, _recorder.py) and the record_function ranges around them, then prints torch's table:

    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        with record_function("model_inference"):
            model(x)
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=10))

Modules: profiler.py (profile, schedule, ProfilerActivity, ProfilerAction, tensorboard_trace_handler), _legacy.py
(one session: torch.autograd.profiler.profile), _recorder.py (the timing mode, ranges, memory), _ops.py
(torch.ops.profiler's two ops and record_function), _events.py and _table.py (the results and their table).
"""
from ._events import DeviceType, EventList, FunctionEvent, FunctionEventAvg
from ._ops import record_function
from .profiler import (
    ProfilerAction, ProfilerActivity, _KinetoProfile, profile, schedule, supported_activities,
    tensorboard_trace_handler,
)


def kineto_available():
    return True


__all__ = ["profile", "schedule", "supported_activities", "tensorboard_trace_handler", "ProfilerAction",
           "ProfilerActivity", "kineto_available", "DeviceType", "record_function"]
