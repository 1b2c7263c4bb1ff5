"""Chains of views followed by in-place writes, as users write them, against torch: a base tensor (float, int, bool;
empty and size-1 dims; contiguous, transposed, stepped, expanded or as_strided), a chain of one to four views of it,
one to three in-place ops on a view or on the base (operands that broadcast, alias or overlap the target), then a
read of the base and of every view: values, shapes, strides, contiguity, storage offsets and version counters; or
the error's class and first line where torch raises. An autograd variant writes through views of a non-leaf and
runs backward (gradients, grad_fn names, the version-counter error); a compiled variant runs a subset of the
programs on a compiled function's inputs. MT2_VIEW_FUZZ_EXAMPLES=N runs N examples of each instead of the default.
"""
import os
import warnings

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import frontend
import minitorch2

EXAMPLES = int(os.environ.get("MT2_VIEW_FUZZ_EXAMPLES", "0"))
DTYPES = ["float32", "float64", "int64", "bool"]
SHAPES = [(), (0,), (1,), (4,), (2, 3), (3, 1), (1, 4), (0, 3), (2, 3, 4), (3, 1, 2), (2, 2, 2, 1), (4, 4)]


# ---- bases ---------------------------------------------------------------------------------------------------
def _values(shape, dtype, seed):
    count = int(np.prod(shape, dtype=np.int64))
    values = (np.arange(count) * 7 + seed) % 11 - 4.0
    if dtype == "bool":
        return (values > 0).reshape(shape)
    return values.reshape(shape).astype(np.int64 if dtype == "int64" else dtype)


def make_base(lib, shape, dtype, layout, seed):
    """A base of the given shape laid out as users get one: from a factory, a transpose, a stepped slice, an
    expand of a size-1 tensor, or an as_strided of a longer storage."""
    if layout == "transposed" and len(shape) >= 2:
        return lib.tensor(_values(shape[::-1], dtype, seed)).permute(*reversed(range(len(shape))))
    if layout == "stepped" and shape:
        bigger = (shape[0] * 2,) + tuple(shape[1:])
        return lib.tensor(_values(bigger, dtype, seed))[::2]
    if layout == "expanded" and shape:
        return lib.tensor(_values((1,) + tuple(shape[1:]), dtype, seed)).expand(*shape)
    if layout == "as_strided" and shape:
        strides = [1]
        for size in reversed(shape[1:]):
            strides.insert(0, strides[0] * max(size, 1) + 1)
        storage = lib.tensor(_values((sum((s - 1) * d for s, d in zip(shape, strides)) + 3,), dtype, seed))
        return storage.as_strided(shape, strides, 2) if 0 not in shape else storage.as_strided(shape, strides, 1)
    return lib.tensor(_values(shape, dtype, seed))


# ---- views: each takes the tensor and three drawn numbers, and picks its arguments from the tensor's shape ------
def _dim(x, k):
    return k % x.dim() if x.dim() else 0


def _reshape_flat(x, k):
    return x.reshape(-1) if k[0] % 2 else x.view(-1)


