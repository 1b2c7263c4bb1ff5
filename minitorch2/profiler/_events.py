"""What a profiling session hands back: FunctionEvent, FunctionEventAvg and EventList (torch.autograd.profiler_util).

Runtime layer, coverage surface. One FunctionEvent per op call or record_function range a session saw, with its
time range (microseconds from the session's start), its parent and children, input shapes, Python stack and the
bytes allocated within it; times and memory come "total" (children included) and "self" (children taken out).
`EventList.key_averages()` sums the events of each name (and, when asked, each input-shape list or stack prefix)
into FunctionEventAvg rows, and `table()` prints either list as torch's profiler does (_table.py).

A CPU-only build has no device: every device time and device memory figure is 0, as torch reports them there.
"""
import enum
import json
import warnings

from . import _table


class DeviceType(enum.IntEnum):
    CPU = 0
    CUDA = 1


class Interval:
    def __init__(self, start, end):
        self.start = start
        self.end = end

    def elapsed_us(self):
        return self.end - self.start


def format_time(time_us):
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def format_time_share(time_us, total_us):
    if total_us == 0:
        return "NaN"
    return f"{time_us * 100.0 / total_us:.2f}%"


def format_memory(nbytes):
    for unit, size in (("GB", 1024 ** 3), ("MB", 1024 ** 2), ("KB", 1024)):
        if abs(nbytes) >= size:
            return f"{nbytes / size:.2f} {unit}"
    return f"{nbytes} B"


class _Figures:
    """The figures FunctionEvent and FunctionEventAvg share: averages, device zeros, formatted strings, and the
    `cuda_*` names torch still answers (with its deprecation warning)."""

    device_time_total = 0
    self_device_time_total = 0
    device_memory_usage = 0
    self_device_memory_usage = 0

    @property
    def cpu_time(self):
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    @property
    def device_time(self):
        return 0.0 if self.count == 0 else self.device_time_total / self.count

    cpu_time_str = property(lambda self: format_time(self.cpu_time))
    cpu_time_total_str = property(lambda self: format_time(self.cpu_time_total))
    self_cpu_time_total_str = property(lambda self: format_time(self.self_cpu_time_total))
    device_time_str = property(lambda self: format_time(self.device_time))
    device_time_total_str = property(lambda self: format_time(self.device_time_total))
    self_device_time_total_str = property(lambda self: format_time(self.self_device_time_total))

    def __getattr__(self, name):
        if name.startswith(("cuda_", "self_cuda_")):
            device_name = name.replace("cuda", "device")
            warnings.warn(f"`{name}` is deprecated. Use `{device_name}` instead.", FutureWarning, stacklevel=2)
            return getattr(self, device_name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


class FunctionEvent(_Figures):
    """One op call or range. `time_range` and the times are in microseconds; memory in bytes."""

    def __init__(self, id, name, thread, start_us, end_us, input_shapes=None, stack=None, is_user_annotation=False,
                 trace_name=None):
        self.id = id
        self.name = self.key = name
        self.trace_name = trace_name or name
        self.thread = thread
        self.time_range = Interval(start_us, end_us)
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.stack = stack if stack is not None else []
        self.is_user_annotation = is_user_annotation
        self.cpu_parent = None
        self.cpu_children = []
        self.cpu_memory_usage = 0  # every byte allocated (less those freed) while it ran, its children's included
        self.count = 1
        self.scope = 0
        self.sequence_nr = -1
        self.node_id = -1
        self.device_type = DeviceType.CPU
        self.device_index = 0
        self.use_device = None
        self.is_async = self.is_remote = self.is_legacy = False
        self.overload_name = ""
        self.flops = None
        self.kernels = []
        self.concrete_inputs = []

    @property
    def cpu_time_total(self):
        return self.time_range.elapsed_us()

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(child.cpu_time_total for child in self.cpu_children)

    @property
    def self_cpu_memory_usage(self):
        return self.cpu_memory_usage - sum(child.cpu_memory_usage for child in self.cpu_children)

    def append_cpu_child(self, child):
        self.cpu_children.append(child)
        child.cpu_parent = self

    def __repr__(self):
        return (f"<FunctionEvent id={self.id} name={self.name} device_type={self.device_type} "
                f"cpu_time={self.cpu_time_str} start_us={self.time_range.start:.3f} end_us={self.time_range.end:.3f} "
                f"cpu_children={[child.id for child in self.cpu_children]} thread={self.thread} "
                f"input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage}>")


class FunctionEventAvg(_Figures):
    """The events of one key summed: times and memory add up, `cpu_time` is the mean per call."""

    def __init__(self):
        self.key = None
        self.count = 0
        self.cpu_time_total = self.self_cpu_time_total = 0.0
        self.cpu_memory_usage = self.self_cpu_memory_usage = 0
        self.input_shapes = None
        self.stack = None
        self.cpu_parent = None
        self.cpu_children = None
        self.node_id = 0
        self.is_async = self.is_remote = self.is_legacy = False
        self.is_user_annotation = False
        self.device_type = DeviceType.CPU
        self.use_device = None
        self.overload_name = ""
        self.scope = None
        self.flops = None

    def add(self, other):
        if self.key is None:
            for name in ("key", "node_id", "is_async", "is_remote", "cpu_parent", "cpu_children", "input_shapes",
                         "stack", "scope", "device_type", "is_legacy", "use_device", "is_user_annotation"):
                setattr(self, name, getattr(other, name))
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.cpu_memory_usage += other.cpu_memory_usage
        self.self_cpu_memory_usage += other.self_cpu_memory_usage
        self.count += other.count
        return self

    __iadd__ = add

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
                f"cpu_time={self.cpu_time_str}  self_cuda_time=0.000us cuda_time=0.000us "
                f"input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage} cuda_memory_usage=0>")


