"""torch.nn.utils.prune: masking a module's parameters, the pruning tutorial's API.

Runtime library surface (nothing in the compiler uses it). Pruning `module.<name>` moves the parameter to
`<name>_orig`, keeps a `<name>_mask` buffer of ones and zeros, and makes `module.<name>` the plain tensor
`mask * orig`, recomputed by a forward pre-hook (the pruning method object itself) before every call. Pruning the
same tensor again chains the methods in a PruningContainer, each new one choosing among the entries (or channels)
the earlier masks kept. The random methods draw as torch's do (rand_like, then topk; rand, then kthvalue), so with
one seed both prune the same entries.
"""
import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable

import minitorch2


def _check_amount(amount):
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    is_int = isinstance(amount, numbers.Integral)
    if (is_int and amount < 0) or (not is_int and not 0.0 <= float(amount) <= 1.0):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a non-negative integer")


def _how_many(amount, size):
    """Entries (or channels) to prune out of size: an int as given, a fraction rounded."""
    count = amount if isinstance(amount, numbers.Integral) else round(amount * size)
    if isinstance(amount, numbers.Integral) and amount > size:
        raise ValueError(f"amount={amount} should be smaller than the number of parameters to prune={size}")
    return count


def _check_structured(t, dim):
    if t.dim() <= 1:
        raise ValueError("Structured pruning can only be applied to multidimensional tensors. Found tensor of shape "
                         f"{t.shape} with {t.dim()} dims")
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


def _channels_mask(t, dim, keep):
    """Zeros shaped like t with ones in the channels `keep` (indices or a boolean mask) along dim."""
    mask = minitorch2.zeros_like(t)
    where = [slice(None)] * t.dim()
    where[dim] = keep
    mask[tuple(where)] = 1
    return mask


class BasePruningMethod(ABC):
    """A way of choosing a mask; an instance pruning one tensor is also that module's forward pre-hook."""

    _tensor_name = None

    def __call__(self, module, inputs):
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        """The new mask for t, given the mask applied so far."""

    def apply_mask(self, module):
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned")
        mask, orig = getattr(module, self._tensor_name + "_mask"), getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        method = cls(*args, **kwargs)
        method._tensor_name = name
        earlier = [k for k, hook in module._forward_pre_hooks.items()
                   if isinstance(hook, BasePruningMethod) and hook._tensor_name == name]
        if len(earlier) > 1:
            raise AssertionError(f"Avoid adding multiple pruning hooks to the same tensor {name} of module {module}. "
                                 "Use a PruningContainer.")
        if earlier:  # pruned before: the new method joins the earlier ones in a container
            previous = module._forward_pre_hooks.pop(earlier[0])
            container = previous if isinstance(previous, PruningContainer) else PruningContainer(previous)
            container.add_pruning_method(method)
            method = container
        orig = getattr(module, name)
        if importance_scores is not None and importance_scores.shape != orig.shape:
            raise AssertionError(f"importance_scores should have the same shape as parameter {name} of {module}, got "
                                 f"{importance_scores.shape} vs {orig.shape}")
        scores = orig if importance_scores is None else importance_scores
        first = not isinstance(method, PruningContainer)
        if first:
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = minitorch2.ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone(memory_format=minitorch2.contiguous_format)
        try:
            module.register_buffer(name + "_mask", method.compute_mask(scores, default_mask=default_mask))
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first:  # the parameter goes back where it was
                module.register_parameter(name, module._parameters.pop(name + "_orig"))
            raise
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        """t masked by this method (t itself untouched)."""
        if importance_scores is not None and importance_scores.shape != t.shape:
            raise AssertionError(f"importance_scores should have the same shape as tensor t, got "
                                 f"{importance_scores.shape} vs {t.shape}")
        scores = t if importance_scores is None else importance_scores
        mask = default_mask if default_mask is not None else minitorch2.ones_like(t)
        return t * self.compute_mask(scores, default_mask=mask)

    def remove(self, module):
        """Make the pruning permanent: the parameter <name> holds the masked values; _orig and _mask go."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned before pruning can be removed")
        name = self._tensor_name
        weight = self.apply_mask(module)
        if hasattr(module, name):
            delattr(module, name)
        orig = module._parameters.pop(name + "_orig")
        orig.data = weight.data
        del module._buffers[name + "_mask"]
        setattr(module, name, orig)


class PruningContainer(BasePruningMethod):
    """The methods applied one after another to one tensor; the last one picks among what the others kept."""

    def __init__(self, *args):
        self._pruning_methods = ()
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
        for method in args:
            self.add_pruning_method(method)

    def add_pruning_method(self, method):
        if method is not None and not isinstance(method, BasePruningMethod):
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError(f"Can only add pruning methods acting on the parameter named '{self._tensor_name}' to "
                             f"PruningContainer {self}. Found '{method._tensor_name}'")
        self._pruning_methods += (method,)

    def __len__(self):
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        method = self._pruning_methods[-1]
        new_mask = default_mask.to(dtype=t.dtype)
        if method.PRUNING_TYPE == "unstructured":  # among the entries still kept
            where = default_mask == 1
        elif method.PRUNING_TYPE == "structured":  # among the channels with an entry still kept
            if not hasattr(method, "dim"):
                raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have the attribute `dim` '
                                     'defined.')
            dim = method.dim + t.dim() if method.dim < 0 else method.dim
            if dim < 0:
                raise IndexError(f"Index is out of bounds for tensor with dimensions {t.dim()}")
            where = [slice(None)] * t.dim()
            where[dim] = default_mask.sum(dim=[d for d in range(t.dim()) if d != dim]) != 0
            where = tuple(where)
        elif method.PRUNING_TYPE == "global":
            where = (slice(None),) * t.dim()
        else:
            raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")
        new_mask[where] = method.compute_mask(t[where], default_mask=default_mask[where]).to(dtype=new_mask.dtype)
        return new_mask


class Identity(BasePruningMethod):
    """A mask of ones: the reparametrization without pruning anything."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        return super().apply(module, name)


