"""Reductions called as users call them, against torch: dim as an int, a tuple (empty, repeated, out of range) or a
list, keepdim, dtype=, over empty and 0-d tensors of every common dtype. The value, shape and dtype, or the error's
class and words (TypeErrors of the argument parser: the class only). (any and all over dim=() reduced every dim,
where torch reduces none.)"""
import os

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings, strategies as st

import minitorch2

DTYPES = ["float32", "float64", "int64", "int32", "bool", "float16", "uint8"]
FUNCTIONS = ["sum", "mean", "amax", "amin", "std", "var", "prod", "any", "all", "count_nonzero", "nansum", "nanmean",
             "max", "min", "argmax", "argmin", "var_mean", "std_mean", "aminmax"]


def outcome(lib, function, shape, dtype, kwargs):
    x = lib.tensor((np.arange(int(np.prod(shape))).reshape(shape) % 5) - 2).to(getattr(lib, dtype))
    kwargs = {k: getattr(lib, v) if k == "dtype" else v for k, v in kwargs.items()}
    try:
        result = getattr(lib, function)(x, **kwargs)
    except TypeError as error:
        return "TypeError"
    except Exception as error:
        return type(error).__name__, str(error).splitlines()[0]
    result = result[0] if isinstance(result, tuple) else result
    return tuple(result.shape), str(result.dtype), np.round(result.to(lib.float64).numpy(), 4).tolist()


def same(ours, theirs):
    if isinstance(ours, str) or len(ours) == 2 or isinstance(theirs, str) or len(theirs) == 2:
        return ours == theirs
    return ours[:2] == theirs[:2] and np.allclose(ours[2], theirs[2], atol=2e-3, equal_nan=True)


@pytest.mark.parametrize("function,shape,dtype,kwargs", [
    ("any", (2, 3), "int64", {"dim": ()}), ("all", (2, 3), "float32", {"dim": [], "keepdim": True}),
    ("any", (1, 0, 2), "uint8", {"dim": ()}), ("all", (), "bool", {"dim": ()}),
    ("mean", (2, 2), "int64", {"dtype": "int32"}), ("mean", (2,), "bool", {"dim": 0, "dtype": "uint8"}),
    ("nanmean", (2,), "float32", {"dtype": "bool"}), ("nanmean", (2,), "float16", {"dim": (0, 0), "dtype": "uint8"}),
    ("var_mean", (2,), "uint8", {"dim": (-2, -1)}), ("var_mean", (3, 1), "bool", {"dim": -3, "keepdim": True}),
])
def test_reduction_as_torch(function, shape, dtype, kwargs):
    assert same(outcome(minitorch2, function, shape, dtype, kwargs), outcome(torch, function, shape, dtype, kwargs))


def test_compiled_any_and_all_over_no_dims_keep_eagers_values():
    # (torch 2.13's inductor reduces every dim here, True and False, where its eager and aot_eager reduce none)
    x = minitorch2.tensor([[1.0, 0.0], [float("nan"), 3.0]])
    compiled = minitorch2.compile(lambda t: (t.any(dim=()), t.all(dim=[])))
    assert [r.tolist() for r in compiled(x)] == [[[True, False], [True, True]]] * 2


@st.composite
def reductions(draw):
    function, rank = draw(st.sampled_from(FUNCTIONS)), draw(st.integers(0, 3))
    shape = tuple(draw(st.lists(st.integers(0, 3), min_size=rank, max_size=rank)))
    kwargs = draw(st.sampled_from([{}, {"dim": draw(st.integers(-rank - 1, rank))},
                                   {"dim": tuple(draw(st.lists(st.integers(-rank - 1, rank), max_size=3)))}]))
    if "dim" in kwargs and draw(st.booleans()):
        kwargs["keepdim"] = True
    if draw(st.integers(0, 5)) == 0:
        kwargs["dtype"] = draw(st.sampled_from(DTYPES))
    return function, shape, draw(st.sampled_from(DTYPES)), kwargs


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reductions())
def test_random_reductions_as_torch(case):
    function, shape, dtype, kwargs = case
    assert same(outcome(minitorch2, *case), outcome(torch, *case))


