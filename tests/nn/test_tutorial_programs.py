"""Programs a user writes from PyTorch's tutorials and docs (issue 20's acceptance probes, tests/nn/programs/), each
run by `python -m minitorch2 run --compare-torch`: what it prints must be torch's, line for line (floats within the
report's float32 tolerance), and both runs must exit 0. One program per class of difference the probes found:
custom autograd Functions in both styles (forward(ctx, ...) and torch 2's forward + setup_context), with
@once_differentiable, mark_dirty on a leaf and gradcheck/gradgradcheck; nn.Module's full backward hooks and
backward pre-hooks, eager and inside a compiled model; tied weights kept through dtype moves, torch's messages for
bad assignments, and checkpoints whose views share their storage after loading; the FX tutorials (a Transformer
whose call_function calls torch functions on Proxies, Interpreter, replace_pattern, ShapeProp); parametrizations
stacked on one weight (matrix_exp's orthogonal layer), weight_norm and spectral_norm (the parametrization and the
hook form older GAN code calls); the autograd tutorials (unused inputs'
messages, gradcheck); tensor reprs whose suffixes wrap at the line width; optimizer param groups printed, schedules
and clip_grad_norm_'s non-finite error; `%` with a Python number on either side (remainder.Scalar, and
remainder.Scalar_Tensor for `3 % x`, which raised TypeError); torch.distributions' tour (MultivariateNormal by
covariance, precision or scale_tril, Laplace and OneHotCategorical beside Normal, Categorical and the rest)."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAMS = os.path.join(ROOT, "tests", "nn", "programs")
HEADER = "==== minitorch2 run --compare-torch: minitorch2 vs torch ====\n"


def _report(name):
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", "--compare-torch",
                             os.path.join(PROGRAMS, f"{name}.py")], cwd=ROOT, capture_output=True, text=True,
                            timeout=600, env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert HEADER in result.stdout, result.stderr
    return result.stdout.split(HEADER)[1]


@pytest.mark.parametrize("name", ["custom_function_styles", "module_apis_and_checkpoints", "fx_tutorial_passes",
                                  "parametrize_layers", "autograd_tutorial", "tensor_repr_suffixes",
                                  "remainder_operators", "optim_groups_schedules_clip", "distributions_tour"])
def test_tutorial_programs_print_what_torch_prints(name):
    report = _report(name)
    assert "--- exit status: same (minitorch2 0, torch 0)" in report, report
    assert report.rstrip("\n").split("\n")[-1].startswith("==== summary: same: stdout same"), report


def test_module_backward_hooks_see_torchs_gradients_eager_and_compiled():
    # (compiled, the graph breaks at a module with hooks fall where ours do, not where Dynamo's do: stdout only)
    report = _report("module_backward_hooks")
    assert "--- printed output (stdout): same\n" in report, report
    assert "--- exit status: same (minitorch2 0, torch 0)" in report, report


def test_compiled_edge_values_are_torchs():
    # NaN through max/sort/clamp, int32 and uint8 wraparound, integer division, empty reductions, bool arithmetic,
    # casts, mixed-dtype where, aliased and viewed inputs mutated in place: compiled, each prints eager torch's
    # values. (Graphs: torch's inference graphs end with the input mutations' copy_, ours apply them after the
    # graph; clamp with a tensor bound and `x & True` record clamp.Tensor and bitwise_and.Tensor here.)
    report = _report("compile_edge_values")
    assert "--- printed output (stdout): same\n" in report, report
    assert "--- exit status: same (minitorch2 0, torch 0)" in report, report

