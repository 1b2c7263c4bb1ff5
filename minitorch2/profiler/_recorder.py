"""The recording under every profiler: a dispatch mode that times each op, and the record_function ranges.

Runtime layer, coverage surface. While a session records, its `_TimingMode` sits on the dispatcher's mode stack
(minitorch2/_dispatch.py), so every aten op called in this thread below autograd reaches it: forward ops, the
backward formulas' ops, what a record_function range holds. For each it opens a FunctionEvent, calls the op on down
the stack, and closes the event; a record_function range opens and closes one through `open_range`/`close_range`
(the kernels of torch.ops.profiler._record_function_enter/_exit, _ops.py). Open events nest: each new event is a
child of the innermost open one, so times come total and self.

With profile_memory, every output whose memory no input shares is an allocation: its bytes count for the open
events, and a finalizer on the numpy buffer counts the bytes back when it is freed. Bytes allocated or freed
with no event open become "[memory]" events, as torch lists them.

What torch records and this does not: a composite op above the ops it runs as (aten::linear above aten::addmm:
our F.linear calls addmm itself), the ops a kernel runs inside itself (aten::t's transpose and as_strided), the
autograd engine's "autograd::engine::evaluate_function: ..." ranges, and ops in other threads.
"""
import itertools
import os
import sys
import threading
import time
import traceback
import weakref

import numpy as np

from .._dispatch import current_modes, pop_mode, push_mode, state as _dispatch_state
from .._ops import ops
from .._tensor import Tensor
from ..autograd.graph import SavedTensor
from ..utils._python_dispatch import TorchDispatchMode
from ._events import FunctionEvent

_active = None  # the Recorder recording now (one at a time, as torch's profiler)
_open_ranges = {}  # record_function handle -> (Recorder, FunctionEvent), or None when nothing was recording
_handles = itertools.count(1)
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_USER_VISIBLE_DIRS = (os.path.join(_PACKAGE_DIR, "nn", "modules"),)  # Python code in torch too: kept in stacks
# autograd keeps an output for backward, and hands it to the formula, through a dispatched detach
# (autograd/graph.py's SavedTensor); torch's SavedVariable detaches without dispatching, so those calls are no events
_SAVED_TENSOR_CODE = (SavedTensor.__init__.__code__, SavedTensor.unpack.__code__)


class Recorder:
    """The events of one profiling session, in the order they began."""

    def __init__(self, record_shapes=False, profile_memory=False, with_stack=False):
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.events = []
        self.memory_records = []  # (time_us, bytes): for the chrome trace's [memory] instant events
        self._open = []
        self._ids = itertools.count(1)
        self._mode = _TimingMode(self)
        self.thread = threading.get_native_id()
        self.start_ns = self.end_ns = 0
        self.wall_start_ns = 0

    def start(self):
        global _active
        if _active is not None:
            raise RuntimeError("Profiler is already enabled on this thread")
        self.start_ns = time.perf_counter_ns()
        self.wall_start_ns = time.time_ns()
        _active = self
        push_mode(self._mode)

    def stop(self):
        global _active
        self.end_ns = time.perf_counter_ns()
        if current_modes() and current_modes()[-1] is self._mode:
            pop_mode()
        elif self._mode in _dispatch_state.modes:  # stopped inside a mode entered after it started (an autocast)
            _dispatch_state.modes.remove(self._mode)
        if _active is self:
            _active = None
        now = self.now_us()
        for event in self._open:  # a range still open when recording stops ends there
            event.time_range.end = now
        self._open = []

    @property
    def recording(self):
        return _active is self

    def now_us(self):
        return ((time.perf_counter_ns() if _active is self else self.end_ns) - self.start_ns) / 1000.0

    def begin(self, name, input_shapes=None, is_user_annotation=False, trace_name=None):
        now = self.now_us()
        event = FunctionEvent(next(self._ids), name, self.thread, now, now,
                              input_shapes=input_shapes if self.record_shapes else [],
                              stack=_python_stack() if self.with_stack else [],
                              is_user_annotation=is_user_annotation, trace_name=trace_name)
        if self._open:
            self._open[-1].append_cpu_child(event)
        self._open.append(event)
        self.events.append(event)
        return event

    def end(self, event):
        event.time_range.end = self.now_us()
        if event in self._open:  # ranges may close out of order (record_function handles); ops never do
            self._open.remove(event)

    def count_memory(self, nbytes):
        self.memory_records.append((self.now_us(), nbytes))
        if not self._open:
            event = self.begin("[memory]")
            self.end(event)
            event.cpu_memory_usage = nbytes
            return
        for event in self._open:
            event.cpu_memory_usage += nbytes


