"""The optimizer-step-in-backward recipe of pytorch/tutorials: one Adam per parameter, stepped by a
post-accumulate-grad hook, the handles kept and typed as a library keeps them (`from torch.utils.hooks import
RemovableHandle`), a gradient hook used as a context manager for one step, handles removed by id; trained eagerly,
then compiled, losses printed."""
import torch
from torch.utils.hooks import RemovableHandle

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(144, 5))
optimizer_dict = {p: torch.optim.Adam([p], foreach=False) for p in model.parameters()}


def optimizer_hook(parameter) -> None:
    optimizer_dict[parameter].step()
    optimizer_dict[parameter].zero_grad()


handles: dict[int, RemovableHandle] = {}
for p in model.parameters():
    handle = p.register_post_accumulate_grad_hook(optimizer_hook)
    handles[handle.id] = handle
print(all(isinstance(h, RemovableHandle) for h in handles.values()), len(set(handles)))


def train(net, scale_grads=False):
    loss = net(torch.rand(2, 3, 8, 8)).square().mean()
    if scale_grads:
        with model[3].weight.register_hook(lambda g: g * 0.5):
            loss.backward()
    else:
        loss.backward()
    return loss.item()


for step in range(3):
    print(step, f"{train(model, scale_grads=step == 1):.5f}", [p.grad for p in model.parameters()][-1])
compiled = torch.compile(model, backend="aot_eager")
for step in range(2):
    print("compiled", step, f"{train(compiled):.5f}")
for key in sorted(handles):
    handles.pop(key).remove()
print(f"{train(model):.5f}", model[3].bias.grad.shape, len(handles))