def _view_split_last(x, k):
    if x.dim() == 0 or x.shape[-1] % 2:
        return x.view(*x.shape, 1)
    return x.view(*x.shape[:-1], 2, x.shape[-1] // 2)


def _narrow(x, k):
    dim = _dim(x, k[0])
    size = x.shape[dim]
    start = k[1] % (size + 1)
    return x.narrow(dim, start, k[2] % (size - start + 1))


def _slice(x, k):
    dim = _dim(x, k[0])
    size = x.shape[dim]
    start = -(k[1] % (size + 1)) if k[2] % 3 == 0 else k[1] % (size + 1)
    index = (slice(None),) * dim + (slice(start, None, 1 + k[2] % 3),)
    return x[index]


def _slice_negative_stop(x, k):
    return x[..., :-1] if k[0] % 2 else x[:-1]


def _select(x, k):
    dim = _dim(x, k[0])
    size = x.shape[dim]
    return x.select(dim, k[1] % size - (size if k[2] % 2 else 0)) if size else x.select(dim, k[1])


def _split_element(x, k):
    dim = _dim(x, k[0])
    parts = x.split(1 + k[1] % 2, dim) if k[2] % 2 else x.chunk(1 + k[1] % 3, dim)
    return parts[k[2] % len(parts)] if parts else x


def _unbind_element(x, k):
    parts = x.unbind(_dim(x, k[0]))
    return parts[k[1] % len(parts)] if parts else x


def _diagonal(x, k):
    return x.diagonal(offset=k[0] % 3 - 1, dim1=0, dim2=-1)


def _unfold(x, k):
    dim = _dim(x, k[0])
    size = x.shape[dim] if x.dim() else 1
    return x.unfold(dim, 1 + k[1] % max(size, 1), 1 + k[2] % 2)


def _expand(x, k):
    return x.unsqueeze(0).expand(2, *x.shape)


def _as_strided(x, k):
    return x.as_strided((2, 2), (1, k[0] % 2), k[1] % 2) if x.is_contiguous() else x.as_strided((1,), (1,))


def _squeeze(x, k):
    return x.squeeze(_dim(x, k[0])) if k[1] % 2 else x.squeeze()


def _movedim(x, k):
    return x.movedim(_dim(x, k[0]), _dim(x, k[1]))


def _unflatten(x, k):
    if x.dim() == 0 or x.shape[0] % 2:
        return x.flatten(0, -1) if x.dim() else x.flatten()
    return x.unflatten(0, (2, -1))


def _permute(x, k):
    order = list(range(x.dim()))
    order.reverse() if k[0] % 2 else order.insert(0, order.pop())
    return x.permute(*order)


VIEWS = {
    "view_flat": _reshape_flat, "view_split_last": _view_split_last,
    "transpose": lambda x, k: x.transpose(_dim(x, k[0]), _dim(x, k[1])),
    "t": lambda x, k: x.t(), "T": lambda x, k: x.T, "mT": lambda x, k: x.mT, "permute": _permute,
    "narrow": _narrow, "select": _select, "slice": _slice, "slice_negative_stop": _slice_negative_stop,
    "unsqueeze": lambda x, k: x.unsqueeze(k[0] % (x.dim() + 1)), "squeeze": _squeeze,
    "diagonal": _diagonal, "unfold": _unfold, "expand": _expand, "as_strided": _as_strided,
    "split": _split_element, "unbind": _unbind_element, "view_as": lambda x, k: x.view_as(x.reshape(x.shape)),
    "movedim": _movedim, "unflatten": _unflatten, "flip_copy_read": lambda x, k: x[..., :],
}


# ---- in-place writes: each takes lib, the target and the number drawn -----------------------------------------
def _operand(lib, target, k):
    """A second tensor for a binary in-place op: of the target's shape, one that broadcasts, or 0-d."""
    shapes = [tuple(target.shape), tuple(target.shape[-1:]), ()]
    shape = shapes[k % 3]
    return lib.tensor(_values(shape, "float64", k) + 0.5).to(target.dtype if k % 2 else lib.float32)


def _index_put(lib, v, k):
    if v.dim() == 0 or v.shape[0] == 0:
        v[...] = k % 5
        return
    index = lib.tensor([0, v.shape[0] - 1, 0])
    v.index_put_((index,), lib.tensor(float(k % 3 - 1)).to(v.dtype), accumulate=bool(k % 2))


def _scatter(lib, v, k):
    index = lib.zeros(v.shape, dtype=lib.int64)
    return v.scatter_(0, index, lib.ones(v.shape, dtype=v.dtype))


def _index_add(lib, v, k):
    if v.dim() == 0:
        return v.index_add_(0, lib.tensor(0), v.clone())
    source = lib.ones((2,) + tuple(v.shape[1:]), dtype=v.dtype)
    return v.index_add_(0, lib.tensor([0, 0]) % max(v.shape[0], 1), source)


WRITES = {
    "add_number": lambda lib, v, k: v.add_(k % 3 + 1), "mul_number": lambda lib, v, k: v.mul_(-2.5),
    "sub_tensor": lambda lib, v, k: v.sub_(_operand(lib, v, k)), "add_tensor": lambda lib, v, k: v.add_(
        _operand(lib, v, k), alpha=2), "mul_tensor": lambda lib, v, k: v.mul_(_operand(lib, v, k)),
    "div_tensor": lambda lib, v, k: v.div_(_operand(lib, v, k)), "div_number": lambda lib, v, k: v.div_(4),
    "add_own_transpose": lambda lib, v, k: v.add_(v.mT if v.dim() >= 2 else v.flip(0) if v.dim() else v),
    "copy_own_flip": lambda lib, v, k: v.copy_(v.flip(0) if v.dim() else v),
    "copy_other_view": lambda lib, v, k: v.copy_(v[..., :1] if v.dim() else v),
    "copy_": lambda lib, v, k: v.copy_(_operand(lib, v, k)), "fill_": lambda lib, v, k: v.fill_(k % 4 - 1.5),
    "zero_": lambda lib, v, k: v.zero_(), "clamp_": lambda lib, v, k: v.clamp_(-1, 2),
    "masked_fill_": lambda lib, v, k: v.masked_fill_(lib.tensor(_values(v.shape, "bool", k)), 3),
    "index_put_": _index_put, "scatter_": _scatter, "index_add_": _index_add,
    "subscript_all": lambda lib, v, k: v.__setitem__(Ellipsis, _operand(lib, v, k)),
    "subscript_first": lambda lib, v, k: v.__setitem__(0, 1) if v.dim() else v.__setitem__((), 1),
    "addcmul_": lambda lib, v, k: v.addcmul_(_operand(lib, v, k), _operand(lib, v, k + 1), value=0.5),
    "lerp_": lambda lib, v, k: v.lerp_(_operand(lib, v, k).to(v.dtype), 0.25), "exp_": lambda lib, v, k: v.exp_(),
    "neg_": lambda lib, v, k: v.neg_(), "abs_": lambda lib, v, k: v.abs_(),
}


# Ops that refuse a dtype whatever the layout: torch's meta refuses it before its overlap check, minitorch2 after
# (test_dtype_refusals_come_before_the_overlap_check below), so the grammar leaves these pairs out.
REFUSED_DTYPES = {"sub_tensor": ("bool",), "neg_": ("bool",), "lerp_": ("int64", "bool")}


# Scatters and index_add_ into a target whose elements share addresses without a zero stride (overlapping
# as_strided or unfold windows): ATen's loop adds or stores element by element, so aliased elements see each
# other's writes; minitorch2 computes the whole result and stores it (test_indexed_writes_into_overlapping_windows).
INDEXED_WRITES = {"scatter_", "index_add_"}
# and addcmul_, whose three operands ATen's vectorized loop reads in an order loop_order.py does not model
# (test_addcmul_into_overlapping_windows_as_torch)
SELF_OVERLAP_LEFT_OUT = INDEXED_WRITES | {"addcmul_"}


def left_out(write, target, number):
    """A write the strict xfails below cover, into a target whose elements share addresses: an indexed one, or a
    pointwise one reading a float32 operand into another dtype (_operand: an even number draws float32)."""
    if not overlaps_itself(target):
        return False
    casts = write in CASTING_WRITES and number % 2 == 0 and str(target.dtype) != "torch.float32"
    return write in SELF_OVERLAP_LEFT_OUT or casts


# whose operand from _operand may be of another dtype than the target (test_casting_add_into_overlapping_windows)
CASTING_WRITES = {"sub_tensor", "add_tensor", "mul_tensor", "div_tensor", "copy_", "subscript_all", "lerp_"}


def overlaps_itself(t):
    """Two elements at one address, not through a zero stride (an expanded target raises or is handled alike)."""
    if t.numel() == 0 or 0 in t.stride():
        return False
    offsets = np.zeros(1, np.int64)
    for size, stride in zip(t.shape, t.stride()):
        offsets = (offsets[:, None] + np.arange(size) * stride).ravel()
    return len(np.unique(offsets)) < len(offsets)


# ---- running a program and reading everything back ------------------------------------------------------------
class Values:
    """A tensor's values, equal to another's within float32 rounding (an exp_ of an exp_ may differ in its last bit
    between numpy's and torch's vectorized exp), with NaNs and infinities in the same places."""

    def __init__(self, tensor):
        self.array = np.array(tensor.detach().reshape(-1).tolist(), dtype=np.float64)

    def __eq__(self, other):
        return self.array.shape == other.array.shape and bool(
            np.allclose(self.array, other.array, rtol=1e-6, atol=1e-6, equal_nan=True))

    def __repr__(self):
        return repr(self.array.tolist())


def describe(tensor):
    return (tuple(tensor.shape), str(tensor.dtype).split(".")[-1], Values(tensor), tuple(tensor.stride()),
            tensor.is_contiguous(), tensor.storage_offset(), tensor._version)


def _error(error):
    return type(error).__name__, str(error).strip().splitlines()[0]


def run_program(lib, program):
    """The program's record under `lib`: what each step read, ending at the first error (its class and words)."""
    (shape, dtype, layout, seed), chain, writes = program
    record = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (deprecations: .T of other than 2 dims, writes into expanded tensors)
        try:
            base = make_base(lib, shape, dtype, layout, seed)
            views = [base]
            for name, numbers in chain:
                views.append(VIEWS[name](views[-1], numbers))
                record.append(("view", name, describe(views[-1])))
            for name, on_view, number in writes:
                target = views[on_view % len(views)]
                if left_out(name, target, number):
                    record.append(("left out", name))  # (test_indexed_writes_into_overlapping_windows_as_torch)
                    break
                WRITES[name](lib, target, number)
                record.append(("write", name, [describe(v) for v in views]))
        except Exception as error:  # noqa: BLE001 (torch's error, by class and words, is the expected outcome)
            record.append(_error(error))
    return record


@st.composite
def programs(draw):
    base = (draw(st.sampled_from(SHAPES)), draw(st.sampled_from(DTYPES)),
            draw(st.sampled_from(["contiguous", "contiguous", "transposed", "stepped", "expanded", "as_strided"])),
            draw(st.integers(0, 10)))
    numbers = st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(0, 20))
    chain = draw(st.lists(st.tuples(st.sampled_from(sorted(VIEWS)), numbers), min_size=1, max_size=4))
    names = sorted(name for name in WRITES if base[1] not in REFUSED_DTYPES.get(name, ()))
    writes = draw(st.lists(st.tuples(st.sampled_from(names), st.integers(0, 5), st.integers(0, 20)),
                           min_size=1, max_size=3))
    return base, chain, writes


