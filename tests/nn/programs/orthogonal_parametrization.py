import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import orthogonal
torch.manual_seed(0)
for shape, mp in [((5, 5), None), ((6, 4), None), ((3, 7), None), ((5, 5), "cayley"), ((4, 6), "matrix_exp"), ((6, 4), "householder")]:
    lin = orthogonal(nn.Linear(shape[1], shape[0]), orthogonal_map=mp)
    W = lin.weight
    print(shape, mp, [f"{v:.5f}" for v in W.flatten()[:6].tolist()], sorted(lin.state_dict().keys()))
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    x = torch.randn(8, shape[1])
    for _ in range(2):
        loss = lin(x).pow(2).sum()
        opt.zero_grad(); loss.backward(); opt.step()
    W = lin.weight
    print(f"{loss.item():.4f}", [f"{v:.4f}" for v in W.flatten()[:4].tolist()],
          torch.allclose(W @ W.T if shape[0] <= shape[1] else W.T @ W, torch.eye(min(shape)), atol=1e-5))
q = torch.linalg.qr(torch.randn(4, 4))[0]
lin = nn.Linear(4, 4, bias=False)
with torch.no_grad():
    lin.weight.copy_(q)
orthogonal(lin)
print(torch.allclose(lin.weight, q, atol=1e-6))
