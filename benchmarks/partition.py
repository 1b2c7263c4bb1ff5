"""Partition time: our min-cut partitioner against PyTorch's on the same joint graphs of ~1k, 10k and 50k nodes.

    python benchmarks/partition.py            # 1k, 10k, 50k nodes
    python benchmarks/partition.py --quick    # 1k and 10k nodes, fewer repeats (under ~2 minutes)

The program is generated: `layers` repetitions of a matmul followed by a
short chain of pointwise ops (1 to 5 of them, alternating sin and a scaling)
with a tanh and a residual add, all reduced to one loss. Its joint graph
mixes what the partitioner must reason about: matmuls it may never
recompute, pointwise chains it likes to recompute, values used far apart
(the residual stream), and long fusible chains.

Both joint graphs come from the same program: ours traced with
`autograd.aot_function`, PyTorch's with `functorch.compile.aot_function`.
Tracing 50k nodes with PyTorch's tracer takes minutes, so above
`--trace-torch-up-to` nodes PyTorch's joint graph is instead built directly
from ours, op for op (same names, same aten overloads, FakeTensor metadata
recomputed by PyTorch's FakeTensorMode); the table says which. Both
partitioners are warmed up once on a small graph; each timing is the median
of a few runs, every run on a fresh copy of the joint graph (PyTorch's
partitioner rewrites its input). "same saved" checks that both chose the
same saved values. Times are wall-clock seconds on the machine at hand.
"""
import argparse
import copy
import operator
import os
import statistics
import sys
import time
import warnings

# This file is named like the package it measures: keep its own folder off the import path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

import torch  # noqa: E402
from functorch import compile as torch_compile  # noqa: E402
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402
from torch.fx.passes.shape_prop import _extract_tensor_metadata  # noqa: E402

import autograd  # noqa: E402
import minitorch2  # noqa: E402
import partition  # noqa: E402

warnings.filterwarnings("ignore")
LAYERS = {1_000: 50, 10_000: 500, 50_000: 2_500}  # joint-graph nodes -> layers (about 19.8 nodes a layer)


def program(lib, layers):
    def f(x, w):
        for i in range(layers):
            h = x @ w
            for j in range(i % 5 + 1):
                h = h.sin() if j % 2 == 0 else h * 1.1
            x = lib.tanh(h) + x
        return x.sum()
    return f


class _Captured(Exception):
    pass


def trace_joint(lib, layers):
    """(joint GraphModule, num_fwd_outputs, tracing seconds) of the generated program in `lib`."""
    box = {}

    def capture(joint, _inputs, *, num_fwd_outputs, **_kwargs):
        box["joint"], box["n"] = joint, num_fwd_outputs
        raise _Captured

    x = lib.randn(8, 16, requires_grad=True)
    w = lib.randn(16, 16, requires_grad=True)
    aot = torch_compile.aot_function if lib is torch else autograd.aot_function
    start = time.perf_counter()
    try:
        aot(program(lib, layers), fw_compiler=lambda gm, _: gm.forward, partition_fn=capture)(x, w)
    except _Captured:
        pass
    return box["joint"], box["n"], time.perf_counter() - start


def torch_joint_from_ours(joint):
    """PyTorch's joint graph built node for node from ours (what PyTorch's tracer records for this program)."""
    graph = torch.fx.Graph()
    env = {}
    mode = FakeTensorMode()
    for node in joint.graph.nodes:
        if node.op == "placeholder":
            new = graph.placeholder(node.name)
            val = node.meta["val"]
            dtype = getattr(torch, str(val.dtype).split(".")[-1])
            new.meta["val"] = mode.from_tensor(torch.empty(tuple(val.shape), dtype=dtype))
        elif node.op == "call_function":
            target = operator.getitem if node.target is operator.getitem else \
                getattr(getattr(torch.ops.aten, node.target._opname), node.target._overloadname)
            args = _to_torch(node.args, env)
            kwargs = _to_torch(node.kwargs, env)
            new = graph.create_node("call_function", target, args, kwargs, name=node.name)
            with mode:
                fake_args = torch.fx.node.map_arg(args, lambda n: n.meta["val"])
                fake_kwargs = torch.fx.node.map_arg(kwargs, lambda n: n.meta["val"])
                new.meta["val"] = target(*fake_args, **fake_kwargs)
        elif node.op == "output":
            new = graph.output(_to_torch(node.args[0], env))
        else:
            raise NotImplementedError(f"benchmark translation: {node.op}")
        if isinstance(new.meta.get("val"), torch.Tensor):
            new.meta["tensor_meta"] = _extract_tensor_metadata(new.meta["val"])
        env[node] = new
    return torch.fx.GraphModule(torch.nn.Module(), graph)


