"""Model ensembling, in the style of PyTorch's torch.func tutorial: several MLPs' states stacked with
stack_module_state and run at once with vmap over functional_call, on one minibatch each or on a shared one."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, stack_module_state, vmap

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(12, 16)
        self.fc2 = nn.Linear(16, 8)
        self.fc3 = nn.Linear(8, 3)

    def forward(self, x):
        x = x.flatten(1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


num_models = 4
data = torch.randn(20, 5, 3, 4)
targets = torch.randint(3, (20, 5))
models = [SimpleMLP() for _ in range(num_models)]

minibatches = data[:num_models]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in zip(models, minibatches)]
minibatch = data[0]
predictions2 = [model(minibatch) for model in models]

params, buffers = stack_module_state(models)
print({k: (tuple(v.shape), v.requires_grad) for k, v in params.items()}, buffers)

base_model = copy.deepcopy(models[0])


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
print("different minibatches:", tuple(predictions1_vmap.shape),
      torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop), atol=1e-6, rtol=1e-5))

predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print("same minibatch:", tuple(predictions2_vmap.shape),
      torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-6, rtol=1e-5))
print(predictions2_vmap[:, 0].round(decimals=4))

# training the ensemble: the stacked parameters are leaves, one backward fills their grads
loss = F.cross_entropy(predictions2_vmap.reshape(-1, 3), targets[0].repeat(num_models))
loss.backward()
print("loss", round(loss.item(), 4), {k: tuple(v.grad.shape) for k, v in params.items()})

# dropout inside the ensemble: each model draws its own mask with randomness='different', one for all with 'same'
class DropoutMLP(SimpleMLP):
    def forward(self, x):
        return F.dropout(super().forward(x), p=0.5, training=True)


dropout_models = [DropoutMLP() for _ in range(3)]
dparams, dbuffers = stack_module_state(dropout_models)
for randomness in ("different", "same"):
    torch.manual_seed(1)
    out = vmap(lambda p, b, x: functional_call(dropout_models[0], (p, b), (x,)), in_dims=(0, 0, None),
               randomness=randomness)(dparams, dbuffers, minibatch)
    print(randomness, tuple(out.shape), (out == 0).sum().item())
try:
    vmap(lambda p, b, x: functional_call(dropout_models[0], (p, b), (x,)), in_dims=(0, 0, None))(
        dparams, dbuffers, minibatch)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
