"""torch.profiler and torch.autograd.profiler against torch's: the events a program gives (names, counts, nesting,
input shapes, memory), the table's layout, schedules and their callbacks, Chrome traces, record_function and
the torch.ops.profiler ops an FX graph can hold.

Timings differ by nature; everything else is compared. Each test runs the same program in both libraries, the
values made from numpy.
"""
import collections
import json
import os
import re
import warnings

import numpy as np
import pytest
import torch
import torch.profiler as tprof

import minitorch2 as mt
import minitorch2.autograd.profiler as mt_autograd_profiler
import minitorch2.fx
import minitorch2.profiler as mprof

pytestmark = pytest.mark.runtime

RNG = np.random.default_rng(7)
FIGURE = re.compile(r"^-?\d+\.\d+(us|ms|s|%)$|^NaN$")


def values(*shape):
    return RNG.standard_normal(shape).astype("float32")


def both(array):
    return mt.tensor(array), torch.tensor(array)


def cells(line):
    """A table line's cells, each timing or percentage replaced by "<t>"."""
    return ["<t>" if FIGURE.match(cell) else cell for cell in re.split(r"\s{2,}", line.strip())]


def names(events):
    return collections.Counter(event.name for event in events)


# ------------------------------------------------------------------ one program whose ops torch runs as ours do
def _add_exp_mul(lib, profiler, a, b, **options):
    with profiler.profile(activities=[profiler.ProfilerActivity.CPU], **options) as prof:
        with profiler.record_function("block"):
            y = lib.add(a, b)
            z = lib.exp(y)
            lib.mul(z, b)
        del y
    return prof


@pytest.fixture
def add_exp_mul():
    (a_m, a_t), (b_m, b_t) = both(values(10, 10)), both(values(10, 10))

    def run(**options):
        return _add_exp_mul(mt, mprof, a_m, b_m, **options), _add_exp_mul(torch, tprof, a_t, b_t, **options)

    return run


def test_events_match_torch(add_exp_mul):
    ours, theirs = add_exp_mul(record_shapes=True, profile_memory=True)

    def summary(prof):
        return [(e.name, e.input_shapes, e.cpu_memory_usage, e.self_cpu_memory_usage,
                 e.cpu_parent.name if e.cpu_parent else None, [c.name for c in e.cpu_children], e.count)
                for e in prof.events()]

    assert summary(ours) == summary(theirs)
    block = ours.events()[0]
    assert block.cpu_time_total >= sum(child.cpu_time_total for child in block.cpu_children)
    assert block.self_cpu_time_total == pytest.approx(
        block.cpu_time_total - sum(child.cpu_time_total for child in block.cpu_children))


@pytest.mark.parametrize("options,averages", [
    ({}, {}),
    ({"record_shapes": True}, {"group_by_input_shape": True}),
    ({"profile_memory": True}, {}),
    ({"record_shapes": True, "profile_memory": True}, {"group_by_input_shape": True}),
])
def test_table_layout_matches_torch(add_exp_mul, options, averages):
    ours, theirs = add_exp_mul(**options)
    for sort_by in (None, "self_cpu_memory_usage", "count"):
        if sort_by == "self_cpu_memory_usage" and not options.get("profile_memory"):
            continue
        ours_table = ours.key_averages(**averages).table(sort_by=sort_by, row_limit=10).splitlines()
        theirs_table = theirs.key_averages(**averages).table(sort_by=sort_by, row_limit=10).splitlines()
        assert len(ours_table) == len(theirs_table)
        for line in (0, 1, 2, -2):  # separators and the header: exactly
            assert ours_table[line] == theirs_table[line]
        if sort_by != "count":  # (equal counts leave the order to the timings)
            assert [cells(line) for line in ours_table[3:-2]] == [cells(line) for line in theirs_table[3:-2]]
        assert ours_table[-1].startswith("Self CPU time total: ")
    assert str(ours.events()).splitlines()[1] == str(theirs.events()).splitlines()[1]


def test_table_footer_sums_the_self_times(add_exp_mul):
    ours, _ = add_exp_mul()
    averages = ours.key_averages()
    table = averages.table(sort_by="cpu_time_total", row_limit=2)
    total = sum(a.self_cpu_time_total for a in averages)
    assert table.splitlines()[-1] == f"Self CPU time total: {mprof._events.format_time(total)}"
    assert len(table.splitlines()) == 3 + 2 + 2  # row_limit rows between the header and the footer
    assert averages.table(sort_by="cuda_time_total")  # sorting by device time works (all zeros) as in torch
    assert table.splitlines()[3].split()[0] == "block"
    assert averages.table(time_unit="ms").count("ms") >= len(averages) * 3


