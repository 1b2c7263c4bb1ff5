"""torch.nn.parallel on a CPU-only build: DataParallel with no devices to spread over calls its module directly,
as torch's does when no accelerator is available; the functional data_parallel raises torch's error, having no device
type to run on. DistributedDataParallel runs over torch.distributed's group of one process (minitorch2/distributed):
averaging gradients across one rank leaves them as they are, so it too calls its module. Runtime layer, coverage
surface."""
import contextlib

from ... import distributed
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


class DistributedDataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True, process_group=None,
                 bucket_cap_mb=None, find_unused_parameters=False, check_reduction=False, gradient_as_bucket_view=False,
                 static_graph=False, **kwargs):
        super().__init__()
        distributed.get_world_size(process_group)  # torch's error when no group was initialized
        if not any(p.requires_grad for p in module.parameters()):
            raise RuntimeError("DistributedDataParallel is not needed when a module doesn't have any parameter that "
                               "requires a gradient.")
        self.module = module
        self.device_ids = device_ids
        self.dim = dim
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)

    @contextlib.contextmanager
    def no_sync(self):
        """Gradients accumulate without the all-reduce (with one rank there is nothing to reduce either way)."""
        previous = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = previous


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    raise RuntimeError("device type could not be determined")


__all__ = ["DataParallel", "DistributedDataParallel", "data_parallel"]
