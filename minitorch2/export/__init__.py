"""torch.export for minitorch2: `export(module, args)` -> an ExportedProgram.

Coverage surface, the runtime's namespace for PyTorch's ahead-of-time graph capture. Export traces the
module once on fake tensors with the compiler's make_fx (autograd/proxy_tensor.py), as torch's default
(non-strict) export does, into one graph of aten ops at PyTorch's training-IR level:

    _trace.py                parameters, buffers and constant tensors lifted to the graph's first
                             inputs (p_fc_weight, b_bn_running_mean, c_scale), then the user's inputs
                             by their argument names; outputs as a tuple
    preserved_ops.py         the composite ops that IR keeps whole (aten.linear, aten.conv2d, ...)
    exported_program.py      ExportedProgram: the graph, its signature, state_dict, module(),
                             run_decompositions() to core ATen
    graph_signature.py       InputSpec / OutputSpec and their kinds, as torch's dataclasses
    dynamic_shapes.py        Dim and dynamic_shapes=: symbolic user inputs, range_constraints, and the
                             input guards module() checks

Not here: derived Dims (2 * batch), strict mode's Dynamo capture (strict=True traces as non-strict does),
torch.export.save/load.
"""
from minitorch2._unsupported import Unsupported

from ._trace import GuardOnDataDependentSymNode, export
from .dynamic_shapes import Dim
from .exported_program import ExportedProgram
from .graph_signature import (ConstantArgument, ExportGraphSignature, InputKind, InputSpec, OutputKind, OutputSpec,
                              TensorArgument)


def __getattr__(name):
    raise Unsupported(f"torch.export.{name} is not supported (minitorch2.export has no attribute '{name}')")


__all__ = ["export", "Dim", "ExportedProgram",
           "ExportGraphSignature", "InputKind", "InputSpec", "OutputKind", "OutputSpec",
           "TensorArgument", "ConstantArgument", "GuardOnDataDependentSymNode"]
