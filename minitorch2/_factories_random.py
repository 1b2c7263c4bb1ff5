"""The random factories beyond rand and randn: randint, randint_like, randperm, bernoulli and normal.

Runtime layer, coverage surface (random sampling with PyTorch's generator, bit for bit: minitorch2/_random.py).
Like the factories in _factories.py, each hands its aten op the keyword arguments PyTorch's bindings pass, and
picks the `.generator` overload only when a generator is given. _factories.py re-exports them.
"""
from ._factories import _finish, _options, _size, _with_generator, randn
from ._ops import ops
from ._out import ANY, FACTORY, out_variant
from ._tensor import Tensor

aten = ops.aten


@out_variant(ANY, differentiable=False, dtype_from_out=FACTORY)
def randint(low=None, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False,
            layout=None, pin_memory=False):
    """randint(high, size) and randint(low, high, size), positional or by keyword (randint(5, size=(3,)),
    randint(high=5, size=(3,))): aten's randint and randint.low."""
    if size is None:
        low, high, size = None, low, high
    elif high is None:
        low, high = None, low
    options = _options(dtype, layout, device, pin_memory)
    if low is None:
        result = _with_generator(aten.randint.default, aten.randint.generator, generator, high, _size((size,)),
                                 **options)
    else:
        result = _with_generator(aten.randint.low, aten.randint.low_generator, generator, low, high, _size((size,)),
                                 **options)
    return _finish(result, requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False, layout=None,
                 memory_format=None, pin_memory=False):
    options = _options(dtype, layout, device, pin_memory, memory_format, from_tensor=True)
    if high is None:
        return _finish(aten.randint_like.default(input, low, **options), requires_grad)
    return _finish(aten.randint_like.low_dtype(input, low, high, **options), requires_grad)


@out_variant(ANY, differentiable=False, dtype_from_out=FACTORY)
def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    options = _options(dtype, layout, device, pin_memory)
    return _finish(_with_generator(aten.randperm.default, aten.randperm.generator, generator, n, **options),
                   requires_grad)


@out_variant(ANY, differentiable=False, resize_warning="")
def bernoulli(input, p=None, *, generator=None):
    if p is not None:
        return aten.bernoulli.p(input, p, generator=generator)
    return aten.bernoulli.default(input, generator=generator)


@out_variant(ANY, differentiable=False)
def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False, layout=None,
           pin_memory=False):
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        shape = (mean if isinstance(mean, Tensor) else std).shape
        # (normal(0, 1), not randn: torch's compiled graphs keep normal's draw on the eager stream, as prims.normal,
        # while the inductor path computes a randn with Philox)
        noise = aten.normal.float_float(0.0, 1.0, list(shape), generator=generator,
                                        dtype=(mean if isinstance(mean, Tensor) else std).dtype)
        return noise * std + mean
    options = _options(dtype, layout, device, pin_memory)
    return _finish(aten.normal.float_float(mean, std, _size((size,)), generator=generator, **options), requires_grad)
