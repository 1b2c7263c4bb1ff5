"""spectral_norm and remove_spectral_norm (as torch.nn.utils, the hook-based form older GAN code calls; the
parametrization is parametrizations.spectral_norm). Runtime layer, coverage surface.

The weight becomes the parameter `weight_orig` and two buffers, `weight_u` and `weight_v`, unit vectors drawn from
the normal distribution; a forward pre-hook recomputes weight = weight_orig / sigma before each call, sigma the
estimate u . (W v) of W's largest singular value (W the weight flattened to a matrix around `dim`), after
n_power_iterations steps of power iteration (v first, then u) when the module is training, as torch's.
"""
import minitorch2
from ...autograd.grad_mode import no_grad
from .. import functional as F
from ..modules.conv_more import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..parameter import Parameter


class SpectralNorm:
    """The forward pre-hook that recomputes the weight from `<name>_orig`, `<name>_u` and `<name>_v`."""

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but "
                             f"got n_power_iterations={n_power_iterations}")
        self.name, self.dim, self.n_power_iterations, self.eps = name, dim, n_power_iterations, eps

    def reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.reshape(weight.size(0), -1)

    def compute_weight(self, module, do_power_iteration):
        weight = getattr(module, self.name + "_orig")
        u, v = getattr(module, self.name + "_u"), getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():  # in place in the buffers
                for _ in range(self.n_power_iterations):
                    v = F.normalize(minitorch2.mv(weight_mat.t(), u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(minitorch2.mv(weight_mat, v), dim=0, eps=self.eps, out=u)
                u, v = u.clone(), v.clone()
        sigma = minitorch2.dot(u, minitorch2.mv(weight_mat, v))
        return weight / sigma

    def remove(self, module):
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        for suffix in ("", "_u", "_v", "_orig"):
            delattr(module, self.name + suffix)
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        with no_grad():
            h, w = fn.reshape_weight_to_matrix(weight).shape
            u = F.normalize(weight.new_empty(h).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(w).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, name)
        module.register_parameter(name + "_orig", weight)
        setattr(module, name, weight.data)
        module.register_buffer(name + "_u", u)
        module.register_buffer(name + "_v", v)
        module.register_forward_pre_hook(fn)
        return fn


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name="weight"):
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"spectral_norm of '{name}' not found in {module}")
