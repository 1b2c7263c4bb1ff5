"""What verbose generated code (print_readable's) adds to each line: the node's value as `: "f32[3, 4]"` and, above
a run of nodes, the source line they came from (`# File: prog.py:12 in forward, code: y = x.relu()`).

FX layer, observability: called by _codegen.py's emitter only when asked for verbose code (logs, the debug folder).
"""
import re

from .._sym import is_symbolic
from .._tensor import FakeTensor, Tensor

_DTYPE_ABBRS = {
    "torch.float64": "f64", "torch.float32": "f32", "torch.float16": "f16", "torch.bfloat16": "bf16",
    "torch.int64": "i64", "torch.int32": "i32", "torch.int16": "i16", "torch.int8": "i8",
    "torch.uint8": "u8", "torch.bool": "b8", "torch.complex64": "c64", "torch.complex128": "c128",
}


def value_annotation(node, include_stride, include_device):
    """`: "f32[3, 4]"` from the node's recorded value (a tensor or a TensorMetadata), `: "Sym(s77)"` from a SymInt's
    (a size read or computed, a size input), None without one."""
    meta = node.meta.get("val", node.meta.get("tensor_meta", node.meta.get("example_value", None)))
    if isinstance(meta, Tensor) and str(meta.dtype) in _DTYPE_ABBRS:
        core = _DTYPE_ABBRS[str(meta.dtype)] + _shape(meta.shape)
        core += _shape(meta.stride()) if include_stride else ""
        core += str(meta.device) if include_device else ""
        plain = type(meta) in (Tensor, FakeTensor)
        return f': "{core}"' if plain else f': "{type(meta).__name__}({core})"'
    if hasattr(meta, "_fields") and hasattr(meta, "memory_format") and str(meta.dtype) in _DTYPE_ABBRS:
        return f': "{_DTYPE_ABBRS[str(meta.dtype)]}{_shape(meta.shape)}"'  # a TensorMetadata
    if is_symbolic(meta):
        return f': "Sym({meta!r})"'
    return None


def stack_trace_comment(node):
    """The comment naming the source line a node came from (None for placeholders and the output)."""
    if node.op in ("placeholder", "output"):
        return None
    parsed = _parse_stack_trace(node.stack_trace)
    summary = "File: {}:{} in {}, code: {}".format(*parsed) if parsed else "No stacktrace found for following nodes"
    return f"\n# {summary}\n"


def _shape(sizes):
    return f"[{', '.join(str(s) for s in sizes)}]"


_STACK_FRAME = re.compile(r"^File \"(.+)\", line (\d+), in (.+)$")


def _parse_stack_trace(stack_trace):
    """(file, line, function, code) of the innermost frame of a recorded stack trace."""
    if stack_trace is None:
        return None
    lines = stack_trace.strip().split("\n")
    for idx in range(len(lines) - 2, -1, -1):
        match = _STACK_FRAME.match(lines[idx].strip())
        if match:
            return (*match.groups(), lines[idx + 1].strip())
    return None
