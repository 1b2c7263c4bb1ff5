"""torch.utils.data against torch: the same seed gives the same batches, in the same structure, and the
random stream after a loop is the same (a loader draws a base seed per iteration, a shuffling sampler a
seed of its own); bad arguments raise torch's error class and words."""
import collections
import warnings

import numpy as np
import pytest
import torch
import torch.utils.data as tdata

import minitorch2
import minitorch2.utils.data as mdata

LIBS = [(torch, tdata), (minitorch2, mdata)]


def as_plain(value):
    """A batch as nested Python values (tensors as (dtype name, list)), comparable across the libraries."""
    if isinstance(value, (torch.Tensor, minitorch2.Tensor)):
        return (str(value.dtype).split(".")[-1], value.tolist())
    if isinstance(value, dict):
        return {k: as_plain(v) for k, v in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return (type(value).__name__, [as_plain(v) for v in value])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [as_plain(v) for v in value])
    return value


def both(program):
    """program(lib, data) run on torch and on minitorch2, each after manual_seed(0); the two results."""
    results = []
    for lib, data in LIBS:
        lib.manual_seed(0)
        results.append(as_plain(program(lib, data)))
    return results


def test_training_loop_over_a_shuffled_tensor_dataset_sees_torchs_batches_and_random_stream():
    def program(lib, data):
        xs, ys = lib.arange(40.).reshape(20, 2), lib.arange(20) % 3
        loader = data.DataLoader(data.TensorDataset(xs, ys), batch_size=6, shuffle=True)
        seen = []
        for epoch in range(2):
            for x, y in loader:
                seen.append([x, y, lib.randn(1)])  # a random call between batches (dropout, noise)
        return seen + [len(loader), lib.rand(2)]

    ours, expected = both(program)[::-1]
    assert ours == expected


@pytest.mark.parametrize("drop_last", [False, True])
def test_drop_last_seeded_generator_and_replacement(drop_last):
    def program(lib, data):
        dataset = data.TensorDataset(lib.arange(11))
        generator = lib.Generator().manual_seed(7)
        shuffled = list(data.DataLoader(dataset, batch_size=4, shuffle=True, drop_last=drop_last, generator=generator))
        sampler = data.RandomSampler(dataset, replacement=True, num_samples=37)
        return [shuffled, list(sampler), len(data.DataLoader(dataset, batch_size=4, drop_last=drop_last))]

    expected, ours = both(program)
    assert ours == expected


def test_random_split_by_lengths_and_fractions():
    def program(lib, data):
        dataset = data.TensorDataset(lib.arange(10))
        by_length = data.random_split(dataset, [3, 7])
        by_fraction = data.random_split(range(7), [0.5, 0.3, 0.2], generator=lib.Generator().manual_seed(42))
        return [[list(s.indices) for s in by_length], [list(s.indices) for s in by_fraction], by_length[1][2]]

    expected, ours = both(program)
    assert ours == expected


Point = collections.namedtuple("Point", "x y")


class Records:
    """A map-style dataset of mixed samples, as real projects write them."""

    def __init__(self, lib):
        self.lib = lib

    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"image": self.lib.full((2, 2), float(i)), "label": i, "weight": i / 2, "name": f"s{i}",
                "point": Point(np.float32(i), np.arange(3) + i), "pair": (i, [i, -i]), "flag": i % 2 == 0,
                "tagged": (f"t{i}", i)}  # (its strings collate to a tuple)


def test_default_collate_on_dicts_namedtuples_numpy_numbers_and_strings():
    def program(lib, data):
        dataset = type("D", (Records, data.Dataset), {})(lib)
        return list(data.DataLoader(dataset, batch_size=2))

    expected, ours = both(program)
    assert ours == expected


def test_without_batching_numpy_numbers_become_tensors_as_torchs():
    """batch_size=None converts each sample: NumPy scalars too (found in session 36: they were left as they were)."""
    def program(lib, data):
        dataset = type("D", (Records, data.Dataset), {})(lib)
        return list(data.DataLoader(dataset, batch_size=None)) + [data.default_convert(
            [np.int64(3), np.bool_(True), np.str_("a"), np.array(["x"]), (np.float16(1.5),)])]

    expected, ours = both(program)
    assert ours == expected


