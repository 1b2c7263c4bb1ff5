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
SYMFLOAT_TENSORIFY = ("the AOT forward differs where a tensor op takes a float computed from sizes (1.0 / "
                      "math.sqrt(k.size(-1))): torch's tensorify pass computes it as tensors with true_divide.Tensor "
                      "(scalar_tensor, sqrt); ours keeps the SymFloat (no aten.true_divide.Tensor row yet)")
GUARD_FORMS = ("the graphs match; the shape guards differ: torch's traces ask size questions ours do not (the C++ "
               "FunctionalTensor wrapper's `size != 0`, the metas inside torch._refs' decompositions, e.g. mean's), "
               "or a product's factors print in another order")
VIEW_GUARDS = ("view(-1, 4, 3) of a symbolic size: torch's view records `(s77 // 4) != 1` and more, so at size 4 "
               "it compiles a graph of its own; our symbolic graph also serves size 4 (values equal)")
CHECK_NODE = ("torch._check(n > 1) on a size: Dynamo records the comparison and a _check call (aten._assert_scalar "
              "after AOT) in its graph; ours decides it while tracing (a fact and a guard, no node)")
FLOAT_ATTRIBUTES = ("under dynamic=True Dynamo passes a module's float attribute (LayerNorm's eps, BatchNorm's "
                    "momentum, Embedding's norm_type) as a 0-d tensor graph input and guards its value; ours keeps "
                    "it a constant (float arguments of the frame are dynamic, as Dynamo's; attributes are not)")

# Every (case, mode) whose counts, graphs or guards differ from torch's today (strict xfail).
KNOWN_DIFFERENT = {
    ("group_rows_when_divisible", "none"): VIEW_GUARDS,
    ("pairs_of_rows", "none"): GUARD_FORMS,
    ("groups_from_int", "none"): GUARD_FORMS,
    ("checked_differences", "none"): CHECK_NODE,
    ("split_in_halves", "none"): GUARD_FORMS,
    ("group_rows_when_divisible", "true"): VIEW_GUARDS,
    ("pairs_of_rows", "true"): GUARD_FORMS,
    ("attention_scores", "true"): SYMFLOAT_TENSORIFY,
    ("groups_from_int", "true"): GUARD_FORMS,
    ("empty_batch", "true"): GUARD_FORMS,
    ("checked_differences", "true"): CHECK_NODE,
    ("split_in_halves", "true"): GUARD_FORMS,
    ("linear_head", "true"): GUARD_FORMS,
    ("normed_mlp", "true"): FLOAT_ATTRIBUTES,
    ("small_conv_net", "true"): GUARD_FORMS,
    ("eval_batch_norm", "true"): FLOAT_ATTRIBUTES,
    ("token_and_position", "true"): FLOAT_ATTRIBUTES,
    ("gpt_block", "true"): FLOAT_ATTRIBUTES,
    ("group_rows_when_divisible", "mark"): VIEW_GUARDS,
    ("pairs_of_rows", "mark"): GUARD_FORMS,
    ("groups_from_int", "mark"): GUARD_FORMS,
    ("checked_differences", "mark"): CHECK_NODE,
    ("split_in_halves", "mark"): GUARD_FORMS,
}

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
