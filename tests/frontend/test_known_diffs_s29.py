"""Known differences from Dynamo closed in session 29, beyond the ported programs that now pass in place.

A nested function whose closure holds a cell of the frame not yet written (3.11: a walrus inside a comprehension, a
`nonlocal` result a helper fills): Dynamo rebuilds the function before inlining it and breaks reading the empty
cell; the call then runs as written, and a frame that holds no tensor where Dynamo looks (a <listcomp>: an iterator
and cells) is not compiled. random.Random made in the frame: a break at a method Dynamo does not trace (choice,
shuffle, sample) rebuilds the generator in its state, and the frame resumes after it. An intermediate's
requires_grad_() whose result a graph cut at a later break (torch.autograd.grad's) would output: a restart at the
requires_grad_(), as at a return. A functools.partial a frame run eagerly calls: the function it calls compiles.
An object whose class defines __getattribute__: Dynamo's break inside it, where no frame resumes.
"""
import numpy as np
import pytest
import torch

import minitorch2

from .test_dynamo_counts import ARRAYS
from .test_dynamo_tests_ported import _build, _names, check_against_dynamo

EMPTY_CELLS = '''
def walrus_keeps_last_in_listcomp(a, b):
    doubled = [last for x in (a, b) if (last := x * 2) is not None]
    return doubled[0] - doubled[1]
def walrus_in_listcomp_element(a, b):
    pairs = [(m := x.abs()) + m for x in (a, b)]
    return pairs[0] * pairs[1]
def walrus_in_generator_expression(a, b):
    total = sum((last := x * 2).sum() for x in (a, b))
    return last * total
def helper_reads_cell_written_before_call(a, b):
    def scaled():
        return a * scale
    scale = 3
    return scaled() + b
'''

RANDOM_INSTANCES = '''
import random
def choice_picks_index(a, b):
    rng = random.Random(0)
    i = rng.choice([0, 1, 2])
    return a[i] * b
def shuffle_order_of_tensors(a, b):
    rng = random.Random(3)
    parts = [a, b, a * b]
    rng.shuffle(parts)
    return parts[0] - parts[1] + parts[2]
def sample_then_draw_again(a, b):
    rng = random.Random(5)
    k = sum(rng.sample(range(10), 2))
    return a * k + b * rng.randint(1, 4)
'''

# requires_grad_() on an intermediate whose result a graph cut at a later break would output: Dynamo checks the
# outputs of that graph too, and restarts with a break at the requires_grad_() (both breaks counted)
LEAKS_AT_A_BREAK = '''
def input_gradient_of_detached_copy(a, b):
    x = a.detach().requires_grad_()
    score = (x * b).sin().sum()
    g, = torch.autograd.grad(score, x)
    return g.abs()
def leaf_live_across_graph_break(a, b):
    w = (a * 2).detach().requires_grad_()
    dynamo.graph_break()
    return (w * b).detach()
def leaf_dead_before_graph_break(a, b):
    x = a.detach().requires_grad_()
    y = (x * b).sum().detach()
    dynamo.graph_break()
    return y + a
'''

# a functools.partial called from a frame that runs eagerly: Dynamo's callback sees the frame of the function the
# partial calls (a partialmethod read from an instance is one, bound to it), and compiles it
PARTIALS = '''
import functools
class _Units:
    def convert(self, x, factor, offset=0.0):
        return x * factor + offset
    to_mm = functools.partialmethod(convert, factor=10.0)
class _Gain:
    def apply(self, x, k):
        return x * k
    triple = functools.partialmethod(apply, k=3)
def _affine(x, w, shift):
    return x * w + shift
def partialmethod_from_instance(a, b):
    return _Units().to_mm(a) - b
def partialmethod_of_held_instance(a, b):
    g = _Gain()
    return g.triple(a) - g.triple(b)
def partial_called_in_loop_with_break(a, b):
    step = functools.partial(_affine, shift=1.0)
    out = a
    for _ in range(2):
        dynamo.graph_break()
        out = step(out, b)
    return out
'''


@pytest.mark.parametrize("name", _names(PARTIALS))
def test_partial_called_from_eager_frame_as_dynamo(name):
    check_against_dynamo(_build(torch, PARTIALS)[name], _build(minitorch2, PARTIALS)[name])

