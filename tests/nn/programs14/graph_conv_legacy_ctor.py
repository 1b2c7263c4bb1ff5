"""A graph convolution network written the old way: weights made with `nn.Parameter(torch.Tensor(n_in, n_out))` and
filled by reset_parameters, node features and labels wrapped with `torch.FloatTensor(array)` and
`torch.LongTensor(array)`, the adjacency built sparse and normalised. Every warning the construction raises is
printed (torch raises none), then a few full-batch training steps run. Last, the legacy constructor's other forms:
no arguments, a Size, another tensor (its memory, not a copy, whatever its dtype; a typed constructor refuses
another dtype)."""
import math
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)


class GraphConv(nn.Module):
    def __init__(self, n_in, n_out, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.Tensor(n_in, n_out))
        self.bias = nn.Parameter(torch.Tensor(n_out)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.weight.size(1))
        self.weight.data.uniform_(-bound, bound)
        if self.bias is not None:
            self.bias.data.uniform_(-bound, bound)

    def forward(self, x, adj):
        support = torch.mm(x, self.weight)
        out = torch.sparse.mm(adj, support) if adj.is_sparse else adj @ support
        return out + self.bias if self.bias is not None else out


class GCN(nn.Module):
    def __init__(self, n_feat, n_hidden, n_class, dropout=0.5):
        super().__init__()
        self.gc1, self.gc2, self.dropout = GraphConv(n_feat, n_hidden), GraphConv(n_hidden, n_class), dropout

    def forward(self, x, adj):
        x = F.dropout(F.relu(self.gc1(x, adj)), self.dropout, training=self.training)
        return F.log_softmax(self.gc2(x, adj), dim=1)


def normalized_adjacency(edges, n_nodes):
    adj = torch.sparse_coo_tensor(torch.LongTensor(edges.T), torch.ones(len(edges)), (n_nodes, n_nodes))
    adj = (adj + adj.t()).coalesce().to_dense().clamp(max=1) + torch.eye(n_nodes)
    inv_degree = adj.sum(1).pow(-1)
    inv_degree[torch.isinf(inv_degree)] = 0
    return (torch.diag(inv_degree) @ adj).to_sparse()


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    features = torch.FloatTensor((rng.random((40, 12)) < 0.3).astype(np.int32))
    labels = torch.LongTensor(rng.integers(0, 3, 40))
    adj = normalized_adjacency(rng.integers(0, 40, (90, 2)), 40)
    model = GCN(features.shape[1], 8, 3)
print("warnings while building:", [str(w.message)[:40] for w in caught])
print(features.dtype, labels.dtype, adj.layout, model.gc1.weight.shape, model.gc1.bias.dtype)

optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
train, val = torch.arange(0, 25), torch.arange(25, 40)
for epoch in range(4):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss = F.nll_loss(output[train], labels[train])
    loss.backward()
    optimizer.step()
    model.eval()
    with torch.no_grad():
        accuracy = (model(features, adj)[val].argmax(1) == labels[val]).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} val accuracy {accuracy.item():.4f}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    empty, sized = torch.Tensor(), torch.Tensor(torch.Size([2, 3]))
    source = torch.zeros(3)
    alias = torch.Tensor(source)
    alias[0] = 7.0
print(empty.shape, sized.shape, source.tolist(), alias.data_ptr() == source.data_ptr(), len(caught))
torch.set_default_dtype(torch.float64)
print(torch.Tensor(2).dtype, torch.Tensor([1, 2]).dtype)
single, counts = torch.ones(2, dtype=torch.float32), torch.arange(3)
print(torch.Tensor(single).dtype, torch.Tensor(counts).dtype, torch.Tensor(counts).data_ptr() == counts.data_ptr())
try:
    torch.LongTensor(single)
except TypeError as error:
    print("TypeError:", error)
torch.set_default_dtype(torch.float32)
