"""A kernel's Scalar arguments as ATen's kernels read them: converted to the type the kernel computes in.

Runtime layer, beside the op table: table_row.op() hands each row's kernel to converting(). An ATen kernel reads a
Scalar argument (addcmul's value, elu's alpha, addmm's beta) with c10's checked conversion into its computation
type: the opmath type (float32 for a half tensor, the tensor's own type otherwise) or the tensor's own type. So
`addcmul(ints, ints, ints, value=0.5)` multiplies by 0, as 0.5 truncates to an integer, and a value the type cannot
hold is refused ("value cannot be converted to type float without overflow"), where numpy would compute with the
Python number and give inf. Arguments left out (the schema's defaults) and tensors are not looked at.
"""
from .. import _dtype
from .pointwise_factories import _not_implemented

OPMATH, OWN = "opmath", "own"  # the computation type, or the result's own type

# op name -> {Scalar argument: the type it is read in}; an in-place op (elu_) reads its functional op's.
SCALAR_ARGUMENTS = {
    "addcmul": {"value": OPMATH}, "addcdiv": {"value": OPMATH},
    "addmm": {"beta": OPMATH, "alpha": OPMATH}, "baddbmm": {"beta": OPMATH, "alpha": OPMATH},
    "elu": {"alpha": OPMATH, "scale": OPMATH, "input_scale": OPMATH},
    "leaky_relu": {"negative_slope": OPMATH},
    "softplus": {"beta": OPMATH, "threshold": OPMATH},
    "threshold": {"threshold": OPMATH, "value": OWN},
    "lerp": {"weight": OPMATH},
    "logit": {"eps": OWN},
    "histc": {"min": OWN, "max": OWN},
    "scatter": {"value": OWN},
    "hardtanh": {"min_val": OWN, "max_val": OWN},
}
# ops whose kernels refuse a tensor that is not floating before they read their Scalars
FLOATING_ONLY = frozenset({"elu", "leaky_relu", "softplus", "lerp"})
NO_BOOL_KERNEL = {"threshold": "threshold_cpu"}


def converting(name, schema, impl):
    """The row's (kernel, meta) with the kernel reading its Scalar arguments as ATen's does."""
    functional_name = name.rstrip("_")
    arguments = SCALAR_ARGUMENTS.get(functional_name)
    if arguments is None:
        return impl
    kernel, meta = impl
    places, defaults = _schema_arguments(schema)

    def converted_kernel(*args, **kwargs):
        dtype = _dtype.result_type(*args[:3]) if functional_name in ("addcmul", "addcdiv") else args[0].dtype
        if functional_name == "logit" and not dtype.is_floating_point:  # (an integer tensor's logit is a float one)
            dtype = _dtype.get_default_dtype()
        if functional_name in FLOATING_ONLY and not dtype.is_floating_point:
            return kernel(*args, **kwargs)
        if dtype is _dtype.bool_ and functional_name in NO_BOOL_KERNEL:
            raise _not_implemented(NO_BOOL_KERNEL[functional_name], dtype)
        args = list(args)
        for argument, kind in arguments.items():
            place = places.get(argument)
            if place is not None and place < len(args):
                args[place] = _converted(functional_name, args[place], dtype, kind)
            elif argument in kwargs:
                kwargs[argument] = _converted(functional_name, kwargs[argument], dtype, kind)
            elif argument in defaults:  # (the dispatcher drops an argument equal to its default: hardtanh's -1)
                _converted(functional_name, defaults[argument], dtype, kind)
        return kernel(*args, **kwargs)

    return converted_kernel, meta


def int64_arange_length(start, end, step):
    """The length of an int64 arange with a float among its Scalars: ATen reads each into int64 (truncated toward
    zero) and counts `(end - start + step - sign) / step` there, so `arange(0, 5, 1.5, dtype=int64)` has 5 values,
    0 to 4. (Its bounds agree with the step's sign: C's truncating division is a floor division of magnitudes.)"""
    start, end, whole_step = int(start), int(end), int(step)
    if whole_step == 0:
        raise ValueError("step must be nonzero")
    return abs(end - start + whole_step - (1 if step > 0 else -1)) // abs(whole_step)


def parse_scalars(*values):
    """A composite's Scalar arguments as torch's argument parser takes them: an int must fit an int64 or a uint64."""
    for value in values:
        if type(value) is int:
            _dtype.unpack_int(value)


def read_scalar(value, dtype, kind=OPMATH):
    """A composite's Scalar argument (addmv's beta, hardshrink's lambd) as the ATen kernel it stands for reads it."""
    parse_scalars(value)
    return _converted("", value, dtype, kind)


def _schema_arguments(schema):
    """Of `schema`'s arguments: name -> position for the positional ones, name -> default for numeric defaults."""
    arguments = schema[schema.index("(") + 1:schema.rindex(") ->")].split(", ")
    positional = arguments[:arguments.index("*")] if "*" in arguments else arguments
    places = {argument.split("=")[0].split()[-1]: place for place, argument in enumerate(positional)}
    defaults = dict(argument.split()[-1].split("=") for argument in arguments if "=" in argument)
    return places, {name: float(value) if "." in value else int(value) for name, value in defaults.items()
                    if value.lstrip("-").replace(".", "", 1).isdigit()}


def _converted(name, value, dtype, kind):
    if not isinstance(value, (int, float, complex)) or isinstance(value, bool) or dtype is _dtype.bool_ or \
            dtype.is_complex:
        return value
    to = _dtype.opmath(dtype) if kind == OPMATH else dtype
    if type(value) is int and not -2 ** 63 <= value < 2 ** 64:  # (only a double argument takes one: logit's eps)
        value = float(value)
    if name == "hardtanh" and to.category == 1:
        value = _hardtanh_bound(value, to)
    checked = _dtype.checked_scalar(value, to, half_overflows=True)
    if to.category != 1:
        return checked if isinstance(value, complex) else value  # (a complex one's real part, once checked)
    return int(checked) if isinstance(checked, float) else checked  # (a float truncates toward zero, as a C cast)


def _hardtanh_bound(value, to):
    """hardtanh on integers reads each bound as an int64 first; an unsigned tensor refuses a negative one."""
    bound = int(_dtype.checked_scalar(value, _dtype.int64))
    if not to.is_signed and bound < 0:
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    return bound
