"""A training script in the style of pytorch/examples' mnist_hogwild, written for minitorch2's tests: the model's
parameters move into shared memory, a worker process trains it with its own optimizer stepping in place, and the
parent sees the trained weights; then a shared tensor goes through a Queue to a second worker, which adds to it."""
import torch
import torch.multiprocessing as mp
import torch.nn as nn


def train(rank, model, steps):
    torch.manual_seed(rank)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.5)
    x = torch.randn(16, 4)
    y = x.sum(1, keepdim=True)
    for _ in range(steps):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    print(f"worker {rank}: loss {loss.item():.5f}", flush=True)


def add_one(queue):
    queue.get().add_(1)


if __name__ == "__main__":
    mp.set_start_method("fork", force=True)
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    before = model.weight.detach().clone()
    print("shared before:", model.weight.is_shared())
    model.share_memory()  # gradients are allocated lazily, so they are not shared here
    print("shared after:", model.weight.is_shared(), model.bias.is_shared())
    worker = mp.Process(target=train, args=(0, model, 20))
    worker.start()
    worker.join()
    print("trained in the parent:", (model.weight - before).abs().sum().item() > 0.1,
          [round(w, 4) for w in model.weight.detach().flatten().tolist()])
    counts = torch.zeros(3).share_memory_()
    queue = mp.Queue()
    worker = mp.Process(target=add_one, args=(queue,))
    worker.start()
    queue.put(counts)
    worker.join()
    print("counts:", counts.tolist(), counts.is_shared())