# an object whose class defines __getattribute__, read in the frame: Dynamo inlines that method, cannot trace
# object.__getattribute__ there and, no frame resuming inside an attribute read, goes back to its checkpoint (none:
# the frame runs eagerly). A property breaking after a checkpoint did the same, but the code resumed there lost the
# locals only the instruction at the checkpoint read (UnboundLocalError): fixed in resume.transform_frame. Such a
# break (an attribute read's, a dict display's) Dynamo does not tally under "graph_break"; nor does ours now.
GETATTRIBUTE = '''
class _Defaults:
    def __init__(self):
        self.scale = 2.0
    def __getattribute__(self, name):
        try:
            return object.__getattribute__(self, name)
        except AttributeError:
            return 1.0
class _Logged:
    def __init__(self, w):
        self.w = w
    def __getattribute__(self, name):
        return object.__getattribute__(self, name)
class _Loud:
    @property
    def scale(self):
        print("reading scale")
        return 2.0
class _LoudKey:
    def __hash__(self):
        print("hashing")
        return 1
_cfg, _loud, _key = _Defaults(), _Loud(), _LoudKey()
def config_global_with_defaults(a, b):
    return a * _cfg.scale + b * _cfg.shift
def wrapper_made_in_frame(a, b):
    h = a * 2
    return h + _Logged(b).w
def wrapper_passed_along(a, b):
    box = _Logged(3)
    return a * box.w + b
def config_read_after_a_checkpoint(a, b):
    c = (a * b).sin()
    d = c.cos() + 1
    return d * _cfg.scale
def printing_property_after_a_checkpoint(a, b):
    c = (a * b).sin()
    d = c.cos() + 1
    return d * _loud.scale
def dict_display_after_a_checkpoint(a, b):
    c = (a * b).sin()
    d = c.cos() + 1
    return d * len({_key: 1})
'''
# (Dynamo tallies no break where it compiles up to its checkpoint and runs the rest eagerly; now neither does ours)
AFTER_A_CHECKPOINT = ("config_read_after_a_checkpoint", "printing_property_after_a_checkpoint",
                      "dict_display_after_a_checkpoint")


@pytest.mark.parametrize("name", _names(GETATTRIBUTE))
def test_custom_getattribute_as_dynamo(name):
    check_against_dynamo(_build(torch, GETATTRIBUTE)[name], _build(minitorch2, GETATTRIBUTE)[name])


@pytest.mark.parametrize("name", AFTER_A_CHECKPOINT)
def test_break_inside_a_read_after_a_checkpoint_keeps_the_locals(name):
    ours = minitorch2.compile(_build(minitorch2, GETATTRIBUTE)[name], backend="eager")
    theirs = torch.compile(_build(torch, GETATTRIBUTE)[name], backend="eager")
    for _ in range(2):
        np.testing.assert_allclose(ours(*[minitorch2.tensor(a) for a in ARRAYS]).numpy(),
                                   theirs(*[torch.tensor(a) for a in ARRAYS]).numpy(), rtol=1e-6)


@pytest.mark.parametrize("name", _names(LEAKS_AT_A_BREAK))
def test_requires_grad_leak_at_a_break_as_dynamo(name):
    check_against_dynamo(_build(torch, LEAKS_AT_A_BREAK)[name], _build(minitorch2, LEAKS_AT_A_BREAK)[name])


@pytest.mark.parametrize("name", _names(EMPTY_CELLS))
def test_empty_closure_cells_as_dynamo(name):
    check_against_dynamo(_build(torch, EMPTY_CELLS)[name], _build(minitorch2, EMPTY_CELLS)[name])


# a generator still read after the break is an input of the resume frame: Dynamo replays its draws as graph inputs
# (RandomValueSource); ours has no rule for one, so each draw from it is a break
STILL_DIFFERENT = {"sample_then_draw_again": "the resume frame draws from the generator: ours (2, 3, 2), Dynamo (1, 3, 1)"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=STILL_DIFFERENT[n], strict=True))
                                  if n in STILL_DIFFERENT else n for n in _names(RANDOM_INSTANCES)])
def test_random_instance_across_a_break_as_dynamo(name):
    check_against_dynamo(_build(torch, RANDOM_INSTANCES)[name], _build(minitorch2, RANDOM_INSTANCES)[name])
