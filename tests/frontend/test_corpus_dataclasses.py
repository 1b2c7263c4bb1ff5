"""corpus_dataclasses.py's programs against Dynamo 2.13: values, frame_count, op_count and graph breaks.

Each program runs in a fresh namespace per library (class attributes written by one run stay out of the next)
through torch.compile (torch._dynamo.testing.CompileCounter) and minitorch2.compile (frontend.testing.CompileCounter)
twice, on the same two (3,) float inputs; a dataclass returned is compared as its class name and fields. KNOWN_DIFFS
names each program that still differs, with the difference (strict xfail: a fix makes it fail loudly).
"""
import dataclasses

import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing
import torch._dynamo.utils

import frontend
import frontend.utils
import minitorch2
from frontend.testing import CompileCounter

from .corpus_dataclasses import DATACLASS_SRC
from .test_dynamo_counts import ARRAYS, _assert_close

PROGRAMS = tuple(line[4:line.index("(")] for line in DATACLASS_SRC.splitlines() if line.startswith("def "))

KNOWN_DIFFS = {}

# Programs where Dynamo 2.13 itself differs from Python: compared with torch's eager values instead (counts not).
EAGER_ORACLE = {
    "ca_instance_reads_pending_class_write": "Dynamo 2.13 reads the class's old value through an instance made in "
                                             "the frame after `Tally.n = 5` (5b on the first call, Python 5a + 5b)",
}


def _plain(value):
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, {k: _plain(v) for k, v in vars(value).items()})
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return np.asarray(value.detach().numpy()).copy() if hasattr(value, "numpy") else value


def _namespace(lib):
    namespace = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional,
                 "dynamo": torch._dynamo if lib is torch else frontend}
    exec(compile(DATACLASS_SRC, "<corpus dataclasses>", "exec"), namespace)
    return namespace


def _run(lib, name):
    namespace = _namespace(lib)
    counters = torch._dynamo.utils.counters if lib is torch else frontend.utils.counters
    counters.clear()
    (torch._dynamo if lib is torch else frontend).reset()
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    compiled = lib.compile(namespace[name], backend=counter)
    outputs = [_plain(compiled(*[lib.tensor(a) for a in ARRAYS])) for _ in range(2)]  # the second: a cache hit
    return (counter.frame_count, counter.op_count, sum(counters["graph_break"].values())), outputs


def _assert_same(ours, theirs):
    if isinstance(theirs, tuple):  # a dataclass: its class name and fields
        assert ours[0] == theirs[0] and ours[1].keys() == theirs[1].keys(), (ours, theirs)
        for key in theirs[1]:
            _assert_same(ours[1][key], theirs[1][key])
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            _assert_same(o, t)
    elif isinstance(theirs, np.ndarray):
        _assert_close(ours, theirs)
    else:
        assert type(ours) is type(theirs) and ours == theirs, (ours, theirs)


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(reason=KNOWN_DIFFS[n], strict=True))
                                  if n in KNOWN_DIFFS else n for n in PROGRAMS if n not in EAGER_ORACLE])
def test_counts_breaks_and_values_match_dynamo(name):
    theirs_counts, theirs = _run(torch, name)
    ours_counts, ours = _run(minitorch2, name)
    assert ours_counts == theirs_counts, f"(frames, ops, breaks): ours {ours_counts}, Dynamo {theirs_counts}"
    _assert_same(ours, theirs)


@pytest.mark.parametrize("name", sorted(EAGER_ORACLE))
def test_values_match_python_where_dynamo_reads_a_stale_class_attribute(name):
    eager_namespace = _namespace(torch)
    theirs = [_plain(eager_namespace[name](*[torch.tensor(a) for a in ARRAYS])) for _ in range(2)]
    _, ours = _run(minitorch2, name)
    _assert_same(ours, theirs)


def test_an_output_dataclass_is_made_anew_at_each_call():
    compiled = minitorch2.compile(_namespace(minitorch2)["dc_output_returned"], backend=CompileCounter())
    frontend.reset()
    first, second = (compiled(*[minitorch2.tensor(a) for a in ARRAYS]) for _ in range(2))
    assert type(first).__name__ == "ModelOutput" and first is not second and first == first


def test_known_diffs_name_programs_of_the_corpus():
    assert set(KNOWN_DIFFS) | set(EAGER_ORACLE) <= set(PROGRAMS) and len(PROGRAMS) >= 20