# Session 35: the reductions and scans that take one dim (or none), the orders of torch.norm, over the same inputs.
# (The median of nothing was 0 for integers, where ATen converts a NaN: INT_MIN for int32 and int64, and True for
# bools; softmax and log_softmax of an empty integer tensor raised, where ATen returns it before its dtype dispatch;
# torch.norm's 'nuc' and its 'fro' over three dims raised NotImplementedError, where torch calls matrix_norm;
# matrix_norm took dim 5 of a matrix as dim 1. And errors in ATen's order: an empty input before the dim is wrapped
# (cummax), the dim before the dtype (logcumsumexp), k before the dtype (topk, kthvalue), a number q's range before
# the input's checks (quantile), linalg.vector_norm's input dtype, identity, dtype= and then its dims, torch's
# words for an empty dim named, and amax's empty dims before a repeated one.)
ONE_DIM_FUNCTIONS = ["median", "nanmedian", "mode", "kthvalue", "softmax", "log_softmax", "cumsum", "cumprod",
                     "logsumexp", "cummax", "cummin", "logcumsumexp", "sort", "argsort", "topk", "norm", "msort",
                     "nanquantile", "quantile"]


SPECIALS = np.array([1.5, float("nan"), -0.0, float("inf"), 0.0, -2.0, float("-inf"), 1.5])


def one_dim_outcome(lib, function, shape, dtype, args, kwargs, special=False):
    kwargs = {k: getattr(lib, v) if k == "dtype" else v for k, v in kwargs.items()}
    values = (np.arange(int(np.prod(shape))) % 5) - 2 if not special else np.resize(SPECIALS, int(np.prod(shape)))
    x = lib.tensor(values.reshape(shape)).to(getattr(lib, dtype))
    try:
        result = getattr(lib, function)(x, *args, **kwargs)
    except TypeError:
        return "TypeError"
    except Exception as error:
        return type(error).__name__, str(error).splitlines()[0]
    result = result[0] if isinstance(result, tuple) else result
    return tuple(result.shape), str(result.dtype), np.round(result.to(lib.float64).numpy(), 4).tolist()


@st.composite
def one_dim_calls(draw):
    function, rank = draw(st.sampled_from(ONE_DIM_FUNCTIONS)), draw(st.integers(0, 3))
    shape = tuple(draw(st.lists(st.integers(0, 3), min_size=rank, max_size=rank)))
    dim = draw(st.integers(-rank - 1, rank))
    args = {"kthvalue": (draw(st.integers(0, 3)),), "topk": (draw(st.integers(0, 3)),),
            "quantile": (draw(st.sampled_from([0.0, 0.5, 1.0, 1.5])),),
            "nanquantile": (draw(st.sampled_from([0.0, 0.5, 1.0])),),
            "norm": (draw(st.sampled_from([2, 1, 0, float("inf"), "fro", "nuc", -1, 3.5])),)}.get(function, ())
    kwargs = {}
    if function in ("softmax", "log_softmax", "cumsum", "cumprod", "logsumexp", "cummax", "cummin",
                    "logcumsumexp") or draw(st.booleans()):
        kwargs["dim"] = draw(st.sampled_from([dim, (dim,), tuple(range(rank)), (0, -1)])) \
            if function in ("logsumexp", "norm") else dim
    if function == "msort":
        kwargs = {}
    elif draw(st.booleans()) and function in ("median", "nanmedian", "mode", "kthvalue", "logsumexp", "norm",
                                               "quantile", "nanquantile", "topk") and "dim" in kwargs:
        kwargs["keepdim"] = True
    if function in ("softmax", "log_softmax", "cumsum", "cumprod", "norm") and draw(st.integers(0, 3)) == 0:
        kwargs["dtype"] = draw(st.sampled_from(DTYPES))
    return function, shape, draw(st.sampled_from(DTYPES)), args, kwargs, draw(st.booleans())


@settings(max_examples=int(os.environ.get("MT2_ONE_DIM_EXAMPLES", 150)), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(one_dim_calls())
def test_one_dim_reductions_and_scans_as_torch(case):
    ours, theirs = one_dim_outcome(minitorch2, *case), one_dim_outcome(torch, *case)
    assert same(ours, theirs), (case, ours, theirs)
