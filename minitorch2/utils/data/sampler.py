"""Samplers (as torch.utils.data.sampler): the order in which a DataLoader visits a map-style dataset.

Runtime library surface. RandomSampler without a generator of its own first draws a seed from the
default generator, then permutes with `randperm` on a fresh generator seeded with it, as torch's does: the
draw happens when iteration starts (a generator function's body runs at the first `next`), so a program
that interleaves batches with other random calls sees torch's stream.
"""
import minitorch2


class Sampler:
    """Subclasses define `__iter__` over dataset indices (and usually `__len__`)."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation of the indices (repeated and cut to num_samples), or num_samples indices drawn
    with replacement."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source, self.replacement, self._num_samples, self.generator = (
            data_source, replacement, num_samples, generator)
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            generator = minitorch2.Generator()
            generator.manual_seed(int(minitorch2.empty((), dtype=minitorch2.int64).random_().item()))
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from minitorch2.randint(0, n, (32,), dtype=minitorch2.int64, generator=generator).tolist()
            yield from minitorch2.randint(0, n, (self.num_samples % 32,), dtype=minitorch2.int64,
                                          generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from minitorch2.randperm(n, generator=generator).tolist()
            yield from minitorch2.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices, generator=None):
        self.indices, self.generator = indices, generator

    def __iter__(self):
        for i in minitorch2.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """num_samples indices drawn with probabilities proportional to weights."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")
        weights = minitorch2.as_tensor(weights, dtype=minitorch2.double)
        if len(weights.shape) != 1:
            raise ValueError("weights should be a 1d sequence but given "
                             f"weights have shape {tuple(weights.shape)}")
        self.weights, self.num_samples, self.replacement, self.generator = weights, num_samples, replacement, generator

    def __iter__(self):
        yield from minitorch2.multinomial(self.weights, self.num_samples, self.replacement,
                                          generator=self.generator).tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """The indices of `sampler` in lists of batch_size (the last one shorter, or dropped with drop_last)."""

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        batch = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size
