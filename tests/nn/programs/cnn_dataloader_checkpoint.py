import io
import os
import tempfile
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader, random_split

torch.manual_seed(0)


class Blobs(Dataset):
    def __init__(self, n):
        self.x = torch.randn(n, 1, 12, 12)
        self.y = torch.randint(0, 3, (n,))
        self.x[torch.arange(n), 0, self.y * 3, self.y * 3] += 4.0

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"image": self.x[i], "label": int(self.y[i])}


def collate(batch):
    images = torch.stack([b["image"] for b in batch])
    labels = torch.tensor([b["label"] for b in batch], dtype=torch.long)
    return images, labels


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 8, 3)
        self.pool = nn.MaxPool2d(2)
        self.drop = nn.Dropout(0.25)
        self.fc = nn.Linear(8 * 4 * 4, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.bn(self.conv1(x))))
        x = F.relu(self.conv2(x))
        x = self.drop(torch.flatten(x, 1))
        return F.log_softmax(self.fc(x), dim=1)


ds = Blobs(96)
train_ds, val_ds = random_split(ds, [64, 32], generator=torch.Generator().manual_seed(42))
g = torch.Generator()
g.manual_seed(7)
train_dl = DataLoader(train_ds, batch_size=16, shuffle=True, collate_fn=collate, generator=g, drop_last=True)
val_dl = DataLoader(val_ds, batch_size=16, collate_fn=collate)


def evaluate(model):
    model.eval()
    correct, loss = 0, 0.0
    with torch.no_grad():
        for x, y in val_dl:
            out = model(x)
            loss += F.nll_loss(out, y, reduction="sum").item()
            correct += out.argmax(dim=1, keepdim=True).eq(y.view_as(out.argmax(dim=1, keepdim=True))).sum().item()
    return loss / len(val_dl.dataset), correct / len(val_dl.dataset)


model = Net()
opt = torch.optim.Adadelta(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
best, patience, bad = float("inf"), 2, 0
best_state = None
for epoch in range(6):
    model.train()
    for batch_idx, (x, y) in enumerate(train_dl):
        opt.zero_grad()
        loss = F.nll_loss(model(x), y)
        loss.backward()
        opt.step()
    sched.step()
    vloss, acc = evaluate(model)
    print(f"epoch {epoch} train {loss.item():.4f} val {vloss:.4f} acc {acc:.3f} lr {sched.get_last_lr()[0]:.4f}")
    if vloss < best - 1e-4:
        best, bad = vloss, 0
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)
        best_state = buf.getvalue()
    else:
        bad += 1
        if bad >= patience:
            print("early stop at", epoch)
            break

fresh = Net()
fresh.load_state_dict(torch.load(io.BytesIO(best_state)))
print("reloaded", [f"{v:.4f}" for v in evaluate(fresh)])
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "ckpt.pt")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": epoch}, path)
    ck = torch.load(path, weights_only=True)
    m2 = Net()
    missing = m2.load_state_dict(ck["model"], strict=True)
    print("ckpt epoch", ck["epoch"], missing, sorted(ck["opt"]["state"].keys())[:3])
    print("bn stats", f"{m2.bn.running_mean.sum().item():.4f}", int(m2.bn.num_batches_tracked))

for backend in ("inductor", "aot_eager"):
    torch.manual_seed(3)
    m = Net()
    cm = torch.compile(m, backend=backend)
    o = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9)
    for step, (x, y) in enumerate(train_dl):
        loss = F.nll_loss(cm(x), y)
        o.zero_grad()
        loss.backward()
        o.step()
        print(backend, step, f"{loss.item():.4f}")
    m.eval()
    with torch.no_grad():
        x, y = next(iter(val_dl))
        print(backend, "eval acc", (cm(x).argmax(1) == y).float().mean().item())
