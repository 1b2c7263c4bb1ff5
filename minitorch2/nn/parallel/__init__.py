"""torch.nn.parallel on a CPU-only build: DataParallel with no devices to spread over calls its module directly,
as torch's does when no accelerator is available; the functional data_parallel raises torch's error, having no device
type to run on. Runtime layer, coverage surface."""
from ..modules.module import Module


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []  # torch's, with no CUDA device: nothing to replicate onto
        self.dim = dim
        self.output_device = None

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    raise RuntimeError("device type could not be determined")


__all__ = ["DataParallel", "data_parallel"]
