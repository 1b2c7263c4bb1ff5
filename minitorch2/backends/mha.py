"""torch.backends.mha: whether TransformerEncoder may take torch's inference fast path (nn/modules/transformer.py
takes its nested-tensor form, which zeroes the padded positions of the output)."""
_fastpath_enabled = True


def get_fastpath_enabled():
    return _fastpath_enabled


def set_fastpath_enabled(value):
    global _fastpath_enabled
    _fastpath_enabled = value
