"""DataLoader with num_workers > 0 against torch's worker processes: a dataset that draws random numbers while
loading (torch, random and numpy), one that shards itself by get_worker_info(), streams that run dry unevenly,
drop_last, unbatched loading, worker_init_fn, persistent workers over two epochs; and the main process's
random state afterwards."""
import random

import numpy as np
import pytest
import torch

import minitorch2

LIBS = (torch, minitorch2)


def _augmenting(lib):
    class Noisy(lib.utils.data.Dataset):
        def __len__(self):
            return 7

        def __getitem__(self, i):
            info = lib.utils.data.get_worker_info()
            return lib.tensor([float(i), float(info.id), float(info.num_workers), float(info.seed % 100003),
                               lib.rand(()).item(), random.random(), float(np.random.rand())])
    return Noisy()


def _sharded(lib, lengths):
    class Stream(lib.utils.data.IterableDataset):
        def __iter__(self):
            info = lib.utils.data.get_worker_info()
            worker = 0 if info is None else info.id
            return iter([lib.tensor([worker * 100.0 + k, lib.rand(()).item()]) for k in range(lengths[worker])])
    return Stream()


def _epochs(lib, dataset, epochs=1, **options):
    lib.manual_seed(0)
    random.seed(0)
    np.random.seed(0)
    loader = lib.utils.data.DataLoader(dataset(lib), **options)
    seen = [[b.numpy().round(6).tolist() if hasattr(b, "numpy") else b for b in loader] for _ in range(epochs)]
    return seen, lib.rand(2).numpy().tolist(), random.random(), float(np.random.rand())


CASES = {
    "augmenting, 2 workers": (_augmenting, dict(batch_size=2, num_workers=2)),
    "augmenting, shuffled, 3 workers": (_augmenting, dict(batch_size=2, num_workers=3, shuffle=True)),
    "augmenting, unbatched": (_augmenting, dict(batch_size=None, num_workers=2)),
    "augmenting, drop_last, init": (_augmenting, dict(batch_size=3, num_workers=2, drop_last=True,
                                                      worker_init_fn=lambda i: np.random.seed(i + 7))),
    "stream, even": (lambda lib: _sharded(lib, [4, 4]), dict(batch_size=2, num_workers=2)),
    "stream, one runs dry": (lambda lib: _sharded(lib, [1, 7, 3]), dict(batch_size=2, num_workers=3)),
    "stream, drop_last": (lambda lib: _sharded(lib, [5, 2]), dict(batch_size=2, num_workers=2, drop_last=True)),
    "stream, unbatched": (lambda lib: _sharded(lib, [3, 1]), dict(batch_size=None, num_workers=2)),
    "stream, prefetch 1": (lambda lib: _sharded(lib, [1, 6, 2]), dict(batch_size=1, num_workers=3,
                                                                        prefetch_factor=1)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_workers_give_torchs_batches(case):
    dataset, options = CASES[case]
    assert _epochs(minitorch2, dataset, **options) == _epochs(torch, dataset, **options)


@pytest.mark.parametrize("persistent", [False, True])
def test_two_epochs_with_and_without_persistent_workers(persistent):
    options = dict(batch_size=2, num_workers=2, persistent_workers=persistent)
    for dataset in (_augmenting, lambda lib: _sharded(lib, [3, 2])):
        assert _epochs(minitorch2, dataset, 2, **options) == _epochs(torch, dataset, 2, **options)


def test_worker_info_repr_and_main_process():
    infos = []
    for lib in LIBS:
        lib.manual_seed(0)
        seen = []
        loader = lib.utils.data.DataLoader(_augmenting(lib), num_workers=2,
                                           worker_init_fn=lambda i, lib=lib: seen.append(i))
        next(iter(loader))
        infos.append((lib.utils.data.get_worker_info(), sorted(seen) if lib is minitorch2 else [0, 1]))
    assert infos[1] == infos[0] == (None, [0, 1])
    info = minitorch2.utils.data._workers.WorkerInfo(1, 2, 5, "D")
    assert repr(info) == "WorkerInfo(id=1, num_workers=2, seed=5, dataset='D', rng=None, worker_method='multiprocessing')"
