"""Source locations of graph nodes: the user stack each node was recorded under, as Dynamo stores it.

Frontend layer, called by OutputGraph when it makes a node. Every node carries `meta["stack_trace"]`: the frames
being translated when it was made (the compiled frame, then each inlined function and module forward), formatted
by the traceback module with line and column span (`File "/tmp/mlp.py", line 9, in step` and the source line).
fx's printer shows the innermost frame as `# File: ...` comments; AOT hands the text on to the aten nodes. As
Dynamo leaves out torch/nn/modules, minitorch2's nn frames are left out (`h = self.fc(x)` points at the forward).
"""
import functools
import os
import traceback

import minitorch2.nn.modules

_LIBRARY_MODULES_DIR = os.path.dirname(os.path.abspath(minitorch2.nn.modules.__file__)) + os.sep
_CALL_MODULE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "eval_frame.py")  # (its _call_module)


@functools.lru_cache(maxsize=None)
def is_library_module_file(filename):
    """Is this file one of minitorch2's nn modules, or the frame calling a compiled module with hooks (frames a
    stack trace skips, as Dynamo skips torch.nn's)?"""
    path = os.path.abspath(filename)
    return path.startswith(_LIBRARY_MODULES_DIR) or path == _CALL_MODULE_FILE


def frame_key(tx):
    """(file, line, function, first column, end column) of the instruction a translator is running."""
    code, inst = tx.code, tx.current_instruction
    positions = inst.positions if inst is not None else None
    if positions is None:
        return code.co_filename, tx.lineno, code.co_name, None, None
    return code.co_filename, tx.lineno, code.co_name, positions.col_offset, positions.end_col_offset


class StackTraceRecorder:
    """One per OutputGraph: the stack trace of the translators running now, formatted once per distinct stack."""

    def __init__(self):
        self.tracers = []  # the translators running, the compiled frame first (pushed and popped by their run())
        self._formatted = {}

    def record(self, node):
        """The node's `meta["stack_trace"]`, while a translator runs."""
        if self.tracers:
            node.meta["stack_trace"] = self.current()

    def current(self):
        keys = tuple(frame_key(tx) for tx in self.tracers if not is_library_module_file(tx.code.co_filename))
        text = self._formatted.get(keys)
        if text is None:  # the traceback module's text of these frames, outermost first
            summaries = [traceback.FrameSummary(filename, lineno, name, lookup_line=False, colno=colno,
                                                end_colno=end_colno) for filename, lineno, name, colno, end_colno in keys]
            text = self._formatted[keys] = "".join(traceback.StackSummary.from_list(summaries).format())
        return text
