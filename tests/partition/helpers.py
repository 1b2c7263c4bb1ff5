"""Run one program through a library's aot_function with a given partitioner and capture both graphs."""
import torch
from functorch import compile as torch_compile

import autograd
import minitorch2
import partition

from .programs import PROGRAMS

PARTITIONERS = {
    "default": (torch_compile.default_partition, partition.default_partition),
    "min_cut": (torch_compile.min_cut_rematerialization_partition, partition.min_cut_rematerialization_partition),
}


def capture(lib, name, partition_fn):
    """(fw GraphModule, bw GraphModule, number of forward outputs before the saved values, joint GraphModule)."""
    fn, inputs = PROGRAMS[name](lib)
    graphs = {}

    def keep(tag):
        def compiler(gm, example_inputs):
            graphs[tag] = gm
            return (torch_compile.make_boxed_func if lib is torch else autograd.make_boxed_func)(gm.forward)
        return compiler

    def peek(joint, joint_inputs, **kwargs):
        graphs["joint"] = joint
        return partition_fn(joint, joint_inputs, **kwargs)

    aot = torch_compile.aot_function if lib is torch else autograd.aot_function
    out = aot(fn, fw_compiler=keep("fw"), bw_compiler=keep("bw"), partition_fn=peek)(*inputs)
    outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
    loss = sum(o.sum() for o in outs if o.requires_grad)
    loss.backward()
    return graphs["fw"], graphs["bw"], _num_fwd_outputs(graphs["joint"]), graphs["joint"]


def _num_fwd_outputs(joint):
    """Forward outputs of a joint graph (mutated inputs' new values, then the real outputs): all outputs but
    the gradients, of which there is one per primal."""
    outputs = list(_leaves(joint.graph.output_node().args[0]))
    primals = [n for n in joint.graph.nodes if n.op == "placeholder" and n.name.startswith("primals")]
    return len(outputs) - len(primals)


def _leaves(value):
    if isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def signature(fw, bw, num_outputs):
    """What the oracle compares: the saved values' producers, and (inputs, outputs) of both graphs."""
    fw_out = list(fw.graph.output_node().args[0])
    bw_out = list(bw.graph.output_node().args[0])
    saved = [str(n.target) for n in fw_out[num_outputs:]]
    return {
        "saved": saved,
        "fw": (_count_placeholders(fw), len(fw_out)),
        "bw": (_count_placeholders(bw), len(bw_out)),
    }


def _count_placeholders(gm):
    return sum(1 for n in gm.graph.nodes if n.op == "placeholder")


def both_signatures(name, which):
    theirs_fn, ours_fn = PARTITIONERS[which]
    fw, bw, n, _ = capture(torch, name, theirs_fn)
    theirs = signature(fw, bw, n)
    fw, bw, n, _ = capture(minitorch2, name, ours_fn)
    ours = signature(fw, bw, n)
    return theirs, ours


class _Captured(Exception):
    pass


def joint_of(lib, name):
    """(joint GraphModule, num_fwd_outputs) that lib's aot_function hands its partitioner for PROGRAMS[name]."""
    fn, inputs = PROGRAMS[name](lib)
    box = {}

    def capture_joint(joint, _inputs, *, num_fwd_outputs, **_kwargs):
        box["joint"], box["n"] = joint, num_fwd_outputs
        raise _Captured

    aot = torch_compile.aot_function if lib is torch else autograd.aot_function
    try:
        aot(fn, fw_compiler=lambda gm, _: gm.forward, partition_fn=capture_joint)(*inputs)
    except _Captured:
        pass
    return box["joint"], box["n"]


def saved_names(fw, num_fwd_outputs):
    return [n.name for n in list(fw.graph.output_node().args[0])[num_fwd_outputs:]]