class EventList(list):
    """A list of FunctionEvents (or of FunctionEventAvgs, from key_averages) that prints as torch's table."""

    def __init__(self, events=(), use_device=None, profile_memory=False, with_flops=False):
        super().__init__(events)
        self._use_device = use_device
        self._profile_memory = profile_memory
        self._with_flops = with_flops
        self._tree_built = True

    def __str__(self):
        return self.table()

    @property
    def self_cpu_time_total(self):
        return sum(event.self_cpu_time_total for event in self)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False, time_unit=None):
        """The table torch's profiler prints; `sort_by` names an attribute (cpu_time_total, self_cpu_time_total,
        cpu_memory_usage, count, cuda_time_total...), largest first."""
        return _table.build_table(self, sort_by=sort_by, row_limit=row_limit, header=header,
                                  max_src_column_width=max_src_column_width,
                                  max_name_column_width=max_name_column_width,
                                  max_shapes_column_width=max_shapes_column_width,
                                  profile_memory=self._profile_memory, top_level_events_only=top_level_events_only,
                                  time_unit=time_unit)

    def key_averages(self, group_by_input_shapes=False, group_by_stack_n=0, group_by_overload_name=False):
        """One FunctionEventAvg per name (and input shapes, stack prefix, when grouped by them), in the order
        the names first appear."""
        groups = {}
        for event in self:
            key = (event.key, event.node_id, event.is_user_annotation)
            if group_by_input_shapes:
                key += (str(event.input_shapes),)
            if group_by_stack_n > 0:
                key += tuple(event.stack[:group_by_stack_n])
            groups.setdefault(key, FunctionEventAvg()).add(event)
        averages = EventList(groups.values(), use_device=self._use_device, profile_memory=self._profile_memory,
                             with_flops=self._with_flops)
        for average in averages:
            average.stack = average.stack[:group_by_stack_n]
            if not group_by_input_shapes:
                average.input_shapes = ""
        return averages

    def total_average(self):
        total = FunctionEventAvg()
        for event in self:
            total.add(event)
        total.key = "Total"
        return total

    def export_chrome_trace(self, path):
        """The events as a Chrome trace: the plain list of complete ("X") events EventList writes."""
        trace = [{"name": event.trace_name, "ph": "X", "ts": event.time_range.start,
                  "dur": event.time_range.elapsed_us(), "tid": event.thread, "pid": "CPU functions", "args": {}}
                 for event in self]
        with open(path, "w") as f:
            json.dump(trace, f)

    def supported_export_stacks_metrics(self):
        return ["self_cpu_time_total", "self_cuda_time_total", "self_xpu_time_total", "self_privateuse1_time_total"]

    def export_stacks(self, path, metric):
        """One line per event with a stack: the frames outermost first joined by ';', then the metric as an int
        (the input flamegraph.pl reads)."""
        if metric not in self.supported_export_stacks_metrics():
            raise ValueError("metric should be one of: " + str(self.supported_export_stacks_metrics()))
        attribute = metric.replace("cuda", "device").replace("xpu", "device").replace("privateuse1", "device")
        spaces_away = str.maketrans(" ;\t\n", "____")
        with open(path, "w") as f:
            for event in self:
                value = int(getattr(event, attribute))
                if event.stack and value > 0:
                    frames = ";".join(frame.translate(spaces_away) for frame in reversed(event.stack))
                    f.write(f"{frames} {value}\n")
