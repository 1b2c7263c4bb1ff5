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
AUTOMATIC = ("no automatic dynamic shapes: after a size change we compile one more static graph where Dynamo "
             "compiles one over SymInt inputs (s77) with shape guards")
AUTOMATIC_INT = ("no automatic dynamic ints: an int argument that changed stays a constant in each new graph; Dynamo "
                 "makes it a SymInt graph input after its first change")
AUTOMATIC_FLOAT = ("no automatic dynamic floats: a float argument that changed stays a constant; Dynamo passes it as "
                   "a 0-d tensor input (L_eps_) guarded by not math.isnan(L['eps'])")
AUTOMATIC_RANGE_DIM = ("frames match, but after the size change Dynamo traces x's dim as s77 before range() "
                       "specializes it back; the dropped sym nodes shift its node names (getitem_3, ours getitem_1)")
AUTOMATIC_RANGE_INT = ("frames match, but after a change Dynamo makes `steps` a SymInt that range() specializes back: "
                       "its shape guard L['steps'] == 6 is exported, ours is a plain constant guard")
AUTOMATIC_BREAK = ("the data-dependent graph break matches Dynamo's, but the graphs around it stay static after a "
                   "size change where Dynamo's become dynamic")
DYNAMIC_TRUE = "dynamic=True is ignored: every size compiles a static graph; Dynamo compiles one graph over SymInts"
DYNAMIC_TRUE_INT = ("dynamic=True is ignored: Dynamo makes the tensor dims and the int/float argument symbolic from "
                    "the first call; ours bakes every value in")
DYNAMIC_TRUE_BREAK = ("dynamic=True is ignored: the graphs around the data-dependent break are static (Dynamo: "
                      "SymInt inputs, fewer recompiles)")
MARK = "frontend.mark_dynamic is missing: the marked dim stays static and every new size recompiles"
MARK_VIOLATION = ("frontend.mark_dynamic is missing: Dynamo raises ConstraintViolationError because the program "
                  "specializes the marked dim (range() over it, or an equality with an unmarked input's size)")
NO_CHECK = "torch._check is missing from minitorch2 (Unsupported): every call raises where torch compiles"
STATIC_PAD = ("Dynamo records F.pad as torch._C._nn.pad(x, pad, 'constant', None); ours as "
              "torch.nn.functional.pad(x, pad)")
STATIC_FLATTEN_AOT = ("AOT forward of torch.flatten: torch's view takes the inferred size (view(x, [4, 18])), ours "
                      "keeps -1 (view(x, [4, -1]))")
STATIC_SLICE_AOT = ("AOT forward of x[:k] with k == x.size(0): torch keeps aten.slice.Tensor(x, 0, 0, 4), ours "
                    "records aten.alias")
STATIC_UNUSED_INPUT = ("after nonzero's graph break Dynamo drops the resumed frame's `idx` (only its .shape is read) "
                       "from the graph inputs; ours keeps it as placeholder L_stack0_")

