"""A small tensor-rearranging library in the style of einops, used by a compiled patch-embedding model. The library
finds its backend by walking `Backend.__subclasses__()` and matching a class attribute, and parses patterns with
lru_cache'd helpers that call the str methods through the class (`str.count(expression, "...")`, `str.split`).
Dynamo folds both: one graph per frame; here each was a graph break."""
import functools
import math

import torch
from torch import nn

torch.manual_seed(0)


class Backend:
    framework_name = None

    def is_appropriate_type(self, tensor):
        raise NotImplementedError


class ListBackend(Backend):
    framework_name = "list"

    def is_appropriate_type(self, tensor):
        return isinstance(tensor, list)


class TorchBackend(Backend):
    framework_name = "torch"

    def is_appropriate_type(self, tensor):
        return isinstance(tensor, torch.Tensor)


LOADED = {kind.framework_name: kind() for kind in (ListBackend, TorchBackend)}


def get_backend(tensor):
    for kind in Backend.__subclasses__():
        backend = LOADED[kind.framework_name]
        if backend.is_appropriate_type(tensor):
            return backend
    raise RuntimeError(f"no backend for {type(tensor).__name__}")


@functools.lru_cache(maxsize=64)
def parse_side(expression):
    if "." in expression and (str.count(expression, "...") != 1 or str.count(expression, ".") != 3):
        raise ValueError("dots only inside one ellipsis")
    groups, depth = [], 0
    for token in str.split(str.replace(str.replace(expression, "(", " ( "), ")", " ) ")):
        if token == "(":
            groups.append([])
            depth += 1
        elif token == ")":
            depth -= 1
        elif depth:
            groups[-1].append(token)
        else:
            groups.append([token])
    return tuple(tuple(group) for group in groups)


def rearrange(tensor, pattern, **sizes):
    get_backend(tensor)
    left, right = (parse_side(side) for side in str.split(pattern, "->"))
    flat_names, shape = [], []
    for group, size in zip(left, tensor.shape):
        known = [sizes[name] for name in group if name in sizes]
        for name in group:
            shape.append(sizes.get(name, size // math.prod(known) if known else size))
            flat_names.append(name)
    order = [flat_names.index(name) for group in right for name in group]
    moved = tensor.reshape(shape).permute(order)
    final = [1] * len(right)
    for i, group in enumerate(right):
        for name in group:
            final[i] *= shape[flat_names.index(name)]
    return moved.reshape(final)


class PatchEmbed(nn.Module):
    def __init__(self, patch=4, channels=3, dim=16):
        super().__init__()
        self.patch = patch
        self.proj = nn.Linear(patch * patch * channels, dim)

    def forward(self, images):
        patches = rearrange(images, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=self.patch, p2=self.patch)
        return self.proj(patches).mean(dim=1)


model = PatchEmbed()
compiled = torch.compile(model, backend="aot_eager")
images = torch.randn(2, 3, 8, 8)
print(compiled(images).sum().item(), model(images).sum().item())
try:
    parse_side("b .. c")
except ValueError as error:
    print("ValueError:", error)
print("distinct graphs:", torch._dynamo.utils.counters["stats"]["unique_graphs"])
print("graph breaks:", sum(torch._dynamo.utils.counters["graph_break"].values()))
