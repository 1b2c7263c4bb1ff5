"""A GNN as PyG writes one without PyG: edge lists, self loops, symmetric degree normalization, message passing
with index_add_ and scatter_add_, mean pooling per graph (a batch vector); trained, the layer also compiled."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def degree(index, num_nodes, dtype=torch.float32):
    out = torch.zeros(num_nodes, dtype=dtype)
    return out.scatter_add_(0, index, torch.ones(index.numel(), dtype=dtype))


class GCNConv(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.lin = nn.Linear(in_ch, out_ch, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_ch))

    def forward(self, x, edge_index):
        n = x.size(0)
        edge_index = add_self_loops(edge_index, n)
        row, col = edge_index
        deg = degree(col, n)
        deg_inv_sqrt = deg.pow(-0.5)
        deg_inv_sqrt.masked_fill_(deg_inv_sqrt == float("inf"), 0)
        norm = deg_inv_sqrt[row] * deg_inv_sqrt[col]
        h = self.lin(x)
        messages = norm.view(-1, 1) * h.index_select(0, row)
        out = torch.zeros_like(h).index_add_(0, col, messages)
        return out + self.bias


class SAGEConv(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.lin_l = nn.Linear(in_ch, out_ch)
        self.lin_r = nn.Linear(in_ch, out_ch, bias=False)

    def forward(self, x, edge_index):
        row, col = edge_index
        summed = torch.zeros_like(x).scatter_add_(0, col.unsqueeze(-1).expand(-1, x.size(1)), x[row])
        count = torch.bincount(col, minlength=x.size(0)).clamp(min=1).unsqueeze(-1)
        return self.lin_l(summed / count) + self.lin_r(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GCNConv(4, 16)
        self.conv2 = SAGEConv(16, 16)
        self.head = nn.Linear(16, 2)

    def forward(self, x, edge_index, batch, num_graphs):
        h = F.relu(self.conv1(x, edge_index))
        h = F.dropout(h, p=0.2, training=self.training)
        h = F.relu(self.conv2(h, edge_index))
        pooled = torch.zeros(num_graphs, h.size(1)).index_add_(0, batch, h)
        pooled = pooled / torch.bincount(batch, minlength=num_graphs).unsqueeze(-1).float()
        return self.head(pooled)


# two graphs of 5 and 4 nodes, undirected edges given both ways
edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (5, 6), (6, 7), (7, 8)]
edge_index = torch.tensor(edges + [(b, a) for a, b in edges]).t().contiguous()
x = torch.randn(9, 4)
batch = torch.tensor([0] * 5 + [1] * 4)
y = torch.tensor([0, 1])
print("degrees", degree(edge_index[1], 9).tolist())
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
for epoch in range(5):
    model.train()
    opt.zero_grad()
    loss = F.cross_entropy(model(x, edge_index, batch, 2), y)
    loss.backward()
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    print("logits", model(x, edge_index, batch, 2).round(decimals=4))

conv = GCNConv(4, 8)
compiled = torch.compile(conv, backend="aot_eager")
out = compiled(x, edge_index)
print("compiled gcn close", torch.allclose(out, conv(x, edge_index), atol=1e-6), out.shape)
out.pow(2).sum().backward()
print("lin grad", conv.lin.weight.grad.sum().round(decimals=4))
