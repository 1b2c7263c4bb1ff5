"""TensorMetadata: a value's shape, dtype, strides and memory format, as `node.meta["tensor_meta"]` holds it.

FX pass module (as torch.fx.passes.shape_prop). The pipeline writes these down for the values it traces (make_fx,
functionalization). The ShapeProp pass, an Interpreter that runs a graph once on example inputs and records one per
node, is FX's library surface, which no stage runs: it lives in fx/_graph_more.py and is imported here under torch's
name.
"""
from typing import NamedTuple

from ..._subclasses.fake_strides import is_channels_last, is_contiguous
from ..._tensor import channels_last, contiguous_format
from .._graph_more import ShapeProp  # noqa: F401  (torch.fx.passes.shape_prop.ShapeProp)

__all__ = ["TensorMetadata", "ShapeProp"]


class TensorMetadata(NamedTuple):
    shape: object
    dtype: object
    requires_grad: bool
    stride: tuple
    memory_format: object
    is_quantized: bool
    qparams: dict


def _extract_tensor_metadata(result):
    stride = tuple(result.stride())
    memory_format = None
    if is_contiguous(tuple(result.shape), stride):  # (torch._prims_common's: its guards with symbolic sizes)
        memory_format = contiguous_format
    elif is_channels_last(tuple(result.shape), stride):
        memory_format = channels_last
    return TensorMetadata(result.shape, result.dtype, result.requires_grad, stride, memory_format, False, {})
