"""torch.profiler.profile with its schedule; ProfilerActivity, ProfilerAction, schedule, tensorboard_trace_handler.

Runtime layer, coverage surface. A `profile` records only the CPU (ProfilerActivity.CUDA warns "CUDA is not
available, disabling CUDA profiling", as a CPU-only torch does; CUDA alone is an error). Without a schedule it
records from start() (or `with`) to stop(). With one, each step() asks `schedule(step)` for an action and moves
between them as torch does:

    NONE             not recording
    WARMUP           a fresh session is prepared, not recording yet
    RECORD           recording
    RECORD_AND_SAVE  recording; when the step ends, the session stops and on_trace_ready(prof) is called

Each step is a record_function range "ProfilerStep#<n>" (listed as "ProfilerStep*"). The events of the last
session that stopped are what events(), key_averages() and export_chrome_trace() give; each cycle starts afresh
(acc_events=True keeps the earlier cycles' events). One session (_legacy.profile) is made per cycle.
"""
import enum
import os
import socket
import time
import warnings

from ._legacy import profile as _Session
from ._ops import record_function


class ProfilerActivity(enum.Enum):
    CPU = 0
    XPU = 1
    CUDA = 2
    HPU = 3
    MTIA = 4
    PrivateUse1 = 5

    def __int__(self):
        return self.value


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def supported_activities():
    return {ProfilerActivity.CPU}


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """The action for each step: `skip_first` steps of NONE, then cycles of `wait` NONE, `warmup` WARMUP and
    `active` recording steps (the last RECORD_AND_SAVE), `repeat` times (0: for ever). With skip_first_wait,
    the first cycle starts without its wait."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup={warmup} (need >= 0), "
            f"active={active} (need > 0), repeat={repeat} (need >= 0), skip_first={skip_first} (need >= 0).")
    if warmup == 0:
        warnings.warn("Profiler won't be using warmup, this can skew profiler results", stacklevel=2)
    cycle = wait + warmup + active

    def action(step):
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait:
            step += wait
        if repeat > 0 and step / cycle >= repeat:
            return ProfilerAction.NONE
        position = step % cycle
        if position < wait:
            return ProfilerAction.NONE
        if position < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if position < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    return action


def _record_always(step):
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False, use_python_export=False):
    """An on_trace_ready that writes each cycle's Chrome trace to dir_name/<worker>.<ns>.pt.trace.json[.gz]."""

    def handler(prof):
        os.makedirs(dir_name, exist_ok=True)
        name = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        file_name = f"{name}.{time.time_ns()}.pt.trace.json" + (".gz" if use_gzip else "")
        prof.export_chrome_trace(os.path.join(dir_name, file_name))

    return handler


def _parse_activities(activities):
    chosen = set()
    for item in activities:
        chosen.update(item.keys() if isinstance(item, dict) else (item,))
    return chosen


class _KinetoProfile:
    """start()/stop() of one session, and the results of the last one."""

    def __init__(self, *, activities=None, record_shapes=False, profile_memory=False, with_stack=False,
                 with_flops=False, with_modules=False, experimental_config=None, execution_trace_observer=None,
                 acc_events=False, custom_trace_id_callback=None, post_processing_timeout_s=None):
        self.activities = _parse_activities(activities) if activities is not None else supported_activities()
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.with_modules = with_modules
        self.acc_events = acc_events
        self.profiler = None
        self.use_device = None
        self._warned_cycles = False

    def start(self):
        self.prepare_trace()
        self.start_trace()

    def stop(self):
        self.stop_trace()

    def prepare_trace(self):
        if self.profiler is not None and not self.acc_events and not self._warned_cycles:
            self._warned_cycles = True
            warnings.warn("Warning: Profiler clears events at the end of each cycle. Only events from the current "
                          "cycle will be reported. To keep events across cycles, set acc_events=True.", stacklevel=2)
        if self.profiler is None or not self.acc_events:
            wanted_cuda = ProfilerActivity.CUDA in self.activities
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the session's own CUDA warning: this class warned already
                self.profiler = _Session(use_device="cuda" if wanted_cuda else None,
                                         use_cpu=ProfilerActivity.CPU in self.activities,
                                         record_shapes=self.record_shapes, with_flops=self.with_flops,
                                         profile_memory=self.profile_memory, with_stack=self.with_stack,
                                         with_modules=self.with_modules, acc_events=self.acc_events)

    def start_trace(self):
        self.profiler._start_trace()

    def stop_trace(self):
        if self.profiler is not None:
            self.profiler._stop_trace()

    def export_chrome_trace(self, path, use_python_export=False):
        return self.profiler.export_chrome_trace(path)

    def export_stacks(self, path, metric="self_cpu_time_total"):
        return self.profiler.export_stacks(path, metric)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        return self.profiler.key_averages(group_by_input_shape, group_by_stack_n, group_by_overload_name)

    def events(self):
        return self.profiler.function_events

    def add_metadata(self, key, value):
        pass

    def add_metadata_json(self, key, value):
        pass


