"""Bad input gets torch's error class and message words (the Trust issue's runtime-checks slice).

Every case runs on real torch and on minitorch2: the outcome (value, or the
exception class and the start of its first message line) must be the same.
"""
import pytest

import minitorch2 as mt

torch = pytest.importorskip("torch")


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


@pytest.mark.parametrize("case", ["partial", "internal", "full"])
def test_overlap_is_checked_while_compiling(case):
    """The check runs in the meta functions too, so tracing over fake tensors raises what eager raises."""
    def fn(y):
        if case == "partial":
            y.mul_(y.t())
        elif case == "internal":
            y[:1].expand(3, 3).add_(1)
        else:
            y.add_(y)
        return y * 2

    expected = outcome(lambda lib: torch.compile(fn, backend="eager")(_square(lib)), torch)
    got = outcome(lambda lib: mt.compile(fn)(_square(lib)), mt)
    assert got == expected


def test_overlap_is_checked_on_fake_tensors():
    from minitorch2._subclasses.fake_tensor import FakeTensorMode

    y = FakeTensorMode().from_tensor(_square(mt))
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor"):
        y.add_(y[1])
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        y[:1].expand(3, 3).mul_(2)
    y.add_(y)
