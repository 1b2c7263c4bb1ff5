"""minitorch2.utils (as torch.utils): dispatch-mode helpers."""
