"""The built-in demo of `python -m minitorch2 run` (no script given): one compile, narrated in a page of output.

CLI layer, run by run.py. It follows seed 000's program, `relu(Linear(3, 4)(x)).sum()` on a 2x3 input, forward
and backward:

    1. eager     the grad_fn chain autograd records and the aten ops the backward runs
    2. capture   the frontend's graph of torch-level calls
    3. AOT       the joint graph: what primals and tangents are
    4. cut       the default partition against the min-cut, with the bytes each saves
    5. kernels   the forward's extern matmul and its one fused kernel

and ends by pointing at `run --report`, which shows every stage of any script. Steps 2-5 read one compile
through the "inductor" backend, recorded as `--report` records it (walkthrough.py) and stated with the same
facts (report_facts.py), so the demo and the report never disagree.

The one idea to hold: each line the demo prints is computed from the run, not written in advance.
"""
import minitorch2 as torch
from minitorch2.utils._python_dispatch import TorchDispatchMode

from . import report_facts, walkthrough


class _OpLog(TorchDispatchMode):
    def __init__(self):
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(func.__name__.split(".")[0])
        return func(*args, **(kwargs or {}))


class _MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 4)

    def forward(self, x):
        return torch.relu(self.fc(x)).sum()


def _chain(fn):
    names = []
    while fn is not None:
        names.append(fn.name())
        fn = next((f for f, _ in fn.next_functions if f is not None and f.next_functions), None)
    return " <- ".join(names)


def _eager():
    torch.manual_seed(0)
    model, x = _MLP(), torch.randn(2, 3)
    loss = model(x)
    print("=== 1. eager: autograd records one node per op as the forward runs")
    print(f"loss = {loss.item():.4f}; its grad_fn chain: {_chain(loss.grad_fn)}")
    log = _OpLog()
    with log:
        loss.backward()
    print(f"loss.backward() walks it back, running {len(log.ops)} aten ops: {', '.join(dict.fromkeys(log.ops))}")


def _compiled():
    collector = walkthrough.Collector()
    collector.install()
    try:
        torch.manual_seed(0)
        loss = torch.compile(_MLP())(torch.randn(2, 3))
        loss.backward()
    finally:
        collector.uninstall()
    record = next(c for c in collector.compiles.values() if c.graph is not None)
    aot = record.aots[0]
    calls = [n for n in record.graph.graph.nodes if n.op in ("call_function", "call_method")]
    print()
    print("=== 2. capture: the frontend runs forward's bytecode symbolically")
    print(f"{len(calls)} torch calls became {record.graph_name}: "
          f"{', '.join(getattr(n.target, '__name__', str(n.target)) for n in calls)}")
    facts = report_facts.partition_facts(aot)
    print()
    print(f"=== 3. AOT: forward and backward traced into one joint graph of "
          f"{sum(n.op == 'call_function' for n in aot.joint.graph.nodes)} aten ops")
    print(f"primals ({facts.primals}): the forward's inputs, primals_1 to primals_{facts.primals} (the parameters "
          f"and x)")
    print(f"tangents ({facts.tangents}): the gradient arriving at each output, ones for the loss at .backward()")
    print()
    print("=== 4. the cut: what the forward saves for the backward")
    for name, cut in facts.cuts.items():
        saved = ", ".join(f"{s.name} ({s.dtype}{list(s.shape)}, {s.nbytes} B)" for s in cut.report.saved)
        print(f"{name}: {saved}; {cut.report.total_bytes} bytes")
    default, min_cut = (facts.cuts[name].report for name in ("default_partition",
                                                             "min_cut_rematerialization_partition"))
    kept = [s for s in default.saved if s.name not in min_cut.saved_names]
    instead = [s for s in min_cut.saved if s.name not in default.saved_names]
    if kept and instead:
        what = "mask " if instead[0].dtype == "bool" else ""
        print(f"the min-cut saves the {instead[0].nbytes}-byte {what}{instead[0].name} instead of the "
              f"{kept[0].nbytes}-byte {kept[0].name}: all the backward needs, as {kept[0].name}'s gradient is "
              f"zero where {instead[0].name} holds")
    print()
    forward = aot.compiled[0]
    plan = report_facts.kernel_plan(forward)
    print(f"=== 5. kernels: {forward.name} is {len(plan.steps)} steps")
    for step in plan.steps:
        if step.kind == "extern":
            print(f"extern call (the matmul runs in BLAS, not in a generated loop): {step.text}")
        else:
            made = ", ".join(dict.fromkeys(plan.buffer_origin[b] for b in step.buffers if plan.buffer_origin.get(b)))
            print(f"{step.name}, one loop computing {made} (and what they read):")
            print(step.text)
    print()
    print("every stage of any script, narrated, with pictures and timings:")
    print("    python -m minitorch2 run --report out.html script.py")


def main():
    _eager()
    _compiled()


if __name__ == "__main__":
    main()
