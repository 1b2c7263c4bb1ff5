"""Every registered aten overload against torch.ops.aten, driven by the OpInfo table (opinfo.py).

For each (op, dtype) and each sample input:

    test_values  eager results: dtype, shape, stride, storage offset, values,
                 aliasing of inputs, inputs after the call (in-place ops), and
                 the exception class when torch raises
    test_meta    our op under FakeTensorMode against torch's op on meta tensors
    test_grad    minitorch2.autograd.grad against torch.autograd.grad with
                 random grad_outputs, and the grad_fn's name
"""
import numpy as np
import pytest
import torch

import minitorch2
from minitorch2._subclasses.fake_tensor import FakeTensor, FakeTensorMode

from .opinfo import DT, FLOAT, NOT_IN_ATEN, OP_DB, TensorArg, covered_elsewhere

pytestmark = pytest.mark.runtime


# ---------------------------------------------------------------- building arguments
def resolve(lib, name):
    packet, overload = name.split(".")
    return getattr(getattr(lib.ops.aten, packet), overload)


def build(obj, lib, *, meta=False, leaves=None):
    """Turn a recipe into `lib` values; float tensors become leaves requiring grad when `leaves` is a list."""
    if isinstance(obj, TensorArg):
        base = obj.base()
        if lib is torch and meta:
            t = torch.empty(base.shape, dtype=getattr(torch, obj.dtype), device="meta")
        else:  # (contiguous: tensor() and from_numpy() keep numpy's strides, of empty arrays and size-1 dims too)
            t = lib.empty(base.shape, dtype=getattr(lib, obj.dtype)).copy_(lib.from_numpy(base))
        t = obj.apply_layout(t)
        if leaves is not None and obj.dtype in FLOAT:
            t = t.detach().requires_grad_()
            leaves.append(t)
        return t
    if isinstance(obj, DT):
        return getattr(lib, obj.name)
    if isinstance(obj, (list, tuple)):
        return type(obj)(build(o, lib, meta=meta, leaves=leaves) for o in obj)
    if isinstance(obj, dict):
        return {k: build(v, lib, meta=meta, leaves=leaves) for k, v in obj.items()}
    return obj


def is_inplace(name):
    return name.split(".")[0].endswith("_")


def flatten(value):
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in flatten(v)]
    return [value]


def call(lib, name, sample, **build_kw):
    args = build(sample.args, lib, **build_kw)
    kwargs = build(sample.kwargs, lib, **build_kw)
    try:
        return args, kwargs, resolve(lib, name)(*args, **kwargs), None
    except Exception as e:  # noqa: BLE001  (compared with torch's exception below)
        return args, kwargs, None, e


def builtin_class(exc):
    return next(c for c in type(exc).__mro__ if c.__module__ == "builtins")


def check_same_outcome(name, sample, ours_exc, torch_exc):
    if torch_exc is not None:
        assert ours_exc is not None, f"{name}{sample}: torch raised {torch_exc!r}, minitorch2 did not"
        expected = builtin_class(torch_exc)
        assert isinstance(ours_exc, expected), (
            f"{name}{sample}: torch raised {expected.__name__}({torch_exc}), minitorch2 raised {ours_exc!r}")
        return False
    if ours_exc is not None:
        raise AssertionError(f"{name}{sample}: minitorch2 raised, torch did not: {ours_exc!r}") from ours_exc
    return True


# ---------------------------------------------------------------- comparing results
def to_torch(t):
    return torch.from_numpy(np.array(t.numpy(force=True), copy=True))


def assert_tensor_matches(ours, theirs, where, *, values=True, layout=True):
    assert isinstance(ours, minitorch2.Tensor), f"{where}: expected a Tensor, got {type(ours).__name__}"
    assert repr(ours.dtype) == str(theirs.dtype), f"{where}: dtype {ours.dtype} != torch's {theirs.dtype}"
    assert tuple(ours.shape) == tuple(theirs.shape), f"{where}: shape {tuple(ours.shape)} != torch's {tuple(theirs.shape)}"
    if layout:
        assert tuple(ours.stride()) == tuple(theirs.stride()), (
            f"{where}: stride {ours.stride()} != torch's {theirs.stride()} (shape {tuple(theirs.shape)})")
        assert ours.storage_offset() == theirs.storage_offset(), (
            f"{where}: storage_offset {ours.storage_offset()} != torch's {theirs.storage_offset()}")
    if values:
        torch.testing.assert_close(to_torch(ours), theirs.detach(), equal_nan=True, check_stride=False,
                                   msg=lambda m: f"{where}: {m}")


def assert_outputs_match(ours, theirs, where, **kw):
    if isinstance(theirs, torch.Tensor):
        assert_tensor_matches(ours, theirs, where, **kw)
    elif isinstance(theirs, (list, tuple)):
        assert isinstance(ours, (list, tuple)) and len(ours) == len(theirs), (
            f"{where}: {len(theirs)} outputs expected, got {ours!r}")
        for i, (o, t) in enumerate(zip(ours, theirs)):
            assert_outputs_match(o, t, f"{where}[{i}]", **kw)
    else:
        assert ours == theirs, f"{where}: {ours!r} != torch's {theirs!r}"


