import torch
from torch import nn
import torch.nn.utils.parametrize as parametrize
torch.manual_seed(0)
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)
layer = nn.Linear(3, 3)
parametrize.register_parametrization(layer, "weight", Symmetric())
A = layer.weight
print(torch.dist(A, A.T).item())
print(layer)
print(layer.parametrizations.weight.original)
print(parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, "bias"))
print(list(layer.state_dict().keys()))
class MatrixExponential(nn.Module):
    def forward(self, X):
        return torch.matrix_exp(X)
class Skew(nn.Module):
    def forward(self, X):
        A = X.triu(1)
        return A - A.transpose(-1, -2)
layer2 = nn.Linear(3, 3)
parametrize.register_parametrization(layer2, "weight", Skew())
parametrize.register_parametrization(layer2, "weight", MatrixExponential())
X = layer2.weight
print(torch.dist(X.T @ X, torch.eye(3)) < 1e-5)
print(layer2.parametrizations.weight)
with parametrize.cached():
    print(layer2.weight is layer2.weight)
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
for _ in range(3):
    loss = layer(torch.ones(2, 3)).pow(2).sum()
    opt.zero_grad(); loss.backward(); opt.step()
    print(loss.item())
parametrize.remove_parametrizations(layer, "weight", leave_parametrized=True)
print(layer, type(layer.weight).__name__)
from torch.nn.utils.parametrizations import weight_norm
wn = weight_norm(nn.Linear(4, 2))
print(sorted(n for n, _ in wn.named_parameters()))
print(wn.weight.detach())
old = torch.nn.utils.weight_norm(nn.Linear(3, 2), name="weight")
print(sorted(n for n, _ in old.named_parameters()))
print(old.weight_g.shape, old.weight_v.shape)
old(torch.ones(1, 3)).sum().backward()
print(old.weight_g.grad)
torch.nn.utils.remove_weight_norm(old)
print(sorted(n for n, _ in old.named_parameters()))
