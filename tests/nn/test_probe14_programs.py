"""Programs in the style of third-party projects run in session 34 (pytorch/examples' gat and gcn on a synthetic
Cora, lucidrains/vit-pytorch's README models, denisyarats/pytorch_sac's agent eager and compiled), tests/nn/programs14/,
each run by `python -m minitorch2 run --compare-torch`: what it prints must be torch's, its graphs op by op torch's,
both runs exit 0.
graph_conv_legacy_ctor.py: `nn.Parameter(torch.Tensor(n_in, n_out))` (gcn's layers) warned "To copy construct from a
tensor" (torch.Tensor went through torch.tensor); torch.Tensor(other) copied where torch's shares the other's memory
(of any dtype), and torch.Tensor() crashed. torch.Tensor is now the default dtype's legacy constructor.
squashed_gaussian_policy_compiled.py: a Transform subclass with class-level constraints (`domain =
constraints.real`), made in a compiled frame, was a graph break when TransformedDistribution read them (a class
attribute of an object made in the frame had no source; a library constraint object was not a user object); so was
the library's own ExpTransform.
pattern_rearrange_compiled.py: einops under torch.compile broke the graph on `Backend.__subclasses__()` (its backend
lookup) and on `str.count(expression, "...")` (its pattern parser): Dynamo folds a class's subclasses and the str
methods read through the class.
twin_critic_target_compiled.py (xfail): two instances of one critic class compiled compile two graphs here."""
import pytest

from .program_reports import all_same, compare_report

FOLDER = "programs14"


@pytest.mark.parametrize("name", ["graph_conv_legacy_ctor", "squashed_gaussian_policy_compiled",
                                  "pattern_rearrange_compiled"])
def test_program_prints_and_traces_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report


def test_a_second_instance_of_a_compiled_module_class_reuses_its_graph():  # (modules guarded by type: session 38)
    report = compare_report(FOLDER, "twin_critic_target_compiled")
    assert all_same(report), report
