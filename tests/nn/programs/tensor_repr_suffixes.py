import torch
torch.manual_seed(0)
for shape in [(2, 2), (4, 2), (4,), (4, 1), (3, 5), (1, 9), (12,), (2, 3, 4)]:
    for dt in [torch.float32, torch.float64, torch.int32, torch.float16]:
        t = torch.randn(shape).to(dt)
        print(t)
        if dt.is_floating_point:
            print(t.requires_grad_())
            print(t * 2)
print(torch.zeros(0, 3, dtype=torch.float64, requires_grad=True))
print(torch.nn.Parameter(torch.randn(3, 4, dtype=torch.float64)))
print(torch.randn(2, 8, dtype=torch.float64).exp().requires_grad_() * 1000)
torch.set_printoptions(linewidth=40)
print(torch.randn(3, 3, dtype=torch.float64, requires_grad=True) * 1)
print(torch.arange(20.))
torch.set_printoptions(profile="default")
print(torch.tensor([1e-10, 1e10], dtype=torch.float64, requires_grad=True).sum())
