"""torch.ops.profiler._record_function_enter/_exit, and record_function, the context manager made of them.

Runtime layer, coverage surface. The two ops are rows of the op registry in their own namespace, `profiler`,
made with the op table's row maker and registered as the table's rows are (minitorch2/_aten/table.py,
minitorch2/_ops.py's register_table):

    profiler::_record_function_enter(str name, str? args=None) -> Tensor   opens a range: the handle tensor
    profiler::_record_function_exit(Tensor handle) -> ()                    closes it

Because they are ops, a traced graph can hold them (pytorch/examples fx/profiling_tracer.py records them in
place of record_function's __enter__/__exit__), and dead-code elimination keeps them: they are registered as
side-effectful, as torch's are. Their handle is an int64 scalar naming the range (torch's holds a pointer).
The profiler's timing mode lets them through unrecorded: the range they open is the event.
"""
import contextlib

import numpy as np

from .. import _dtype
from .._aten.meta_util import fake_empty
from .._aten.table import op
from .._ops import _AtenNamespace, ops, register_table
from ..fx import has_side_effect
from . import _recorder


def _enter_kernel(name, args=None):
    return np.array(_recorder.open_range(name), dtype=np.int64)


def _enter_meta(name, args=None):
    return fake_empty((), _dtype.int64)


def _exit_kernel(handle):
    _recorder.close_range(int(handle._np))


def _exit_meta(handle):
    return None


ROWS = [
    op("profiler::_record_function_enter(str name, str? args=None) -> Tensor", (), (_enter_kernel, _enter_meta),
       differentiable=False),
    op("profiler::_record_function_exit(Tensor handle) -> ()", (), (_exit_kernel, _exit_meta), differentiable=False),
]

# torch.ops.profiler: a namespace of its own beside aten and prims (which minitorch2/_ops.py makes)
if not hasattr(ops, "profiler"):
    ops.profiler = _AtenNamespace("profiler")
    register_table(ROWS)
    for packet in (ops.profiler._record_function_enter, ops.profiler._record_function_exit):
        has_side_effect(packet)
        has_side_effect(packet.default)


class record_function(contextlib.ContextDecorator):
    """A named range in the profile, around a block (`with record_function("step"):`) or a function (as a
    decorator). It shows as an event of that name, parent of the ops run inside it."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self.run_callbacks_on_exit = True
        self.record = None

    def __enter__(self):
        self.record = ops.profiler._record_function_enter.default(self.name, self.args)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if self.run_callbacks_on_exit:
            ops.profiler._record_function_exit.default(self.record)
        return False