class profile(_KinetoProfile):
    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False, use_cuda=None,
                 custom_trace_id_callback=None, post_processing_timeout_s=None):
        chosen = _parse_activities(activities) if activities is not None else supported_activities()
        if use_cuda is not None:
            warnings.warn("`use_cuda` is deprecated, use `activities` argument instead", FutureWarning, stacklevel=2)
            chosen = chosen | {ProfilerActivity.CUDA} if use_cuda else chosen - {ProfilerActivity.CUDA}
        if not chosen:
            raise AssertionError("No valid profiler activities found")
        if ProfilerActivity.CUDA in chosen:
            warnings.warn("CUDA is not available, disabling CUDA profiling", stacklevel=2)
        if ProfilerActivity.CPU not in chosen:
            raise AssertionError("No activities specified for the profiler")
        super().__init__(activities=chosen, record_shapes=record_shapes, profile_memory=profile_memory,
                         with_stack=with_stack, with_flops=with_flops, with_modules=with_modules,
                         acc_events=acc_events)
        self.schedule = schedule or _record_always
        self.record_steps = schedule is not None
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self.step_rec_fn = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.stop()
        return False

    def start(self):
        self._transit(ProfilerAction.NONE, self.current_action)
        self._open_step()

    def stop(self):
        self._close_step()
        self._transit(self.current_action, None)

    def step(self):
        """The current step ends and the next begins: the schedule's action for it takes effect."""
        self._close_step()
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit(previous, self.current_action)
        self._open_step()

    def _open_step(self):
        if self.record_steps:
            self.step_rec_fn = record_function(f"ProfilerStep#{self.step_num}")
            self.step_rec_fn.__enter__()

    def _close_step(self):
        if self.step_rec_fn is not None:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None

    def _transit(self, previous, current):
        """What moving from one action to the next does (current None: the profiler stops)."""
        recording = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)
        wanted = (ProfilerAction.WARMUP,) + recording
        if previous is ProfilerAction.RECORD_AND_SAVE:
            self._save()
            if current in wanted:
                self.prepare_trace()
            if current in recording:
                self.start_trace()
        elif previous is ProfilerAction.RECORD:
            if current in (ProfilerAction.NONE, ProfilerAction.WARMUP):
                warnings.warn(f"Incorrect schedule: RECORD followed by {current.name}", stacklevel=3)
                self.stop_trace()
            elif current is None:
                self._save()
        elif previous is ProfilerAction.WARMUP:
            if current in recording:
                self.start_trace()
            elif current is not ProfilerAction.WARMUP:
                if current is ProfilerAction.NONE:
                    warnings.warn("Incorrect schedule: WARMUP followed by NONE", stacklevel=3)
                self.start_trace()
                self.stop_trace()
        elif current in wanted:  # previous NONE
            self.prepare_trace()
            if current in recording:
                self.start_trace()

    def _save(self):
        self.stop_trace()
        if self.on_trace_ready:
            self.on_trace_ready(self)