def test_linear_relu_op_names_and_counts_against_torch():
    """nn.Linear + nn.ReLU forward in a record_function: every op we record, torch records as often; torch
    records these more, none of which minitorch2 dispatches:

        aten::linear        a composite torch dispatches first; our F.linear calls aten::t and aten::addmm itself
        aten::transpose,    what torch's aten::t runs inside itself (ours is one kernel)
        aten::as_strided
        aten::expand,       what torch's CPU addmm kernel runs inside itself (bias broadcast, conjugation checks)
        aten::copy_,
        aten::resolve_conj
        aten::clamp_min     what torch's CPU relu runs inside itself
    """
    weight, bias, x = values(3, 4), values(3), values(2, 4)
    counts = []
    for lib, profiler in ((mt, mprof), (torch, tprof)):
        model = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU())
        with lib.no_grad():
            model[0].weight.copy_(lib.tensor(weight))
            model[0].bias.copy_(lib.tensor(bias))
        inputs = lib.tensor(x)
        with profiler.profile(activities=[profiler.ProfilerActivity.CPU]) as prof:
            with profiler.record_function("model_inference"):
                model(inputs)
        counts.append(names(prof.events()))
    ours, theirs = counts
    assert ours == {"model_inference": 1, "aten::t": 1, "aten::addmm": 1, "aten::relu": 1}
    assert all(theirs[name] == count for name, count in ours.items())
    assert set(theirs) - set(ours) == {"aten::linear", "aten::transpose", "aten::as_strided", "aten::expand",
                                       "aten::copy_", "aten::resolve_conj", "aten::clamp_min"}


def test_input_shapes_of_addmm_match_torch():
    (x_m, x_t), (w_m, w_t), (b_m, b_t) = both(values(2, 4)), both(values(3, 4)), both(values(3))
    shapes = []
    for lib, profiler, x, w, b in ((mt, mprof, x_m, w_m, b_m), (torch, tprof, x_t, w_t, b_t)):
        with profiler.profile(record_shapes=True) as prof:
            lib.nn.functional.linear(x, w, b)
        shapes.append([e.input_shapes for e in prof.events() if e.name == "aten::addmm"])
    assert shapes[0] == shapes[1] == [[[3], [2, 4], [4, 3], [], []]]


def test_backward_ops_are_recorded():
    """The backward's ops are recorded (torch wraps them in "autograd::engine::evaluate_function: ..." ranges,
    which we do not make); aten::detach shows once, AccumulateGrad's, as in torch: exp keeping its output for
    backward is no call of the program's."""
    counts = []
    for lib, profiler in ((mt, mprof), (torch, tprof)):
        x = lib.tensor(values(2, 4), requires_grad=True)
        with profiler.profile() as prof:
            x.exp().sum().backward()
        counts.append(names(prof.events()))
    ours, theirs = counts
    for name in ("aten::exp", "aten::sum", "aten::mul", "aten::detach"):
        assert ours[name] == theirs[name], name


def test_schedule_matches_torch():
    for arguments in ({"wait": 1, "warmup": 1, "active": 2, "repeat": 1}, {"wait": 2, "warmup": 0, "active": 1},
                      {"wait": 1, "warmup": 1, "active": 1, "skip_first": 3, "repeat": 2},
                      {"wait": 3, "warmup": 1, "active": 2, "skip_first": 1, "skip_first_wait": 1}):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours, theirs = mprof.schedule(**arguments), tprof.schedule(**arguments)
        assert [ours(step).name for step in range(14)] == [theirs(step).name for step in range(14)]


def _scheduled_run(lib, profiler, a, b, directory=None):
    cycles = []

    def on_trace_ready(prof):
        cycles.append(names(prof.events()))
        if directory is not None:
            profiler.tensorboard_trace_handler(directory, worker_name="w")(prof)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with profiler.profile(schedule=profiler.schedule(wait=1, warmup=1, active=2, repeat=2),
                              on_trace_ready=on_trace_ready) as prof:
            for _ in range(10):
                lib.add(a, b)
                prof.step()
    return cycles, names(prof.events()), prof.step_num


