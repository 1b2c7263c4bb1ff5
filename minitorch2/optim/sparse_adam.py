"""optim.SparseAdam (as torch.optim.SparseAdam): the constructor and its checks, and the dense-gradient refusal.

Coverage surface (outside the lesson): scripts that build `SparseAdam` next to
`nn.Embedding(sparse=True)` import and construct it. minitorch2 has no sparse tensors, so every
gradient it produces is dense, and PyTorch's SparseAdam refuses dense gradients: `step()` raises
PyTorch's RuntimeError for them (the masked sparse update itself has nothing to run on).
"""
from .optimizer import Optimizer


class SparseAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))
        complex_params = [[g, i] for g, group in enumerate(self.param_groups)
                          for i, p in enumerate(group["params"]) if p.is_complex()]
        if complex_params:
            raise ValueError(
                f"Complex params at indices {complex_params}: SparseAdam does not support complex parameters")

    def _update(self, param, group):
        raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam instead")
