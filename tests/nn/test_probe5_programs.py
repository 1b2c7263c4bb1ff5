"""Programs in the style of real projects (session 25's probe, tests/nn/programs5/), each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's, both runs exit 0, and the graphs of its
compiled parts op by op torch's. torchscript_model.py: a model written for TorchScript (@torch.jit.script helpers,
Final, @torch.jit.ignore, is_scripting branches), scripted, traced, frozen and printed, then trained compiled (its
helpers inlined, as Dynamo inlines a ScriptFunction's Python); refused_modules.py: a GRU and a scripted module,
which Dynamo refuses to trace, called in the compiled frame itself (read as a global, an argument or a module's
attribute: the graph ends at the last checkpoint, which may be a PUSH_NULL or a LOAD_GLOBAL pushing one) or inside a
helper (a break after the helper's call)."""
import pytest

import minitorch2

from .program_reports import all_same, compare_report

FOLDER = "programs5"


@pytest.mark.parametrize("name", ["torchscript_model", "refused_modules"])
def test_program_prints_and_traces_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report


def test_torchscript_ir_and_archives_fail_naming_what_is_missing():
    scripted = minitorch2.jit.script(minitorch2.nn.Linear(2, 2))
    function = minitorch2.jit.script(lambda x: x + 1)
    for owner, name in ((scripted, "code"), (scripted, "graph"), (scripted, "save"), (function, "code")):
        with pytest.raises(AttributeError, match=f"torch.jit: .*{name} is not supported"):
            getattr(owner, name)
    with pytest.raises(AttributeError, match="torch.jit.load is not supported"):
        minitorch2.jit.load("model.pt")


def test_a_traced_callable_runs_its_python_with_is_tracing_true():
    def branchy(x):
        return x * 2 if minitorch2.jit.is_tracing() else x * 3

    traced = minitorch2.jit.trace(branchy, minitorch2.ones(2))
    assert traced(minitorch2.ones(2)).tolist() == [2.0, 2.0]  # the branch torch recorded
    assert branchy(minitorch2.ones(2)).tolist() == [3.0, 3.0] and not minitorch2.jit.is_tracing()


def test_scripting_copies_attributes_and_shares_parameters():
    module = minitorch2.nn.Linear(2, 2)
    module.scale = 3
    scripted = minitorch2.jit.script(module)
    module.scale = 5
    assert scripted.scale == 3 and scripted.weight is module.weight
    with pytest.raises(RuntimeError, match="eval mode"):
        minitorch2.jit.freeze(scripted)
