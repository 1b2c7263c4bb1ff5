"""nn.utils (as torch.nn.utils): fusion helpers and gradient clipping."""
from . import fusion  # noqa: F401
from .clip_grad import clip_grad_norm_  # noqa: F401
