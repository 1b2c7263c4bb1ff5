"""The DataLoader (as torch.utils.data.DataLoader) and its collate functions.

Runtime library surface. Iterating a loader: (1) draw the iteration's base seed from the loader's
generator (the default one otherwise), as torch's `_BaseDataLoaderIter` does even without workers;
(2) take the next batch of indices from the batch sampler (sampler.py); (3) fetch those samples from
the dataset; (4) collate them: tensors stacked on a new first dim, numbers into a tensor, and dicts,
tuples and lists collated field by field (`default_collate`). An iterable dataset is read in order
and cut into batches instead.

With num_workers > 0 the workers run in this process, one after another (_workers.py), each with its copy of
the dataset and its own random state seeded as torch seeds them, batches handed out round robin: the batches
are those torch's worker processes give, augmentations and get_worker_info() sharding included. torch's warnings
stay: more workers than the CPUs this process may use (when built and when iterated), pin_memory without an
accelerator.
"""
import collections.abc
import itertools
import os
import warnings

import numpy as np

import minitorch2
from minitorch2 import accelerator

from ._workers import _Worker, get_worker_info, iterate_with_workers  # noqa: F401  (get_worker_info: torch's path)
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

_COLLATE_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def default_convert(data):
    """numpy arrays and scalars in data (not those of strings or objects), however nested, as tensors; everything
    else unchanged."""
    if type(data).__module__ == "numpy" and not isinstance(data, (str, bytes)):
        return data if isinstance(data, np.ndarray) and data.dtype.kind in "SaUO" else minitorch2.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _same_type(data, {key: default_convert(data[key]) for key in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # a namedtuple
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _same_type(data, [default_convert(d) for d in data])
    return data


def default_collate(batch):
    """The list of samples `batch` as one batched sample of the same structure."""
    elem = batch[0]
    if isinstance(elem, minitorch2.Tensor):
        return minitorch2.stack(batch, 0)
    if type(elem).__module__ == "numpy" and not isinstance(elem, (str, bytes)):
        if isinstance(elem, np.ndarray):
            if elem.dtype.kind in "SaUO":
                raise TypeError(_COLLATE_ERROR.format(elem.dtype))
            return default_collate([minitorch2.as_tensor(b) for b in batch])
        if elem.shape == ():  # a numpy scalar
            return minitorch2.as_tensor(np.array(batch))
    if isinstance(elem, bool):
        return minitorch2.tensor(batch)
    if isinstance(elem, float):
        return minitorch2.tensor(batch, dtype=minitorch2.float64)
    if isinstance(elem, int):
        return minitorch2.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return _same_type(elem, {key: default_collate([d[key] for d in batch]) for key in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        collated = [default_collate(samples) for samples in zip(*batch)]  # (strings stay tuples, as torch's)
        return collated if isinstance(elem, tuple) else _same_type(elem, collated)
    raise TypeError(_COLLATE_ERROR.format(type(elem)))


def _same_type(like, value):
    """value as an instance of like's type when that type can be built from it (a dict subclass, a list
    subclass), as torch's collate tries; else value itself."""
    try:
        return type(like)(value)
    except TypeError:
        return value


class DataLoader:
    """Batches of a dataset: `for x, y in DataLoader(TensorDataset(xs, ys), batch_size=32, shuffle=True)`."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        iterable = isinstance(dataset, IterableDataset)
        if iterable and shuffle not in {False, None}:
            raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                             f"shuffle={shuffle}")
        if iterable and sampler is not None:
            raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got "
                             f"sampler={sampler}")
        if iterable and batch_sampler is not None:
            raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler option, but got "
                             f"batch_sampler={batch_sampler}")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")
        if sampler is None and not iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.dataset, self.batch_size, self.drop_last, self.num_workers = dataset, batch_size, drop_last, num_workers
        self.sampler, self.batch_sampler, self.generator, self.timeout = sampler, batch_sampler, generator, timeout
        self.pin_memory, self.worker_init_fn, self.prefetch_factor = pin_memory, worker_init_fn, prefetch_factor
        self.persistent_workers, self.multiprocessing_context = persistent_workers, multiprocessing_context
        self.collate_fn = collate_fn or (default_collate if self._auto_collation else default_convert)
        self._workers = None  # (kept from one iteration to the next with persistent_workers)
        self.check_worker_number_rationality()

    def check_worker_number_rationality(self):
        """torch's warning (on the caller's line) when num_workers exceeds the CPUs this process may run on."""
        affinity = hasattr(os, "sched_getaffinity")
        cpus = len(os.sched_getaffinity(0)) if affinity else os.cpu_count()
        if not self.num_workers or (cpus is not None and self.num_workers <= cpus):
            return
        suggestion = ("DataLoader is not able to compute a suggested max number of worker in current system."
                      if cpus is None else f"Our suggested max number of worker in current system is {cpus}"
                      f"{'' if affinity else ' (`cpuset` is not taken into account)'}, which is smaller than what "
                      "this DataLoader is going to create.")
        warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in total. {suggestion} Please "
                      "be aware that excessive worker creation might get DataLoader running slow or even freeze, "
                      "lower the worker number to avoid potential slowness/freeze if necessary.", stacklevel=2)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None or (isinstance(self.dataset, IterableDataset) and
                                                  self.batch_size is not None)

    def __iter__(self):
        if self.num_workers:
            self.check_worker_number_rationality()
        if self.pin_memory and not accelerator.is_available():
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                          "memory won't be used.")
        iterable = isinstance(self.dataset, IterableDataset)
        if self.num_workers and self.persistent_workers and self._workers is not None:
            for worker in self._workers:  # (the same workers, their random states carried on; no new base seed)
                worker.restart_stream()
        else:
            base_seed = minitorch2.empty((), dtype=minitorch2.int64).random_(generator=self.generator).item()
            if self.num_workers:
                self._workers = [_Worker(self, i, base_seed) for i in range(self.num_workers)]
        if self.num_workers:
            tasks = itertools.repeat(None) if iterable else iter(self.batch_sampler or self.sampler)
            return _MultiProcessingDataLoaderIter(self, iterate_with_workers(self, self._workers, tasks))
        return _SingleProcessDataLoaderIter(self, self._iterate_stream() if iterable else self._iterate_map())

    def _iterate_map(self):
        if self.batch_sampler is None:
            for index in self.sampler:
                yield self.collate_fn(self.dataset[index])
            return
        getitems = getattr(self.dataset, "__getitems__", None)
        for indices in self.batch_sampler:
            samples = getitems(indices) if callable(getitems) else [self.dataset[i] for i in indices]
            yield self.collate_fn(samples)

    def _iterate_stream(self):
        if self.batch_size is None:
            for sample in self.dataset:
                yield self.collate_fn(sample)
            return
        batch = []
        for sample in self.dataset:
            batch.append(sample)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)

    def __len__(self):
        if isinstance(self.dataset, IterableDataset):
            length = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else -(-length // self.batch_size)
            return length
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)


class _BaseDataLoaderIter:
    """What iter(loader) returns, as torch's: its batches one by one, and len() of the loader."""

    def __init__(self, loader, batches):
        self._loader, self._batches, self._num_yielded = loader, batches, 0

    def __iter__(self):
        return self

    def __next__(self):
        batch = next(self._batches)
        self._num_yielded += 1
        return batch

    def __len__(self):
        return len(self._loader)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    pass


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    pass
