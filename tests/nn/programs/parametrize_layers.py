import torch
from torch.nn.utils import spectral_norm as hook_spectral_norm, remove_spectral_norm
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
import torch
from torch import nn
from torch.nn.utils.parametrizations import spectral_norm
torch.manual_seed(0)
sn = spectral_norm(nn.Linear(4, 3))
print(sorted(n for n, _ in sn.named_parameters()), sorted(n for n, _ in sn.named_buffers()))
print(sn.parametrizations.weight[0]._u, sn.parametrizations.weight[0]._v)
print(list(sn.state_dict().keys()))
print(sn.weight)
print(torch.linalg.matrix_norm(sn.weight.detach(), 2))
sn.eval()
print(torch.linalg.matrix_norm(sn.weight.detach(), 2))
D = nn.Sequential(spectral_norm(nn.Conv2d(1, 4, 3, 2, 1)), nn.LeakyReLU(0.2), spectral_norm(nn.ConvTranspose2d(4, 2, 4, 2, 1)),
                  nn.Flatten(), spectral_norm(nn.Linear(2 * 8 * 8, 1), n_power_iterations=2))
print(D[2].parametrizations.weight[0]._u.shape, D[2].parametrizations.weight[0]._v.shape)
opt = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.9))
x = torch.randn(4, 1, 8, 8)
for i in range(3):
    loss = torch.relu(1.0 - D(x)).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(i, f"{loss.item():.6f}", D[4].parametrizations.weight[0]._u)
D.eval()
with torch.no_grad():
    print(D(x).squeeze())
b = spectral_norm(nn.Linear(3, 3), name="bias")
print(b.bias.norm())
try:
    spectral_norm(nn.Linear(3, 3), name="nope")
except ValueError as e:
    print("ValueError:", str(e)[:40])
from torch.nn.utils import spectral_norm as hook_spectral_norm, remove_spectral_norm
torch.manual_seed(0)
lin = hook_spectral_norm(nn.Linear(5, 3))
print(list(lin.state_dict().keys()), sorted(n for n, _ in lin.named_parameters()))
print(lin.weight_u, lin.weight_v)
x = torch.randn(2, 5)
print(lin(x))
print(lin.weight_u, torch.linalg.matrix_norm(lin.weight.detach(), 2))
lin.eval(); print(lin(x)); lin.train()
D = nn.Sequential(hook_spectral_norm(nn.Conv2d(1, 4, 3, 2, 1)), nn.LeakyReLU(0.2), hook_spectral_norm(nn.ConvTranspose2d(4, 2, 4, 2, 1)),
                  nn.Flatten(), hook_spectral_norm(nn.Linear(2 * 8 * 8, 1), n_power_iterations=3))
print(D[2].weight_u.shape, D[2].weight_v.shape)
opt = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.9))
xb = torch.randn(4, 1, 8, 8)
for i in range(3):
    loss = torch.relu(1.0 - D(xb)).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(i, f"{loss.item():.6f}", D[4].weight_u)
remove_spectral_norm(lin)
print(sorted(n for n, _ in lin.named_parameters()), lin.weight.shape, type(lin.weight).__name__)
try:
    hook_spectral_norm(hook_spectral_norm(nn.Linear(2, 2)))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    remove_spectral_norm(nn.Linear(2, 2))
except ValueError as e:
    print("ValueError:", str(e)[:30])