class _TimingMode(TorchDispatchMode):
    def __init__(self, recorder):
        self.recorder = recorder

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func.namespace == "profiler":  # record_function's own ops: the range is the event
            return func(*args, **kwargs)
        if func is ops.aten.detach.default and _called_by_saved_tensor():
            return func(*args, **kwargs)
        recorder = self.recorder
        name = f"{func.namespace}::{func._opname}"
        event = recorder.begin(name, _input_shapes(func, args, kwargs) if recorder.record_shapes else None)
        try:
            out = func(*args, **kwargs)
            if recorder.profile_memory:
                _count_allocations(recorder, out, args)
        finally:
            recorder.end(event)
        return out


def _called_by_saved_tensor():
    """Frames up from here: __torch_dispatch__, redispatch_below_autograd, then SavedTensor.__init__ (which
    redispatches itself) or dispatch, OpOverload.__call__ and SavedTensor.unpack (a wrapper of OpOverload.__call__,
    such as the recording one of hand-made FX Proxies, adds a frame or two)."""
    frame = sys._getframe(3)
    for _ in range(5):
        if frame is None or frame.f_code in _SAVED_TENSOR_CODE:
            return frame is not None
        frame = frame.f_back
    return False


def _input_shapes(func, args, kwargs):
    """One entry per schema argument, as torch records them: a tensor's sizes, [] for anything else."""
    shapes = []
    for i, argument in enumerate(func._schema.arguments):
        value = args[i] if not argument.kwarg_only and i < len(args) else kwargs.get(argument.name)
        shapes.append(list(value.shape) if isinstance(value, Tensor) else [])
    return shapes


def _python_stack():
    """The Python frames that led to the call, innermost first, as "file(line): function"; the runtime's own
    frames are left out (in torch they are C++, which its stacks do not show), nn.Module code is kept."""
    frames = []
    for frame in reversed(traceback.extract_stack(sys._getframe(1))):
        path = os.path.abspath(frame.filename)
        if path.startswith(_PACKAGE_DIR) and not path.startswith(_USER_VISIBLE_DIRS):
            continue
        frames.append(f"{frame.filename}({frame.lineno}): {frame.name}")
    return frames


# ------------------------------------------------------------------ memory
_tracked_buffers = set()  # ids of the numpy buffers counted as allocated and not yet freed


def _buffer_of(tensor):
    """The numpy array that owns a tensor's memory (the root of its storage's chain of views)."""
    buffer = tensor._storage
    while isinstance(buffer.base, np.ndarray):
        buffer = buffer.base
    return buffer


def _count_allocations(recorder, out, args):
    inputs = {id(_buffer_of(t)) for t in _tensors(args) if t._storage is not None}
    for tensor in _tensors(out if isinstance(out, (tuple, list)) else (out,)):
        if tensor._np is None or tensor._storage is None:
            continue
        buffer = _buffer_of(tensor)
        key = id(buffer)
        if key in inputs or key in _tracked_buffers:
            continue
        _tracked_buffers.add(key)
        recorder.count_memory(buffer.nbytes)
        weakref.finalize(buffer, _freed, key, buffer.nbytes)


def _freed(key, nbytes):
    _tracked_buffers.discard(key)
    if _active is not None and _active.profile_memory:
        _active.count_memory(-nbytes)


def _tensors(values):
    for value in values:
        if isinstance(value, Tensor):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, Tensor))


# ------------------------------------------------------------------ record_function ranges
def open_range(name):
    """Begin a user range in the recording session, if any; the handle closes it."""
    handle = next(_handles)
    recorder = _active
    _open_ranges[handle] = None if recorder is None else \
        (recorder, recorder.begin(display_name(name), is_user_annotation=True, trace_name=name))
    return handle


def close_range(handle):
    opened = _open_ranges.pop(handle, None)
    if opened is not None and opened[0] is _active:
        opened[0].end(opened[1])


def display_name(name):
    """torch lists every "ProfilerStep#<n>" range as "ProfilerStep*" (the trace keeps the number)."""
    return "ProfilerStep*" if name.startswith("ProfilerStep#") else name
