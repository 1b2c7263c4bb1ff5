"""corpus_dynamo_tests_ported_2.py's programs against Dynamo 2.13: values, frame_count, op_count and graph breaks.

The same checks as test_dynamo_tests_ported.py (whose helpers this reuses): each PORTED program runs compiled twice
(the second call a cache hit) on two (3,) float inputs, under torch.compile and minitorch2.compile with a
CompileCounter; values, (frames, ops, breaks) must be Dynamo's. Each RECOMPILE program runs its sequence of calls;
an argument may be a marker (_DType, _Device, _RequiresGrad, _Dynamic) that becomes the library's own object before
the call, and a program may run under a config setting (RECOMPILE_CONFIG). KNOWN_DIFFS names each program that still
differs, with the difference (strict xfail: a fix makes it fail loudly).
"""
import dataclasses

import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

from .corpus_dynamo_tests_ported_2 import PORTED_SRC, RECOMPILE_SRC
from .test_dynamo_counts import ARRAYS, _assert_close, _to_np
from .test_dynamo_tests_ported import _breaks, _build, _clear_counters, _names, check_against_dynamo, params

PORTED, RECOMPILED = _names(PORTED_SRC), _names(RECOMPILE_SRC)
TORCH_NS, MT_NS = _build(torch, PORTED_SRC), _build(minitorch2, PORTED_SRC)
TORCH_RC, MT_RC = _build(torch, RECOMPILE_SRC), _build(minitorch2, RECOMPILE_SRC)


@dataclasses.dataclass(frozen=True)
class _DType:
    name: str  # e.g. "float64": becomes lib.float64


@dataclasses.dataclass(frozen=True)
class _Device:
    name: str  # becomes lib.device(name)


@dataclasses.dataclass(frozen=True)
class _RequiresGrad:
    array: np.ndarray  # becomes a leaf tensor that requires grad


@dataclasses.dataclass(frozen=True)
class _Dynamic:
    array: np.ndarray
    dim: int  # the tensor is marked dynamic along dim before the call


def _as_arg(lib, value):
    dynamo = torch._dynamo if lib is torch else frontend
    if isinstance(value, np.ndarray):
        return lib.tensor(value)
    if isinstance(value, _DType):
        return getattr(lib, value.name)
    if isinstance(value, _Device):
        return lib.device(value.name)
    if isinstance(value, _RequiresGrad):
        return lib.tensor(value.array, requires_grad=True)
    if isinstance(value, _Dynamic):
        tensor = lib.tensor(value.array)
        dynamo.mark_dynamic(tensor, value.dim)
        return tensor
    return value


_X3, _X4, _X5 = ARRAYS[0], ARRAYS[1][:2], np.linspace(-1, 1, 5).astype("float32")
RECOMPILE_CALLS = {
    "rc2_dtype_arg": [(_X3, _DType("float64")), (_X3, _DType("float64")), (_X3, _DType("float16"))],
    "rc2_tensor_dtype_changes": [(_X3, 2), (_X3.astype("float64"), 2), (_X3.astype("float64"), 2)],
    "rc2_device_arg": [(_X3, _Device("cpu")), (_X3, _Device("cpu"))],
    "rc2_requires_grad_changes": [(_X3, 2), (_RequiresGrad(_X3), 2), (_X3, 2)],
    "rc2_string_format_key": [(_X3, "ab"), (_X3, "abc"), (_X3, "ab")],
    "rc2_float_changes_each_call": [(_X3, 0.5), (_X3, 1.5), (_X3, 2.5), (_X3, 3.5)],
    "rc2_int_used_in_shape": [(_X3, 2), (_X3, 3), (_X3, 4)],
    "rc2_mark_dynamic_size": [(_Dynamic(_X3, 0), 1), (_X4, 1), (_X5, 1)],
    "rc2_dict_config_arg": [(_X3, {"k": 2}), (_X3, {"k": 2, "b": 1}), (_X3, {"k": 3})],
    "rc2_enum_like_string_then_int": [(_X3, 1), (_X3, 2), (_X3, "one")],
    "rc2_optional_scale": [(_X3, None), (_X3, 2.0), (_X3, 3.0)],
    "rc2_tuple_length_changes": [(_X3, (1,)), (_X3, (1, 2)), (_X3, (3, 4))],
    "rc2_bool_then_int": [(_X3, True), (_X3, 1), (_X3, False)],
}
# name -> config settings (the same on both sides) the program runs under
RECOMPILE_CONFIG = {
    "rc2_tensor_dtype_changes": {"assume_static_by_default": False},
}

# Programs whose counts or values still differ from Dynamo's: name -> the difference.
KNOWN_DIFFS = {
}


def _run_calls(lib, fn, calls, config):
    _clear_counters(lib)
    settings = torch._dynamo.config if lib is torch else frontend.config
    saved = {key: getattr(settings, key) for key in config}
    counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
    compiled = lib.compile(fn, backend=counter)
    outputs = []
    try:
        for key, value in config.items():
            setattr(settings, key, value)
        for args in calls:
            outputs.append(_to_np(compiled(*[_as_arg(lib, v) for v in args])))
    finally:
        for key, value in saved.items():
            setattr(settings, key, value)
    return (counter.frame_count, counter.op_count, _breaks(lib)), outputs


@pytest.mark.parametrize("name", params(PORTED, KNOWN_DIFFS))
def test_counts_breaks_and_values_match_dynamo(name):
    check_against_dynamo(TORCH_NS[name], MT_NS[name])


@pytest.mark.parametrize("name", params(RECOMPILED, KNOWN_DIFFS))
def test_recompiles_match_dynamo(name):
    config = RECOMPILE_CONFIG.get(name, {})
    theirs_counts, theirs = _run_calls(torch, TORCH_RC[name], RECOMPILE_CALLS[name], config)
    ours_counts, ours = _run_calls(minitorch2, MT_RC[name], RECOMPILE_CALLS[name], config)
    assert ours_counts == theirs_counts, f"(frames, ops, breaks): ours {ours_counts}, Dynamo {theirs_counts}"
    _assert_close(ours, theirs)


def test_every_recompile_program_has_calls():
    assert set(RECOMPILE_CALLS) == set(RECOMPILED)
    assert set(RECOMPILE_CONFIG) <= set(RECOMPILED)


def test_known_diffs_name_programs_of_the_corpus():
    assert set(KNOWN_DIFFS) <= set(PORTED) | set(RECOMPILED)