def torch_aliases(out, inputs):
    return [isinstance(i, torch.Tensor) and out.numel() > 0 and i.numel() > 0
            and out.untyped_storage().data_ptr() == i.untyped_storage().data_ptr() for i in inputs]


def ours_aliases(out, inputs):
    return [isinstance(i, minitorch2.Tensor) and out.numel() > 0 and i.numel() > 0
            and np.may_share_memory(out.numpy(force=True), i.numpy(force=True)) for i in inputs]


def tensor_inputs(args, kwargs):
    return [a for a in flatten(list(args) + list(kwargs.values())) if isinstance(a, (torch.Tensor, minitorch2.Tensor))]


# ---------------------------------------------------------------- test cases
def is_mixed(sample, dtype):
    """Does the sample mix float dtypes (so gradients must be cast back to each input's dtype)?"""
    recipes = flatten(list(sample.args) + list(sample.kwargs.values()))
    floats = {r.dtype for r in recipes if isinstance(r, TensorArg) and r.dtype in FLOAT}
    return len(floats) > 1 or any(isinstance(r, DT) and r.name != dtype for r in recipes)


def cases(kind):
    for op in OP_DB:
        if kind in ("grad", "grad_mixed"):
            if not op.grad:
                continue
            dtypes = [d for d in op.grad_dtypes if d in op.dtypes]
            if kind == "grad_mixed":
                dtypes = [d for d in dtypes if any(is_mixed(s, d) and call(torch, op.name, s)[3] is None
                                                   for s in op.make_samples(d))]
        elif kind == "meta" and not op.meta:
            continue
        else:
            dtypes = op.dtypes
        for dtype in dtypes:
            reason = op.xfail(kind, dtype)
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(op, dtype, id=f"{op.name}-{dtype}", marks=marks)


@pytest.mark.parametrize("op,dtype", cases("values"))
def test_values(op, dtype):
    for sample in op.make_samples(dtype):
        t_args, t_kwargs, expected, t_exc = call(torch, op.name, sample)
        m_args, m_kwargs, actual, m_exc = call(minitorch2, op.name, sample)
        if not check_same_outcome(op.name, sample, m_exc, t_exc):
            continue
        where = f"{op.name}{sample}"
        assert_outputs_match(actual, expected, where, values=op.values)
        t_inputs, m_inputs = tensor_inputs(t_args, t_kwargs), tensor_inputs(m_args, m_kwargs)
        for i, (o, t) in enumerate(zip(flatten(actual), flatten(expected))):
            if isinstance(t, torch.Tensor):
                assert [o is a for a in m_inputs] == [t is a for a in t_inputs], f"{where}: output {i} identity"
                assert ours_aliases(o, m_inputs) == torch_aliases(t, t_inputs), f"{where}: output {i} aliasing"
        for i, (m_in, t_in) in enumerate(zip(m_inputs, t_inputs)):
            assert_tensor_matches(m_in, t_in, f"{where}: input {i} after the call", layout=False)


@pytest.mark.parametrize("op,dtype", cases("meta"))
def test_meta(op, dtype):
    for sample in op.make_samples(dtype):
        if call(torch, op.name, sample)[3] is not None:
            continue  # invalid input: test_values compares the errors (torch's meta kernels check less)
        if op.factory:
            sample = type(sample)(sample.args, {**sample.kwargs, "device": "meta"})
        _, _, expected, t_exc = call(torch, op.name, sample, meta=True)
        m_args = build(sample.args, minitorch2)
        m_kwargs = {k: v for k, v in build(sample.kwargs, minitorch2).items() if k != "device"}
        try:
            with FakeTensorMode():
                actual = resolve(minitorch2, op.name)(*m_args, **m_kwargs)
            m_exc = None
        except Exception as e:  # noqa: BLE001
            m_exc = e
        where = f"{op.name}{sample} under FakeTensorMode"
        if t_exc is not None:
            assert m_exc is not None, f"{where}: torch's meta kernel raised {t_exc!r}, ours did not"
            continue
        if m_exc is not None:
            raise AssertionError(f"{where}: raised {m_exc!r}") from m_exc
        for o in flatten(actual):
            if isinstance(o, minitorch2.Tensor):
                assert isinstance(o, FakeTensor), f"{where}: returned a real tensor"
        assert_outputs_match(actual, expected, where, values=False)


def _differentiable(outputs, lib):
    return [o for o in flatten(outputs) if isinstance(o, lib.Tensor) and o.requires_grad]


@pytest.mark.parametrize("op,dtype", cases("grad"))
def test_grad(op, dtype):
    check_grads(op, dtype, [s for s in op.make_samples(dtype) if s.grad and not is_mixed(s, dtype)])


@pytest.mark.parametrize("op,dtype", cases("grad_mixed"))
def test_grad_mixed_dtypes(op, dtype):
    """Samples mixing float dtypes: each gradient must come back in its input's dtype."""
    check_grads(op, dtype, [s for s in op.make_samples(dtype) if s.grad and is_mixed(s, dtype)])


