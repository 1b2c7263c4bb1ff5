"""Shape guards as torch records them, beyond the dynamic corpus: small programs compiled on torch and on
minitorch2 with the same recording backends (tests/frontend/dynamic_oracle.py), their SHAPE_ENV guards compared
per compiled frame (sorted), under the counter backend (Dynamo's own questions) and under aot_eager (the questions
AOT's trace adds: the storage size functionalization computes for each op output asks whether a size is 0)."""
import numpy as np
import pytest
import torch

import minitorch2

from .dynamic_oracle import OURS, TORCH, RecordingBackend, _fast_dynamo

PROGRAMS = """
def thirds(x):
    k = x.shape[0] // 3
    return x[:k] + 1, x[k:] * 2

def rows_by_count(x, n):
    return x.reshape(n, -1).amax(1)

def tail_after_two(x):
    return x[2:].exp()

def mean_of_fours(x):
    return x.view(-1, 4).mean(1)

def split_columns(x):
    h = x.shape[1] // 2
    return x[:, h:].sum(0)

def pairs_of_rows_max(x):
    return x.view(x.shape[0] // 2, 2, -1).amax(1)

B = torch.nn.Parameter(torch.zeros(1))
LIN = torch.nn.Linear(9, 2)

def relu_grid_to_linear(x):
    return LIN(torch.relu(x + B).view(x.shape[0], -1))

def square_through_linear(x):
    return torch.nn.functional.linear(x, torch.ones(3, 4))

def pinned_pair(x, y):
    if x.shape[0] == 4:
        return x + y[:, None]
    return x - y[:, None]

def same_tensor_twice(x, y):
    if x.shape[1] == 4:
        return x @ y.t()
    return x + y
"""


def _program(lib, name):
    namespace = {"torch": lib}
    exec(PROGRAMS, namespace)
    return namespace[name]


def _guards(side, name, calls, dynamic, backend):
    side.dynamo.reset()
    recorder = RecordingBackend(side, backend)
    compiled = side.dynamo.optimize(recorder, dynamic=dynamic, guard_export_fn=recorder.export_guards)(
        _program(side.lib, name))
    with _fast_dynamo():
        for call in calls:
            tensors = {id(a): side.lib.tensor(a) for a in call if isinstance(a, np.ndarray)}  # (one array: one tensor)
            compiled(*[tensors.get(id(a), a) for a in call])
    side.dynamo.reset()
    return [sorted(g) for g in recorder.guards]


def _rows(*sizes, cols=3):
    return [(np.arange(n * cols, dtype=np.float32).reshape(n, cols),) for n in sizes]


CASES = [
    ("thirds", _rows(6, 9, 12)),
    ("rows_by_count", [(np.ones(24, np.float32), 3), (np.ones(24, np.float32), 4)]),
    ("tail_after_two", _rows(5, 7)),
    ("mean_of_fours", [(np.ones((n, 4), np.float32),) for n in (8, 12)]),
    ("split_columns", [(np.ones((3, n), np.float32),) for n in (6, 8)]),
    ("pairs_of_rows_max", _rows(6, 10, 4, cols=5)),
    ("relu_grid_to_linear", [(np.ones((n, 3, 3), np.float32),) for n in (2, 4)]),
    ("square_through_linear", [(np.ones((4, 4), np.float32),), (np.ones((6, 4), np.float32),)]),
    ("pinned_pair", [(np.ones((4, 3), np.float32), np.ones(4, np.float32)),
                     (np.ones((5, 3), np.float32), np.ones(5, np.float32))]),
    ("same_tensor_twice", [(a, a) for a in (np.ones((4, 4), np.float32), np.ones((6, 4), np.float32))]),
]


@pytest.mark.parametrize("backend", ["counter", "aot_eager"])
@pytest.mark.parametrize("dynamic", [None, True])
@pytest.mark.parametrize("name,calls", CASES, ids=[c[0] for c in CASES])
def test_shape_guards_are_torchs(name, calls, dynamic, backend):
    assert _guards(OURS, name, calls, dynamic, backend) == _guards(TORCH, name, calls, dynamic, backend)
