"""Two op-order and op-coverage classes against torch 2.13. Builtin sum over a generator expression: Dynamo inlines
the generator lazily and sums through its polyfill (functools.reduce from 0), so the graph reads `element = x * 0;
value = 0 + element; element_1 = x * 1; ...`, an add after each item. Tensor.view(dtype): the same bytes read as
another dtype (bit for bit), its sizes and strides, its errors, no autograd, and under compile aten.view.dtype then
detach (as torch's autograd hands the view out) with the inductor's values."""
import numpy as np
import pytest
import torch
from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd

import frontend
from frontend.backends.common import aot_autograd as our_aot_autograd
import minitorch2

LIBS = (torch, minitorch2)


def graphs_of(lib, fn, *args):
    """(Dynamo's graph code, the AOT forward graph codes, the compiled result)."""
    dynamo, aot_autograd = (torch._dynamo, torch_aot_autograd) if lib is torch else (frontend, our_aot_autograd)
    dynamo.reset()
    codes = []

    def backend(gm, example_inputs):
        codes.append(gm.code)

        def forward_compiler(graph, example_inputs):
            codes.append(graph.code)
            return graph

        return aot_autograd(fw_compiler=forward_compiler)(gm, example_inputs)

    return codes, lib.compile(fn, backend=backend)(*args)


def scaled_sum(x):
    return sum(x * i for i in range(3))


def list_sum(x):
    return sum([x, x.sin()]) * 2


def started_sum(x):
    return sum((t.sum() for t in x.unbind(0)), x.new_ones(()))


def nested_sums(x):
    return sum(sum(x * j for j in range(i)) for i in range(1, 3))


def sum_of_a_generator_function(x):
    def powers(t):
        for k in range(3):
            yield t ** k

    return sum(powers(x))


def stored_then_summed(x):
    parts = [x.cos(), x.exp()]
    return sum(p * 2 for p in parts)


SUMS = [scaled_sum, list_sum, started_sum, nested_sums, sum_of_a_generator_function, stored_then_summed]


@pytest.mark.parametrize("fn", SUMS, ids=lambda fn: fn.__name__)
def test_builtin_sums_trace_in_dynamos_order_and_names(fn):
    results = []
    for lib in LIBS:
        x = lib.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
        results.append((*graphs_of(lib, fn, x), fn(x)))
    (our_codes, ours, our_eager), (their_codes, theirs, their_eager) = results[1], results[0]
    assert our_codes == their_codes
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)
    np.testing.assert_allclose(our_eager.numpy(), their_eager.numpy(), rtol=1e-6)


VIEWS = [  # (source dtype, target dtype, source shape, how the source is cut)
    ("float32", "int32", (3, 4), None),
    ("float32", "int16", (3, 4), None),
    ("float32", "uint8", (2, 3), (slice(None), slice(1, None))),
    ("int16", "float32", (3, 4), None),
    ("uint8", "float64", (2, 16), (slice(None), slice(8, None))),
    ("float64", "float32", (5,), (slice(1, 4),)),
    ("float16", "int16", (4,), None),
    ("int64", "float64", (2, 3), None),
]


def source(lib, dtype, shape, cut):
    values = (np.arange(np.prod(shape)).reshape(shape) * 37 % 101 - 50).astype(dtype) / (3 if "float" in dtype else 1)
    t = lib.tensor(values.astype(dtype))
    return t[cut] if cut is not None else t


@pytest.mark.parametrize("case", VIEWS, ids=lambda c: f"{c[0]}-as-{c[1]}-{'cut' if c[3] else 'whole'}")
def test_view_dtype_reads_the_same_bytes_as_torchs(case):
    results = []
    for lib in LIBS:
        x = source(lib, case[0], case[2], case[3])
        v = x.view(getattr(lib, case[1]))
        x.mul_(2) if "float" in case[0] else x.add_(3)  # (a view: the write shows through it)
        results.append((v, v.shape, v.stride(), v.storage_offset(), v.dtype.itemsize, v._is_view(), v.requires_grad))
    ours, theirs = results[1], results[0]
    np.testing.assert_array_equal(ours[0].numpy(), theirs[0].numpy())
    assert tuple(ours[1]) == tuple(theirs[1]) and ours[2:] == theirs[2:]


