"""Programs written in session 42 in the style of the code that found its differences (Hugging Face's modeling files,
the Annotated Transformer, DataLoader-driven training scripts), tests/nn/programs20/, each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's, its graphs op by op torch's, both runs
exit 0. hf_style_tied_lm.py: a forward that asks the process questions Dynamo answers while tracing (the jit, onnx and
_C tracing checks, cuda.is_available) and hasattr() of torch.nn.functional, each a graph break here before.
torchvision_resnet_api_usage.py: torchvision's models call torch._C._log_api_usage_once, and minitorch2 had no torch._C.
dataloader_collate_samplers.py: default_collate gave a list of strings where torch gives a tuple.
annotated_transformer_copy_task.py matched when written."""
import pytest

from .program_reports import all_same, compare_report

FOLDER = "programs20"


@pytest.mark.parametrize("name", ["hf_style_tied_lm", "annotated_transformer_copy_task",
                                  "dataloader_collate_samplers", "torchvision_resnet_api_usage"])
def test_program_prints_and_traces_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report
