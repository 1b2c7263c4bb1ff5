"""A fact the ShapeEnv knows is recognized however a later question writes it (issue 21), as torch's ShapeEnv
recognizes it: both compare relations in canonical form (torch's canonicalize_bool_expr: `<`/`<=`/`==`/`!=`, the
difference in lowest terms, negative terms on the left) together with what each guard implies at once.

Each case runs the same Python on SymInts of torch's ShapeEnv and of ours: a first decision records a guard, a
second one, written differently, must then record nothing (or, where torch records one, record one too).
"""
import pytest
import torch
from torch._dynamo.source import ConstantSource
from torch.fx.experimental.symbolic_shapes import ShapeEnv as TorchShapeEnv

from minitorch2.fx.experimental.symbolic_shapes import ShapeEnv


def _torch_sizes(hints):
    env = TorchShapeEnv()
    sizes = []
    for i, hint in enumerate(hints):
        source = ConstantSource(f"size{i}")
        sizes.append(env.create_symintnode(env.create_symbol(hint, source), hint=hint, source=source))
    return env, sizes


def _our_sizes(hints):
    env = ShapeEnv()
    return env, [env.create_symbol(hint, f"size{i}", duck=False) for i, hint in enumerate(hints)]


CASES = {  # name -> (hints, the first decision, the second)
    "halves_equal": ((8,), lambda s: (s + 1) // 2 == s - (s + 1) // 2, lambda s: 2 * ((s + 1) // 2) != s),
    "common_factor": ((5,), lambda s: s * (25 // s) == 25, lambda s: 3 * s * (25 // s) == 75),
    "sides_swapped": ((3, 7), lambda a, b: a + 2 < b, lambda a, b: b > a + 2),
    "strict_implies_weak": ((3, 7), lambda a, b: a < b, lambda a, b: a <= b - 1),
    "strict_implies_unequal": ((3, 7), lambda a, b: a < b, lambda a, b: a != b),
    "equal_implies_weak": ((3, 5), lambda a, b: 2 * a == b + 1, lambda a, b: b + 1 <= 2 * a),
    "lowest_terms_inequality": ((3, 7), lambda a, b: 2 * a + 4 <= 2 * b, lambda a, b: a + 2 <= b),
    "not_implied": ((3, 7), lambda a, b: a < b, lambda a, b: a + 3 < b),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_known_fact_is_recognized_as_torch_recognizes_it(name):
    hints, first, second = CASES[name]
    results = []
    for make in (_torch_sizes, _our_sizes):
        env, sizes = make(hints)
        answers = [bool(first(*sizes))]
        before = len(env.guards)
        answers.append(bool(second(*sizes)))
        results.append((answers, len(env.guards) - before))
    assert results[1] == results[0], f"ours {results[1]}, torch's {results[0]} (answers, guards the second added)"