def test_no_auto_batching_subset_concat_and_samplers():
    def program(lib, data):
        dataset = data.TensorDataset(lib.arange(6.), lib.arange(6))
        unbatched = list(data.DataLoader(dataset, batch_size=None))
        subset = data.Subset(dataset, [4, 0, 2])
        concat = data.ConcatDataset([subset, dataset])
        by_sampler = list(data.DataLoader(dataset, sampler=data.SubsetRandomSampler([1, 3, 5]), batch_size=2))
        weighted = list(data.WeightedRandomSampler([0.1, 0.0, 3.0, 1.0], 6))
        batches = list(data.DataLoader(dataset, batch_sampler=data.BatchSampler(range(5), 2, False)))
        return [unbatched, [concat[i] for i in (0, 2, 3, -1)], len(concat), by_sampler, weighted, batches]

    expected, ours = both(program)
    assert ours == expected


def test_iterable_dataset_is_read_in_order_and_cut_into_batches():
    def program(lib, data):
        class Stream(data.IterableDataset):
            def __iter__(self):
                return iter([lib.tensor([i, i * i]) for i in range(7)])

            def __len__(self):
                return 7

        return [list(data.DataLoader(Stream(), batch_size=3)), len(data.DataLoader(Stream(), batch_size=3)),
                list(data.DataLoader(Stream(), batch_size=3, drop_last=True)), list(data.DataLoader(Stream(),
                                                                                                  batch_size=None))]

    expected, ours = both(program)
    assert ours == expected


def test_iter_of_a_loader_is_torchs_iterator_with_a_length():
    def program(lib, data):
        loaders = [data.DataLoader(data.TensorDataset(lib.arange(5.)), batch_size=2, num_workers=workers)
                   for workers in (0, 1)]
        iterators = [iter(loader) for loader in loaders]
        return [(type(it).__name__, len(it), next(it), iter(it) is it, len(list(it))) for it in iterators]

    expected, ours = both(program)
    assert ours == expected


def test_num_workers_gives_the_same_batches():
    def program(lib, data):
        return list(data.DataLoader(data.TensorDataset(lib.arange(9.)), batch_size=4, num_workers=2))

    expected, ours = both(program)
    assert ours == expected


BAD_LOADERS = {
    "negative workers": lambda lib, data, ds: data.DataLoader(ds, num_workers=-1),
    "sampler and shuffle": lambda lib, data, ds: data.DataLoader(ds, sampler=data.SequentialSampler(ds), shuffle=True),
    "batch_sampler and batch_size": lambda lib, data, ds: data.DataLoader(
        ds, batch_size=3, batch_sampler=data.BatchSampler(range(3), 2, False)),
    "no batching and drop_last": lambda lib, data, ds: data.DataLoader(ds, batch_size=None, drop_last=True),
    "zero batch size": lambda lib, data, ds: data.BatchSampler(range(3), 0, False),
    "num_samples zero": lambda lib, data, ds: data.RandomSampler(ds, num_samples=0),
    "lengths not summing": lambda lib, data, ds: data.random_split(ds, [1, 1]),
    "ragged lists": lambda lib, data, ds: data.default_collate([[1, 2], [3]]),
    "unknown sample type": lambda lib, data, ds: data.default_collate([object()]),
    "shuffled stream": lambda lib, data, ds: data.DataLoader(
        type("S", (data.IterableDataset,), {"__iter__": lambda self: iter(range(3))})(), shuffle=True),
}


@pytest.mark.parametrize("name", list(BAD_LOADERS))
def test_bad_arguments_raise_torchs_error(name):
    errors = []
    for lib, data in LIBS:
        with pytest.raises(Exception) as info:
            BAD_LOADERS[name](lib, data, data.TensorDataset(lib.arange(5)))
        errors.append(info.value)
    expected, ours = errors
    assert type(ours) is type(expected)
    assert str(ours).replace("minitorch2", "torch") == str(expected)


def test_zero_length_split_warns_as_torch_does():
    for lib, data in LIBS:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            data.random_split(range(1), [0.1, 0.9])
        assert [str(w.message) for w in caught] == ["Length of split at index 1 is 0. This might result in an empty "
                                                    "dataset."]
