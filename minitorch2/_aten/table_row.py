"""One row of the op table: what a row holds (OpEntry) and the two calls that make one (op, inplace).

Runtime layer, under table.py and its sibling row files: each row names an aten op by its schema and points at
its kernel, meta function, derivative and decomposition; the tags below are torch's.
"""
from dataclasses import dataclass

from ..autograd._record import Derivative
from . import memory
from .half_opmath import for_half
from .overlap import Overlap, checked as checked_overlap, checked_in_trace
from .scalar_arguments import converting

POINTWISE, REDUCTION, VIEW, INPLACE, FACTORY = ("pointwise",), ("reduction",), ("view",), ("inplace",), ("factory",)
RANDOM = ("random", "nondeterministic_seeded")
# torch's core ATen opset: the ops an exported program keeps whole when it decomposes (run_decompositions())
CORE = ("core",)
CORE_POINTWISE, CORE_REDUCTION = POINTWISE + CORE, REDUCTION + CORE
CORE_VIEW, CORE_FACTORY = VIEW + CORE, FACTORY + CORE
# A factory's tensor options, after its arguments (native_functions.yaml spells them out in every schema).
LAYOUT = "Layout? layout=None, Device? device=None, bool? pin_memory=None"
OPTIONS = f"ScalarType? dtype=None, {LAYOUT}"


@dataclass
class OpEntry:
    schema: str
    tags: tuple
    kernel: object
    meta: object
    derivative: object = None
    decomposition: object = None
    grad_fn_name: str = ""
    differentiable: bool = True
    output_differentiability: tuple = None
    functional: str = ""  # an in-place op's functional overload, "add.Tensor" ("" for the others)
    method: bool = False  # Tensor.<name> calls this overload with the arguments as given


def op(schema, tags, impl, derivative=None, decomposition=None, grad_fn=None, differentiable=True,
       output_differentiability=None, overlap=None, functional=None, self_value_for=None, method=False):
    """A table row. `differentiable=False` marks ops whose outputs never carry a grad_fn (detach);
    a differentiable op without a derivative gets a grad_fn that raises when the backward reaches it;
    `output_differentiability` (as in derivatives.yaml) lists which outputs get the grad_fn.

    An in-place op checks its memory overlap (overlap.py) by `overlap`, Overlap.POINTWISE unless the row
    says otherwise; `functional` names its functional overload where dropping the trailing underscore
    does not; `self_value_for` lists the arguments for whose gradients alone its formula reads self's
    value (mul_: other's), so self is copied before the write only when one of them needs a gradient.
    `method=True`: Tensor.<name> is this overload, called with the tensor and the arguments as given."""
    name, _, overload = schema.split("(")[0].split("::")[-1].partition(".")
    if "inplace" in tags:
        impl = checked_overlap(impl, overlap or Overlap.POINTWISE)
        functional = functional or f"{name.rstrip('_')}.{overload or 'default'}"
    differentiable = differentiable and "factory" not in tags  # fresh tensors never carry history
    deriv = Derivative(derivative, grad_fn, self_value_for) if derivative is not None else None
    return OpEntry(schema, tags, *converting(name, schema, impl), deriv, for_half(name, decomposition),
                   grad_fn or _grad_fn_name(name), differentiable, output_differentiability, functional or "", method)


def _grad_fn_name(name):
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part) + "Backward0"


def inplace(schema, functional_impl, derivative=None, grad_fn=None, tags=(), into_self=None, overlap=None,
            decomposition=None, functional=None, self_value_for=None, method=False):
    """An in-place row whose kernel runs `functional_impl` into self (memory.inplace)."""
    impl = memory.inplace(functional_impl, into_self)  # (torch's fake tensors check no row with an into_self)
    return op(schema, INPLACE + tuple(tags), impl if into_self or overlap else checked_in_trace(impl), derivative,
              decomposition, grad_fn=grad_fn, overlap=overlap, functional=functional, self_value_for=self_value_for,
              method=method)
