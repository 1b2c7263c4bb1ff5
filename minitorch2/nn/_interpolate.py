"""F.interpolate (and so nn.Upsample): modes nearest, nearest-exact, linear, bilinear, trilinear, bicubic (with or
without antialias), lanczos (antialiased only) and area (adaptive average pooling).

Runtime layer, part of nn.functional. The argument rules are torch's
(nn/functional.py's interpolate): exactly one of size and scale_factor,
align_corners only for the interpolating modes, one size or scale per
spatial dim. A scale_factor gives the output size floor(in * scale) and is
passed on to the op (ATen's `.vec` overloads do the same), so positions are
computed from the scale, not from the rounded size, unless
recompute_scale_factor=True.
"""
import math

from .._aten.decompositions_upsample import bicubic_traced, linear_traced, nearest_traced
from .._ops import ops
from ._functional_more import _is_traced
from . import functional as F  # circular on purpose: functional.py re-exports this module; F is read at call time

aten = ops.aten

_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


def _output_size_and_scales(input, size, scale_factor, recompute_scale_factor):
    dim = input.dim() - 2
    spatial = list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with spatial "
                    f"dimensions of {spatial} and output size of {size}. Please provide input tensor in (N, C, d1, d2, "
                    "...,dK) format and output size in (o1, o2, ...,oK) format.")
            return [int(s) for s in size], [None] * dim
        return [int(size)] * dim, [None] * dim
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != dim:
            raise ValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but got input with spatial "
                f"dimensions of {spatial} and scale_factor of shape {scale_factor}. Please provide input tensor in "
                "(N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
        scales = [float(s) for s in scale_factor]
    else:
        scales = [float(scale_factor)] * dim
    output_size = [math.floor(n * s) for n, s in zip(spatial, scales)]
    return output_size, ([None] * dim if recompute_scale_factor else scales)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    output_size, scales = _output_size_and_scales(input, size, scale_factor, recompute_scale_factor)
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
                         "tensor as input")
    if mode == "area" and input.dim() in (3, 4, 5):  # an average over each cell's adaptive window, as torch's
        return getattr(F, f"adaptive_avg_pool{input.dim() - 2}d")(input, output_size)
    nd = input.dim() - 2
    if mode in ("nearest", "nearest-exact") and input.dim() in (3, 4, 5) and _is_traced(input):
        # (the .vec overload's Python form, as torch traces it)
        return nearest_traced(input, output_size, scales, exact=mode == "nearest-exact")
    if mode == "nearest" and input.dim() in (3, 4, 5):
        return getattr(aten, f"upsample_nearest{nd}d").default(input, output_size, *scales)
    if mode == "nearest-exact" and input.dim() in (3, 4, 5):
        return getattr(aten, f"_upsample_nearest_exact{nd}d").default(input, output_size, *scales)
    if mode == "lanczos" and input.dim() == 4:
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
        return aten._upsample_lanczos2d_aa.default(input, output_size, align_corners, *scales)
    linear_op = {("linear", 3): "upsample_linear1d", ("bilinear", 4): "upsample_bilinear2d",
                 ("trilinear", 5): "upsample_trilinear3d", ("bicubic", 4): "upsample_bicubic2d"}.get((mode, input.dim()))
    if linear_op and antialias:
        linear_op = f"_{linear_op}_aa"  # (torch's traced graphs keep these whole)
    elif linear_op and _is_traced(input) and input.dtype.is_floating_point:  # (the .vec overloads' Python forms)
        traced = bicubic_traced if mode == "bicubic" else linear_traced
        return traced(input, output_size, align_corners, scales)
    if linear_op:
        return getattr(aten, linear_op).default(input, output_size, align_corners, *scales)
    needs = {"linear": 3, "bilinear": 4, "trilinear": 5}
    if mode in needs and input.dim() in (3, 4, 5):
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {needs[mode]}D input")
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) "
                              f"for the modes: {_MODES} (got {mode})")
