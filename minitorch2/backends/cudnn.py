"""torch.backends.cudnn on a machine without cuDNN: settable flags, no library (see backends/__init__.py)."""
enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available():
    return False


def version():
    return None
