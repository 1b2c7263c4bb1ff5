"""Python attributes on tensors in a compiled frame: `t.scale = 3` then `t * t.scale`, and `x.tag` of an input tensor
given one before the call (Dynamo's test_input_attr_tracking).

Frontend layer, beside TensorVariable (tensor.py), whose STORE_ATTR and attribute reads come here first. A write to an
input tensor is a side effect replayed after the graph, as a write to an outside object's attribute is (output_graph's
stored_attrs); a write to a tensor made in the frame is kept on its tracker and set on the real tensor the graph
returns or hands to the code after a break. A read sees a write made earlier in the frame, else the input tensor's
own attribute, read through its source (a guarded value like any other read from outside the frame).
"""
import minitorch2

from .. import guards
from ..exc import Unsupported
from ..source import AttrSource
from .exceptions import raise_observed


def _is_python_attribute(name):
    """A name Tensor itself does not define (a method, a property such as grad or data): free for the user's value."""
    return not hasattr(minitorch2.Tensor, name) and not name.startswith("__")


def can_store_attr(tensor, name, value):
    """`x.tag = 4` on an input tensor: replayed after the graph (output_graph's stored_attrs)."""
    return _is_python_attribute(name)


def store_attr(tensor, tx, name, value):
    """`t.scale = 3` on a tensor made in the frame: kept on its tracker (set on the real tensor if it is returned)."""
    if not _is_python_attribute(name):
        raise Unsupported(f"setting tensor attribute {name!r}", "side_effect")
    tensor.python_attrs = {**getattr(tensor, "python_attrs", {}), name: value}


def read_attr(tx, tensor, name):
    """The tracker of the tensor's Python attribute `name`: written in the frame, else an input tensor's own (read
    through its source); an input's missing one is the program's AttributeError; else None."""
    if name in getattr(tensor, "python_attrs", {}):
        return tensor.python_attrs[name]
    if (tensor.source, name) in tx.output.stored_attrs:
        return tx.output.stored_attrs[(tensor.source, name)][1]
    real = _input_value(tx, tensor)
    if real is not None and name in getattr(real, "__dict__", {}):
        return tx.output.wrap(real.__dict__[name], AttrSource(tensor.source, name))
    if tensor.source is not None and not hasattr(tensor.example_value, name):  # in the traced program, as Dynamo's
        _guard_presence(tx, tensor, real, name, False)
        raise_observed(AttributeError, (f"'Tensor' object has no attribute {name!r}",), "a missing tensor attribute")
    return None


def has_python_attr(tx, tensor, name):
    """hasattr() of a Python attribute: written in the frame, or an input tensor's own (guarded: a later call's input
    may have it, or not)."""
    if name in getattr(tensor, "python_attrs", {}) or (tensor.source, name) in tx.output.stored_attrs:
        return True
    real = _input_value(tx, tensor)
    present = real is not None and name in getattr(real, "__dict__", {})
    _guard_presence(tx, tensor, real, name, present)
    return present


def _guard_presence(tx, tensor, real, name, present):
    if real is not None:
        tx.output.guards.add(guards.hasattr_guard(tensor.source, name, present))


def _input_value(tx, tensor):
    """The real tensor behind a graph input's tracker, None for one made in the frame."""
    node = getattr(tensor.proxy, "node", None)
    return next((i.value for i in tx.output.inputs if tensor.source is not None and i.node is node), None)


def output_plan(og, tensor, index):
    """The returned tensor from the graph's outputs, given the Python attributes written on it in the frame."""
    attr_plans = {name: value.realize().output_plan(og) for name, value in getattr(tensor, "python_attrs", {}).items()}

    def rebuild(outs, L, G):
        for name, plan in attr_plans.items():
            setattr(outs[index], name, plan(outs, L, G))
        return outs[index]
    return rebuild


def build(cg, tensor):
    """The tensor on the stack at a graph break, given the Python attributes written on it in the frame."""
    cg.load_graph_output(cg.output.add_output(tensor))
    for name, value in getattr(tensor, "python_attrs", {}).items():  # (`t.name = value`, t left on the stack)
        cg.append("COPY", 1)
        cg.reconstruct(value)
        cg.append("SWAP", 2)
        cg.append("STORE_ATTR", name)
