"""Bad input gets torch's error class and message words (the Trust issue's runtime-checks slice).

Every case runs on real torch and on minitorch2: the outcome (value, or the
exception class and the start of its first message line) must be the same.
"""
import pytest
import torch
import torch._dynamo

import frontend
import minitorch2 as mt



def outcome(fn, lib):
    """('ok', value) or (exception class name, first words of the message)."""
    try:
        result = fn(lib)
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e).__name__, str(e).splitlines()[0][:60] if str(e) else ""
    if isinstance(result, (lib.Tensor,)):
        result = result.tolist()
    return "ok", result


def assert_same_outcome(fn):
    expected, got = outcome(fn, torch), outcome(fn, mt)
    assert got == expected


# ------------------------------------------------------------------ memory overlap of in-place writes
def _square(lib):
    return lib.arange(9.0).reshape(3, 3)


def _expanded(lib):
    return lib.arange(3.0).reshape(1, 3).expand(3, 3)


OVERLAP_CASES = {
    "add_ self (full overlap is fine)": lambda lib: (lambda y: y.add_(y))(_square(lib)),
    "add_ transpose": lambda lib: (lambda y: y.add_(y.t()))(_square(lib)),
    "mul_ transpose": lambda lib: (lambda y: y.mul_(y.t()))(_square(lib)),
    "sub_ transpose": lambda lib: (lambda y: y.sub_(y.t()))(_square(lib)),
    "div_ transpose": lambda lib: (lambda y: y.div_(y.t()))(_square(lib)),
    "add_ row": lambda lib: (lambda y: y.add_(y[0]))(_square(lib)),
    "add_ row of 1x3": lambda lib: (lambda y: y.add_(y[0]))(lib.arange(3.0).reshape(1, 3)),
    "add_ element": lambda lib: (lambda y: y.add_(y[0, 0]))(_square(lib)),
    "add_ shifted": lambda lib: (lambda y: y.view(-1)[1:].add_(y.view(-1)[:-1]))(_square(lib)),
    "add_ disjoint rows": lambda lib: (lambda y: y[0].add_(y[1]))(_square(lib)),
    # torch allows this one (too hard to prove overlap) and its values depend on its loop order: compare no values
    "add_ expanded input": lambda lib: (lambda y: y.add_(y[0].expand(3, 3)) and None)(_square(lib)),
    "add_ empty": lambda lib: (lambda y: y[:0].add_(y[:0]))(_square(lib)),
    "iadd expanded": lambda lib: (lambda e: e.__iadd__(1))(_expanded(lib)),
    "add_ expanded": lambda lib: _expanded(lib).add_(1),
    "mul_ expanded": lambda lib: _expanded(lib).mul_(2),
    "neg_ expanded": lambda lib: _expanded(lib).neg_(),
    "relu_ expanded": lambda lib: _expanded(lib).relu_(),
    "exp_ expanded": lambda lib: _expanded(lib).exp_(),
    "clamp_ expanded": lambda lib: _expanded(lib).clamp_(0, 1),
    "pow_ expanded": lambda lib: _expanded(lib).pow_(2),
    "addcmul_ transpose": lambda lib: (lambda y: y.addcmul_(y.t(), y))(_square(lib)),
    "addcmul_ expanded": lambda lib: _expanded(lib).addcmul_(lib.ones(3, 3), lib.ones(3, 3)),
    "addcdiv_ transpose": lambda lib: (lambda y: y.addcdiv_(lib.ones(3, 3), y.t()))(_square(lib)),
    "lerp_ transpose": lambda lib: (lambda y: y.lerp_(y.t(), 0.5))(_square(lib)),
    "lerp_ expanded": lambda lib: _expanded(lib).lerp_(lib.ones(3, 3), 0.5),
    "fill_ expanded (one value: fine)": lambda lib: _expanded(lib).fill_(1),
    "zero_ expanded (fine)": lambda lib: _expanded(lib).zero_(),
    "fill_ tensor expanded": lambda lib: _expanded(lib).fill_(lib.tensor(1.0)),
    "fill_ own element": lambda lib: (lambda y: y.fill_(y[0, 0]))(_square(lib)),
    "copy_ expanded": lambda lib: _expanded(lib).copy_(lib.ones(3, 3)),
    "copy_ transpose": lambda lib: (lambda y: y.copy_(y.t()))(_square(lib)),
    "copy_ row": lambda lib: (lambda y: y.copy_(y[0]))(_square(lib)),
    "copy_ self": lambda lib: (lambda y: y.copy_(y))(_square(lib)),
    "setitem disjoint": lambda lib: (lambda y: (y.__setitem__(0, y[1]), y)[1])(_square(lib)),
    "setitem overlapping": lambda lib: (lambda y: y.__setitem__(slice(0, 2), y[1:]))(_square(lib)),
    "index_put_ overlapping values": lambda lib: (lambda y: y.index_put_((lib.tensor([0, 1]),), y[1:]))(_square(lib)),
    "index_put_ self as values": lambda lib: (lambda y: y.index_put_((lib.tensor([0, 1, 2]),), y))(_square(lib)),
    "uniform_ expanded": lambda lib: _expanded(lib).uniform_(),
    "normal_ expanded": lambda lib: _expanded(lib).normal_(),
}