@settings(max_examples=EXAMPLES or 200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_view_chains_then_inplace_writes_as_torch(program):
    assert run_program(minitorch2, program) == run_program(torch, program)


@pytest.mark.xfail(strict=True, reason="torch's structured metas run an op's own dtype checks (sub/neg of bool, "
                   "lerp's dtypes) before TensorIterator's overlap check; minitorch2's overlap check (overlap.checked) "
                   "runs before the kernel's checks, so an expanded target raises the overlap error instead")
@pytest.mark.parametrize("write", ["neg_", "sub_", "lerp_"])
def test_dtype_refusals_come_before_the_overlap_check(write):
    def outcome(lib):
        expanded = lib.zeros(3, dtype=lib.bool if write != "lerp_" else lib.int64).expand(2, 3)
        operands = {"neg_": (), "sub_": (lib.ones(2, 3, dtype=lib.bool),), "lerp_": (lib.ones(2, 3), 0.5)}[write]
        try:
            getattr(expanded, write)(*operands)
        except RuntimeError as error:
            return str(error)
    assert outcome(minitorch2) == outcome(torch)


@pytest.mark.xfail(strict=True, reason="scatter_/index_add_ into overlapping as_strided windows: ATen's "
                   "loop writes element by element, so a later element reads what an aliased one wrote; minitorch2's "
                   "kernels compute the whole result from the old values and store it (only fills emulate the loop)")
@pytest.mark.parametrize("write", sorted(INDEXED_WRITES))
def test_indexed_writes_into_overlapping_windows_as_torch(write):
    def written(lib):
        storage = lib.tensor([1.0, 3.0, -1.0, 6.0])
        WRITES[write](lib, storage.as_strided((2, 2), (1, 1)), 0)
        return storage.tolist()

    assert written(minitorch2) == written(torch)


# ---- autograd: a view chain of a non-leaf (or of the leaf itself), in-place writes, backward ------------------
GRAD_WRITES = ["add_number", "mul_number", "mul_tensor", "div_tensor", "add_tensor", "copy_", "fill_", "zero_",
               "clamp_", "masked_fill_", "index_put_", "subscript_all", "subscript_first", "exp_", "neg_", "abs_",
               "addcmul_", "lerp_", "add_own_transpose", "copy_own_flip"]
GRAD_SHAPES = [(4,), (2, 3), (3, 1), (2, 3, 4), (4, 4), (1, 4)]
# expand and as_strided make targets torch refuses to write; reshape and flatten of a non-contiguous tensor record
# ReshapeAliasBackward0 in torch (test_reshape_of_a_strided_view_records_torchs_node)
GRAD_VIEWS_LEFT_OUT = {"expand", "as_strided", "view_flat", "unflatten"}


def _grad_fn_name(t):
    return type(t.grad_fn).__name__ if t.grad_fn is not None else None


def run_autograd_program(lib, program):
    """The leaf's gradient after writes through views of `x` (the leaf times 1.5, or the leaf itself), with the
    grad_fn names of x and of every view after each write; or the first error. A value read before the writes
    (sin of the target) is part of the loss, so a write into what it saved must fail backward as torch's does."""
    (shape, layout, seed, on_leaf, read_first), chain, writes = program
    record = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            leaf = make_base(lib, shape, "float64", layout, seed).detach().requires_grad_()
            x = leaf if on_leaf else leaf * 1.5
            views = [x]
            for name, numbers in chain:
                views.append(VIEWS[name](views[-1], numbers))
            record.append(("views", [(describe(v), _grad_fn_name(v)) for v in views]))
            early = views[-1].sin() if read_first else None
            for name, on_view, number in writes:
                if left_out(name, views[on_view % len(views)], number):
                    return record + [("left out", name)]
                WRITES[name](lib, views[on_view % len(views)], number)
                record.append(("write", name, [(describe(v), _grad_fn_name(v)) for v in views]))
            loss = sum((v * (1 + 0.1 * k)).sum() for k, v in enumerate(views))
            (loss + early.sum() if early is not None else loss).backward()
            record.append(("grad", Values(leaf.grad)))
        except Exception as error:  # noqa: BLE001 (torch's error, by class and words, is the expected outcome)
            record.append(_error(error))
    return record


@st.composite
def autograd_programs(draw):
    setup = (draw(st.sampled_from(GRAD_SHAPES)), draw(st.sampled_from(["contiguous", "transposed", "stepped"])),
             draw(st.integers(0, 10)), draw(st.booleans()) and draw(st.booleans()), draw(st.booleans()))
    numbers = st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(0, 20))
    chain = draw(st.lists(st.tuples(st.sampled_from(sorted(set(VIEWS) - GRAD_VIEWS_LEFT_OUT)), numbers),
                          min_size=1, max_size=3))
    writes = draw(st.lists(st.tuples(st.sampled_from(GRAD_WRITES), st.integers(0, 4), st.integers(0, 20)),
                           min_size=1, max_size=2))
    return setup, chain, writes


