"""A two-layer graph attention network on a small random citation-style graph: dense adjacency with self-loops,
multi-head attention scores masked by torch.where, LeakyReLU, dropout on features and attention, log-softmax and
NLLLoss over index masks, Adam with weight decay; the model compiled, evaluated under no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
N, FEATURES, CLASSES = 40, 12, 3


class GraphAttention(nn.Module):
    def __init__(self, fin, fout, heads, concat, dropout=0.3, slope=0.2):
        super().__init__()
        self.heads, self.fout, self.concat = heads, fout, concat
        self.W = nn.Parameter(torch.empty(fin, heads * fout))
        self.a = nn.Parameter(torch.empty(heads, 2 * fout, 1))
        nn.init.xavier_normal_(self.W)
        nn.init.xavier_normal_(self.a)
        self.leaky = nn.LeakyReLU(slope)
        self.dropout = dropout

    def forward(self, h, adj):
        n = h.shape[0]
        h = F.dropout(h, self.dropout, self.training)
        wh = torch.mm(h, self.W).view(n, self.heads, self.fout).permute(1, 0, 2)
        src = torch.matmul(wh, self.a[:, :self.fout, :])
        dst = torch.matmul(wh, self.a[:, self.fout:, :])
        e = self.leaky(src + dst.mT)
        linked = adj > 0
        lonely = ~linked.any(dim=1, keepdim=True)  # a node with no edge attends to itself only
        e = torch.where(linked | (lonely & torch.eye(n, dtype=torch.bool)), e, torch.full_like(e, -9e15))
        attention = F.dropout(F.softmax(e, dim=-1), self.dropout, self.training)
        out = torch.matmul(attention, wh)
        if self.concat:
            return F.elu(out.permute(1, 0, 2).reshape(n, -1))
        return out.mean(dim=0)


class GAT(nn.Module):
    def __init__(self):
        super().__init__()
        self.gat1 = GraphAttention(FEATURES, 8, heads=4, concat=True)
        self.gat2 = GraphAttention(32, CLASSES, heads=1, concat=False)

    def forward(self, x, adj):
        return F.log_softmax(self.gat2(self.gat1(x, adj), adj), dim=1)


features = (torch.rand(N, FEATURES) < 0.3).float()
features = features / features.sum(1, keepdim=True).clamp(min=1)
labels = torch.randint(0, CLASSES, (N,))
adj = (torch.rand(N, N) < 0.08).to(torch.uint8)
adj = ((adj + adj.T + torch.eye(N, dtype=torch.uint8)) > 0).to(torch.uint8)
print("every node has an edge:", adj.any(1).all().item(), adj.all(1).dtype, adj.sum().item())
perm = torch.randperm(N)
train_idx, val_idx = perm[:28], perm[28:]

model = GAT()
compiled = torch.compile(model)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
criterion = nn.NLLLoss()
for epoch in range(1, 13):
    model.train()
    optimizer.zero_grad()
    out = compiled(features, adj)
    loss = criterion(out[train_idx], labels[train_idx])
    loss.backward()
    optimizer.step()
    if epoch % 3 == 0:
        model.eval()
        with torch.no_grad():
            out = compiled(features, adj)
            acc = (out[val_idx].argmax(1) == labels[val_idx]).float().mean()
        print(f"epoch {epoch:02d} loss {loss.item():.4f} val acc {acc.item():.4f}")