def _to_torch(value, env):
    """An argument structure with our nodes replaced by the PyTorch nodes made from them."""
    if isinstance(value, minitorch2.fx.Node):
        return env[value]
    if isinstance(value, (list, tuple)):
        return type(value)(_to_torch(v, env) for v in value) if isinstance(value, tuple) else \
            [_to_torch(v, env) for v in value]
    if isinstance(value, dict):
        return {k: _to_torch(v, env) for k, v in value.items()}
    return value


def time_partition(partition_fn, joint, num_fwd_outputs, repeats, fresh_copy):
    times, result = [], None
    for _ in range(repeats):
        module = fresh_copy(joint)
        start = time.perf_counter()
        result = partition_fn(module, None, num_fwd_outputs=num_fwd_outputs)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def _ops(joint):
    return [(n.name, str(n.target), len(n.args)) for n in joint.graph.nodes if n.op == "call_function"]


def _copy_torch(joint):
    return torch.fx.GraphModule(joint, copy.deepcopy(joint.graph))


def _saved_names(fw_module, num_fwd_outputs):
    return [str(n) for n in list(fw_module.graph.output_node().args[0])[num_fwd_outputs:]]


def run(sizes, repeats, trace_torch_up_to):
    ours_fn = partition.min_cut_rematerialization_partition
    theirs_fn = torch_compile.min_cut_rematerialization_partition
    for lib, fn in ((minitorch2, ours_fn), (torch, theirs_fn)):  # warm-up: imports, op tables
        joint, n, _ = trace_joint(lib, 3)
        fn(joint, None, num_fwd_outputs=n)
    rows = []
    for size in sizes:
        layers = LAYERS[size]
        ours_joint, n, ours_trace = trace_joint(minitorch2, layers)
        nodes = len(ours_joint.graph.nodes)
        if nodes <= trace_torch_up_to:
            theirs_joint, n_theirs, _ = trace_joint(torch, layers)
            how = "traced"
            if size == sizes[0]:  # the translation used for larger graphs reproduces PyTorch's own trace
                assert _ops(torch_joint_from_ours(ours_joint)) == _ops(theirs_joint), "translation differs"
        else:
            theirs_joint, n_theirs, how = torch_joint_from_ours(ours_joint), n, "built from ours"
        ours_time, (ours_fw, _) = time_partition(ours_fn, ours_joint, n, repeats[size], lambda j: j)
        theirs_time, (theirs_fw, _) = time_partition(theirs_fn, theirs_joint, n_theirs, repeats[size], _copy_torch)
        same = _saved_names(ours_fw, n) == _saved_names(theirs_fw, n_theirs)
        rows.append(dict(nodes=nodes, layers=layers, ours=ours_time, theirs=theirs_time, how=how, same=same,
                         trace=ours_trace, torch_nodes=len(theirs_joint.graph.nodes)))
        print(f"  {nodes} nodes: ours {ours_time:.2f} s, torch {theirs_time:.2f} s", file=sys.stderr, flush=True)
    return rows


def markdown(rows):
    lines = ["| joint nodes (ours / torch) | layers | torch joint | ours (s) | torch (s) | torch / ours "
             "| ours growth | torch growth | same saved |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    previous = None
    for row in rows:
        if previous is None:
            growth_ours = growth_theirs = "-"
        else:
            scale = row["nodes"] / previous["nodes"]
            growth_ours = f"x{row['ours'] / previous['ours']:.1f} for x{scale:.0f} nodes"
            growth_theirs = f"x{row['theirs'] / previous['theirs']:.1f} for x{scale:.0f} nodes"
        lines.append(f"| {row['nodes']} / {row['torch_nodes']} | {row['layers']} | {row['how']} | {row['ours']:.3f} "
                     f"| {row['theirs']:.3f} | {row['theirs'] / row['ours']:.2f}x | {growth_ours} | {growth_theirs} "
                     f"| {'yes' if row['same'] else 'NO'} |")
        previous = row
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k and 10k nodes only, fewer repeats")
    parser.add_argument("--trace-torch-up-to", type=int, default=12_000,
                        help="trace PyTorch's joint graph with its own tracer up to this many nodes")
    args = parser.parse_args(argv)
    if args.quick:
        sizes, repeats = [1_000, 10_000], {1_000: 3, 10_000: 1}
    else:
        sizes, repeats = [1_000, 10_000, 50_000], {1_000: 5, 10_000: 3, 50_000: 1}
    rows = run(sizes, repeats, args.trace_torch_up_to)
    print("min_cut_rematerialization_partition, minitorch2 vs PyTorch " + torch.__version__)
    print()
    print(markdown(rows))


if __name__ == "__main__":
    main()
