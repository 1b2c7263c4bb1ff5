"""torch's tensor() reading nested Python data: what it refuses, with its messages, and the values it converts.

Runtime layer, coverage surface (eager fidelity: errors and edge values no stage of the pipeline needs). _factories.py's
tensor() calls `data_array` for numpy's array of the data, refused as torch refuses it (ragged nesting, strings), and,
once it knows the dtype, `checked_values`: complex numbers into a real dtype, None and other objects refused, ints
beyond int64 read as doubles for a floating dtype, values an integer dtype cannot hold refused as c10's checked
conversion refuses them. (Also `copy_as_aten`, numpy's copy converting as ATen's kernels convert.)
"""
import numbers
import os
import sys
import warnings

import numpy as np

from . import _dtype

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


_warned_ndarray_items = False  # (torch warns once a process)
_NDARRAY_ITEMS = ("Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting the "
                  "list to a single numpy.ndarray with numpy.array() before converting to a tensor. (Triggered "
                  "internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:252.)")


def data_array(data, dtype):
    """numpy's array of nested Python data (dtype: the one asked for, or None), refused where torch's is."""
    global _warned_ndarray_items
    if not _warned_ndarray_items and _holds_ndarrays(data):
        _warned_ndarray_items = True
        warnings.warn(_NDARRAY_ITEMS, UserWarning, stacklevel=_user_stacklevel())
    shape = _data_shape(data)
    try:
        raw = np.array(data)
    except ValueError:
        _check_nesting(data, shape, dtype)
        raise
    if raw.dtype.kind in "US":  # (numpy made every number a string, or the data was bytes)
        raise TypeError(f"new(): invalid data type '{'bytes' if raw.dtype.kind == 'S' else 'str'}'")
    return raw


def _holds_ndarrays(data):
    """An ndarray among a sequence's items, or (down the first items) among its first item's: cheap on big data."""
    return isinstance(data, (list, tuple)) and len(data) > 0 and (
        any(isinstance(x, np.ndarray) for x in data) or _holds_ndarrays(data[0]))


def _user_stacklevel():
    """warnings.warn's stacklevel for the first frame outside minitorch2 (the user's call, whatever the path)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def checked_values(raw, dtype, data):
    """raw's values (numpy's array of `data`) as they go into dtype: refused or converted as torch's tensor() does."""
    if raw.dtype.kind == "c" and not dtype.is_complex:  # (torch's parser reads each element as a real number)
        raise TypeError("must be real number, not complex" if dtype.is_floating_point
                        else "'complex' object cannot be interpreted as an integer")
    if raw.dtype.kind == "f" and dtype.category < 2:  # (numpy reads [2**63, 1] as floats: each item is checked)
        _check_items(np.array(data, dtype=object).reshape(-1).tolist(), dtype)
    if raw.dtype.kind == "O" or raw.dtype == np.uint64:  # ints past int64, None, other objects
        raw = _object_values(raw, dtype)
    _check_range(raw, dtype)
    return raw


def _data_shape(data):
    """torch's compute_sizes: the length at each depth along the first elements. A str there would be a
    sequence without end (torch: too many dimensions); a 0-d array there has no length."""
    shape, item = [], data
    while isinstance(item, (list, tuple, str, np.ndarray)):
        if isinstance(item, np.ndarray) and not item.ndim:  # (torch takes any array for a sequence)
            if item is data:
                break
            raise TypeError("len() of unsized object")
        if isinstance(item, str):
            raise TypeError("new(): invalid data type 'str'") if item is data else ValueError(
                "too many dimensions 'str'")
        shape.append(len(item))
        if not shape[-1]:
            break
        item = item[0]
    return shape


def _is_sequence(x):
    return isinstance(x, (list, tuple)) or (isinstance(x, np.ndarray) and x.ndim > 0)


def _check_nesting(data, shape, dtype, dim=0):
    """torch's error for data that does not nest as its first elements do."""
    if dim == len(shape):
        if _is_sequence(data):
            name = type(data).__name__
            raise TypeError(f"must be real number, not {name}" if dtype is not None and dtype.is_floating_point
                            else f"'{name}' object cannot be interpreted as an integer")
        return
    if not _is_sequence(data):
        raise TypeError("not a sequence")
    if len(data) != shape[dim]:
        raise ValueError(f"expected sequence of length {shape[dim]} at dim {dim} (got {len(data)})")
    for item in data:
        _check_nesting(item, shape, dtype, dim + 1)


def _object_values(raw, dtype):
    """An object array's values, checked one by one: None and other objects are refused, an int must fit
    int64 unless it goes into a floating dtype (torch reads it as a double then) or bool (read as its truth)."""
    values = raw.reshape(-1).tolist()
    _check_items(values, dtype)
    kind = np.float64 if dtype.is_floating_point else np.bool_ if dtype.category == 0 else np.int64
    return np.array(values if kind is not np.bool_ else list(map(bool, values)), dtype=kind).reshape(raw.shape)


def _check_items(values, dtype):
    for value in values:
        if value is None or not isinstance(value, numbers.Real):
            raise RuntimeError(f"Could not infer dtype of {type(value).__name__}")
        if isinstance(value, np.floating) and dtype.category < 2:  # (a Python float is truncated; numpy's is not read)
            raise TypeError(f"'numpy.{type(value).__name__}' object cannot be interpreted as an integer")
        if isinstance(value, int) and dtype.category == 1 and not -2 ** 63 <= value < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")


def _check_range(raw, dtype):
    """c10's checked conversion of each value into an integer dtype: NaN, inf and values out of its range
    raise (an int may wrap into an unsigned type from as low as -max; a float may not)."""
    if dtype.category != 1 or raw.size == 0 or raw.dtype.kind == "b":
        return
    info = np.iinfo(dtype.np)
    lowest = -int(info.max) if raw.dtype.kind in "iu" and not dtype.is_signed else int(info.min)
    with np.errstate(invalid="ignore"):
        fits = (raw >= lowest) & (raw <= int(info.max))
    if not fits.all():
        raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")


def copy_as_aten(destination, values):
    """np.copyto converting as ATen's CPU kernels convert: numpy's C casts, but for float64 to uint8, which ATen
    truncates through int64 (2.**31 + 5 becomes 5, not 0), and bfloat16 both ways, which c10 converts through
    float32 (2**40 + 2**32 + 1 is a tie there: 2**40; -2.7 to uint8 is 254); NaN, inf and out-of-range floats without
    a word; complex into real: the real part, with torch's warning (numpy's would be a ComplexWarning)."""
    values = np.asarray(values)
    if values.dtype.kind == "c" and destination.dtype.kind != "c":
        warnings.warn("Casting complex values to real discards the imaginary part", UserWarning, stacklevel=2)
        values = values.real
    if _dtype.bfloat16.np in (values.dtype, destination.dtype):
        values = values.astype(np.float32)
    if values.dtype not in _dtype.NP_FLOATS:
        return np.copyto(destination, values, casting="unsafe")
    with np.errstate(invalid="ignore", over="ignore"):
        if values.dtype == np.float64 and destination.dtype == np.uint8:
            values = values.astype(np.int64)
        np.copyto(destination, values, casting="unsafe")
