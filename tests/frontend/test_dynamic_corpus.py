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
AOT_PER_SIZE = ("the frontend's graphs, guards and frame counts match; the AOT forward graphs or their guards "
                "differ: torch names the size arithmetic it records as it runs (mul_2, 2 * arg0_1; ours rebuilds it "
                "from the ShapeEnv's expression), adds the AOT trace's size guards to the frame's (ours checks them "
                "inside aot), and a graph whose output views an input, or whose trace pins a size, is traced once "
                "per set of sizes by ours")
GUARD_FORMS = ("the graphs match; the shape guards differ in form: our ShapeEnv keeps other implied facts than "
               "torch's (e.g. `(12*s//s) >= 1`, which torch simplifies away, or fewer of the divisibility facts "
               "torch's view records)")
NODE_NAMES = ("node names: Dynamo traces x.shape's items into its graph and drops them, which shifts its numbering "
              "(getitem_3, ours getitem_1)")
SYMBOLS = "which sizes share a symbol, or where a symbol's graph input sits, differs from Dynamo's placement"
STATIC_PAD = ("Dynamo records F.pad as torch._C._nn.pad(x, pad, 'constant', None); ours as "
              "torch.nn.functional.pad(x, pad)")
AFTER_VIOLATION = ("both raise ConstraintViolationError at the first call (the program specializes the marked dim); in "
                   "the recompiles after it, Dynamo makes the marked tensor's dim and the sizes it met symbolic, ours "
                   "only the sizes that changed")
CHECK_NODE = ("torch._check(n > 1) on a size: Dynamo records the comparison and a _check call in its graph; ours "
              "decides it while tracing (a fact and a guard, no node)")
FACTORY_SIZES = ("torch.zeros(x.shape[0], 3): Dynamo records `size = l_x_.size()` and its items before the call; "
                 "ours passes the size input s77 itself")
KEPT_ALIVE = "Dynamo's code frees l_x_ one node later (it reads a size after the mean); the ops are the same"
VIEW_GUARDS = ("view(-1, 4, 3) of a symbolic size: torch's view records `(s77 // 4) != 1` and more, so at size 4 "
               "it compiles a graph of its own; our symbolic graph also serves size 4 (values equal)")
NO_OPS_FRAME = ("the size-2 call traces no ops; with dynamic=False Dynamo then runs that frame without compiling it, "
                "ours compiles an empty graph (a recompile without ops is compiled, as Dynamo does in the other "
                "modes)")

