"""A finite-scalar-quantization autoencoder in the manner of lucidrains/vector-quantize-pytorch: the library module
imports the differentiable collectives (`from torch.distributed import nn as dist_nn`) for its multi-process path,
packs the channels-last latents with a one-tensor `torch.cat`, and wraps optional helpers with `functools.wraps`
inside forward (`maybe(unpack)(indices, ...)`), asks `dist.is_initialized()` there and halves its integer levels
with `//` (aten.floor_divide, saved for the backward). The autoencoder is compiled (aot_eager) and trained a few
steps, losses and code usage printed: one graph, as torch's. Its rearranges go through an adapter looked up as
einops looks up its backend: the first call with a tensor type walks `AbstractBackend.__subclasses__()` and
instantiates the backend whose framework is loaded (the cache is cleared at each step, so the lookup, the
instantiation and the `__subclasses__` read happen inside the compiled frame at every call: no recompile)."""
import math
from functools import wraps

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed import nn as dist_nn


def exists(v):
    return v is not None


def maybe(fn):
    @wraps(fn)
    def inner(x, *args, **kwargs):
        if not exists(x):
            return x
        return fn(x, *args, **kwargs)
    return inner


_type2backend = {}
LOADED_FRAMEWORKS = ("numpy", "torch")  # (einops asks sys.modules: see test_probe17_programs.py)


class AbstractBackend:
    framework_name = None

    def reshape(self, x, shape):
        return x.reshape(shape)


class NumpyLikeBackend(AbstractBackend):
    framework_name = "numpy"

    def is_appropriate_type(self, tensor):
        return False


class TorchBackend(AbstractBackend):
    framework_name = "torch"

    def __init__(self):
        self.torch = torch

    def is_appropriate_type(self, tensor):
        return isinstance(tensor, self.torch.Tensor)

    def concat(self, tensors, axis):
        return self.torch.cat(tensors, dim=axis)


def get_backend(tensor):
    found = _type2backend.get(type(tensor))
    if found is not None:
        return found
    for backend_class in AbstractBackend.__subclasses__():
        if backend_class.framework_name in LOADED_FRAMEWORKS:
            backend = backend_class()
            if backend.is_appropriate_type(tensor):
                _type2backend[type(tensor)] = backend
                return backend
    raise RuntimeError(f"Tensor type unknown to the adapter: {type(tensor)}")


def pack_one(t):  # (b, h, w, d) -> (b, h*w, d): the one tensor "packed" as einops' pack does, by a cat
    backend = get_backend(t)
    return backend.concat([backend.reshape(t, (t.shape[0], -1, t.shape[-1]))], axis=1), t.shape[1:-1]


def unpack_one(t, shape):
    return t.reshape(t.shape[0], *shape, *t.shape[2:])


def all_reduce_mean(t):
    if not (dist.is_initialized() and dist.get_world_size() > 1):
        return t
    return dist_nn.all_reduce(t) / dist.get_world_size()


class FSQ(nn.Module):
    def __init__(self, levels):
        super().__init__()
        self.register_buffer("levels", torch.tensor(levels, dtype=torch.int32), persistent=False)
        self.register_buffer("basis", torch.cumprod(torch.tensor([1] + levels[:-1]), 0).int(), persistent=False)
        self.codebook_size = math.prod(levels)

    def bound(self, z, eps=1e-3):
        half_l = (self.levels - 1) * (1 + eps) / 2
        offset = torch.where(self.levels % 2 == 0, 0.5, 0.0)
        shift = (offset / half_l).atanh()
        return (z + shift).tanh() * half_l - offset

    def forward(self, z):
        z = z.permute(0, 2, 3, 1)
        z, shape = pack_one(z)
        bounded = self.bound(z)
        codes = (bounded + (bounded.round() - bounded).detach()) / (self.levels // 2)
        half_width = self.levels // 2
        indices = ((codes * half_width + half_width) * self.basis).sum(dim=-1).round().long()
        indices = maybe(unpack_one)(indices, shape)
        out = unpack_one(codes, shape).permute(0, 3, 1, 2)
        return out, indices, all_reduce_mean(codes.abs().mean())


class AutoEncoder(nn.Module):
    def __init__(self, levels=(8, 5, 5)):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.MaxPool2d(2), nn.GELU(),
                                     nn.Conv2d(8, len(levels), 1))
        self.quantizer = FSQ(list(levels))
        self.decoder = nn.Sequential(nn.Conv2d(len(levels), 8, 3, padding=1), nn.Upsample(scale_factor=2),
                                     nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, x):
        codes, indices, usage = self.quantizer(self.encoder(x))
        return self.decoder(codes), indices, usage


torch.manual_seed(0)
model = AutoEncoder()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
compiled = torch.compile(model, backend="aot_eager")
for step in range(3):
    _type2backend.clear()
    x = torch.randn(4, 1, 8, 8).tanh()
    out, indices, usage = compiled(x)
    loss = (out.clamp(-1.0, 1.0) - x).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", indices.shape, indices.unique().numel(), f"{usage.item():.5f}")
print(maybe(unpack_one).__name__, maybe(unpack_one).__wrapped__ is unpack_one, dist_nn.all_reduce.__name__,
      type(_type2backend[torch.Tensor]).__name__)
