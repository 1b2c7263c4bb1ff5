"""torch.export's derived Dims (`2 * batch`, `batch + 1`, `2 * c - 1`) against real torch.export: the Dims' names,
ranges and refusals; the printed program (placeholders with sizes over the root's symbol, the `sym_size` nodes of
sizes the program reads, range constraints, the root last where no input has it as a size); module() at other sizes
and the guard each wrong size fails; the errors of an example whose sizes do not fit.

Each module is built twice by one function, once over torch and once over minitorch2, with the same dynamic_shapes
made from that library's Dim.
"""
import numpy as np
import pytest
import torch

import minitorch2
from minitorch2.export import export

from .test_export_dynamic import _call, _library_frames_unified, _outcome


def build(lib, name):
    """(module, example args, dynamic_shapes) over `lib` (torch or minitorch2)."""
    nn, Dim = lib.nn, lib.export.Dim

    class Pair(nn.Module):
        def forward(self, x, y):
            return x * 2, y + 1

    class Sizes(nn.Module):
        def forward(self, x, y):
            return x.sum() + y.sum() + x.shape[0] * y.shape[0]

    class PairOfList(nn.Module):
        def forward(self, x, yz):
            return x * 2, yz[0] + 1, yz[1] - 1

    class Halves(nn.Module):
        def forward(self, x, y):
            return x.view(-1, 2) + y, x.shape[0] // 2

    def randn(*shape):
        return lib.tensor(np.random.RandomState(sum(shape)).randn(*shape).astype(np.float32))

    b, c, d = Dim("b"), Dim("c", min=3, max=10), Dim("d", min=2, max=5)
    bounded, e = Dim("b", min=2, max=20), Dim("e", max=7)
    cases = {
        "offset": (Pair(), (randn(4, 3), randn(5, 2)), {"x": {0: b}, "y": {0: b + 1}}),
        "root_given_later": (Pair(), (randn(4, 3), randn(2, 2)), {"x": {0: 2 * b}, "y": {0: b}}),
        "phantom_root": (Sizes(), (randn(20, 3), randn(12, 2)), {"x": {0: 10 * d}, "y": {0: 6 * d}}),
        "sizes_read": (Sizes(), (randn(4, 3), randn(8, 2)), {"x": {0: d}, "y": {0: 2 * d}}),
        "one_root_three_sizes": (Pair(), (randn(4, 5), randn(2, 7)), {"x": {0: c, 1: c + 1}, "y": {1: 2 * c - 1}}),
        "bounded_beside_derived": (Pair(), (randn(4, 3), randn(9, 2)),
                                   {"x": {0: Dim("a", min=2, max=5), 1: e}, "y": {0: 2 * e + 3}}),
        "view": (Halves(), (randn(8, 3), randn(12, 2)),
                 {"x": {0: 2 * Dim("h", min=2, max=10)}, "y": {0: 3 * Dim("h", min=2, max=10)}}),
        "phantom_rational": (Pair(), (randn(9, 3), randn(12, 2)), {"x": {0: 2 * bounded + 1}, "y": {0: 3 * bounded}}),
        "phantom_offsets": (Pair(), (randn(5), randn(6)), {"x": {0: bounded + 1}, "y": {0: bounded + 2}}),
        # a size `root - 1` after the root's own: torch's ShapeEnv keeps its symbol, the root's is that + 1
        "shifted_root": (Pair(), (randn(4, 3), randn(3, 2)), {"x": {0: bounded}, "y": {0: bounded - 1}}),
        "shifted_root_beside_another": (PairOfList(), (randn(4), [randn(9), randn(3)]),
                                        {"x": {0: bounded}, "yz": [{0: 2 * bounded + 1}, {0: bounded - 1}]}),
        # refused
        "not_of_the_form": (Pair(), (randn(5, 3), randn(3, 2)), {"x": {0: 2 * b}, "y": {0: b}}),
        "root_mismatch": (Pair(), (randn(4, 3), randn(3, 2)), {"x": {0: 2 * b}, "y": {0: b}}),
        "phantom_mismatch": (Sizes(), (randn(4, 3), randn(9, 2)), {"x": {0: c + 1}, "y": {0: 2 * c}}),
        "derived_out_of_range": (Pair(), (randn(12, 3), randn(3, 2)), {"x": {0: 2 * d}, "y": None}),
        "derived_below_zero": (Pair(), (randn(4, 3), randn(3, 2)), {"x": {0: b - 1}, "y": None}),
        "an_argument_left_out": (Pair(), (randn(4, 3), randn(3, 2)), {"x": {0: 2 * b}}),
    }
    return cases[name]


EXPORTED = ["offset", "root_given_later", "phantom_root", "sizes_read", "one_root_three_sizes",
            "bounded_beside_derived", "view", "phantom_rational", "phantom_offsets", "shifted_root",
            "shifted_root_beside_another"]
REFUSED = ["not_of_the_form", "root_mismatch", "phantom_mismatch", "derived_out_of_range", "derived_below_zero",
           "an_argument_left_out"]


def _export_both(name):
    module, args, shapes = build(torch, name)
    ours_module, ours_args, ours_shapes = build(minitorch2, name)
    return (torch.export.export(module, args, dynamic_shapes=shapes),
            export(ours_module, ours_args, dynamic_shapes=ours_shapes))


@pytest.fixture(scope="module")
def programs():
    return {name: _export_both(name) for name in EXPORTED}


