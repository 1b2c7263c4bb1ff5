"""torch.autograd.profiler.profile: one profiling session, start to stop, and what it recorded.

Runtime layer, coverage surface. Entering starts a Recorder (_recorder.py), leaving stops it; the events are then
`function_events` (an EventList: table(), key_averages(), total_average(), self_cpu_time_total) and
`print(prof)` prints their table unaveraged. torch.profiler.profile (profiler.py) runs one of these per cycle of
its schedule. `export_chrome_trace(path)` writes the JSON object torch's Kineto-backed profiler writes: complete
("X") events with category "cpu_op" or "user_annotation", "Input Dims" when shapes were recorded, and "[memory]"
instant events when memory was; a path ending ".gz" is gzipped.

On a CPU-only build, as in torch: use_cuda (deprecated) or use_device="cuda" warns "CUDA is not available,
disabling CUDA profiling" and profiles the CPU alone.
"""
import gzip
import json
import os
import socket
import warnings

from . import _recorder
from ._events import EventList


class profile:
    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=False, use_cpu=True,
                 experimental_config=None, acc_events=False, custom_trace_id_callback=None,
                 post_processing_timeout_s=None, activity_filters=None):
        self.enabled = enabled
        if not enabled:
            return
        if use_cuda:
            warnings.warn("The attribute `use_cuda` will be deprecated soon, please use ``use_device = 'cuda'`` "
                          "instead.", FutureWarning, stacklevel=2)
            use_device = "cuda"
        if use_device is not None:
            warnings.warn("CUDA is not available, disabling CUDA profiling" if use_device == "cuda"
                          else f"The {use_device} is not a valid device option.", stacklevel=2)
        if not use_cpu:
            raise AssertionError("No activities specified for the profiler")
        self.use_device = None
        self.use_cuda = False
        self.record_shapes = record_shapes or with_flops
        self.with_flops = with_flops
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_modules = with_modules
        self.use_cpu = use_cpu
        self.acc_events = acc_events
        self.entered = False
        self._recorder = None
        self._function_events = None
        self._old_events = []

    def __enter__(self):
        if not self.enabled:
            return None
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self._start_trace()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if self.enabled:
            self._stop_trace()
        return False

    def _start_trace(self):
        self.entered = True
        if self.acc_events and self._function_events:
            self._old_events += list(self._function_events)
        self._function_events = None
        self._recorder = _recorder.Recorder(self.record_shapes, self.profile_memory, self.with_stack)
        self._recorder.start()

    def _stop_trace(self):
        if self._recorder is None or not self._recorder.recording:
            return
        self._recorder.stop()
        self._function_events = EventList(self._old_events + self._recorder.events,
                                          profile_memory=self.profile_memory, with_flops=self.with_flops)

    def __str__(self):
        return "<unfinished torch.autograd.profile>" if self._function_events is None else str(self._function_events)

    def __repr__(self):
        return "<unfinished torch.autograd.profile>" if self._function_events is None else repr(self._function_events)

    @property
    def function_events(self):
        return self._finished()

    def _finished(self):
        if self._function_events is None:
            raise RuntimeError("Profiler didn't finish running")
        return self._function_events

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        return self._finished().table(sort_by=sort_by, row_limit=row_limit, header=header,
                                      max_src_column_width=max_src_column_width,
                                      max_name_column_width=max_name_column_width,
                                      max_shapes_column_width=max_shapes_column_width,
                                      top_level_events_only=top_level_events_only)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        return self._finished().key_averages(group_by_input_shape, group_by_stack_n, group_by_overload_name)

    def total_average(self):
        return self._finished().total_average()

    @property
    def self_cpu_time_total(self):
        return self._finished().self_cpu_time_total

    def export_stacks(self, path, metric="self_cpu_time_total"):
        if not self.with_stack:
            raise AssertionError("export_stacks() requires with_stack=True")
        return self._finished().export_stacks(path, metric)

    def export_chrome_trace(self, path, metadata=None, use_python_export=False):
        write_chrome_trace(path, self._recorder, self._finished(), metadata)


def write_chrome_trace(path, recorder, events, metadata=None):
    pid = os.getpid()
    base_us = recorder.wall_start_ns / 1000.0
    trace = [
        {"ph": "M", "name": "process_name", "ts": base_us, "pid": pid, "tid": 0, "args": {"name": "python"}},
        {"ph": "M", "name": "thread_name", "ts": base_us, "pid": pid, "tid": recorder.thread,
         "args": {"name": f"thread {recorder.thread} (python)"}},
    ]
    for event in events:
        if event.name == "[memory]":
            continue
        args = {"External id": event.id}
        if recorder.record_shapes and not event.is_user_annotation:
            args["Input Dims"] = event.input_shapes
        trace.append({"ph": "X", "cat": "user_annotation" if event.is_user_annotation else "cpu_op",
                      "name": event.trace_name, "pid": pid, "tid": event.thread,
                      "ts": base_us + event.time_range.start, "dur": event.time_range.elapsed_us(), "args": args})
    allocated = 0
    for time_us, nbytes in recorder.memory_records:
        allocated += nbytes
        trace.append({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": pid,
                      "tid": recorder.thread, "ts": base_us + time_us,
                      "args": {"Total Reserved": 0, "Total Allocated": allocated, "Bytes": nbytes, "Device Id": -1,
                               "Device Type": 0}})
    document = {"schemaVersion": 1, "deviceProperties": [], "record_shapes": int(recorder.record_shapes),
                "profile_memory": int(recorder.profile_memory), "host_name": socket.gethostname(),
                "displayTimeUnit": "ms", "baseTimeNanoseconds": recorder.wall_start_ns, **(metadata or {}),
                "traceEvents": trace, "traceName": path}
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "wt") as f:
        json.dump(document, f)