@pytest.mark.parametrize("name", sorted(OVERLAP_CASES))
def test_inplace_overlap_matches_torch(name):
    assert_same_outcome(OVERLAP_CASES[name])


@pytest.mark.filterwarnings("ignore:Use of")
@pytest.mark.parametrize("op", ["masked_fill_", "index_put_"])
def test_inplace_into_expanded_tensor_only_warns_for_indexed_writes(op):
    def write(lib):
        e = _expanded(lib)
        if op == "masked_fill_":
            return e.masked_fill_(lib.ones(3, 3, dtype=lib.bool), 5.0)
        return e.index_put_((lib.tensor([0]),), lib.tensor(5.0))

    with pytest.warns(UserWarning, match=f"Use of {op} on expanded tensors is deprecated"):
        write(mt)
    assert_same_outcome(write)


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
@pytest.mark.parametrize("case", ["partial", "internal", "full"])
def test_overlapping_in_place_ops_compiled_as_by_torch_compile(case, backend):
    """Fake tensors do not check overlaps (torch's neither): the graph records the op, the eager backend's call
    raises what eager raises, and a functionalized graph computes what functionalization orders."""
    def fn(y):
        if case == "partial":
            y.mul_(y.t())
        elif case == "internal":
            y[:1].expand(3, 3).add_(1)
        else:
            y.add_(y)
        return y * 2

    def run(lib):
        y = _square(lib)
        return lib.compile(fn, backend=backend)(y).tolist(), y.tolist()

    torch._dynamo.reset()
    frontend.reset()
    assert outcome(run, mt) == outcome(run, torch)


def test_fake_tensors_do_not_check_overlap():
    from minitorch2._subclasses.fake_tensor import FakeTensorMode
    from torch._subclasses.fake_tensor import FakeTensorMode as TorchFakeTensorMode

    for lib, mode in ((mt, FakeTensorMode()), (torch, TorchFakeTensorMode())):
        y = mode.from_tensor(_square(lib))
        assert y.add_(y[1]).shape == (3, 3)
        assert y[:1].expand(3, 3).mul_(2).shape == (3, 3)


# ------------------------------------------------------------------ the error class of bad arguments
def _x(lib):
    return lib.ones(2)