def check_grads(op, dtype, samples):
    rng = np.random.default_rng(0)
    checked = 0
    for sample in samples:
        results = {}
        for lib in (torch, minitorch2):
            leaves = []
            args = build(sample.args, lib, leaves=leaves)
            kwargs = build(sample.kwargs, lib)
            if is_inplace(op.name) and args[0].requires_grad:
                args = (args[0].clone(),) + tuple(args[1:])
            try:
                out = resolve(lib, op.name)(*args, **kwargs)
            except Exception as e:  # noqa: BLE001  (error samples: test_values compares them)
                out = e
            results[lib] = leaves, out
        (t_leaves, t_out), (m_leaves, m_out) = results[torch], results[minitorch2]
        if isinstance(t_out, Exception) or not t_leaves:
            continue
        where = f"{op.name}{sample}"
        if isinstance(m_out, Exception):
            raise AssertionError(f"{where}: raised {m_out!r}") from m_out
        t_diff, m_diff = _differentiable(t_out, torch), _differentiable(m_out, minitorch2)
        assert len(m_diff) == len(t_diff), f"{where}: {len(m_diff)} outputs require grad, torch has {len(t_diff)}"
        if not t_diff:
            continue
        assert m_diff[0].grad_fn.name() == t_diff[0].grad_fn.name(), f"{where}: grad_fn name"
        cotangents = [rng.standard_normal(tuple(t.shape)).astype(str(t.dtype)[6:]) for t in t_diff]
        try:
            t_grads = torch.autograd.grad(t_diff, t_leaves, [torch.from_numpy(c) for c in cotangents], allow_unused=True)
        except RuntimeError:
            continue  # torch cannot differentiate this sample (e.g. scatter with a src larger than index)
        m_grads = minitorch2.autograd.grad(m_diff, m_leaves, [minitorch2.from_numpy(c.copy()) for c in cotangents],
                                           allow_unused=True)
        for i, (m_g, t_g, leaf) in enumerate(zip(m_grads, t_grads, t_leaves)):
            t_g = torch.zeros_like(leaf) if t_g is None else t_g
            m_g = minitorch2.zeros(tuple(leaf.shape), dtype=getattr(minitorch2, str(leaf.dtype)[6:])) if m_g is None else m_g
            assert_tensor_matches(m_g, t_g, f"{where}: gradient of input {i}", layout=False)
        checked += 1
    assert checked, f"{op.name}: no sample produced a differentiable output"


# ---------------------------------------------------------------- coverage of the registry
def test_every_registered_overload_has_an_opinfo():
    registered = {str(o)[len("aten."):] for o in minitorch2.ops.aten.overloads()}
    tested = {op.name for op in OP_DB}
    missing = sorted(name for name in registered - tested if not covered_elsewhere(name))
    assert not missing, f"registered overloads with no OpInfo entry (add one to opinfo.py): {missing}"
    stale = sorted(tested - registered)
    assert not stale, f"OpInfo entries for overloads that are not registered: {stale}"
    assert not sorted(tested & {n for n in registered if covered_elsewhere(n)}), "listed in both places"


def test_every_opinfo_names_a_torch_overload():
    missing = set()
    for op in OP_DB:
        try:
            resolve(torch, op.name)
        except AttributeError:
            missing.add(op.name)
    assert missing == NOT_IN_ATEN, f"overloads torch.ops.aten does not have: {sorted(missing)}"


def test_fake_copies_of_non_leaves_are_non_leaves_as_torchs():
    """An in-place op on a fake copy of a non-leaf is allowed (a frontend graph input that the program
    changes in place); its unrecorded history is an Error node that refuses a backward."""
    from torch._subclasses.fake_tensor import FakeTensorMode as TorchFakeTensorMode

    seen = []
    for lib, mode in ((minitorch2, FakeTensorMode()), (torch, TorchFakeTensorMode())):
        leaf = lib.ones(3, requires_grad=True)
        fake_leaf, fake = mode.from_tensor(leaf), mode.from_tensor(leaf * 2)
        with mode:
            fake.relu_()
        seen.append((fake_leaf.is_leaf, fake.is_leaf, fake.requires_grad, fake.grad_fn.name()))
    assert seen[0] == seen[1] == (True, False, True, "ReluBackward0")
    fake = FakeTensorMode().from_tensor(minitorch2.ones(1, requires_grad=True) * 2)
    assert fake.grad_fn.name() == "Error"
    with pytest.raises(RuntimeError, match="not recorded"):
        (fake * 2).sum().backward()


def test_tracing_neg_of_a_bool_raises_torchs_error():
    """The meta function refuses what the kernel refuses: atan2(bool, x)'s backward negates the bool."""
    from torch._subclasses.fake_tensor import FakeTensorMode as TorchFakeTensorMode

    with pytest.raises(RuntimeError) as theirs, TorchFakeTensorMode() as mode:
        -mode.from_tensor(torch.tensor([True]))
    with pytest.raises(RuntimeError) as ours, FakeTensorMode() as mode:
        -mode.from_tensor(minitorch2.tensor([True]))
    assert str(ours.value) == str(theirs.value)
