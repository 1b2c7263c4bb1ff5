"""torch.inference_mode: grad mode off, and every tensor made meanwhile an inference tensor.

Runtime layer, beside grad_mode.py (coverage surface: no stage of the pipeline enters the mode). The flag lives in
the dispatcher's thread-local state; minitorch2/_inference_tensors.py says what the tensors made under it refuse.
Re-exported by grad_mode.py, where torch has the class (its repr says so too).
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


inference_mode.__module__ = "minitorch2.autograd.grad_mode"