def test_profile_with_schedule_matches_torch(tmp_path):
    (a_m, a_t), (b_m, b_t) = both(values(3)), both(values(3))
    ours = _scheduled_run(mt, mprof, a_m, b_m, str(tmp_path / "ours"))
    theirs = _scheduled_run(torch, tprof, a_t, b_t)
    assert ours == theirs
    assert ours[0] == [{"ProfilerStep*": 2, "aten::add": 2}] * 2
    traces = sorted(os.listdir(tmp_path / "ours"))
    assert len(traces) == 2 and all(name.startswith("w.") and name.endswith(".pt.trace.json") for name in traces)
    trace = json.load(open(tmp_path / "ours" / traces[0]))
    complete = [e["name"] for e in trace["traceEvents"] if e["ph"] == "X"]
    assert sorted(complete) == ["ProfilerStep#2", "ProfilerStep#3", "aten::add", "aten::add"]


def test_start_stop_and_steps_without_a_with_block():
    prof = mprof.profile(schedule=mprof.schedule(wait=0, warmup=1, active=1, repeat=1), on_trace_ready=None)
    prof.start()
    for _ in range(3):
        mt.ones(2).neg()
        prof.step()
    prof.stop()
    assert names(prof.events()) == {"ProfilerStep*": 1, "aten::ones": 1, "aten::neg": 1}


def test_chrome_trace_has_torchs_layout(add_exp_mul, tmp_path):
    ours, theirs = add_exp_mul(record_shapes=True, profile_memory=True)
    documents = []
    for prof, name in ((ours, "ours.json"), (theirs, "theirs.json")):
        prof.export_chrome_trace(str(tmp_path / name))
        documents.append(json.load(open(tmp_path / name)))
    ours_doc, theirs_doc = documents
    for key in ("schemaVersion", "deviceProperties", "displayTimeUnit", "record_shapes", "profile_memory"):
        assert ours_doc[key] == theirs_doc[key]

    def ops(document):
        return [(e["cat"], e["name"], e["args"].get("Input Dims")) for e in document["traceEvents"]
                if e["ph"] == "X" and e["cat"] in ("cpu_op", "user_annotation")]

    def memory(document):
        return [e["args"]["Bytes"] for e in document["traceEvents"] if e.get("name") == "[memory]"]

    assert ops(ours_doc) == ops(theirs_doc)
    assert memory(ours_doc) == memory(theirs_doc)
    ours.export_chrome_trace(str(tmp_path / "ours.json.gz"))
    assert os.path.getsize(tmp_path / "ours.json.gz") > 0


