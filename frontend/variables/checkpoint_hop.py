"""torch.utils.checkpoint.checkpoint(fn, *args) in a compiled frame, captured as Dynamo captures it: one
tag_activation_checkpoint higher-order op over a body graph.

Frontend layer, reached from TorchVariable.call_function (torch.py's DECOMPOSED table). fn is traced inline, its
nodes in a namespace of their own, then moved out of the frame's graph into `wrap_body_0`, whose inputs are the
call's tensor arguments and then what else the body reads (parameters, closed-over tensors) in order of first use.
The frame's graph records

    wrap_body_0 = self.wrap_body_0
    tag_activation_checkpoint = torch.ops.higher_order.tag_activation_checkpoint(wrap_body_0, l_a_, l_b_,
                                                                                 use_reentrant = False)
    getitem = tag_activation_checkpoint[0]

with checkpoint's own keyword arguments on the call and fn's keyword arguments traced into the body (Dynamo's
divide_kwargs). The operator (minitorch2/_higher_order.py) runs the body under checkpoint, so values and gradients
are eager checkpoint's. A context_fn, an output that is no tensor, or a break inside fn is a graph break here.
"""
import inspect
import operator

import minitorch2
from minitorch2._higher_order import tag_activation_checkpoint

from ..exc import Unsupported
from .higher_order import _extract, _FreshNames, _install_subgraph, _nodes_since, _outer_inputs
from .hop_size_symbols import with_size_symbols
from .lists import BaseListVariable, TupleVariable
from .tensor import TensorVariable

# checkpoint's own keyword arguments (the rest are fn's)
_CHECKPOINT_KWARGS = {*inspect.signature(minitorch2.utils.checkpoint.checkpoint).parameters, "preserve_rng_state"}


def checkpoint_as_dynamo(tx, args, kwargs):
    """`checkpoint(fn, *args, **kwargs)`: the tracker of its output (a tuple's tracker for a tuple)."""
    og = tx.output
    ck_kwargs = {k: v.as_python_constant() for k, v in kwargs.items() if k in _CHECKPOINT_KWARGS}
    if ck_kwargs.get("context_fn") is not None:
        raise Unsupported("checkpoint with a context_fn (selective checkpointing) is not captured", "unsupported_call")
    before = set(og.graph.nodes)
    with _FreshNames(og.graph):
        out = args[0].call_function(tx, args[1:], {k: v for k, v in kwargs.items() if k not in _CHECKPOINT_KWARGS})
    items = list(out.items) if isinstance(out, BaseListVariable) else [out]
    if not all(isinstance(o, TensorVariable) for o in items):
        raise Unsupported(f"checkpoint: the function returned {out}, not tensors", "unsupported_call")
    nodes = _nodes_since(og.graph, before)
    arg_nodes = list(dict.fromkeys(a.proxy.node for a in args[1:] if isinstance(a, TensorVariable)))
    outs = [o.proxy.node for o in items]
    read = _outer_inputs(nodes, [n for n in outs if n not in nodes])  # (an output the body did not compute: an input)
    inputs = with_size_symbols(og, arg_nodes + [n for n in read if n not in arg_nodes])
    body = _extract(inputs, [n.name for n in inputs], nodes, typed=False,
                    output=lambda env: tuple(env[n] for n in outs))
    for node in reversed(nodes):  # (users first)
        og.graph.erase_node(node)
    body_node = og.create_proxy("get_attr", _install_subgraph(og, "wrap_body", body), (), {}, None).node
    values = tuple(o.example_value for o in items)
    call = og.create_proxy("call_function", tag_activation_checkpoint, (body_node, *inputs), ck_kwargs, values)
    for i, item in enumerate(items):
        item.proxy = og.create_proxy("call_function", operator.getitem, (call.node, i), {}, values[i], speculative=True)
    return TupleVariable(items) if isinstance(out, BaseListVariable) else items[0]