ERROR_CLASS_CASES = {
    # wrong Python types: torch's argument parser raises TypeError
    "add list": lambda lib: lib.add(_x(lib), [1.0, 2.0]),
    "mul str": lambda lib: lib.mul(_x(lib), "a"),
    "relu list": lambda lib: lib.relu([1.0, 2.0]),
    "exp int": lambda lib: lib.exp(3),
    "sum str dim": lambda lib: _x(lib).sum("a"),
    "matmul number": lambda lib: lib.matmul(_x(lib), 2),
    "matmul operator float": lambda lib: _x(lib) @ 2.0,
    "rmatmul operator float": lambda lib: 2.0 @ _x(lib),
    "zeros dtype str": lambda lib: lib.zeros(2, dtype="float32"),
    "ones float size": lambda lib: lib.ones(2.5),
    "full str value": lambda lib: lib.full((2,), "a"),
    "cat tensor": lambda lib: lib.cat(_x(lib)),
    "stack tensor": lambda lib: lib.stack(_x(lib)),
    "cat list with int": lambda lib: lib.cat([_x(lib), 1]),
    "where list": lambda lib: lib.where(_x(lib) > 0, [1.0, 2.0], _x(lib)),
    "x + str": lambda lib: _x(lib) + "a",
    "x + None": lambda lib: _x(lib) + None,
    "tensor with str": lambda lib: lib.tensor([1, "a"]),
    # devices
    "to bad device string": lambda lib: _x(lib).to("float32x"),
    "to bad device index": lambda lib: _x(lib).to("cuda:x"),
    "to int device": lambda lib: _x(lib).to(5),
    "to list": lambda lib: _x(lib).to([1]),
    "to cpu": lambda lib: _x(lib).to("cpu"),
    "to cpu:0 and dtype": lambda lib: _x(lib).to("cpu:0", dtype=lib.float64),
    "device upper case": lambda lib: lib.device("CPU"),
    # sizes: RuntimeError, never numpy's ValueError or MemoryError
    "zeros negative": lambda lib: lib.zeros(-1),
    "empty negative": lambda lib: lib.empty(-2, 3),
    "randn negative": lambda lib: lib.randn(-1),
    "rand negative": lambda lib: lib.rand(3, -1),
    "randint negative": lambda lib: lib.randint(0, 3, (-1,)),
    "empty storage overflow": lambda lib: lib.empty(2 ** 62),
    "ones storage overflow": lambda lib: lib.ones((2 ** 31, 2 ** 31, 2 ** 31)),
    "empty too big for memory": lambda lib: lib.empty(2 ** 40),
    "view two -1": lambda lib: _x(lib).view(-1, -1),
    "reshape two -1": lambda lib: _x(lib).reshape(-1, -1),
    "view bad size": lambda lib: _x(lib).view(3),
    "expand negative": lambda lib: _x(lib).expand(-2),
    # fill values that do not fit the dtype
    "full int64 2**63": lambda lib: lib.full((2,), 2 ** 63, dtype=lib.int64),
    "full int8 300": lambda lib: lib.full((2,), 300, dtype=lib.int8),
    "full uint8 -1": lambda lib: lib.full((2,), -1, dtype=lib.uint8),
    "full int32 inf": lambda lib: lib.full((2,), float("inf"), dtype=lib.int32),
    "full float32 1e300": lambda lib: lib.full((2,), 1e300, dtype=lib.float32),
    "full float64 2**64": lambda lib: lib.full((2,), 2 ** 64, dtype=lib.float64),
    "full bool 2**63": lambda lib: lib.full((2,), 2 ** 63, dtype=lib.bool),
    # Python ints wrap into an integer op's dtype, as c10's Scalar does
    "int32 * 2**40": lambda lib: lib.ones(2, dtype=lib.int32) * 2 ** 40,
    "int32 + 2**31": lambda lib: lib.ones(2, dtype=lib.int32) + 2 ** 31,
    "int8 + 200": lambda lib: lib.ones(2, dtype=lib.int8) + 200,
    "uint8 + -1": lambda lib: lib.zeros(2, dtype=lib.uint8) + (-1),
    "uint8 - 1": lambda lib: lib.zeros(2, dtype=lib.uint8) - 1,
    "int64 + 2**63": lambda lib: lib.ones(2, dtype=lib.int64) + 2 ** 63,
    "int64 + 2**64": lambda lib: lib.ones(2, dtype=lib.int64) + 2 ** 64,
    "int64 - (-2**63 - 1)": lambda lib: lib.ones(2, dtype=lib.int64) - (-2 ** 63 - 1),
    "int64 * 2**62": lambda lib: lib.ones(2, dtype=lib.int64) * 2 ** 62,
    "int64 * -2**63": lambda lib: lib.ones(2, dtype=lib.int64) * -2 ** 63,
    "int32 add_ 2**40": lambda lib: lib.ones(2, dtype=lib.int32).add_(2 ** 40),
    "int32 == 2**32": lambda lib: lib.zeros(2, dtype=lib.int32) == 2 ** 32,
    "float32 + 2**64": lambda lib: lib.ones(2) + 2 ** 64,
    # int64 extremes
    "int64 max + 1": lambda lib: lib.tensor([2 ** 63 - 1]) + 1,
    "int64 min - 1": lambda lib: lib.tensor([-2 ** 63]) - 1,
    "int64 min // -1": lambda lib: lib.tensor([-2 ** 63]) // -1,
    "int64 min abs": lambda lib: lib.tensor([-2 ** 63]).abs(),
    "int64 min neg": lambda lib: -lib.tensor([-2 ** 63]),
    "int64 max * 2": lambda lib: lib.tensor([2 ** 63 - 1]) * 2,
    "int64 near 2**62 sum": lambda lib: lib.tensor([2 ** 62, 2 ** 62]).sum(),
    # a Scalar's type is its meaning: a float alpha needs a floating result, a float step makes a float arange
    "add int64 alpha=1.0": lambda lib: lib.add(lib.ones(2, dtype=lib.int64), lib.ones(2, dtype=lib.int64), alpha=1.0),
    "sub float alpha=True": lambda lib: lib.sub(lib.ones(2), 1, alpha=True),
    "rsub int32 alpha=2.5": lambda lib: lib.rsub(lib.ones(2, dtype=lib.int32), 2, alpha=2.5),
    "add_ int64 alpha=2.0": lambda lib: lib.ones(2, dtype=lib.int64).add_(1, alpha=2.0),
    "add bool alpha=True": lambda lib: lib.add(lib.tensor([True]), lib.tensor([False]), alpha=True),
    "arange int args float step": lambda lib: str(lib.arange(0, 4, 1.0).dtype),
    "aten arange float step": lambda lib: str(lib.ops.aten.arange.start_step(0, 4, 1.0).dtype),
    # scalar / tensor is torch's reciprocal-then-multiply, to the last bit (not one division)
    "scalar / tensor": lambda lib: 3.7 / (lib.arange(1.0, 300.0) / 7 + 0.5),
    "int / int tensor": lambda lib: 2 / lib.tensor([2, 4, 3]),
    # as_strided reaches any element of the storage, and no further
    "as_strided past the storage": lambda lib: lib.arange(6.0).as_strided((2,), (1,), 5),
    "as_strided negative stride": lambda lib: lib.arange(6.0).as_strided((2,), (-1,), 3),
    "as_strided empty far offset": lambda lib: lib.arange(6.0).as_strided((0, 2), (1, 1), 100),
    "as_strided of a view reads the base": lambda lib: lib.arange(6.0)[4:].as_strided((3,), (2,), 0),
}