def test_cuda_activity_warns_and_profiles_the_cpu_as_torch_does():
    for profiler in (mprof, tprof):
        with pytest.warns(UserWarning, match="CUDA is not available, disabling CUDA profiling"):
            with profiler.profile(activities=[profiler.ProfilerActivity.CPU, profiler.ProfilerActivity.CUDA]):
                pass
        with pytest.raises(AssertionError, match="No activities specified for the profiler"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with profiler.profile(activities=[profiler.ProfilerActivity.CUDA]):
                    pass
    assert mprof.supported_activities() == {mprof.ProfilerActivity.CPU}
    assert {k: int(v.value) for k, v in mprof.ProfilerActivity.__members__.items()} == \
        {k: int(v) for k, v in tprof.ProfilerActivity.__members__.items()}


def test_with_stack_names_the_calling_line():
    with mprof.profile(with_stack=True) as prof:
        mt.ones(3).neg()
    neg = next(e for e in prof.events() if e.name == "aten::neg")
    assert os.path.basename(__file__) in neg.stack[0] and "test_with_stack_names_the_calling_line" in neg.stack[0]
    table = prof.key_averages(group_by_stack_n=2).table()
    assert "Source Location" in table.splitlines()[1]


# ------------------------------------------------------------------ torch.autograd.profiler
def _legacy_run(lib, profiler_module, x):
    with profiler_module.profile(use_cpu=True, record_shapes=True) as prof:
        with profiler_module.record_function("outer"):
            lib.exp(x)
            lib.exp(x)
    return prof


def test_autograd_profiler_matches_torch():
    x_m, x_t = both(values(4))
    ours, theirs = _legacy_run(mt, mt_autograd_profiler, x_m), _legacy_run(torch, torch.autograd.profiler, x_t)
    assert [cells(line) for line in str(ours).splitlines()[1:-1]] == \
        [cells(line) for line in str(theirs).splitlines()[1:-1]]
    assert names(ours.function_events) == names(theirs.function_events) == {"outer": 1, "aten::exp": 2}
    assert ours.self_cpu_time_total == pytest.approx(ours.function_events[0].cpu_time_total)
    assert ours.total_average().count == 3 and ours.total_average().key == "Total"
    assert [cells(line) for line in ours.table(row_limit=1).splitlines()[1:4]] == \
        [cells(line) for line in theirs.table(row_limit=1).splitlines()[1:4]]
    assert mt_autograd_profiler.record_function is mprof.record_function
    unfinished = mt_autograd_profiler.profile()
    assert str(unfinished) == "<unfinished torch.autograd.profile>"
    with pytest.raises(RuntimeError):
        unfinished.function_events
    with mt_autograd_profiler.profile(enabled=False) as nothing:
        assert nothing is None


def test_autograd_profiler_use_cuda_warns_as_torch_does():
    for profiler_module in (mt_autograd_profiler, torch.autograd.profiler):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            profiler_module.profile(use_cuda=True)
        assert [(w.category, str(w.message)) for w in caught] == [
            (FutureWarning, "The attribute `use_cuda` will be deprecated soon, please use ``use_device = 'cuda'`` "
                            "instead."),
            (UserWarning, "CUDA is not available, disabling CUDA profiling")]


# ------------------------------------------------------------------ record_function and torch.ops.profiler
def test_record_function_as_a_decorator_and_nested():
    @mprof.record_function("decorated")
    def work(x):
        with mprof.record_function("inner"):
            return x.neg()

    with mprof.profile() as prof:
        work(mt.ones(2))
        work(mt.ones(2))
    events = prof.events()
    assert names(events) == {"decorated": 2, "inner": 2, "aten::neg": 2, "aten::ones": 2}
    inner = next(e for e in events if e.name == "inner")
    assert inner.cpu_parent.name == "decorated" and [c.name for c in inner.cpu_children] == ["aten::neg"]
    assert inner.is_user_annotation
    with mprof.record_function("outside any profile"):  # nothing records, nothing fails
        mt.ones(1)


def test_profiler_ops_have_torchs_schemas():
    for name in ("_record_function_enter", "_record_function_exit"):
        assert str(getattr(mt.ops.profiler, name).default._schema) == \
            str(getattr(torch.ops.profiler, name).default._schema)
    handle = mt.ops.profiler._record_function_enter("range", None)
    assert isinstance(handle, mt.Tensor)
    assert mt.ops.profiler._record_function_exit(handle) is None


class _RangeInForward(mt.nn.Module):
    def forward(self, x):
        with mprof.record_function("foo"):
            return mt.relu(x)


class _ProfilerTracer(minitorch2.fx.Tracer):
    """A tracer that records record_function's ranges as the profiler ops, the way
    pytorch/examples fx/profiling_tracer.py does (by patching record_function's __enter__ and __exit__)."""

    def trace(self, root, concrete_args=None):
        tracer = self
        saved = mt_autograd_profiler.record_function.__enter__, mt_autograd_profiler.record_function.__exit__

        def enter(range_):
            range_.handle = tracer.create_proxy("call_function", mt.ops.profiler._record_function_enter,
                                                (range_.name,), {})
            return range_.handle

        def leave(range_, *exc):
            mt.ops.profiler._record_function_exit(range_.handle)

        mt_autograd_profiler.record_function.__enter__, mt_autograd_profiler.record_function.__exit__ = enter, leave
        try:
            return super().trace(root, concrete_args)
        finally:
            mt_autograd_profiler.record_function.__enter__, mt_autograd_profiler.record_function.__exit__ = saved


def test_fx_graphs_keep_record_function_ranges():
    module = _RangeInForward()
    graph = _ProfilerTracer().trace(module)
    graph.eliminate_dead_code()
    traced = minitorch2.fx.GraphModule(module, graph)
    assert "torch.ops.profiler._record_function_exit(" in traced.code
    x = mt.ones(3)
    with mt_autograd_profiler.profile() as prof:
        traced(x)
    events = prof.function_events
    assert [(e.name, e.cpu_parent.name if e.cpu_parent else None) for e in events] == \
        [("foo", None), ("aten::relu", "foo")]
    plain = minitorch2.fx.symbolic_trace(module)  # a plain trace runs the range while tracing, as torch's
    with mt_autograd_profiler.profile() as prof:
        plain(x)
    assert names(prof.function_events) == {"aten::relu": 1}
