"""minitorch2.utils (as torch.utils): dispatch-mode helpers, pytrees, the data pipeline (utils.data) and
activation checkpointing (utils.checkpoint)."""
from ._swap import swap_tensors  # noqa: F401