# Every (case, mode) whose counts, graphs or guards differ from torch's today (strict xfail).
KNOWN_DIFFERENT = {
    # dynamic=none
    ("seed002_view_sum", "none"): AUTOMATIC,
    ("seed002_sizes_8_10_12_4_2", "none"): AUTOMATIC,
    ("cheaper_path_for_big_batches", "none"): AUTOMATIC,
    ("group_rows_when_divisible", "none"): AUTOMATIC,
    ("mean_over_len", "none"): AUTOMATIC,
    ("flatten_batch", "none"): AUTOMATIC,
    ("flatten_images", "none"): AUTOMATIC,
    ("merge_batch_and_time", "none"): AUTOMATIC,
    ("split_heads", "none"): AUTOMATIC,
    ("transpose_then_flatten", "none"): AUTOMATIC,
    ("pairs_of_rows", "none"): AUTOMATIC,
    ("attention_scores", "none"): AUTOMATIC,
    ("causal_mask_buffer", "none"): AUTOMATIC,
    ("masked_mean", "none"): AUTOMATIC,
    ("pad_to_multiple_of_4", "none"): AUTOMATIC,
    ("pad_pair_to_longest", "none"): AUTOMATIC,
    ("add_positions", "none"): AUTOMATIC,
    ("append_zero_features", "none"): AUTOMATIC,
    ("factories_from_sizes", "none"): AUTOMATIC,
    ("reverse_rows", "none"): AUTOMATIC,
    ("weighted_row_sum", "none"): AUTOMATIC_RANGE_DIM,
    ("scale_by_int", "none"): AUTOMATIC_INT,
    ("repeat_steps", "none"): AUTOMATIC_RANGE_INT,
    ("groups_from_int", "none"): AUTOMATIC_INT,
    ("scale_rows_by_batch", "none"): AUTOMATIC_INT,
    ("normalize_with_eps", "none"): AUTOMATIC_FLOAT,
    ("first_rows_capped", "none"): AUTOMATIC,
    ("size_one_batch", "none"): AUTOMATIC,
    ("squeeze_single_example", "none"): AUTOMATIC,
    ("empty_batch", "none"): AUTOMATIC,
    ("checked_differences", "none"): NO_CHECK,
    ("add_bias_row", "none"): AUTOMATIC,
    ("outer_broadcast", "none"): AUTOMATIC,
    ("gate_by_column", "none"): AUTOMATIC,
    ("append_fixed_rows", "none"): AUTOMATIC,
    ("concat_two_batches", "none"): AUTOMATIC,
    ("stack_pair", "none"): AUTOMATIC,
    ("broadcast_weights_to_batch", "none"): AUTOMATIC,
    ("reductions", "none"): AUTOMATIC,
    ("reduce_two_dynamic_dims", "none"): AUTOMATIC,
    ("normalize_by_numel", "none"): AUTOMATIC,
    ("sizes_in_arithmetic", "none"): AUTOMATIC,
    ("scale_by_sqrt_dim", "none"): AUTOMATIC,
    ("split_in_halves", "none"): AUTOMATIC,
    ("top_half", "none"): AUTOMATIC,
    ("batched_projection", "none"): AUTOMATIC,
    ("gram_matrices", "none"): AUTOMATIC,
    ("classification_loss", "none"): AUTOMATIC,
    ("linear_head", "none"): AUTOMATIC,
    ("normed_mlp", "none"): AUTOMATIC,
    ("small_conv_net", "none"): AUTOMATIC,
    ("conv_any_image_size", "none"): AUTOMATIC,
    ("eval_batch_norm", "none"): AUTOMATIC,
    ("token_and_position", "none"): AUTOMATIC,
    ("gpt_block", "none"): AUTOMATIC,
    ("scale_by_item", "none"): AUTOMATIC_BREAK,
    ("count_positive_rows", "none"): AUTOMATIC_BREAK,
    ("sum_of_positives", "none"): AUTOMATIC_BREAK,
    # dynamic=true
    ("seed002_view_sum", "true"): DYNAMIC_TRUE,
    ("seed002_sizes_8_10_12_4_2", "true"): DYNAMIC_TRUE,
    ("cheaper_path_for_big_batches", "true"): DYNAMIC_TRUE,
    ("group_rows_when_divisible", "true"): DYNAMIC_TRUE,
    ("mean_over_len", "true"): DYNAMIC_TRUE,
    ("flatten_batch", "true"): DYNAMIC_TRUE,
    ("flatten_images", "true"): DYNAMIC_TRUE,
    ("merge_batch_and_time", "true"): DYNAMIC_TRUE,
    ("split_heads", "true"): DYNAMIC_TRUE,
    ("transpose_then_flatten", "true"): DYNAMIC_TRUE,
    ("pairs_of_rows", "true"): DYNAMIC_TRUE,
    ("attention_scores", "true"): DYNAMIC_TRUE,
    ("causal_mask_buffer", "true"): DYNAMIC_TRUE,
    ("masked_mean", "true"): DYNAMIC_TRUE,
    ("pad_to_multiple_of_4", "true"): DYNAMIC_TRUE,
    ("pad_pair_to_longest", "true"): DYNAMIC_TRUE,
    ("add_positions", "true"): DYNAMIC_TRUE,
    ("append_zero_features", "true"): DYNAMIC_TRUE,
    ("factories_from_sizes", "true"): DYNAMIC_TRUE,
    ("reverse_rows", "true"): DYNAMIC_TRUE,
    ("weighted_row_sum", "true"): DYNAMIC_TRUE,
    ("scale_by_int", "true"): DYNAMIC_TRUE_INT,
    ("repeat_steps", "true"): DYNAMIC_TRUE_INT,
    ("groups_from_int", "true"): DYNAMIC_TRUE_INT,
    ("scale_rows_by_batch", "true"): DYNAMIC_TRUE_INT,
    ("normalize_with_eps", "true"): DYNAMIC_TRUE_INT,
    ("first_rows_capped", "true"): DYNAMIC_TRUE,
    ("size_one_batch", "true"): DYNAMIC_TRUE,
    ("squeeze_single_example", "true"): DYNAMIC_TRUE,
    ("empty_batch", "true"): DYNAMIC_TRUE,
    ("checked_differences", "true"): NO_CHECK,
    ("add_bias_row", "true"): DYNAMIC_TRUE,
    ("outer_broadcast", "true"): DYNAMIC_TRUE,
    ("gate_by_column", "true"): DYNAMIC_TRUE,
    ("append_fixed_rows", "true"): DYNAMIC_TRUE,
    ("concat_two_batches", "true"): DYNAMIC_TRUE,
    ("stack_pair", "true"): DYNAMIC_TRUE,
    ("broadcast_weights_to_batch", "true"): DYNAMIC_TRUE,
    ("reductions", "true"): DYNAMIC_TRUE,
    ("reduce_two_dynamic_dims", "true"): DYNAMIC_TRUE,
    ("normalize_by_numel", "true"): DYNAMIC_TRUE,
    ("sizes_in_arithmetic", "true"): DYNAMIC_TRUE,
    ("scale_by_sqrt_dim", "true"): DYNAMIC_TRUE,
    ("split_in_halves", "true"): DYNAMIC_TRUE,
    ("top_half", "true"): DYNAMIC_TRUE,
    ("batched_projection", "true"): DYNAMIC_TRUE,
    ("gram_matrices", "true"): DYNAMIC_TRUE,
    ("classification_loss", "true"): DYNAMIC_TRUE,
    ("linear_head", "true"): DYNAMIC_TRUE,
    ("normed_mlp", "true"): DYNAMIC_TRUE,
    ("small_conv_net", "true"): DYNAMIC_TRUE,
    ("conv_any_image_size", "true"): DYNAMIC_TRUE,
    ("eval_batch_norm", "true"): DYNAMIC_TRUE,
    ("token_and_position", "true"): DYNAMIC_TRUE,
    ("gpt_block", "true"): DYNAMIC_TRUE,
    ("scale_by_item", "true"): DYNAMIC_TRUE_BREAK,
    ("count_positive_rows", "true"): DYNAMIC_TRUE_BREAK,
    ("sum_of_positives", "true"): DYNAMIC_TRUE_BREAK,
    # dynamic=false
    ("flatten_images", "false"): STATIC_FLATTEN_AOT,
    ("pad_to_multiple_of_4", "false"): STATIC_PAD,
    ("pad_pair_to_longest", "false"): STATIC_PAD,
    ("first_rows_capped", "false"): STATIC_SLICE_AOT,
    ("count_positive_rows", "false"): STATIC_UNUSED_INPUT,
    # mark_dynamic
    ("seed002_view_sum", "mark"): MARK,
    ("seed002_sizes_8_10_12_4_2", "mark"): MARK,
    ("cheaper_path_for_big_batches", "mark"): MARK,
    ("group_rows_when_divisible", "mark"): MARK,
    ("mean_over_len", "mark"): MARK,
    ("flatten_batch", "mark"): MARK,
    ("flatten_images", "mark"): MARK,
    ("merge_batch_and_time", "mark"): MARK,
    ("split_heads", "mark"): MARK,
    ("transpose_then_flatten", "mark"): MARK,
    ("pairs_of_rows", "mark"): MARK,
    ("attention_scores", "mark"): MARK,
    ("causal_mask_buffer", "mark"): MARK,
    ("masked_mean", "mark"): MARK_VIOLATION,
    ("pad_to_multiple_of_4", "mark"): MARK,
    ("pad_pair_to_longest", "mark"): MARK,
    ("add_positions", "mark"): MARK,
    ("append_zero_features", "mark"): MARK,
    ("factories_from_sizes", "mark"): MARK,
    ("reverse_rows", "mark"): MARK,
    ("weighted_row_sum", "mark"): MARK_VIOLATION,
    ("scale_by_int", "mark"): MARK,
    ("repeat_steps", "mark"): MARK,
    ("groups_from_int", "mark"): MARK,
    ("scale_rows_by_batch", "mark"): MARK,
    ("normalize_with_eps", "mark"): MARK,
    ("first_rows_capped", "mark"): MARK,
    ("size_one_batch", "mark"): MARK,
    ("squeeze_single_example", "mark"): MARK,
    ("empty_batch", "mark"): MARK,
    ("checked_differences", "mark"): NO_CHECK,
    ("add_bias_row", "mark"): MARK,
    ("outer_broadcast", "mark"): MARK,
    ("gate_by_column", "mark"): MARK_VIOLATION,
    ("append_fixed_rows", "mark"): MARK,
    ("concat_two_batches", "mark"): MARK,
    ("stack_pair", "mark"): MARK_VIOLATION,
    ("broadcast_weights_to_batch", "mark"): MARK,
    ("reductions", "mark"): MARK,
    ("reduce_two_dynamic_dims", "mark"): MARK,
    ("normalize_by_numel", "mark"): MARK,
    ("sizes_in_arithmetic", "mark"): MARK,
    ("scale_by_sqrt_dim", "mark"): MARK,
    ("split_in_halves", "mark"): MARK,
    ("top_half", "mark"): MARK,
    ("batched_projection", "mark"): MARK,
    ("gram_matrices", "mark"): MARK,
    ("classification_loss", "mark"): MARK_VIOLATION,
    ("linear_head", "mark"): MARK,
    ("normed_mlp", "mark"): MARK,
    ("small_conv_net", "mark"): MARK,
    ("conv_any_image_size", "mark"): MARK,
    ("eval_batch_norm", "mark"): MARK,
    ("token_and_position", "mark"): MARK,
    ("gpt_block", "mark"): MARK,
    ("scale_by_item", "mark"): MARK,
    ("count_positive_rows", "mark"): MARK,
    ("sum_of_positives", "mark"): MARK,
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