class RandomUnstructured(BasePruningMethod):
    """Prunes `amount` entries chosen at random."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount):
        _check_amount(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        count = _how_many(self.amount, t.nelement())
        mask = default_mask.clone(memory_format=minitorch2.contiguous_format)
        if count:
            mask.view(-1)[minitorch2.topk(minitorch2.rand_like(t).view(-1), k=count).indices] = 0
        return mask

    @classmethod
    def apply(cls, module, name, amount):
        return super().apply(module, name, amount=amount)


class L1Unstructured(BasePruningMethod):
    """Prunes the `amount` entries of smallest magnitude."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount):
        _check_amount(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        count = _how_many(self.amount, t.nelement())
        mask = default_mask.clone(memory_format=minitorch2.contiguous_format)
        if count:
            mask.view(-1)[minitorch2.topk(minitorch2.abs(t).view(-1), k=count, largest=False).indices] = 0
        return mask

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    """Prunes `amount` whole channels along dim, chosen at random."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, dim=-1):
        _check_amount(amount)
        self.amount, self.dim = amount, dim

    def compute_mask(self, t, default_mask):
        _check_structured(t, self.dim)
        channels = t.shape[self.dim]
        count = _how_many(self.amount, channels)
        if not count:
            return default_mask
        prob = minitorch2.rand(channels)
        mask = _channels_mask(t, self.dim, prob > minitorch2.kthvalue(prob, k=count).values)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prunes the `amount` channels along dim of smallest L`n` norm."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, n, dim=-1):
        _check_amount(amount)
        self.amount, self.n, self.dim = amount, n, dim

    def compute_mask(self, t, default_mask):
        _check_structured(t, self.dim)
        channels = t.shape[self.dim]
        count = _how_many(self.amount, channels)
        dim = self.dim % t.dim()
        norm = minitorch2.norm(t, p=self.n, dim=[d for d in range(t.dim()) if d != dim])
        kept = minitorch2.topk(norm, k=channels - count, largest=True).indices
        if not count:
            return default_mask
        mask = _channels_mask(t, self.dim, kept)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return super().apply(module, name, amount=amount, n=n, dim=dim, importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prunes where a given mask is zero."""

    PRUNING_TYPE = "global"

    def __init__(self, mask):
        self.mask = mask

    def compute_mask(self, t, default_mask):
        if default_mask.shape != self.mask.shape:
            raise AssertionError(f"default_mask shape {default_mask.shape} must match self.mask shape "
                                 f"{self.mask.shape}")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return super().apply(module, name, mask=mask)


def identity(module, name):
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module, name, mask):
    CustomFromMask.apply(module, name, mask)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    """One unstructured method applied to all the (module, name) tensors as one vector: the amount counts across
    them all; each then gets its slice of the mask as a CustomFromMask."""
    from .convert_parameters import parameters_to_vector  # reason: keeps this module's imports to the runtime

    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    parameters = list(parameters)
    scores = parameters_to_vector([importance_scores.get((m, n), getattr(m, n)) for m, n in parameters])
    masks = parameters_to_vector([getattr(m, n + "_mask", minitorch2.ones_like(getattr(m, n))) for m, n in parameters])
    method = pruning_method(**kwargs)
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError(f'Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
                        f"{pruning_method} of type {method.PRUNING_TYPE}")
    container = PruningContainer()
    container._tensor_name = method._tensor_name = "temp"
    container.add_pruning_method(method)
    final_mask, start = container.compute_mask(scores, masks), 0
    for module, name in parameters:
        param = getattr(module, name)
        custom_from_mask(module, name, mask=final_mask[start:start + param.numel()].view_as(param))
        start += param.numel()


def remove(module, name):
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed")


def is_pruned(module):
    return any(isinstance(hook, BasePruningMethod) for _, sub in module.named_modules()
               for hook in sub._forward_pre_hooks.values())
