"""The dynamic-shapes corpus against torch 2.13 (issue 21): every program of corpus_dynamic.py, every mode.

Two tests per (program, mode), both reading one run of dynamic_oracle.compare (minitorch2.compile with a
recording CompileCounter, then with aot_eager's AOT settings, against torch's records in dynamic_expect/):

  test_values_match_torch      every call's compiled output equals torch's eager output, on both backends. This
                               holds before dynamic shapes exist (a static recompile computes the same values),
                               so a difference is a bug; KNOWN_VALUE_DIFFERENT lists the missing features.
  test_behaviour_matches_torch frame counts after each call, op count, the error class of each call, each graph's
                               placeholders and code, its shape guards, and under aot_eager the frame counts, the
                               guards and each AOT forward graph's code, all equal torch's. KNOWN_DIFFERENT lists
                               every case that differs today with the reason (strict xfail: a case that starts to
                               match fails loudly until its line is removed).

`python -m tests.frontend.dynamic_oracle` prints the same comparison as a summary per mode.
"""
import pytest
import torch

from . import dynamic_oracle as oracle
from .corpus_dynamic import CASES, MODES

# ---- why cases differ today ------------------------------------------------------------------------------------------
# Every (case, mode) whose counts, graphs or guards differ from torch's today (strict xfail): none.
KNOWN_DIFFERENT = {}

KNOWN_VALUE_DIFFERENT = {}


def _params(table):
    params = []
    for case in CASES:
        for mode in MODES:
            reason = table.get((case.name, mode))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(case.name, mode, marks=marks, id=f"{case.name}-{mode}"))
    return params


@pytest.mark.parametrize("case_name, mode", _params(KNOWN_VALUE_DIFFERENT))
def test_values_match_torch(case_name, mode):
    differences = oracle.compare(case_name, mode)["values"]
    assert not differences, "\n".join(differences)


@pytest.mark.parametrize("case_name, mode", _params(KNOWN_DIFFERENT))
def test_behaviour_matches_torch(case_name, mode):
    differences = oracle.compare(case_name, mode)["behaviour"]
    assert not differences, "\n".join(differences)


# ---- the records themselves ---------------------------------------------------------------------------------------

def test_records_cover_the_corpus_and_this_torch():
    """Every case has torch's records for every mode and backend, made by this torch for this call sequence."""
    for case in CASES:
        document = oracle.load_expectations(case.name)
        assert document["torch_version"] == torch.__version__
        assert document["sizes"] == list(case.sizes) and document["mark_dim"] == case.mark_dim
        assert sorted(document["records"]) == sorted(MODES)
        for by_backend in document["records"].values():
            assert sorted(by_backend) == sorted(oracle.BACKENDS)
            for record in by_backend.values():
                assert record["values_equal_eager"], f"{case.name}: torch's compiled values differ from eager"


@pytest.mark.parametrize("case_name, mode", [("seed002_view_sum", "none"), ("masked_mean", "mark")])
def test_records_are_what_torch_does_now(case_name, mode):
    """A live torch run equals the stored record (a stale record after a corpus or torch change fails here)."""
    live, _ = oracle.run(oracle.TORCH, oracle.CASES_BY_NAME[case_name], mode, "counter")
    stored = oracle.torch_record(case_name, mode, "counter")
    assert {k: v for k, v in live.items() if k != "aot_forward"} == \
        {k: v for k, v in stored.items() if k not in ("aot_forward", "values_equal_eager")}


def test_torch_compile_counts_as_dynamo_optimize_with_the_guard_hook():
    """The records come from torch._dynamo.optimize(backend, dynamic=..., guard_export_fn=...); torch.compile with
    the same backend and dynamic setting compiles the same frames."""
    case = oracle.CASES_BY_NAME["seed002_view_sum"]
    counter = torch._dynamo.testing.CompileCounter()
    torch._dynamo.reset()
    compiled = torch.compile(oracle.make_program(oracle.TORCH, case), backend=counter, dynamic=None)
    counts = []
    for i, specs in enumerate(case.calls()):
        compiled(*oracle.make_args(torch, specs, i))
        counts.append(counter.frame_count)
    torch._dynamo.reset()
    assert counts == oracle.torch_record(case.name, "none", "counter")["frame_counts"] == [1, 1, 2, 2, 2, 2, 2]
