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
            compiled(*[side.lib.tensor(a) if isinstance(a, np.ndarray) else a for a in call])
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
]


@pytest.mark.parametrize("backend", ["counter", "aot_eager"])
@pytest.mark.parametrize("dynamic", [None, True])
@pytest.mark.parametrize("name,calls", CASES, ids=[c[0] for c in CASES])
def test_shape_guards_are_torchs(name, calls, dynamic, backend):
    assert _guards(OURS, name, calls, dynamic, backend) == _guards(TORCH, name, calls, dynamic, backend)
