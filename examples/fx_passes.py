"""Two classic FX passes: x * sigmoid(x) -> silu, and Conv2d + BatchNorm2d folding.

Runs unchanged on PyTorch (`python examples/fx_passes.py`) and on minitorch2
(`python -m minitorch2 run examples/fx_passes.py`), printing the same text:
each graph before and after its pass, and a numerical check against the
unmodified model.

1. The subgraph rewriter matches structurally, so `x * sigmoid(x)` and
   `sigmoid(x) * x` are two different patterns: the pass registers both.
2. In eval mode a BatchNorm after a convolution is a per-channel affine map,
   so it folds into the convolution's weight and bias
   (torch.nn.utils.fusion.fuse_conv_bn_eval); the pass swaps the conv module,
   reroutes the BatchNorm's users and erases it, following the edit
   discipline: insert, replace uses, erase, lint, recompile.
"""
import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F
from torch.fx import subgraph_rewriter
from torch.nn.utils.fusion import fuse_conv_bn_eval


class SiluTwice(nn.Module):
    """Two hand-written SiLUs, one in each argument order."""

    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(8, 8)
        self.lin2 = nn.Linear(8, 4)

    def forward(self, x):
        h = self.lin1(x)
        h = h * torch.sigmoid(h)
        y = self.lin2(h)
        return torch.sigmoid(y) * y


def silu_pattern_left(x):
    return x * torch.sigmoid(x)


def silu_pattern_right(x):
    return torch.sigmoid(x) * x


def silu_replacement(x):
    return F.silu(x)


def rewrite_silu(gm):
    """Replace both argument orders of x * sigmoid(x) with F.silu; returns the match count per pattern."""
    counts = {}
    for pattern in (silu_pattern_left, silu_pattern_right):
        counts[pattern.__name__] = len(subgraph_rewriter.replace_pattern(gm, pattern, silu_replacement))
    return counts


class ConvBnNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 4, 3)
        self.bn2 = nn.BatchNorm2d(4)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        return self.bn2(self.conv2(x)).mean(dim=(2, 3))


def fold_conv_bn(gm):
    """Fold every call_module BatchNorm2d whose only input is a call_module Conv2d; returns the count."""
    modules = dict(gm.named_modules())
    folded = 0
    for node in list(gm.graph.nodes):
        if node.op != "call_module" or not isinstance(modules[node.target], nn.BatchNorm2d):
            continue
        conv_node = node.args[0]
        if conv_node.op != "call_module" or not isinstance(modules[conv_node.target], nn.Conv2d):
            continue
        if len(conv_node.users) != 1:  # the unfolded conv output is needed elsewhere
            continue
        fused = fuse_conv_bn_eval(modules[conv_node.target], modules[node.target])
        parent, _, name = conv_node.target.rpartition(".")
        setattr(gm.get_submodule(parent) if parent else gm, name, fused)
        node.replace_all_uses_with(conv_node)
        gm.graph.erase_node(node)
        folded += 1
    gm.graph.lint()
    gm.delete_all_unused_submodules()
    gm.recompile()
    return folded


def report(title, gm):
    print(f"--- {title}")
    print(gm.graph)
    print(gm.code.strip())


def main():
    torch.manual_seed(0)
    x = torch.randn(2, 8)
    model = SiluTwice()
    gm = torch.fx.symbolic_trace(model)
    report("silu: before", gm)
    counts = rewrite_silu(gm)
    report("silu: after", gm)
    targets = [n.target for n in gm.graph.nodes if n.op == "call_function"]
    print("matches per pattern:", counts)
    print("silu nodes:", targets.count(F.silu), "| sigmoid left:", torch.sigmoid in targets)
    torch.testing.assert_close(gm(x), model(x), atol=1e-6, rtol=1e-6)
    print("silu rewrite matches the original model: True")

    net = ConvBnNet()
    with torch.no_grad():  # give BatchNorm non-trivial statistics, then freeze them
        for bn in (net.bn1, net.bn2):
            bn.running_mean.copy_(torch.randn(bn.num_features) * 0.1)
            bn.running_var.copy_(torch.rand(bn.num_features) + 0.5)
            bn.weight.copy_(torch.rand(bn.num_features) + 0.5)
            bn.bias.copy_(torch.randn(bn.num_features) * 0.1)
    net.eval()
    images = torch.randn(2, 3, 8, 8)
    gm = torch.fx.symbolic_trace(net)
    report("conv-bn: before", gm)
    folded = fold_conv_bn(gm)
    report("conv-bn: after", gm)
    print("folded BatchNorms:", folded, "| submodules:", sorted(name for name, _ in gm.named_children()))
    with torch.no_grad():
        torch.testing.assert_close(gm(images), net(images), atol=1e-5, rtol=1e-5)
    print("folded model matches the original model: True")


if __name__ == "__main__":
    main()
