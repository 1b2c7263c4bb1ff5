"""nn.utils.rnn's pad_sequence (as torch.nn.utils.rnn). Runtime layer, coverage surface.

PackedSequence, pack_padded_sequence and pad_packed_sequence are not here: nn.RNN/LSTM/GRU (modules/rnn.py) take
only padded tensors, so a packed batch would have nowhere to go.
"""
from collections import abc

from ... import _functions
from ..._ops import ops

aten = ops.aten


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Sequences of lengths L_i (and equal trailing dims) stacked into (max L, B, *) or (B, max L, *), each padded
    with `padding_value` after its end (or before its start, padding_side='left')."""
    if not isinstance(sequences, abc.Iterable):
        raise RuntimeError(f"pad_sequence: Expected iterable for input sequences, but got arg of type: {type(sequences)}")
    sequences = tuple(sequences)
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    longest = max(s.shape[0] for s in sequences)
    trailing = list(sequences[0].shape[1:])
    padded = []
    for s in sequences:
        for dim, (want, got) in enumerate(zip(trailing, s.shape[1:]), 1):
            if got not in (want, 1):
                raise RuntimeError(f"The size of tensor a ({want}) must match the size of tensor b ({got}) at "
                                   f"non-singleton dimension {dim}")
        s = aten.expand.default(s, [s.shape[0]] + trailing)
        missing = longest - s.shape[0]
        pad = [0, missing] if padding_side == "right" else [missing, 0]
        padded.append(aten.constant_pad_nd.default(s, [0, 0] * len(trailing) + pad, padding_value))
    return _functions.stack(padded, 0 if batch_first else 1)
