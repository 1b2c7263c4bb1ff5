"""torch._utils' helpers that libraries call (runtime layer, coverage surface): _get_device_index, the index of a
device argument as CUDA code passes it around; on a CPU-only build a CPU device is refused unless allowed (-1)."""
from ._tensor import device as _device


def _get_device_index(device, optional=False, allow_cpu=False):
    if isinstance(device, str):
        device = _device(device)
    if isinstance(device, _device):
        if device.type == "cpu" and not allow_cpu:
            raise ValueError(f"Expected a non cpu device, but got: {device}")
        index = -1 if device.type == "cpu" else device.index
    else:
        index = device
    if index is None:
        if not optional:
            raise ValueError(f"Expected a torch.device with a specified index or an integer, but got:{device}")
        return 0
    return index
