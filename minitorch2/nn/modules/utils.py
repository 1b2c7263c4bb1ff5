"""torch.nn.modules.utils: the argument helpers custom layers import (`from torch.nn.modules.utils import _pair`).

Runtime layer, coverage surface. `_single`/`_pair`/`_triple`/`_quadruple` turn an int into a tuple of that many copies
and any iterable into a tuple; `_reverse_repeat_tuple` turns a conv's padding into F.pad's order;
`consume_prefix_in_state_dict_if_present` strips DataParallel's `module.` from a state dict's keys, in place.
"""
import collections.abc


def _ntuple(n, name="parse"):
    def parse(x):
        return tuple(x) if isinstance(x, collections.abc.Iterable) else (x,) * n

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t, n):
    """Each item of t, last first, n times: a conv's (h, w) padding as F.pad's (w, w, h, h)."""
    return tuple(item for item in t[::-1] for _ in range(n))


def _list_with_default(out_size, defaults):
    """An adaptive pool's output size with None entries taken from the input's trailing sizes."""
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    return [d if v is None else v for v, d in zip(out_size, defaults[-len(out_size):])]


def consume_prefix_in_state_dict_if_present(state_dict, prefix):
    """Removes `prefix` from the keys of state_dict (and of its _metadata) that start with it, in place."""
    for key in [k for k in state_dict if k.startswith(prefix)]:
        state_dict[key[len(prefix):]] = state_dict.pop(key)
    metadata = getattr(state_dict, "_metadata", None)
    if metadata is not None:
        for key in list(metadata):
            if key == prefix.replace(".", "") or key.startswith(prefix):
                metadata[key[len(prefix):] if key.startswith(prefix) else ""] = metadata.pop(key)