@settings(max_examples=EXAMPLES or 60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(autograd_programs())
def test_writes_through_views_then_backward_as_torch(program):
    assert run_autograd_program(minitorch2, program) == run_autograd_program(torch, program)


@pytest.mark.xfail(strict=True, reason="torch's reshape of a non-contiguous tensor its strides can view is "
                   "at::_reshape_alias (grad_fn ReshapeAliasBackward0); minitorch2 has no _reshape_alias op and records "
                   "a view (ViewBackward0)")
def test_reshape_of_a_strided_view_records_torchs_node():
    def node(lib):
        stepped = (lib.ones(6, 1, requires_grad=True) * 1)[::2]
        return stepped.reshape(-1).grad_fn.name()

    assert node(minitorch2) == node(torch)


# ---- compiled: the chain and the writes on a compiled function's input -----------------------------------------
COMPILED_WRITES = ["add_number", "mul_number", "sub_tensor", "add_tensor", "mul_tensor", "div_tensor", "copy_",
                   "fill_", "zero_", "clamp_", "masked_fill_", "index_put_", "subscript_all", "subscript_first",
                   "exp_", "neg_", "abs_", "addcmul_", "lerp_", "scatter_", "index_add_", "add_own_transpose",
                   "copy_own_flip"]


def run_compiled_program(lib, program, backend):
    """What the compiled function returns (each view, times one) and its input afterwards; or the error."""
    (shape, dtype, seed), chain, writes = program

    def chain_then_writes(x):
        views = [x]
        for name, numbers in chain:
            views.append(VIEWS[name](views[-1], numbers))
        for name, on_view, number in writes:
            WRITES[name](lib, views[on_view % len(views)], number)
        return [v * 1 for v in views]

    (frontend.reset if lib is minitorch2 else torch._dynamo.reset)()
    compiled = lib.compile(chain_then_writes, backend=backend)
    x = make_base(lib, shape, dtype, "contiguous", seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            outputs = compiled(x)
        except Exception as error:  # noqa: BLE001 (torch's error, by class and words, is the expected outcome)
            return [_error(error)]
    return [describe(t)[:5] for t in outputs] + [describe(x)[:3]]


@st.composite
def compiled_programs(draw):
    base = (draw(st.sampled_from([(4,), (2, 3), (3, 1), (2, 3, 4), (4, 4)])),
            draw(st.sampled_from(["float32", "float64"])), draw(st.integers(0, 10)))
    numbers = st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(0, 20))
    chain = draw(st.lists(st.tuples(st.sampled_from(sorted(set(VIEWS) - {"expand", "as_strided"})), numbers),
                          min_size=1, max_size=3))
    writes = draw(st.lists(st.tuples(st.sampled_from(COMPILED_WRITES), st.integers(0, 4), st.integers(0, 20)),
                           min_size=1, max_size=2))
    return base, chain, writes


@settings(max_examples=EXAMPLES or 40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(compiled_programs())
def test_compiled_writes_through_views_of_inputs_as_torch(program):
    assert run_compiled_program(minitorch2, program, "aot_eager") == run_compiled_program(torch, program, "aot_eager")


@pytest.mark.xfail(strict=True, reason="addcmul_ into as_strided windows that overlap (strides (1, 1)): ATen's "
                   "vectorized loop reads an element another window already wrote in an order loop_order.py, which "
                   "models two-operand loops, does not reproduce (17.625 where torch has 17.5)")
def test_addcmul_into_overlapping_windows_as_torch():
    def written(lib):
        storage = make_base(lib, (4,), "float64", "contiguous", 0)
        WRITES["addcmul_"](lib, storage.as_strided((2, 2), (1, 1)), 18)
        return storage.tolist()

    assert written(minitorch2) == written(torch)


@pytest.mark.xfail(strict=True, reason="a float32 operand added into float64 as_strided windows that overlap: ATen's "
                   "loop casts as it goes, element by element, so a later window reads what an earlier one wrote; "
                   "loop_order.py schedules it as a vectorized loop (2.0 where torch has 9.0)")
def test_casting_add_into_overlapping_windows_as_torch():
    def written(lib):
        storage = make_base(lib, (4,), "float64", "contiguous", 0)
        WRITES["add_tensor"](lib, storage.as_strided((2, 2), (1, 1)), 0)
        return storage.tolist()

    assert written(minitorch2) == written(torch)
