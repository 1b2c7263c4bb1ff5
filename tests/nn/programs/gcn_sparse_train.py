"""pytorch/examples' gcn in small: a sparse normalized adjacency (sparse_coo_tensor, to_sparse, sparse @ dense)
and a two-layer graph convolution trained a few epochs; prints its losses."""
import warnings

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

warnings.simplefilter("ignore")  # torch's once-per-process sparse invariants warning goes to stderr
torch.manual_seed(0)
rng = np.random.RandomState(0)
V, E = 12, 20
edges = rng.randint(0, V, size=(E, 2)).astype(np.int32)
adj = torch.sparse_coo_tensor(edges.T, torch.ones(E), (V, V), dtype=torch.int64)
adj = torch.eye(V) + adj
degree = torch.diag(torch.sqrt(1 / torch.sum(adj, dim=1))).to_sparse()
adj = (degree @ adj @ degree).to_sparse()
features = torch.FloatTensor((rng.rand(V, 6) < 0.4).astype(np.float32)).to_sparse()
labels = torch.LongTensor(rng.randint(0, 3, V))


class GraphConv(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.kernel = nn.Parameter(torch.Tensor(n_in, n_out))
        nn.init.xavier_normal_(self.kernel)

    def forward(self, x, a):
        return torch.spmm(a, torch.mm(x, self.kernel))


gc1, gc2 = GraphConv(6, 8), GraphConv(8, 3)
optimizer = torch.optim.Adam([*gc1.parameters(), *gc2.parameters()], lr=0.05)
print(adj.layout, adj.is_coalesced(), adj._nnz(), features.shape)
for epoch in range(4):
    optimizer.zero_grad()
    out = F.log_softmax(gc2(F.relu(gc1(features, adj)), adj), dim=1)
    loss = F.nll_loss(out, labels)
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.5f} grad {gc1.kernel.grad.abs().sum().item():.5f}")
