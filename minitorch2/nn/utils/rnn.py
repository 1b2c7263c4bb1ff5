"""nn.utils.rnn (as torch.nn.utils.rnn): pad_sequence, and packed batches of sequences of different lengths.
Runtime layer, coverage surface.

A PackedSequence holds a batch time step by time step: `data` is every sequence's step 0, then every step 1 of
the sequences that long, ...; `batch_sizes[t]` says how many sequences reach step t. Sequences are packed longest
first: `sorted_indices` is that order (None when the caller's batch was already sorted) and `unsorted_indices`
its inverse. nn.RNN/LSTM/GRU (modules/rnn.py) run a packed batch step by step over the `batch_sizes[t]`
sequences still going, as ATen's packed recurrence does.
"""
from collections import abc, namedtuple

from ... import _dtype, _factories, _functions
from ..._ops import ops
from ..._tensor import Tensor

aten = ops.aten


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Sequences of lengths L_i (and equal trailing dims) stacked into (max L, B, *) or (B, max L, *), each padded
    with `padding_value` after its end (or before its start, padding_side='left')."""
    if not isinstance(sequences, abc.Iterable):
        raise RuntimeError(f"pad_sequence: Expected iterable for input sequences, but got arg of type: "
                           f"{type(sequences)}")
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


class PackedSequence(namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else type(self)(data, self.batch_sizes, self.sorted_indices,
                                                          self.unsorted_indices)

    @property
    def is_cuda(self):
        return False

    def is_pinned(self):
        return False


def invert_permutation(permutation):
    if permutation is None:
        return None
    output = _factories.empty_like(permutation)
    output.scatter_(0, permutation, _factories.arange(0, permutation.numel(), dtype=_dtype.int64))
    return output


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """A padded batch (T, B, *) (or (B, T, *) with batch_first) of sequences `lengths` long, packed."""
    lengths = [int(n) for n in (lengths.tolist() if isinstance(lengths, Tensor) else lengths)]
    sorted_indices = None
    if not enforce_sorted:
        order = sorted(range(len(lengths)), key=lambda i: -lengths[i])  # stable, as torch's sort
        sorted_indices = _factories.tensor(order, dtype=_dtype.int64)
        lengths = [lengths[i] for i in order]
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    elif any(a < b for a, b in zip(lengths, lengths[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You "
                           "can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep "
                           "this requirement if you do not need ONNX exportability.")
    if min(lengths) <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    if batch_first:
        input = input.transpose(0, 1)
    batch_sizes = [sum(1 for n in lengths if n > t) for t in range(lengths[0])]
    data = _functions.cat([input[t, :size] for t, size in enumerate(batch_sizes)], 0)
    return PackedSequence(data, _factories.tensor(batch_sizes, dtype=_dtype.int64), sorted_indices)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The packed batch as a padded (T, B, *) tensor (in the caller's order) and the sequences' lengths."""
    batch_sizes = sequence.batch_sizes.tolist()
    steps = len(batch_sizes)
    if total_length is not None:
        if total_length < steps:
            raise ValueError(f"Expected total_length to be at least the length of the longest sequence in input, but "
                             f"got total_length={total_length} and max sequence length being {steps}")
        steps = total_length
    batch, trailing = batch_sizes[0], list(sequence.data.shape[1:])
    rows, start = [], 0
    for size in batch_sizes:
        step = sequence.data[start:start + size]
        start += size
        rows.append(aten.constant_pad_nd.default(step, [0, 0] * len(trailing) + [0, batch - size], padding_value))
    rows += [_factories.full([batch] + trailing, padding_value, dtype=sequence.data.dtype)] * (steps - len(rows))
    padded = _functions.stack(rows, 0)
    lengths = _factories.tensor([sum(1 for size in batch_sizes if size > b) for b in range(batch)], dtype=_dtype.int64)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices]
    return (padded.transpose(0, 1) if batch_first else padded), lengths


def pack_sequence(sequences, enforce_sorted=True):
    """Sequences of different lengths (each (L_i, *)) packed."""
    lengths = [s.size(0) for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)