# Every (case, mode) whose counts, graphs or guards differ from torch's today (strict xfail).
KNOWN_DIFFERENT = {
    ("cheaper_path_for_big_batches", "none"): AOT_PER_SIZE,
    ("group_rows_when_divisible", "none"): VIEW_GUARDS,
    ("flatten_batch", "none"): GUARD_FORMS,
    ("flatten_images", "none"): GUARD_FORMS,
    ("merge_batch_and_time", "none"): AOT_PER_SIZE,
    ("pairs_of_rows", "none"): GUARD_FORMS,
    ("attention_scores", "none"): GUARD_FORMS,
    ("causal_mask_buffer", "none"): NODE_NAMES,
    ("masked_mean", "none"): GUARD_FORMS,
    ("pad_to_multiple_of_4", "none"): STATIC_PAD,
    ("pad_pair_to_longest", "none"): STATIC_PAD,
    ("add_positions", "none"): AOT_PER_SIZE,
    ("factories_from_sizes", "none"): FACTORY_SIZES,
    ("reverse_rows", "none"): NODE_NAMES,
    ("groups_from_int", "none"): GUARD_FORMS,
    ("scale_rows_by_batch", "none"): AOT_PER_SIZE,
    ("first_rows_capped", "none"): NODE_NAMES,
    ("checked_differences", "none"): CHECK_NODE,
    ("gate_by_column", "none"): GUARD_FORMS,
    ("broadcast_weights_to_batch", "none"): AOT_PER_SIZE,
    ("reductions", "none"): AOT_PER_SIZE,
    ("reduce_two_dynamic_dims", "none"): AOT_PER_SIZE,
    ("sizes_in_arithmetic", "none"): AOT_PER_SIZE,
    ("split_in_halves", "none"): NODE_NAMES,
    ("top_half", "none"): NODE_NAMES,
    ("batched_projection", "none"): AOT_PER_SIZE,
    ("small_conv_net", "none"): GUARD_FORMS,
    ("conv_any_image_size", "none"): GUARD_FORMS,
    ("token_and_position", "none"): AOT_PER_SIZE,
    ("gpt_block", "none"): NODE_NAMES,
    ("cheaper_path_for_big_batches", "true"): AOT_PER_SIZE,
    ("group_rows_when_divisible", "true"): VIEW_GUARDS,
    ("flatten_batch", "true"): GUARD_FORMS,
    ("flatten_images", "true"): GUARD_FORMS,
    ("merge_batch_and_time", "true"): GUARD_FORMS,
    ("split_heads", "true"): GUARD_FORMS,
    ("pairs_of_rows", "true"): GUARD_FORMS,
    ("attention_scores", "true"): SYMBOLS,
    ("causal_mask_buffer", "true"): NODE_NAMES,
    ("masked_mean", "true"): GUARD_FORMS,
    ("pad_to_multiple_of_4", "true"): STATIC_PAD,
    ("pad_pair_to_longest", "true"): STATIC_PAD,
    ("add_positions", "true"): AOT_PER_SIZE,
    ("factories_from_sizes", "true"): FACTORY_SIZES,
    ("reverse_rows", "true"): NODE_NAMES,
    ("weighted_row_sum", "true"): NODE_NAMES,
    ("scale_by_int", "true"): AOT_PER_SIZE,
    ("repeat_steps", "true"): AOT_PER_SIZE,
    ("groups_from_int", "true"): GUARD_FORMS,
    ("scale_rows_by_batch", "true"): AOT_PER_SIZE,
    ("first_rows_capped", "true"): NODE_NAMES,
    ("size_one_batch", "true"): AOT_PER_SIZE,
    ("squeeze_single_example", "true"): AOT_PER_SIZE,
    ("empty_batch", "true"): GUARD_FORMS,
    ("checked_differences", "true"): CHECK_NODE,
    ("gate_by_column", "true"): GUARD_FORMS,
    ("broadcast_weights_to_batch", "true"): AOT_PER_SIZE,
    ("reductions", "true"): AOT_PER_SIZE,
    ("reduce_two_dynamic_dims", "true"): AOT_PER_SIZE,
    ("normalize_by_numel", "true"): AOT_PER_SIZE,
    ("sizes_in_arithmetic", "true"): AOT_PER_SIZE,
    ("split_in_halves", "true"): NODE_NAMES,
    ("top_half", "true"): NODE_NAMES,
    ("batched_projection", "true"): AOT_PER_SIZE,
    ("linear_head", "true"): GUARD_FORMS,
    ("normed_mlp", "true"): SYMBOLS,
    ("small_conv_net", "true"): GUARD_FORMS,
    ("conv_any_image_size", "true"): GUARD_FORMS,
    ("eval_batch_norm", "true"): SYMBOLS,
    ("token_and_position", "true"): SYMBOLS,
    ("gpt_block", "true"): SYMBOLS,
    ("count_positive_rows", "true"): AOT_PER_SIZE,
    ("seed002_sizes_8_10_12_4_2", "false"): NO_OPS_FRAME,
    ("flatten_images", "false"): AOT_PER_SIZE,
    ("first_rows_capped", "false"): AOT_PER_SIZE,
    ("cheaper_path_for_big_batches", "mark"): AOT_PER_SIZE,
    ("group_rows_when_divisible", "mark"): VIEW_GUARDS,
    ("flatten_batch", "mark"): GUARD_FORMS,
    ("flatten_images", "mark"): GUARD_FORMS,
    ("merge_batch_and_time", "mark"): AOT_PER_SIZE,
    ("pairs_of_rows", "mark"): GUARD_FORMS,
    ("attention_scores", "mark"): GUARD_FORMS,
    ("causal_mask_buffer", "mark"): NODE_NAMES,
    ("masked_mean", "mark"): AFTER_VIOLATION,
    ("pad_to_multiple_of_4", "mark"): STATIC_PAD,
    ("pad_pair_to_longest", "mark"): STATIC_PAD,
    ("add_positions", "mark"): AOT_PER_SIZE,
    ("factories_from_sizes", "mark"): FACTORY_SIZES,
    ("reverse_rows", "mark"): NODE_NAMES,
    ("scale_by_int", "mark"): AOT_PER_SIZE,
    ("repeat_steps", "mark"): AOT_PER_SIZE,
    ("groups_from_int", "mark"): GUARD_FORMS,
    ("scale_rows_by_batch", "mark"): AOT_PER_SIZE,
    ("first_rows_capped", "mark"): NODE_NAMES,
    ("checked_differences", "mark"): CHECK_NODE,
    ("gate_by_column", "mark"): AFTER_VIOLATION,
    ("broadcast_weights_to_batch", "mark"): AOT_PER_SIZE,
    ("reductions", "mark"): AOT_PER_SIZE,
    ("reduce_two_dynamic_dims", "mark"): AOT_PER_SIZE,
    ("sizes_in_arithmetic", "mark"): AOT_PER_SIZE,
    ("split_in_halves", "mark"): NODE_NAMES,
    ("top_half", "mark"): NODE_NAMES,
    ("batched_projection", "mark"): AOT_PER_SIZE,
    ("small_conv_net", "mark"): GUARD_FORMS,
    ("conv_any_image_size", "mark"): GUARD_FORMS,
    ("token_and_position", "mark"): AOT_PER_SIZE,
    ("gpt_block", "mark"): NODE_NAMES,
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
