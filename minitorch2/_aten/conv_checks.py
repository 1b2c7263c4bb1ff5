"""The checks ATen makes of a convolution's sizes after its shapes agree: output_padding against stride and
dilation, an empty input that is not empty by its batch or its channels, a transposed output of fewer than no positions.

Runtime layer, coverage surface: called once from nn_conv.py's argument handling (_conv_params); errors only, in
ATen's words, which no stage of the pipeline needs; and the dtypes each of ATen's CPU convolution kernels refuses.
"""
from .memory import _dtype_title


def check_conv_sizes(input, weight, stride, padding, dilation, transposed, output_padding):
    if transposed:
        _check_output_padding(output_padding, stride, dilation)
    kernel = _kernel_refusing(input.dtype, len(stride), dilation, transposed)
    if kernel:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_dtype_title(input.dtype)}'")
    if input.numel() == 0 and input.shape[0] and input.shape[1]:
        raise RuntimeError("Only zero batch or zero channel inputs are supported, but got input shape: "
                           f"[{', '.join(map(str, input.shape))}]")
    if transposed:
        out = [(i - 1) * s - 2 * p + d * (k - 1) + op + 1 for i, k, s, p, d, op in
               zip(input.shape[2:], weight.shape[2:], stride, padding, dilation, output_padding)]
        if any(o < 0 for o in out):  # (0 positions: mkldnn's empty result; ATen's slow kernels would refuse it)
            raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, input.shape[2:]))}). Calculated "
                               f"output size per channel: ({' x '.join(map(str, out))}). Output size is too small")


def _check_output_padding(output_padding, stride, dilation):
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        names = ("height", "width") if len(stride) == 2 else tuple(f"dim{i}" for i in range(len(stride)))
        given = {"output_padding": output_padding, "stride": stride, "dilation": dilation}
        parts = [f"{arg}_{n}: {v}" for arg, values in given.items() for n, v in zip(names, values)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got " + " ".join(parts))


def _kernel_refusing(dtype, dims, dilation, transposed):
    """The name of ATen's CPU convolution kernel for these arguments, if its dtype dispatch refuses `dtype`: the
    plain ones compute all but bool, the transposed and dilated ones only floating, complex and int64 tensors."""
    if transposed or any(d != 1 for d in dilation):
        if dtype.is_floating_point or dtype.is_complex or dtype.name == "int64":
            return None
        return f"slow_conv_transpose{max(dims, 2)}d_out_cpu" if transposed else "slow_conv_dilated<>"
    return ("compute_columns3d" if dims == 3 else "slow_conv2d_cpu") if dtype.name == "bool" else None
