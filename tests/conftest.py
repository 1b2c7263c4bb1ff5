"""Shared pytest configuration: hypothesis profiles.

`default`: 200 examples per property, derandomized so CI runs are stable.
`deep`: 10,000 examples; select it with HYPOTHESIS_PROFILE=deep.
`ci`: 50 examples, for .ci/run's runs on Python 3.12 and 3.13.
Test modules that import torch (the oracle) are reported as skipped where torch is not installed.
"""
import os

# Triton decides between the GPU and its interpreter when it is imported, and the oracle imports it early
# (functorch.compile reaches torch._inductor): without a GPU, the interpreter is decided before anything loads.
if "TRITON_INTERPRET" not in os.environ and not os.path.exists("/dev/nvidiactl"):
    os.environ["TRITON_INTERPRET"] = "1"

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "default", max_examples=200, deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(  # random, not derandomized (it would inherit that from "default"): --hypothesis-seed
    "deep", max_examples=10_000, deadline=None, derandomize=False, print_blob=True,  # picks a fresh campaign
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(  # .ci/run's extra-interpreter runs: a smoke test of the same properties
    "ci", max_examples=50, deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


# ---- torch is the oracle, but optional ------------------------------------------------------
# On an interpreter without torch (CI's Python 3.12/3.13 runs of tests/frontend), a test module that
# imports torch reports as skipped instead of failing to collect, so the torch-free tests still run.
import importlib.util

import pytest

from minitorch2.fx import _patching, _spelling

TORCH_AVAILABLE = importlib.util.find_spec("torch") is not None


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    if TORCH_AVAILABLE or not report.failed or not any(f"No module named '{name}'" in str(report.longrepr)
                                                       for name in ("torch", "functorch")):  # (functorch ships in torch)
        return
    report.outcome = "skipped"
    report.longrepr = (str(collector.path), 0, "Skipped: needs torch (the oracle), which is not installed")


# ---- two or more workers --------------------------------------------------------------------------------------
# pyproject.toml runs the suite with `-n auto --dist loadfile` (pytest-xdist): each test file runs whole, in order,
# in one worker process, and the files are shared among one worker per core. The tests are single-threaded Python
# for the most part, so on CI's two cores this halves the time. Each worker imports torch and minitorch2 (about
# 1 GB), so a large machine gets 8 at most; `-n 0` runs everything in this process.
@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(cores, 8)


# ---- the slow tests -------------------------------------------------------------------------------
# The longest tests (each 10-35 s on two cores), and a few whole files of many short ones, run in their own step
# (`python -m pytest -m slow`, CI's second run), so that the default run stays well under 15 minutes. They are
# named here, in one list, rather than marked one by one in their modules.
SLOW_TESTS = (
    "tests/nn/test_functional_dtypes_s38.py::test_compiled_layer_norm_of_a_huge_mean_is_nan_as_torch",
    "tests/nn/test_functional_shapes_s35.py::test_compiled_functional_call_as_torch",
    "tests/minitorch2/test_view_inplace_fuzz_s34.py::test_compiled_writes_through_views_of_inputs_as_torch",
    "tests/nn/test_probe5_programs.py::test_program_prints_and_traces_what_torch_does",
    "tests/backend/test_user_inputs_fuzz.py::test_torch_compiles_float16_in_float32_rounded_once",
    "tests/nn/test_examples.py::test_example_losses_match_torch",
    "tests/partition/test_scripts.py::test_script_prints_what_torch_prints[seed000_partitioners.py]",
    "tests/partition/test_scripts.py::test_script_prints_what_torch_prints[seed002_gelu_saved.py]",
    "tests/partition/test_partition_fuzz.py::test_min_cut_saves_what_torch_saves",
    "tests/cli/test_run_options.py::test_compare_torch_on_a_matching_script_reports_no_difference",
    "tests/cli/test_run_options.py::test_compare_torch_reports_a_real_difference_and_writes_the_report",
    "tests/cli/test_run_options.py::test_each_show_layer_prints_its_graphs_on_stderr_and_the_report_holds_them",
    "tests/frontend/test_container_mutation.py::test_the_first_compile_set_up_turns_distribution_validation_off",
    "tests/frontend/test_compiler_namespace.py::test_script_matches_torch",
    "tests/fx/test_fx_fuzz.py::test_traced_float_programs_match_torch_fx",
    "tests/fx/test_fx_fuzz.py::test_traced_integer_and_bool_programs_match_torch_fx",
    "tests/autograd/test_aot_fuzz.py::test_aot_graphs_values_and_grads_match_torch",
    "tests/nn/test_third_party_programs.py::test_compiled_training_programs_print_what_torch_prints",
    "tests/nn/test_third_party_programs.py::test_a_nanogpt_training_loop_prints_and_traces_what_torch_does",
    "tests/nn/test_third_party_programs.py::test_inference_and_batch_norm_programs_trace_what_torch_does",
    "tests/frontend/test_small_gaps_s25.py",
    "tests/frontend/test_module_instance_fuzz_s39.py::test_module_instances_match_torch_many",
    "tests/frontend/test_dynamo_tests_ported_4.py",
    "tests/nn/test_compiled_optimizers.py",
    "tests/nn/test_probe6_programs.py",
    "tests/autograd/test_func_tutorials_s37.py",
    "tests/nn/test_lbfgs_compiled.py",
    "tests/backend/test_fuzz_s26_fp16.py::test_half_programs_match_torchs_inductor",
    "tests/frontend/test_probes_s26.py::test_joint_and_inference_graphs_are_logged_before_floats_become_tensors",
    "tests/backend/test_bfloat16_compiled.py::test_a_gpt_like_model_trains_in_bfloat16_as_torch_compile",
    "tests/backend/test_dynamic_recompiles.py::test_float_programs_compile_as_many_frames_as_torch",
    "tests/backend/test_user_inputs_fuzz.py::test_scalar_operands_on_narrow_dtypes_and_odd_layouts_match_torch",
    "tests/backend/test_trust_concurrency.py::test_children_forked_while_another_thread_compiles_compile_and_run",
    "tests/backend/test_differential_inductor.py::test_float_programs_compiled_match_eager",
    "tests/frontend/test_fuzz_new_classes.py::test_train_step_matches_torch",
    "tests/cli/test_fuzz.py::test_eager_layer_runs_the_requested_examples_and_passes",
    "tests/cli/test_fuzz.py::test_the_command_line_runs_fuzz",
    "tests/backend/test_graphs_s26.py::test_lstm_states_written_into_a_buffer_graphs_are_torchs",
    "tests/backend/test_graphs_s26.py::test_fnet_layer_graphs_are_torchs",
    "tests/backend/test_graph_fidelity_3.py::test_max_pool2d_under_inductor_is_torchs_low_memory_form[3x3_ceil]",
    "tests/frontend/test_ports5_fixes_s26.py::test_item_break_warns_as_torch_once_with_the_user_code",
    "tests/nn/test_probe7_programs.py",
    "tests/nn/test_probe8_programs.py",
    "tests/nn/test_probe9_programs.py",
    "tests/backend/test_fuzz_s29_inputs.py",
    "tests/backend/test_probes_s29.py",
    "tests/autograd/test_overlapping_writes_s29.py",
    "tests/minitorch2/test_lerp_overloads_s29.py",
    "tests/backend/test_workers.py::test_callers_on_two_threads_take_turns_with_the_workers",
    "tests/backend/test_workers.py::test_our_openblas_loads_at_one_thread_with_the_kernels_asked_for",
    "tests/backend/test_dynamic_model_shapes.py::test_model_shapes_compile_as_many_frames_as_torch[multihead_attention-dynamic]",
    "tests/backend/test_user_inputs_fuzz.py::test_float16_gradients_compiled_round_once_as_torchs[gelu]",
    "tests/backend/test_dynamic_recompiles.py::test_model_programs_compile_as_many_frames_as_torch[causal_attention-dynamic]",
    "tests/backend/test_user_inputs_fuzz.py::test_float16_gradients_compiled_round_once_as_torchs[softmax]",
    "tests/frontend/test_fuzz_s26_classes.py::test_refused_modules_match_torch",
    "tests/backend/test_user_inputs_fuzz.py::test_float16_gradients_compiled_round_once_as_torchs[silu]",
    "tests/cli/test_run.py::test_the_demo_narrates_one_compile_in_a_page",
    "tests/backend/test_inductor_random.py::test_training_loop_with_dropout",
    "tests/backend/test_dynamic_recompiles.py::test_model_programs_compile_as_many_frames_as_torch[padding_mask_attention-dynamic]",
    "tests/backend/test_dynamic_recompiles.py::test_model_programs_compile_as_many_frames_as_torch[pad_cumsum-dynamic]",
    "tests/cli/test_fuzz.py::test_importing_the_command_imports_neither_torch_nor_hypothesis",
    "tests/backend/test_differential_inductor.py::test_float_programs_through_minitorch2_compile_match_eager",
    "tests/backend/test_trust_concurrency.py::test_threads_compiling_fresh_forward_and_backward_graphs_get_torchs_values",
    "tests/backend/test_dynamic_kernels_fuzz.py::test_integer_programs_over_symbolic_sizes_match_eager",
    "tests/architecture/test_layering.py::test_every_package_imports_only_the_layers_below_it",
    "tests/backend/test_graphs_s26.py::test_wgan_gp_double_backward_refused_as_torch[inductor]",
    "tests/minitorch2/test_native_group_norm.py::test_unet_residual_block_compiled_end_to_end[inductor]",
    "tests/backend/test_backend_gaps_s26.py::test_one_number_constants_are_a_full_as_in_torchs_inductor_graphs[bool_scalar-training]",
    "tests/backend/test_user_inputs_fuzz.py::test_float16_gradients_compiled_round_once_as_torchs[log_softmax]",
    "tests/backend/test_user_inputs_fuzz.py::test_float16_gradients_compiled_round_once_as_torchs[var]",
    "tests/backend/test_user_inputs_fuzz.py::test_float16_gradients_compiled_round_once_as_torchs[mse]",
    "tests/cli/test_debug_dir.py::test_output_code_runs_on_its_own_and_computes_what_torch_does",
    "tests/backend/test_sum_order_and_view_dtype.py::test_compiled_view_dtype_graphs_and_inductor_values_are_torchs",
    "tests/backend/test_inductor_random.py::test_dropout_forward_mask_and_gradients",
    "tests/backend/test_bfloat16_compiled.py::test_a_bfloat16_autocast_block_inside_a_compiled_frame_is_torchs[inductor]",
    "tests/cli/test_explain_report.py::test_explain_of_a_script_that_raises",
    "tests/backend/test_trust_special_values.py::test_edge_values_compiled_as_torch_eager",
    "tests/backend/test_dynamic_recompiles.py::test_model_programs_compile_as_many_frames_as_torch[conv_pool-dynamic]",
    "tests/backend/test_backend_gaps_s26.py::test_output_strides_over_size_one_dims_are_torch_inductors[amax_keepdim_0-static]",
    "tests/nn/test_probe_programs.py::test_rl_and_message_passing_values_and_graphs_are_torchs",
    "tests/nn/test_probe3_programs.py::test_gnn_message_passing_values_and_graphs_are_torchs",
    "tests/nn/test_tutorial_programs.py::test_compiled_edge_values_are_torchs",
    "tests/nn/test_probe2_programs.py::test_program_prints_what_torch_prints[char_lstm_tbptt]",
    "tests/nn/test_probe_programs.py::test_training_utilities_print_what_torch_prints",
    "tests/nn/test_tutorial_programs.py::test_module_backward_hooks_see_torchs_gradients_eager_and_compiled",
    "tests/nn/test_tutorial_programs.py::test_tutorial_programs_print_what_torch_prints[remainder_operators]",
    "tests/nn/test_probe2_programs.py::test_program_prints_what_torch_prints[seq2seq_gru_attention]",
    "tests/nn/test_probe_programs.py::test_transformer_trained_with_dropout_draws_torchs_masks",
    "tests/frontend/test_program_fuzz.py::test_compiled_program_equals_eager",
    "tests/frontend/test_mark_dynamic_fuzz.py::test_program_with_a_marked_dim_matches_torch",
    "tests/nn/test_probe2_programs.py::test_program_prints_what_torch_prints[layer_norm_autocast_grads]",
    "tests/seeds/test_seeds.py::test_seed_script_prints_what_torch_prints[seed002_fence3_aot_autograd.py]",
    "tests/frontend/test_fuzz_new_classes.py::test_class_program_matches_torch",
    "tests/backend/test_graph_cache.py::test_second_process_loads_a_graph_over_symbolic_sizes",
    "tests/nn/test_tutorial_programs.py::test_tutorial_programs_print_what_torch_prints[fx_tutorial_passes]",
    "tests/nn/test_sparse_programs.py::test_a_sparse_graph_convolution_trains_as_torchs",
    "tests/frontend/test_program_fuzz.py::test_program_compiled_over_symbolic_sizes_equals_eager",
    "tests/frontend/test_fuzz_s26_classes.py::test_strided_outputs_match_torch",
    "tests/nn/test_tutorial_programs.py::test_tutorial_programs_print_what_torch_prints[parametrize_layers]",
    "tests/seeds/test_seeds.py::test_seed_script_prints_what_torch_prints[seed002_fence4_functionalize.py]",
    "tests/backend/test_graph_cache.py::test_graph_cache_can_be_turned_off",
    "tests/nn/test_tutorial_programs.py::test_tutorial_programs_print_what_torch_prints[optim_groups_schedules_clip]",
    "tests/cli/test_run_options.py::test_backend_option_is_the_default_backend",
    "tests/cli/test_fuzz.py::test_a_failing_property_exits_1_and_shows_its_minimal_example",
    "tests/nn/test_tutorial_programs.py::test_tutorial_programs_print_what_torch_prints[module_apis_and_checkpoints]",
    "tests/backend/test_llvm_loops.py::test_disk_cache_round_trip_in_fresh_processes",
    "tests/nn/test_third_party_programs.py::test_a_ddp_ready_training_script_prints_what_torch_prints",
    "tests/nn/test_tutorial_programs.py::test_tutorial_programs_print_what_torch_prints[custom_function_styles]",
    "tests/nn/test_rnn.py::test_compiled_layer_matches_torch_eager[LSTM-inductor]",
    "tests/backend/test_graph_fidelity_3.py::test_batch_norm_training_under_inductor_copies_into_buffers_in_graph",
    "tests/backend/test_graph_fidelity_3.py::test_max_pool2d_under_inductor_is_torchs_low_memory_form[2x2]",
    "tests/backend/test_trust_concurrency.py::test_child_forked_right_after_import_compiles_and_runs",
    "tests/cli/test_report_walkthrough.py::test_the_report_of_seed_000_shows_its_three_graphs_and_the_cut",
    "tests/backend/test_graph_cache.py::test_second_process_loads_forward_and_backward_from_the_graph_cache",
    "tests/backend/test_dynamic_kernels_fuzz.py::test_float_programs_over_symbolic_sizes_match_eager",
    "tests/backend/test_dynamic_model_shapes.py::test_model_shapes_compile_as_many_frames_as_torch[heads_by_reshape-dynamic]",
    "tests/backend/test_differential_inductor.py::test_integer_and_bool_programs_compiled_match_eager",
    "tests/backend/test_dynamic_recompiles.py::test_model_programs_compile_as_many_frames_as_torch[conv_bn_eval-dynamic]",
    "tests/backend/test_dynamic_recompiles.py::test_integer_programs_compile_as_many_frames_as_torch",
    "tests/cli/test_run.py::test_script_prints_exactly_what_torch_prints",
    "tests/backend/test_inductor_random.py::test_aot_graphs_print_the_random_nodes_as_torch",
    "tests/backend/test_dynamic_recompiles.py::test_model_programs_compile_as_many_frames_as_torch[mlp_layernorm-dynamic]",
    "tests/backend/test_graph_fidelity_3.py::test_max_pool2d_under_inductor_is_torchs_low_memory_form[3x3_stride2_pad1]",
    "tests/autograd/test_aot_fuzz.py::test_aot_on_aliased_inputs_matches_torch",
    "tests/frontend/test_autograd_function_compiled.py::test_compiled_custom_functions_give_torchs_values_and_gradients[inductor]",
    "tests/frontend/test_dynamo_tests_ported_9on.py",
    "tests/nn/test_probe10_programs.py",
    "tests/nn/test_probe11_programs.py", "tests/nn/test_probe12_programs.py",
    "tests/nn/test_programs_names_s30.py",
    "tests/backend/test_probes_s30.py",
    "tests/backend/test_probes_s32.py", "tests/minitorch2/test_sorting_ties_s32.py",
    # (session 30: the default run had grown to 13:45-16:00 here; these whole files, about 5 minutes, moved)
    "tests/frontend/test_dynamo_tests_ported.py", "tests/frontend/test_dynamo_tests_ported_2.py",
    "tests/frontend/test_dynamo_tests_ported_5.py", "tests/frontend/test_dynamo_tests_ported_6.py",
    "tests/frontend/test_dynamo_tests_ported_7.py", "tests/frontend/test_dynamo_tests_ported_8.py",
    "tests/seeds/test_seeds.py", "tests/backend/test_dynamic_recompiles.py", "tests/export/test_run_decompositions.py",
    "tests/nn/test_tutorial_programs.py", "tests/frontend/test_decode_loops.py",
    "tests/autograd/test_mm_backward_layouts.py", "tests/frontend/test_dynamo_style_more.py",
    "tests/frontend/test_compiled_optimizer.py", "tests/frontend/test_dynamic_corpus.py",
    # (session 33: the default run was at 13:25; these whole files, about 1.5 minutes, moved)
    "tests/backend/test_probes_s31.py", "tests/backend/test_fuzz_s30_inputs.py",
    "tests/backend/test_fuzz_s31_inputs.py", "tests/cli/test_run_options.py",
    "tests/backend/test_dynamic_model_shapes.py", "tests/autograd/test_aot_symbolic_matmul.py",
    "tests/nn/test_probe13_programs.py", "tests/nn/test_probe14_programs.py",
    "tests/frontend/test_dynamic_s33.py", "tests/backend/test_probes_s33.py",
    # (session 35: batch 15's programs, about 70 s on two busy cores, each run under both minitorch2 and torch)
    "tests/nn/test_probe15_programs.py",
    "tests/nn/test_probe16_programs.py",
    "tests/nn/test_probe17_programs.py",
    "tests/nn/test_probe18_programs.py",
    "tests/nn/test_probe19_programs.py",
    "tests/nn/test_probe20_programs.py",
    # (session 40: the default run was at 13:42 of its 15 minutes; a fuzz campaign and a grid over every op)
    "tests/frontend/test_module_instance_fuzz_s39.py", "tests/backend/test_empty_inputs_s39.py",
)


# ---- the program reports: slow tests CI leaves out --------------------------------------------------------------
# The probe batches' and the tutorials' whole programs (tests/nn/programs*/), each run as a script under torch and
# under `minitorch2 run`. Most of their time is torch.compile's: on a fresh machine its inductor compiles each
# program's C++ kernels (vit_timm_compiled.py: 49 s under torch with a cold cache, 10 s warm, 6 s under minitorch2),
# and with them CI ran past its 90 minutes. Their slow tests are also marked `programs`: `python -m pytest -m programs`
# runs them, and CI's slow step leaves them out (the older third-party programs, tests/nn/test_third_party_programs.py
# and test_probe_programs.py, stay in it).
PROGRAM_REPORTS = tuple(f"tests/nn/test_probe{n}_programs.py" for n in range(2, 21)) + (
    "tests/nn/test_tutorial_programs.py",)


def pytest_collection_modifyitems(items):
    for item in items:
        if item.nodeid.startswith(SLOW_TESTS):
            item.add_marker(pytest.mark.slow)
        if item.nodeid.startswith(PROGRAM_REPORTS) and item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.programs)


# ---- one test's hand-made FX Proxies do not change the torch functions of the tests after it ----------------
# A program that builds a graph with Proxy objects gets recording wrappers installed for good (fx/_patching.py);
# in a test process that would leak into every later test, so they are taken out after each test.
@pytest.fixture(autouse=True)
def _no_recording_wrappers_left_behind():
    yield
    while _patching._RECORDING_FOR_GOOD:
        _patching._RECORDING_FOR_GOOD.pop().__exit__(None, None, None)
        _spelling.forget_spellings()
