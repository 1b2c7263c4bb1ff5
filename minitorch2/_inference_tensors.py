"""Inference tensors: what torch.inference_mode leaves behind, and the three things they refuse outside it.

Runtime layer, beside the eager autograd (coverage surface). A tensor made while inference mode is on (by an op,
a factory or from_numpy) is an inference tensor, and so is every view of it: the mark lives on the version counter
a tensor shares with its views (`_VersionCounter.inference`, minitorch2/_tensor.py), so a view of a normal tensor
taken inside the mode stays normal, as in torch. Outside the mode an inference tensor may be read by any op, but
autograd may not save it for backward (autograd/graph.py's SavedTensor refuses), it may not be written in place
(Tensor._bump_version refuses, after the write, where torch's version bump does) and it may not start to require grad
(Tensor.requires_grad refuses). A clone made outside the mode is a
normal tensor: torch's advice in each message.
"""
REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."

SAVED_FOR_BACKWARD = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
    "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it "
    "in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
INPLACE_UPDATE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal "
    "tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.")


def is_inference(input):
    """torch.is_inference / Tensor.is_inference: made in inference mode, or a view of such a tensor."""
    return input._version_counter.inference


def check_saved(tensor):
    """Outside the mode (inside it nothing is recorded: a custom Function's save_for_backward keeps what it likes)."""
    if tensor._version_counter.inference and not tensor._version_counter.dispatch_state.inference_mode:
        raise RuntimeError(SAVED_FOR_BACKWARD)


def check_write(counter):
    """After an in-place write (torch's version bump refuses after the kernel has written, as here)."""
    if counter.inference and not counter.dispatch_state.inference_mode:
        raise RuntimeError(INPLACE_UPDATE)


def check_requires_grad(tensor, value):
    if value and tensor._version_counter.inference and not tensor._version_counter.dispatch_state.inference_mode:
        raise RuntimeError(REQUIRES_GRAD)
