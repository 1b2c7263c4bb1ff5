"""torch.backends.mps on a machine without Apple's GPU (see backends/__init__.py)."""


def is_available():
    return False


def is_built():
    return False
