"""A DataLoader's worker processes (num_workers > 0), run one after another in this process.

Runtime library surface, beside dataloader.py. torch gives each worker a copy of the dataset and its own random
state: `random`, the torch generator and numpy's seeded from the iteration's base seed plus the worker's id (numpy
through torch's `_generate_state` hash), then `worker_init_fn(id)`. Batches are handed out round robin over the
workers still running, two per worker in flight, and come back in the order they were handed out; an iterable
dataset's worker that runs dry drops the batches it was given. Here each worker is a `_Worker` whose random state
is swapped in around everything it runs, so a dataset that draws random numbers while loading (an augmentation),
or shards itself by get_worker_info(), gives the batches torch's workers give, and the main process's random
state is left as it was.
"""
import collections
import copy
import itertools
import random

import numpy as np

import minitorch2

from .dataset import IterableDataset

_current = None  # the WorkerInfo of the worker running now (get_worker_info)


class WorkerInfo:
    """What get_worker_info() returns inside a worker: its id, the number of workers, its seed, its dataset."""

    def __init__(self, id, num_workers, seed, dataset):
        self.id, self.num_workers, self.seed, self.dataset = id, num_workers, seed, dataset
        self.rng, self.worker_method = None, "multiprocessing"

    def __repr__(self):
        return (f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed}, "
                f"dataset={self.dataset!r}, rng=None, worker_method='multiprocessing')")


def get_worker_info():
    """The running worker's WorkerInfo; None in the main process."""
    return _current


def _generate_state(base_seed, worker_id):
    """torch's seed for a worker's numpy: four 32-bit words hashed from the base seed and the worker id (the
    SeedSequence scheme torch copies, so that workers' numpy streams differ)."""
    mask, shift = 0xFFFFFFFF, 16
    hash_constant = 0x43B0D7E5

    def hashed(value):
        nonlocal hash_constant
        value = (value ^ hash_constant) & mask
        hash_constant = (hash_constant * 0x931E8875) & mask
        value = (value * hash_constant) & mask
        return (value ^ (value >> shift)) & mask

    def mix(x, y):
        result = (((0xCA01F9DD * x) & mask) - ((0x4973F715 * y) & mask)) & mask
        return (result ^ (result >> shift)) & mask

    pool = [hashed(word) for word in (worker_id, base_seed & mask, base_seed >> 32, 0)]
    for source in range(4):
        for target in range(4):
            if source != target:
                pool[target] = mix(pool[target], hashed(pool[source]))
    state, hash_constant = [], 0x8B51F9DD
    for word in pool:
        word = (word ^ hash_constant) & mask
        hash_constant = (hash_constant * 0x58F38DED) & mask
        word = (word * hash_constant) & mask
        state.append((word ^ (word >> shift)) & mask)
    return state


def _random_state():
    return minitorch2.get_rng_state(), random.getstate(), np.random.get_state()


def _set_random_state(state):
    torch_state, python_state, numpy_state = state
    minitorch2.set_rng_state(torch_state)
    random.setstate(python_state)
    np.random.set_state(numpy_state)


class _Worker:
    def __init__(self, loader, worker_id, base_seed):
        self.loader, self.stream, self.ended = loader, None, False
        self.info = WorkerInfo(worker_id, loader.num_workers, base_seed + worker_id, copy.copy(loader.dataset))
        self.state = None
        self.run(self._start, base_seed)

    def run(self, fn, *args):
        """fn(*args) as this worker: its random state and get_worker_info() in, the main process's back after."""
        global _current
        main, previous = _random_state(), _current
        try:
            _current = self.info
            if self.state is not None:
                _set_random_state(self.state)
            return fn(*args)
        finally:
            self.state, _current = _random_state(), previous
            _set_random_state(main)

    def _start(self, base_seed):
        random.seed(self.info.seed)
        minitorch2.manual_seed(self.info.seed)
        np.random.seed(_generate_state(base_seed, self.info.id))
        if self.loader.worker_init_fn is not None:
            self.loader.worker_init_fn(self.info.id)

    def restart_stream(self):
        self.stream, self.ended = None, False

    def fetch(self, indices):
        """The batch for `indices` (map-style), or the next batch of the stream; _END once an iterable runs dry."""
        loader, dataset = self.loader, self.info.dataset
        if not isinstance(dataset, IterableDataset):
            if loader.batch_sampler is None:
                return loader.collate_fn(dataset[indices])
            getitems = getattr(dataset, "__getitems__", None)
            return loader.collate_fn(getitems(indices) if callable(getitems) else [dataset[i] for i in indices])
        if self.ended:
            return _END
        if self.stream is None:
            self.stream = iter(dataset)
        if loader.batch_size is None:
            sample = next(self.stream, _END)
            self.ended = sample is _END
            return _END if self.ended else loader.collate_fn(sample)
        batch = []
        for sample in self.stream:
            batch.append(sample)
            if len(batch) == loader.batch_size:
                break
        else:
            self.ended = True
        if not batch or (loader.drop_last and len(batch) < loader.batch_size):
            return _END
        return loader.collate_fn(batch)


_END = object()


def iterate_with_workers(loader, workers, tasks):
    """Batches as torch's multi-process iterator yields them: `tasks` gives each batch's indices (None for each
    batch of an iterable dataset); a batch goes to the next worker still running, round robin, prefetch_factor
    batches per worker handed out ahead, and one more each time a worker answers."""
    running = [True] * len(workers)
    order = itertools.cycle(range(len(workers)))
    handed = collections.deque()

    def hand_out():
        indices = next(tasks, _END)
        if indices is _END:
            return
        for _ in range(len(workers)):
            worker = next(order)
            if running[worker]:
                handed.append((worker, indices))
                return

    for _ in range((loader.prefetch_factor or 2) * len(workers)):
        hand_out()
    while handed:
        worker, indices = handed.popleft()
        if not running[worker]:  # (a worker that ran dry answers nothing more: its batches are dropped)
            continue
        batch = workers[worker].run(workers[worker].fetch, indices)
        if batch is _END:
            running[worker] = False
        hand_out()
        if batch is not _END:
            yield batch
