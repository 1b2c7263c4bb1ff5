"""Packed batches (nn.utils.rnn: PackedSequence, pack_padded_sequence, pad_packed_sequence, pack_sequence) and the
recurrent layers run on them, as the NLP tutorials use them (embed, pack, LSTM, unpack), against torch: the packed
layout, the padded result and lengths, errors in torch's words, outputs, final states and gradients."""
import numpy as np
import pytest
import torch

import minitorch2

LIBS = (torch, minitorch2)


def close(ours, theirs, tol=1e-5):
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("lengths, enforce_sorted, batch_first", [([4, 3, 1], True, False), ([2, 4, 3], False, False),
                                                                   ([3, 4, 3], False, True)])
def test_pack_then_pad_gives_torchs_layout_and_padded_batch(lengths, enforce_sorted, batch_first):
    results = []
    for lib in LIBS:
        x = lib.arange(24.0).view(4, 3, 2)
        x = x.transpose(0, 1) if batch_first else x
        packed = lib.nn.utils.rnn.pack_padded_sequence(x, lib.tensor(lengths), batch_first=batch_first,
                                                       enforce_sorted=enforce_sorted)
        padded, back = lib.nn.utils.rnn.pad_packed_sequence(packed, batch_first=batch_first, padding_value=-1.0,
                                                            total_length=5)
        results.append((repr(packed), padded.tolist(), back.tolist()))
    assert results[1] == results[0]


def test_pack_sequence_and_packed_sequence_fields():
    for lib in LIBS:
        packed = lib.nn.utils.rnn.pack_sequence([lib.ones(3), lib.zeros(2)])
        assert type(packed).__name__ == "PackedSequence" and packed._fields == (
            "data", "batch_sizes", "sorted_indices", "unsorted_indices")
        assert packed.batch_sizes.tolist() == [2, 2, 1] and packed.sorted_indices is None
        assert str(packed.to(lib.float64).data.dtype).endswith("float64") and not packed.is_cuda


@pytest.mark.parametrize("lengths, enforce_sorted, message", [
    ([2, 4, 3], True, "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True"),
    ([4, 0, 3], False, "Length of all samples has to be greater than 0"),
])
def test_bad_lengths_raise_torchs_error(lengths, enforce_sorted, message):
    for lib in LIBS:
        with pytest.raises(RuntimeError, match=message):
            lib.nn.utils.rnn.pack_padded_sequence(lib.zeros(4, 3, 2), lengths, enforce_sorted=enforce_sorted)


def run_packed(lib, mode, options, with_state):
    lib.manual_seed(0)
    embedding = lib.nn.Embedding(10, 4)
    rnn = getattr(lib.nn, mode)(4, 3, **options)
    tokens = lib.randint(1, 10, (5, 3))
    x = embedding(tokens)
    batch_first = options.get("batch_first", False)
    x = x.transpose(0, 1) if batch_first else x
    directions = 2 if options.get("bidirectional") else 1
    state = None
    if with_state:
        shape = (options.get("num_layers", 1) * directions, 3, 3)
        state = (lib.randn(shape), lib.randn(shape)) if mode == "LSTM" else lib.randn(shape)
    packed = lib.nn.utils.rnn.pack_padded_sequence(x, lib.tensor([3, 5, 2]), batch_first=batch_first,
                                                   enforce_sorted=False)
    out, hidden = rnn(packed, state)
    padded, _ = lib.nn.utils.rnn.pad_packed_sequence(out, batch_first=batch_first)
    h = hidden[0] if mode == "LSTM" else hidden
    (padded.pow(2).sum() + h.sum() + (hidden[1].sum() if mode == "LSTM" else 0)).backward()
    return [out.data, out.batch_sizes, padded, *(hidden if mode == "LSTM" else (hidden,)), embedding.weight.grad,
            *(p.grad for p in rnn.parameters())]


@pytest.mark.parametrize("mode, options, with_state", [
    ("LSTM", dict(num_layers=2, bidirectional=True), False),
    ("GRU", dict(bidirectional=True, batch_first=True), True),
    ("RNN", dict(num_layers=2, nonlinearity="relu"), True),
    ("LSTM", dict(), True),
])
def test_recurrent_layers_on_packed_batches_match_torch_values_states_and_gradients(mode, options, with_state):
    theirs, ours = run_packed(torch, mode, options, with_state), run_packed(minitorch2, mode, options, with_state)
    assert len(ours) == len(theirs)
    for mine, expected in zip(ours, theirs):
        assert tuple(mine.shape) == tuple(expected.shape)
        close(mine, expected)
