"""minitorch2.utils.data (as torch.utils.data): datasets, samplers and the DataLoader.

Runtime library surface, outside the compiler: a training script's input
pipeline. Datasets say how to get one sample; samplers say in which order
(drawing from the same seeded generator as torch's, so `manual_seed(s)` gives
the same batches); the DataLoader groups indices into batches and collates
the samples into tensors.
"""
from .dataloader import DataLoader, default_collate, default_convert, get_worker_info
from .dataset import ConcatDataset, Dataset, IterableDataset, StackDataset, Subset, TensorDataset, random_split
from .distributed import DistributedSampler
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler, WeightedRandomSampler

__all__ = [
    "BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "DistributedSampler", "IterableDataset", "RandomSampler",
    "Sampler", "SequentialSampler", "StackDataset", "Subset", "SubsetRandomSampler", "TensorDataset",
    "WeightedRandomSampler", "default_collate", "default_convert", "get_worker_info", "random_split",
]
