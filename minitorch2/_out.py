"""out= arguments of the torch-level functions: `torch.add(x, y, out=z)` writes into z and returns z.

Runtime layer, shared by the function modules (_functions_*.py, _factories.py).
A function that takes out= in torch is decorated with `out_variant(rule)`;
called with out=, it runs as ATen runs an out= overload:

    1. refuse autograd: a differentiable op with an input (or out) that
       requires grad, while grad mode is on, raises torch's error;
    2. compute the result as without out= (reductions and factories compute
       in out's dtype, as torch's do);
    3. check out's dtype against the result's with the op's rule (`Rule`):
       TensorIterator ops cast to any dtype the result can be cast to, most
       others want the same dtype, each with its own words;
    4. check memory overlap (overlap.py): out must not overlap itself, nor
       partly overlap an input (out=x, the input itself, is fine);
    5. resize out to the result's shape, warning as torch does when it held
       elements, then copy the result in (copy_: the version bumps, a trace
       records it) and return out.

The one idea: an out= call is the plain call followed by a checked copy_, so
every op gets the same out= behaviour from one place.
"""
import enum
import functools
import warnings
from dataclasses import dataclass

import numpy as np

from . import _dtype
from ._aten.overlap import assert_no_internal_overlap, assert_no_overlap, assert_no_partial_overlap
from ._dispatch import state
from ._ops import ops
from ._tensor import Size, Tensor, contiguous_strides

aten = ops.aten
# The out= calls writing their results now: a trace marks their copy_ (autograd/proxy_tensor.py), which torch's
# functionalization does not record (the result itself becomes out's value).
WRITING = []

# c10's ScalarType names (in "result type Float can't be cast ...") and caffe2's C++ type names (in
# "Expected out tensor to have dtype float, but got long int instead").
_SCALAR_TYPE = {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int", "int64": "Long",
                "float16": "Half", "bfloat16": "BFloat16", "float32": "Float", "float64": "Double",
                "complex64": "ComplexFloat", "complex128": "ComplexDouble"}
