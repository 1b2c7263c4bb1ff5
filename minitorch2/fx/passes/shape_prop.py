"""ShapeProp: record every node's shape, dtype and strides in `node.meta["tensor_meta"]`.

FX pass (as torch.fx.passes.shape_prop). An Interpreter that runs the graph
once on example inputs and writes down a `TensorMetadata` for what each node
produced (a tuple, list or dict of them for several tensors), and its Python
type in `node.meta["type"]`.

The one idea to hold: shapes come from running the graph, so they are exactly
right for these inputs and silent about others. With `fake_mode` only meta
functions run.
"""
import contextlib
from typing import NamedTuple

from ... import _tensor
from ..._subclasses.fake_strides import is_channels_last
from ..._tensor import channels_last, contiguous_format
from ..interpreter import Interpreter
from ..node import map_aggregate

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
    if result.is_contiguous():
        memory_format = contiguous_format
    elif is_channels_last(tuple(result.shape), stride):
        memory_format = channels_last
    return TensorMetadata(result.shape, result.dtype, result.requires_grad, stride, memory_format, False, {})


class ShapeProp(Interpreter):
    """Run the graph on example inputs and store each node's TensorMetadata. See the module docstring."""

    def __init__(self, gm, fake_mode=None):
        super().__init__(gm)
        self.fake_mode = fake_mode

    def run_node(self, n):
        try:
            with self.fake_mode if self.fake_mode is not None else contextlib.nullcontext():
                result = super().run_node(n)
        except Exception as e:
            raise RuntimeError(f"ShapeProp error for: node={n.format_node()} with meta={n.meta}") from e
        found_tensor = False

        def extract(obj):
            nonlocal found_tensor
            if isinstance(obj, _tensor.Tensor):
                found_tensor = True
                return _extract_tensor_metadata(obj)
            return obj

        meta = map_aggregate(result, extract)
        if found_tensor:
            n.meta["tensor_meta"] = meta
        n.meta["type"] = type(result)
        return result

    def propagate(self, *args):
        """Run on args (faked first when a fake_mode was given); returns the graph's output."""
        if self.fake_mode is not None:
            args = [self.fake_mode.from_tensor(a) if isinstance(a, _tensor.Tensor) else a for a in args]
        return super().run(*args)