@pytest.mark.parametrize("name", EXPORTED)
def test_program_prints_as_torchs(programs, name):
    theirs, ours = programs[name]
    assert repr(ours.range_constraints) == repr(theirs.range_constraints)
    assert _library_frames_unified(str(ours)) == _library_frames_unified(str(theirs))
    assert [str(tuple(n.meta["val"].shape)) for n in ours.graph.nodes if n.op == "placeholder"] == \
        [str(tuple(n.meta["val"].shape)) for n in theirs.graph.nodes if n.op == "placeholder"]


# inputs module() is called with, per program: other sizes that fit, and sizes its guards refuse
CALLS = {
    "offset": [[(4, 3), (5, 2)], [(0, 3), (1, 2)], [(4, 3), (6, 2)], [(3, 3), (4, 3)]],
    "root_given_later": [[(6, 3), (3, 2)], [(6, 3), (2, 2)], [(5, 3), (2, 2)]],
    "phantom_root": [[(30, 3), (18, 2)], [(15, 3), (9, 2)], [(60, 3), (36, 2)], [(20, 3), (18, 2)]],
    "sizes_read": [[(3, 3), (6, 2)], [(6, 3), (12, 2)], [(3, 3), (7, 2)]],
    "one_root_three_sizes": [[(3, 4), (2, 5)], [(3, 4), (2, 6)], [(11, 12), (2, 21)], [(2, 3), (2, 3)],
                             [(3, 5), (2, 5)]],
    "bounded_beside_derived": [[(3, 4), (2, 11)], [(3, 8), (2, 19)], [(3, 4), (2, 12)], [(6, 4), (2, 11)]],
    "view": [[(6, 3), (9, 2)], [(7, 3), (9, 2)], [(6, 3), (10, 2)], [(40, 3), (60, 2)]],
    "phantom_rational": [[(7, 3), (9, 2)], [(9, 3), (13, 2)], [(10, 3), (12, 2)], [(43, 3), (63, 2)]],
    "phantom_offsets": [[(3,), (4,)], [(5,), (7,)], [(2,), (3,)], [(30,), (31,)]],
    "shifted_root": [[(4, 3), (4, 2)], [(1, 3), (0, 2)], [(21, 3), (20, 2)], [(5, 3), (4, 2)]],
    "shifted_root_beside_another": [[(6,), [(13,), (5,)]], [(4,), [(10,), (3,)]], [(4,), [(9,), (4,)]],
                                    [(30,), [(61,), (29,)]]],
}


def _values(outputs):
    """The outputs (one tensor or a tuple) as lists rounded to 4 places, so that two libraries' compare with ==."""
    return [np.round(t.numpy().astype(np.float64), 4).tolist() if hasattr(t, "numpy") else t for t in
            (outputs if isinstance(outputs, tuple) else (outputs,))]


@pytest.mark.parametrize("name", EXPORTED)
def test_module_runs_at_other_sizes_and_guards_as_torchs(programs, name):
    theirs, ours = programs[name][0].module(), programs[name][1].module()
    for shapes in CALLS[name]:
        assert _outcome(lambda: _values(_call(ours, minitorch2, shapes))) == \
            _outcome(lambda: _values(_call(theirs, torch, shapes))), shapes


@pytest.mark.parametrize("name", REFUSED)
def test_examples_that_do_not_fit_are_refused_as_torchs(name):
    module, args, shapes = build(torch, name)
    ours_module, ours_args, ours_shapes = build(minitorch2, name)
    expected = _outcome(lambda: torch.export.export(module, args, dynamic_shapes=shapes))
    assert expected[0] != "ok"
    assert _outcome(lambda: export(ours_module, ours_args, dynamic_shapes=ours_shapes)) == expected


def _dim_facts(Dim):
    """What each derived Dim is (its repr, min, max as printed) or the error it raises."""
    b, c = Dim("b"), Dim("c", min=3, max=10)
    made = [lambda: b, lambda: b + 1, lambda: 1 + b, lambda: 2 * b + 1, lambda: b * 3 - 2, lambda: c * 2, lambda: 2 * c - 1,
            lambda: (c + 1) * 2, lambda: 2 * (c + 1) - 2, lambda: 3 * (2 * c + 1), lambda: b - 1,
            lambda: Dim("m", max=2 ** 62) * 4, lambda: b + 1.5, lambda: b + True, lambda: 1 - b, lambda: b * 0,
            lambda: b * -2, lambda: c + b, lambda: b - 0.5, lambda: b / 2]

    def facts(dim):
        return repr(dim), type(dim).__name__, dim.min, str(dim.max)
    return [_outcome(lambda: facts(make())) for make in made]


def test_derived_dims_and_their_refusals_are_torchs():
    assert _dim_facts(minitorch2.export.Dim) == _dim_facts(torch.export.Dim)


@pytest.mark.xfail(strict=True, reason="torch's run_decompositions runs its runtime-assert pass again, which reads x's "
                   "derived size 2*h first (to bind the phantom root h) and leaves the names of the asserts it then "
                   "drops counted (add_3, floordiv_6); ours retraces without that pass")
def test_run_decompositions_of_a_program_reading_a_derived_size_is_torchs(programs):
    theirs, ours = programs["view"]
    assert ours.run_decompositions().graph_module.code == theirs.run_decompositions().graph_module.code