@pytest.mark.parametrize("name", sorted(ERROR_CLASS_CASES))
def test_bad_argument_raises_torchs_class(name):
    """The class of the error (or the value, where torch computes one); the words are checked below."""
    (expected, value), (got, got_value) = outcome(ERROR_CLASS_CASES[name], torch), outcome(ERROR_CLASS_CASES[name], mt)
    assert (got, got_value if got == "ok" else None) == (expected, value if expected == "ok" else None)


@pytest.mark.parametrize("call, message", [
    (lambda lib: lib.add(_x(lib), [1.0, 2.0]), r"add\(\): argument 'other' \(position 2\) must be Tensor, not list"),
    (lambda lib: lib.relu([1.0]), r"relu\(\): argument 'input' \(position 1\) must be Tensor, not list"),
    (lambda lib: lib.zeros(2, dtype="float32"), r"zeros\(\): argument 'dtype' must be torch.dtype, not str"),
    (lambda lib: lib.cat(_x(lib)), r"cat\(\): argument 'tensors' \(position 1\) must be tuple of Tensors, not Tensor"),
    (lambda lib: lib.matmul(_x(lib), 2), r"matmul\(\): argument 'other' \(position 2\) must be Tensor, not int"),
    (lambda lib: _x(lib).to("float32x"), "Invalid device string: 'float32x'"),
    (lambda lib: lib.empty(2 ** 62), r"Storage size calculation overflowed with sizes=\[4611686018427387904\]"),
    (lambda lib: lib.empty(2 ** 40), "DefaultCPUAllocator: can't allocate memory"),
    (lambda lib: lib.randn(-1), r"Trying to create tensor with negative dimension -1: \[-1\]"),
    (lambda lib: lib.full((1,), 2 ** 63, dtype=lib.int64), "value cannot be converted to type int64_t without overflow"),
])
def test_bad_argument_message_words(call, message):
    with pytest.raises(Exception, match=message) as theirs:
        call(torch)
    with pytest.raises(theirs.type, match=message):
        call(mt)
