"""Per-sample gradients, in the style of PyTorch's torch.func tutorial: a small CNN's loss differentiated for each
example at once with vmap(grad(...)) over functional_call with detached parameters, checked against a loop."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 6, 3, 1)
        self.fc1 = nn.Linear(6 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 5)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc2(F.relu(self.fc1(x))), dim=1)


def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)


model = SmallCNN()
batch_size = 6
data = torch.randn(batch_size, 1, 8, 8)
targets = torch.randint(5, (batch_size,))


def compute_grad(sample, target):
    loss = loss_fn(model(sample.unsqueeze(0)), target.unsqueeze(0))
    return torch.autograd.grad(loss, list(model.parameters()))


looped = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
looped = [torch.stack(shards) for shards in zip(*looped)]

params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    predictions = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return loss_fn(predictions, target.unsqueeze(0))


ft_compute_grad = grad(compute_loss)
ft_compute_sample_grad = vmap(ft_compute_grad, in_dims=(None, None, 0, 0))
ft_per_sample_grads = ft_compute_sample_grad(params, buffers, data, targets)

for (name, per_sample), manual in zip(ft_per_sample_grads.items(), looped):
    print(name, tuple(per_sample.shape), per_sample.dtype, per_sample.requires_grad,
          torch.allclose(per_sample, manual, atol=3e-5, rtol=1e-4))
print("mean over the batch equals the batch gradient:",
      torch.allclose(ft_per_sample_grads["fc2.bias"].mean(0),
                     torch.autograd.grad(loss_fn(model(data), targets), model.fc2.bias)[0], atol=1e-5))
print("fc2.bias per sample:", ft_per_sample_grads["fc2.bias"].round(decimals=3))

# the same with grad_and_value and has_aux: the loss and the predictions come back too
def loss_and_predictions(params, sample, target):
    predictions = functional_call(model, params, (sample.unsqueeze(0),))
    return loss_fn(predictions, target.unsqueeze(0)), predictions.argmax(1)


(grads, (losses, predicted)) = vmap(torch.func.grad_and_value(loss_and_predictions, has_aux=True),
                                    in_dims=(None, 0, 0))(params, data, targets)
print("losses:", losses.round(decimals=4), "predicted:", predicted.squeeze(1).tolist())
print(sorted(grads), grads["conv1.weight"].shape)