ERRORS = {  # (source dtype, target dtype, the source)
    "0-d, other size": ("float32", "int16", lambda lib, x: x.sum()),
    "last dim strided": ("float32", "int16", lambda lib, x: x.t()),
    "size not divisible": ("int16", "float32", lambda lib, x: x[:, :3]),
    "offset not divisible": ("int16", "float32", lambda lib, x: x[:, 1:3]),
    "stride not divisible": ("int16", "float32", lambda lib, x: x.new_zeros(4, 5)[:, :4]),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_view_dtype_refuses_as_torch_does(name):
    src, dst, cut = ERRORS[name]
    errors = []
    for lib in LIBS:
        x = cut(lib, source(lib, src, (3, 4), None))
        with pytest.raises(Exception) as info:
            x.view(getattr(lib, dst))
        errors.append((type(info.value).__name__, str(info.value)))
    assert errors[1] == errors[0]


def test_view_dtype_has_no_autograd_as_torchs():
    errors = []
    for lib in LIBS:
        x = lib.ones(4, requires_grad=True)
        floats, ints = x.view(lib.float32), x.view(lib.int32)
        assert not floats.requires_grad and floats.grad_fn is None and not ints.requires_grad
        with pytest.raises(RuntimeError) as info:
            floats.sum().backward()
        errors.append(str(info.value))
    assert errors[1] == errors[0]


def bit_views(x):
    bits = x.view(torch.int32 if isinstance(x, torch.Tensor) else minitorch2.int32)
    halves = x.view(torch.float16 if isinstance(x, torch.Tensor) else minitorch2.float16)
    return bits + 1, halves * 2, (bits - 1).view(x.dtype)  # (the next float toward zero)


def test_compiled_view_dtype_graphs_and_inductor_values_are_torchs():
    results = []
    for lib in LIBS:
        x = lib.tensor(np.linspace(-2, 2, 16, dtype=np.float32).reshape(4, 4))
        codes, compiled = graphs_of(lib, bit_views, x)
        (torch._dynamo if lib is torch else frontend).reset()
        inductor = lib.compile(bit_views, backend="inductor")(x)
        results.append((codes, compiled, inductor, bit_views(x)))
    ours, theirs = results[1], results[0]
    assert ours[0] == theirs[0]
    for our_outputs, their_outputs in zip(ours[1:], theirs[1:]):
        for a, b in zip(our_outputs, their_outputs):
            assert a.dtype.itemsize == b.dtype.itemsize
            np.testing.assert_array_equal(a.numpy(), b.numpy())


def bump_bits(x):
    y = x * 2
    y.view(torch.int32 if isinstance(x, torch.Tensor) else minitorch2.int32).add_(1)
    return y


def bump_detached(x):
    y = x * 2
    y.detach().add_(1)
    return y


@pytest.mark.parametrize("fn", [bump_bits, bump_detached], ids=lambda fn: fn.__name__)
def test_a_write_through_a_dtype_view_or_a_detach_functionalizes_as_torchs(fn):
    """The written view goes back into its base as torch's functionalization writes it: view.dtype by viewing the
    new bytes as the base's dtype, detach (an alias) as it is."""
    results = []
    for lib in LIBS:
        x = lib.tensor([1.0, -2.0, 3.5, 0.25])
        codes, compiled = graphs_of(lib, fn, x)
        results.append((codes, compiled, fn(x)))
    ours, theirs = results[1], results[0]
    assert ours[0] == theirs[0]
    np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())
    np.testing.assert_array_equal(ours[2].numpy(), theirs[2].numpy())
