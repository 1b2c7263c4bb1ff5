"""Iterative magnitude pruning of a small convnet, as lottery-ticket scripts do: prune, fine-tune, prune again, then
make the masks permanent. Pruned layers train with their masks applied by forward pre-hooks; the pruned model
also runs compiled."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(3)


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.hidden = nn.Linear(4 * 4 * 4, 16)
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.head(F.relu(self.hidden(x.flatten(1))))


def sparsity(t):
    return f"{100.0 * float((t == 0).sum()) / t.numel():.1f}%"


def fine_tune(model, steps, opt):
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(images), labels)
        loss.backward()
        opt.step()
    return loss.item()


images, labels = torch.randn(12, 1, 8, 8), torch.randint(0, 3, (12,))
model = SmallNet()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
print("dense loss", round(fine_tune(model, 3, opt), 5))

# round 1: 30% of each layer's weights by magnitude, the conv's output channels by L2 norm, a random bias entry
prune.l1_unstructured(model.hidden, "weight", amount=0.3)
prune.ln_structured(model.conv, "weight", amount=1, n=2, dim=0)
prune.random_unstructured(model.head, "bias", amount=1)
print(sorted(name for name, _ in model.named_parameters()))
print(sorted(name for name, _ in model.named_buffers()))
print(model.conv.weight_mask.sum(dim=(1, 2, 3)))
print("head.bias", model.head.bias, model.head.bias_mask)
print("hidden", sparsity(model.hidden.weight), "conv", sparsity(model.conv.weight))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
print("round 1 loss", round(fine_tune(model, 3, opt), 5))
print("pruned entries stay zero:", bool((model.hidden.weight[model.hidden.weight_mask == 0] == 0).all()))

# round 2: pruning again chains the methods; the new one chooses among the entries still kept
prune.l1_unstructured(model.hidden, "weight", amount=0.5)
hook = next(h for h in model.hidden._forward_pre_hooks.values() if h._tensor_name == "weight")
print(type(hook).__name__, [type(m).__name__ for m in hook], "hidden", sparsity(model.hidden.weight))

# one global threshold over every weight
prune.global_unstructured([(model.conv, "weight"), (model.hidden, "weight"), (model.head, "weight")],
                          pruning_method=prune.L1Unstructured, amount=0.6)
for name in ("conv", "hidden", "head"):
    print(name, sparsity(getattr(model, name).weight))
print("is_pruned", prune.is_pruned(model))

compiled = torch.compile(model)
out = compiled(images)
print(out[:2], torch.allclose(out, model(images), atol=1e-6))

# permanent: the parameters hold the masked values, the reparametrization is gone
for module in (model.conv, model.hidden, model.head):
    prune.remove(module, "weight")
prune.remove(model.head, "bias")
print(sorted(model.state_dict().keys()))
print("is_pruned", prune.is_pruned(model), "hidden", sparsity(model.hidden.weight))
try:
    prune.remove(model.head, "weight")
except ValueError as e:
    print("ValueError:", str(e).split(" of module")[0])
try:
    prune.l1_unstructured(model.head, "weight", amount=1.5)
except ValueError as e:
    print("ValueError:", e)
