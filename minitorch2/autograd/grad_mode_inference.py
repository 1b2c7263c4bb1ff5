"""torch.inference_mode: grad mode off, and every tensor made meanwhile an inference tensor.

Runtime layer, beside grad_mode.py (coverage surface: no stage of the pipeline enters the mode). The flag lives in
the dispatcher's thread-local state; minitorch2/_inference_tensors.py says what the tensors made under it refuse.
Re-exported by grad_mode.py, where torch has these names (their reprs and printed graphs say so too).
"""
from .._dispatch import state
from .grad_mode import _GradModeContext


def is_inference_mode_enabled():
    return state.inference_mode


class inference_mode(_GradModeContext):
    def __new__(cls, mode=True):
        return super().__new__(cls) if isinstance(mode, bool) else cls()(mode)  # @torch.inference_mode, bare

    def __init__(self, mode=True):
        self._ctor_args = (mode,)
        self.mode = mode

    def __enter__(self):
        self._previous_inference = state.inference_mode
        state.inference_mode = self.mode
        self._set(not self.mode)  # (inference_mode(False) turns grad mode on, as c10::InferenceMode(false) does)

    def __exit__(self, *exc):
        state.inference_mode = self._previous_inference
        return super().__exit__(*exc)


def _enter_inference_mode(mode):
    """An inference_mode block's entry as a call (the form compiled graphs record it in); returns the block."""
    block = inference_mode(mode)
    block.__enter__()
    return block


def _exit_inference_mode(block):
    block.__exit__(None, None, None)


for _fn in (inference_mode, _enter_inference_mode, _exit_inference_mode):
    _fn.__module__ = "minitorch2.autograd.grad_mode"
