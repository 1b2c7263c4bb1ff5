"""corpus_dynamo_tests_ported.py's programs against Dynamo 2.13: values, frame_count, op_count and graph breaks.

Each PORTED program runs through torch.compile (torch._dynamo.testing.CompileCounter) and minitorch2.compile
(frontend.testing.CompileCounter), twice (the second call is a cache hit), on the same two (3,) float inputs; the
compiled values must equal torch's and minitorch2's own eager ones, and the number of graph breaks counted
(counters["graph_break"]) must be Dynamo's. Each RECOMPILE program runs on its sequence of calls (changing Python
constants or shapes): the frame count after them says how often each recompiled. KNOWN_DIFFS names each program
that still differs, with the difference (strict xfail: a fix makes it fail loudly). The later batches' runners
reuse this module's checks: build_batch, params, check_against_dynamo, check_recompiles_against_dynamo and
check_batch_is_whole.
"""
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

from .corpus_dynamo_tests_ported import PORTED_SRC, RECOMPILE_SRC
from .test_dynamo_counts import ARRAYS, _assert_close, _to_np


def _build(lib, src):
    namespace = {"__name__": "dynamo_tests_ported", "torch": lib, "nn": lib.nn, "F": lib.nn.functional,
                 "dynamo": torch._dynamo if lib is torch else frontend}
    exec(compile(src, "<dynamo tests ported>", "exec"), namespace)
    return namespace


def _names(src):
    return tuple(line[4:line.index("(")] for line in src.splitlines()
                 if line.startswith("def ") and not line.startswith("def _"))


PORTED, RECOMPILED = _names(PORTED_SRC), _names(RECOMPILE_SRC)
TORCH_NS, MT_NS = _build(torch, PORTED_SRC), _build(minitorch2, PORTED_SRC)
TORCH_RC, MT_RC = _build(torch, RECOMPILE_SRC), _build(minitorch2, RECOMPILE_SRC)

_X3, _X4 = ARRAYS[0], np.arange(8, dtype="float32").reshape(2, 4) - 3
RECOMPILE_CALLS = {  # name -> calls; an ndarray becomes a tensor of the library, anything else passes as it is
    "rc_python_int_arg": [(_X3, 2), (_X3, 3), (_X3, 3), (_X3, 4)],
    "rc_python_float_arg": [(_X3, 0.5), (_X3, 1.5), (_X3, 0.5)],
    "rc_bool_flag": [(_X3, True), (_X3, False), (_X3, True)],
    "rc_string_mode": [(_X3, "relu"), (_X3, "tanh"), (_X3, "relu")],
    "rc_changing_shape": [(_X3, 2), (_X4, 2), (_X4[0], 2), (_X3[:2], 2)],
    "rc_list_of_ints_arg": [(_X3, [1, 2]), (_X3, [1, 2]), (_X3, [1, 2, 3])],
    "rc_none_or_tensor": [(_X3, None), (_X3, ARRAYS[1]), (_X3, None)],
    "rc_tuple_arg_unpacked": [(_X3, (-0.5, 0.5)), (_X3, (0.0, 1.0))],
    "rc_rank_changes_then_sizes": [(_X3, 2), (_X4, 2), (_X4[:, :3], 2), (np.ones((3, 5), "float32"), 2)],
    "rc_size_changes_then_rank": [(_X3, 1), (_X3[:2], 1), (_X4, 1), (_X4[0], 1)],
}

# Programs whose counts or values still differ from Dynamo's: name -> the difference.
KNOWN_DIFFS = {
    "mo_operator_attrgetter_dotted": "attrgetter('shape.__len__') reads a tensor's shape.__len__: ours breaks and the "
                                     "frame runs eagerly (0 frames); Dynamo (1, 2, 0)",
}


def _clear_counters(lib):
    (torch._dynamo.utils.counters if lib is torch else frontend.utils.counters).clear()
    (torch._dynamo if lib is torch else frontend).reset()


def _breaks(lib):
    return sum((torch._dynamo.utils.counters if lib is torch else frontend.utils.counters)["graph_break"].values())


def _run(lib, fn, calls):
    _clear_counters(lib)
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    compiled = lib.compile(fn, backend=counter)
    outputs = []
    for args in calls:
        outputs.append(_to_np(compiled(*[lib.tensor(v) if isinstance(v, np.ndarray) else v for v in args])))
    return (counter.frame_count, counter.op_count, _breaks(lib)), outputs


def params(names, known_diffs):
    """The names as pytest parameters, each in known_diffs a strict xfail with its reason (shared by the runners)."""
    return [pytest.param(n, marks=pytest.mark.xfail(reason=known_diffs[n], strict=True)) if n in known_diffs else n
            for n in names]


def check_against_dynamo(torch_fn, mt_fn):
    """Runs torch_fn under torch.compile and mt_fn under minitorch2.compile, twice each on ARRAYS (the second call a
    cache hit): (frames, ops, breaks) and values must be Dynamo's, and the compiled value minitorch2's eager one."""
    calls = [tuple(ARRAYS)] * 2
    theirs_counts, theirs = _run(torch, torch_fn, calls)
    ours_counts, ours = _run(minitorch2, mt_fn, calls)
    eager = _to_np(mt_fn(*[minitorch2.tensor(a) for a in ARRAYS]))
    assert ours_counts == theirs_counts, f"(frames, ops, breaks): ours {ours_counts}, Dynamo {theirs_counts}"
    _assert_close(ours, theirs)
    _assert_close(ours[0], eager)


def check_recompiles_against_dynamo(torch_fn, mt_fn, calls):
    """Runs torch_fn under torch.compile and mt_fn under minitorch2.compile on the same sequence of calls: the counts
    after them (how often each recompiled) and every call's value must be Dynamo's."""
    theirs_counts, theirs = _run(torch, torch_fn, calls)
    ours_counts, ours = _run(minitorch2, mt_fn, calls)
    assert ours_counts == theirs_counts, f"(frames, ops, breaks): ours {ours_counts}, Dynamo {theirs_counts}"
    _assert_close(ours, theirs)


def build_batch(*sources):
    """The program names of sources (a batch's corpus files, in order) and the namespaces torch and minitorch2 built
    them in: name -> function. Each source is exec'd on its own, so each function keeps its own file's globals."""
    names, torch_ns, mt_ns = (), {}, {}
    for src in sources:
        names += _names(src)
        torch_ns.update(_build(torch, src))
        mt_ns.update(_build(minitorch2, src))
    return names, torch_ns, mt_ns


def check_batch_is_whole(ported, recompiled, recompile_calls, known_diffs, at_least=100):
    """A batch runner's own check: enough programs, calls for every recompile program, no stale known difference."""
    assert len(ported) + len(recompiled) >= at_least
    assert set(recompile_calls) == set(recompiled)
    assert set(known_diffs) <= set(ported) | set(recompiled)


@pytest.mark.parametrize("name", params(PORTED, KNOWN_DIFFS))
def test_counts_breaks_and_values_match_dynamo(name):
    check_against_dynamo(TORCH_NS[name], MT_NS[name])


@pytest.mark.parametrize("name", params(RECOMPILED, KNOWN_DIFFS))
def test_recompiles_match_dynamo(name):
    check_recompiles_against_dynamo(TORCH_RC[name], MT_RC[name], RECOMPILE_CALLS[name])


def test_every_recompile_program_has_calls():
    assert set(RECOMPILE_CALLS) == set(RECOMPILED)


def test_known_diffs_name_programs_of_the_corpus():
    assert set(KNOWN_DIFFS) <= set(PORTED) | set(RECOMPILED)