_CPP_TYPE = {"bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int",
             "int64": "long int", "float16": "c10::Half", "bfloat16": "c10::BFloat16", "float32": "float",
             "float64": "double", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


class Accepts(enum.Enum):
    """Which out dtypes a Rule accepts, given the result's."""

    CAST = "cast"  # any the result's dtype can be cast to (torch.can_cast)
    SAME = "same"  # exactly the result's dtype
    FLOATING = "floating"  # any floating dtype
    ANY = "any"  # any: the result is cast to out's dtype


@dataclass(frozen=True)
class Rule:
    """Which out dtypes an op accepts for a result dtype (`test`), and torch's error when out's is not one.

    The message is formatted with {name}, {result}/{out} (ScalarType names) and {result_c}/{out_c}
    (C++ names)."""
    test: Accepts
    message: str = ""
    error: type = RuntimeError

    def check(self, name, result, out):
        if _accepts(self.test, result.dtype, out.dtype):
            return
        raise self.error(self.message.format(
            name=name, result=_SCALAR_TYPE[result.dtype.name], out=_SCALAR_TYPE[out.dtype.name],
            result_c=_CPP_TYPE[result.dtype.name], out_c=_CPP_TYPE[out.dtype.name]))


def _accepts(test, result, out):
    if test is Accepts.ANY:
        return True
    if test is Accepts.CAST:
        return _dtype.can_cast(result, out)
    if test is Accepts.FLOATING:
        return out.is_floating_point
    return result is out


# The rules torch's out= overloads follow (the words are torch's).
CAST = Rule(Accepts.CAST, "result type {result} can't be cast to the desired output type {out}")  # TensorIterator ops
ANY = Rule(Accepts.ANY)  # comparisons, logical ops, and what computes in out's dtype (sum, factories)
SAME = Rule(Accepts.SAME, "Found dtype {out} but expected {result}")  # abs, neg, floor, clamp: unary TensorIterator ops
EXACT = Rule(Accepts.SAME, "Expected out tensor to have dtype {result_c}, but got {out_c} instead")  # mm, sort, gather
CAT = Rule(Accepts.CAST, "torch.cat(): input types can't be cast to the desired output type {out}", TypeError)
WHERE = Rule(Accepts.SAME, "Expected out type to be {result} but got {out}")
AMAX = Rule(Accepts.SAME, "Expected the dtype for input and out to match, but got {result} for input's dtype and {out} "
                    "for out's dtype.")
MEAN_ALL = Rule(Accepts.CAST, "mean.dtype_out(): input types can't be cast to the desired output type {out}")
MAX_ALL = Rule(Accepts.CAST, "Expected canCast( typeMetaToScalarType(self.dtype()), typeMetaToScalarType(out.dtype())) "
                       "to be true, but got false.")
BOOL_ONLY = Rule(Accepts.SAME, "{name} only supports bool tensor for result, got: {out}")
FLOATING = Rule(Accepts.FLOATING, "{name}(): Expected floating point type for result tensor, but got: {out}")
DOT = Rule(Accepts.SAME, "result dtype {out} does not match input dtype {result}")
MV = Rule(Accepts.SAME, "addmv input tensors must have the same dtype, but got {out}, {result}, and {result}")
INDEX_SELECT = Rule(Accepts.SAME, "index_select(): self and result must have the same scalar type")
TAKE = Rule(Accepts.SAME, "take(): self and out expected to have the same dtype, but got self.dtype = {result} and "
                    "out.dtype = {out}")
NONZERO = Rule(Accepts.SAME, "nonzero: Expected out tensor to have scalar type Long but got scalar type{out}")
MULTINOMIAL = Rule(Accepts.SAME, "multinomial expects Long tensor out, got: {out}")
TENSORDOT = Rule(Accepts.SAME, "tensordot: Expected the output tensor to have dtype {result}, but got an output tensor "
                          "with dtype {out}")
MASKED_SELECT = Rule(Accepts.SAME, "masked_select(): self and result must have the same scalar type")

RESIZED = ("An output with one or more elements was resized since it had shape {old}, which does not match the "
           "required output shape {new}. This behavior is deprecated, and in a future PyTorch release outputs will "
           "not be resized unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, "
           "inplace, to zero elements with t.resize_(0).")


class DtypeFromOut(enum.Enum):
    """The kinds of function that compute in out's dtype when given no dtype= (out_variant's dtype_from_out)."""

    REDUCTION = "reduction"  # sum over dims, mean, cumsum: out's dtype is checked against the input's first
    FACTORY = "factory"  # zeros, rand: an explicit dtype= must be out's


REDUCTION, FACTORY = DtypeFromOut.REDUCTION, DtypeFromOut.FACTORY

ARANGE_RESIZED = ("The number of elements in the out tensor of shape {old} is {old_numel} which does not match the "
                  "computed number of elements {new_numel}. Note that this may occur as a result of rounding error. "
                  "The out tensor will be resized to a tensor of shape {new_tuple}.")


def out_variant(rule, *, name=None, differentiable=True, dtype_from_out=None, resize_warning=None, no_overlap=None):
    """Give a torch-level function torch's out= argument.

    rule: a Rule, or a function of the call's arguments giving one (max(x) and max(x, 0) differ).
    name: the op named in the autograd error (torch names the aten op: multiply's is "mul").
    differentiable: False for ops whose out= call ignores requires_grad (comparisons, argmax).
    dtype_from_out: REDUCTION or FACTORY for functions that compute in out's dtype when no dtype= is
    given (sum over dims, mean, cumsum; zeros, rand), as torch's out= overloads of those do.
    resize_warning: the words of the warning when out held elements and is resized: RESIZED unless
    given; factories and multinomial resize without a word (""), arange has its own.
    no_overlap: "inputs" where ATen refuses an out that overlaps an input even fully (out=x itself: cat, stack,
    index_select, take, nonzero, masked_select), "input" where only its first (gather); others refuse only a
    partial overlap."""
    def decorate(fn):
        op_name = name or fn.__name__

        @functools.wraps(fn)
        def wrapper(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            outs = _out_tensors(op_name, out)
            if differentiable:
                _refuse_autograd(op_name, args, kwargs, outs)
            each_rule = rule if isinstance(rule, Rule) else rule(*args, **kwargs)
            requires_grad = kwargs.pop("requires_grad", False) if dtype_from_out is FACTORY else False
            if dtype_from_out is not None:
                each_rule, kwargs = _compute_in_out_dtype(op_name, each_rule, dtype_from_out, args, kwargs, outs[0])
            warning = resize_warning if resize_warning is not None else "" if dtype_from_out is FACTORY else RESIZED
            written = write(op_name, each_rule, fn(*args, **kwargs), out, inputs=(args, kwargs),
                            resize_warning=warning, no_overlap=no_overlap)
            if requires_grad:  # zeros(2, out=t, requires_grad=True) makes t require grad, as torch's
                outs[0].requires_grad_()
            return written

        return wrapper

    return decorate


def _compute_in_out_dtype(name, rule, kind, args, kwargs, out):
    """(the rule, the kwargs) for a function that computes in out's dtype: an explicit dtype= must be
    out's; none given means out's (checked against the input's for a reduction such as mean)."""
    given = _dtype.as_dtype(kwargs.get("dtype"))
    if given is not None and given is not out.dtype:
        if kind is FACTORY:
            raise RuntimeError(f"dtype {_SCALAR_TYPE[given.name]} does not match dtype of out parameter "
                               f"({_SCALAR_TYPE[out.dtype.name]})")
        return EXACT, kwargs
    if kind is REDUCTION and given is None:
        rule.check(name, args[0], out)
    return rule, {**kwargs, "dtype": out.dtype}


def write(name, rule, result, out, inputs=((), {}), resize_warning=RESIZED, no_overlap=None):
    """Copy a function's result (a tensor, or a tuple of them) into out, checked as torch checks; returns
    out (a tuple result gives a tuple of the same type, holding the out tensors)."""
    results = result if isinstance(result, tuple) else (result,)
    outs = _out_tensors(name, out)
    if len(outs) != len(results):
        raise TypeError(f"{name}(): expected out to be a tuple of {len(results)} Tensors, got {len(outs)}")
    rules = (rule,) + (EXACT,) * (len(results) - 1)  # the indices of max/sort/topk must be int64
    for r, o, each_rule in zip(results, outs, rules):
        each_rule.check(name, r, o)
    for r, o in zip(results, outs):
        _check_overlap(o, inputs, no_overlap)
        resize_output(o, r.shape, resize_warning)
        WRITING.append(name)
        try:
            aten.copy_.default(o, r)
        finally:
            WRITING.pop()
    if not isinstance(result, tuple):
        return out
    written = tuple.__new__(type(result), outs)
    if hasattr(result, "__dict__"):
        written.__dict__.update(result.__dict__)
    return written


def _out_tensors(name, out):
    outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
    for o in outs:
        if not isinstance(o, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(o).__name__}")
    return outs


def _refuse_autograd(name, args, kwargs, outs):
    if state.grad_enabled and any(t.requires_grad for t in (*_tensors((args, kwargs)), *outs)):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")


def _tensors(value):
    if isinstance(value, Tensor):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _tensors(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _tensors(v)


def _check_overlap(out, inputs, no_overlap=None):
    assert_no_internal_overlap(out)
    args, kwargs = inputs
    first = args[0] if args else kwargs.get("input")
    for t in _tensors(inputs):
        if t._storage is out._storage:
            refused = no_overlap == "inputs" or (no_overlap == "input" and t is first)
            (assert_no_overlap if refused else assert_no_partial_overlap)(out, t)


def resize_output(out, shape, warning=RESIZED):
    """ATen's resize_output: out takes the result's shape (contiguous strides, same storage offset) when
    it has another, with torch's deprecation warning if it held elements."""
    shape = Size(shape)
    if out.shape == shape:
        return
    if out._np is None:  # a FakeTensor while tracing: Dynamo leaves calls that resize an output to eager
        raise NotImplementedError("minitorch2 cannot trace an out= call that resizes its output; it runs eagerly")
    if out.numel() != 0 and warning:
        words = warning.format(old=list(out.shape), new=list(shape), old_numel=out.numel(), new_numel=shape.numel(),
                               new_tuple=tuple(shape))
        warnings.warn(words, UserWarning, stacklevel=4)
    _resize(out, shape)


def _resize(t, shape):
    """Tensor.resize_ for out=: the elements are those of t's storage from its offset on, the storage grown
    (old contents kept) when too small. A grown storage is new memory: views of the old one no longer
    alias t, where torch's would (its storage object grows in place)."""
    stride = contiguous_strides(shape)
    needed = t._offset + shape.numel()
    if needed > t._storage.size:
        grown = np.zeros(needed, dtype=t.dtype.np)
        grown[:t._storage.size] = t._storage
        t._storage = grown
    itemsize = t.dtype.itemsize
    t._shape, t._stride = shape, stride
    if needed > t._offset:
        t._np = np.ndarray(shape, t.dtype.np, buffer=t._storage, offset=t._offset * itemsize,
                           strides=tuple(s * itemsize for s in stride))
    else:  # no elements: numpy refuses an offset at the end of the buffer
        t._np = np.empty(shape, t.dtype.np)
