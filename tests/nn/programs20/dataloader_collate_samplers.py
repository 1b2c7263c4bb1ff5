"""torch.utils.data as training scripts use it: a dataset of dicts with numpy arrays, ints, strings and tensors; an
IterableDataset of namedtuples; default_collate of tuples with strings (a tuple of strings, not a list: found in
session 42); WeightedRandomSampler, BatchSampler, RandomSampler with replacement, random_split by fractions,
ConcatDataset of Subsets, a custom collate_fn, a seeded generator with drop_last, and batch_size=None."""
import collections
import numpy as np
import torch
from torch.utils.data import (DataLoader, Dataset, IterableDataset, TensorDataset, Subset, ConcatDataset,
                              WeightedRandomSampler, SequentialSampler, RandomSampler, BatchSampler, random_split)
from torch.utils.data.dataloader import default_collate

torch.manual_seed(0)
Item = collections.namedtuple("Item", "x y")


class Dicts(Dataset):
    def __len__(self):
        return 7

    def __getitem__(self, i):
        return {"x": np.full(2, i, dtype=np.float32), "y": i, "name": f"s{i}", "t": torch.tensor([i, -i])}


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield Item(torch.tensor(float(i)), i % 2)


for batch in DataLoader(Dicts(), batch_size=3, shuffle=True):
    print(batch["x"].dtype, batch["y"], batch["name"], batch["t"].shape)
for batch in DataLoader(Stream(5), batch_size=2):
    print(type(batch).__name__, batch.x, batch.y)
print(default_collate([(1, 2.0, "a"), (3, 4.0, "b")]))
print(default_collate([np.array([1, 2]), np.array([3, 4])]))
ds = TensorDataset(torch.arange(10.0), torch.arange(10) % 3)
w = WeightedRandomSampler([0.1] * 5 + [1.0] * 5, num_samples=6, replacement=True)
print(list(w))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(RandomSampler(range(5), num_samples=8, replacement=True)))
a, b = random_split(ds, [0.7, 0.3])
print(len(a), len(b), a.indices)
c = ConcatDataset([Subset(ds, [1, 2]), ds])
print(len(c), c[1], c[5])
loader = DataLoader(ds, batch_size=4, sampler=w, collate_fn=lambda items: torch.stack([i[0] for i in items]))
print([t.tolist() for t in loader])
g = torch.Generator().manual_seed(3)
print([x.tolist() for x, _ in DataLoader(ds, batch_size=4, shuffle=True, generator=g, drop_last=True)])
print(len(DataLoader(ds, batch_size=4)), len(DataLoader(ds, batch_size=4, drop_last=True)))
it = iter(DataLoader(ds, batch_size=5, shuffle=True))
print(next(it)[1], next(it)[0])
dl = DataLoader(Dicts(), batch_size=None)
print(next(iter(dl))["t"])
print(DataLoader(ds, batch_size=3, pin_memory=False, num_workers=0, persistent_workers=False).batch_size)
