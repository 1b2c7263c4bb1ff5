"""DistributedSampler (as torch.utils.data.distributed): the share of a map-style dataset one process of a
distributed job visits.

Runtime library surface. Each of num_replicas processes (by default the process group's world size, and this
process's rank in it) takes every num_replicas-th index of one order all of them agree on: a permutation from a
generator seeded with seed + epoch (set_epoch changes it between epochs), or the dataset's order. The order is first
padded with its own first indices up to a multiple of num_replicas, so every process gets as many samples, or with
drop_last cut down to one. minitorch2's process group is a world of one (minitorch2/distributed), where the sampler
visits the whole dataset; num_replicas and rank given explicitly split it as torch's would.
"""
import math

import minitorch2

from ... import distributed
from .sampler import Sampler


class DistributedSampler(Sampler):
    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0, drop_last=False):
        if num_replicas is None:
            num_replicas = distributed.get_world_size()
        if rank is None:
            rank = distributed.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset, self.num_replicas, self.rank, self.epoch = dataset, num_replicas, rank, 0
        self.drop_last, self.shuffle, self.seed = drop_last, shuffle, seed
        if drop_last and len(dataset) % num_replicas != 0:
            self.num_samples = math.ceil((len(dataset) - num_replicas) / num_replicas)  # whole rounds only
        else:
            self.num_samples = math.ceil(len(dataset) / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def __iter__(self):
        if self.shuffle:
            generator = minitorch2.Generator()
            generator.manual_seed(self.seed + self.epoch)
            indices = minitorch2.randperm(len(self.dataset), generator=generator).tolist()
        else:
            indices = list(range(len(self.dataset)))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            padding = self.total_size - len(indices)
            indices += (indices * math.ceil(padding / len(indices)))[:padding] if padding else []
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        self.epoch = epoch
