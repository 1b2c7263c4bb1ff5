"""torch.backends.mkldnn: oneDNN is not used by minitorch2's kernels (see backends/__init__.py)."""
enabled = True


def is_available():
    return False
