"""torch.tensor over sequences holding tensors, and the data torch cannot type (session 32).

SILENT before: `torch.tensor([t1, t2])` of one-element tensors of shape [1] gave shape [2, 1] where torch reads
each as its number (shape [2]); of multi-element tensors it stacked them where torch raises ValueError; a
Fraction became a float (torch cannot infer its dtype); `torch.ones(True)` made a tensor of size [1].
"""
import fractions

import pytest
import torch

import minitorch2


@pytest.mark.parametrize("build", [
    lambda t: [t.tensor([1]), t.tensor([2])],
    lambda t: [t.tensor(1), t.tensor([2.0])],
    lambda t: [t.ones(1, 1), 2],
    lambda t: [[t.tensor([1])]],
    lambda t: [t.tensor([True]), t.tensor(False)],
    lambda t: [t.tensor(1, dtype=t.int8), 300],
    lambda t: [t.tensor(1, dtype=t.float16), 3.5],
    lambda t: [t.tensor([0.5]).sum(), t.tensor([1.5]).mean()],  # a list of losses, as scripts collect them
], ids=["shape-1", "0-d and shape-1", "1x1 and int", "nested", "bools", "int8 and int", "half and float", "losses"])
def test_one_element_tensors_in_a_list_are_numbers(build):
    ours, theirs = minitorch2.tensor(build(minitorch2)), torch.tensor(build(torch))
    assert (tuple(ours.shape), str(ours.dtype), ours.tolist()) == (tuple(theirs.shape), str(theirs.dtype),
                                                                    theirs.tolist())


MISTAKES = {
    "multi-element tensors in a list": lambda t: t.tensor([t.ones(2), t.ones(2)]),
    "a Fraction": lambda t: t.tensor(fractions.Fraction(1, 2)),
    "Fractions in a list": lambda t: t.tensor([1.0, fractions.Fraction(1, 2)]),
    "bytes": lambda t: t.tensor(b"ab"),
    "a bool size": lambda t: t.ones(True),
}


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_data_torch_refuses_is_refused(name):
    for lib in (minitorch2, torch):
        with pytest.raises((TypeError, ValueError, RuntimeError)) as info:
            MISTAKES[name](lib)
        if lib is minitorch2:
            ours = info.value
    assert type(ours) is type(info.value)
    if name != "a bool size":  # (the argument parser's words are torch's own; the class is what matters)
        assert str(ours) == str(info.value)


@pytest.mark.parametrize("options, build", [
    (dict(sci_mode=False), lambda t: t.tensor([1e-5, 1.0, 123456.0])),
    (dict(sci_mode=False), lambda t: t.tensor([1e9, 2.0])),
    (dict(sci_mode=True), lambda t: t.tensor([1.5, 2.0])),
    (dict(sci_mode=True), lambda t: t.tensor([[1.0, -2.0], [30.0, 4.0]])),
    (dict(sci_mode=True), lambda t: t.zeros(3)),
    (dict(sci_mode=True, precision=2), lambda t: t.tensor([0.5, float("nan"), -float("inf")])),
    (dict(sci_mode=False, precision=6), lambda t: t.tensor([1e-7, 3.0], dtype=t.float64)),
], ids=["fixed small", "fixed big", "sci", "sci matrix", "sci zeros", "sci nonfinite", "fixed float64"])
def test_set_printoptions_sci_mode_prints_as_torch(options, build):
    """set_printoptions(sci_mode=False) is common in notebooks; it used to raise NotImplementedError."""
    printed = []
    for lib in (minitorch2, torch):
        lib.set_printoptions(**options)
        try:
            printed.append(repr(build(lib)))
            lib.set_printoptions(precision=3)  # (sci_mode back to None: each tensor chooses again)
            printed.append(repr(build(lib)))
        finally:
            lib.set_printoptions(profile="default")
    assert printed[:2] == printed[2:]
