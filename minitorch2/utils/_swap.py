"""torch.utils.swap_tensors: two tensor objects exchange everything they hold, each keeping its identity.

Runtime library surface (what `torch.__future__.set_swap_module_params_on_conversion` and
`load_state_dict(assign=...)` tips call). A minitorch2 tensor is its slots and its __dict__, so swapping them (and the
classes: a Parameter and a plain tensor trade places) swaps the data, the metadata, the autograd state and the
Python attributes, as torch swaps the two objects' TensorImpls and their dicts.
"""


def _slots(cls):
    return [name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())
            if name not in ("__weakref__", "__dict__")]


def swap_tensors(t1, t2):
    from .._tensor import Tensor  # reason: the runtime imports utils while it is being built

    if not (isinstance(t1, Tensor) and isinstance(t2, Tensor)):
        raise TypeError(f"Expected t1 and t2 to be torch.Tensor, but got {type(t1)} and {type(t2)}")
    for name in dict.fromkeys(_slots(type(t1)) + _slots(type(t2))):
        missing = object()
        one, two = getattr(t1, name, missing), getattr(t2, name, missing)
        for target, value in ((t1, two), (t2, one)):
            if value is missing:
                delattr(target, name)
            else:
                object.__setattr__(target, name, value)
    t1.__dict__, t2.__dict__ = t2.__dict__, t1.__dict__
    t1.__class__, t2.__class__ = t2.__class__, t1.__class__
