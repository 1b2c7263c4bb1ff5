"""`repr(tensor)` in PyTorch's format.

Runtime layer. Reproduces torch/_tensor_str.py's choices: 4 decimals, integer
floats printed as `1.`, scientific notation when the magnitudes span more than
1000x (or exceed 1e8, or go below 1e-4), one common width per tensor, rows
wrapped at 80 columns, `...` summaries beyond 1000 elements, and the
`dtype=`, `requires_grad=True`, `grad_fn=<...>` suffixes.
"""
import math

import numpy as np

from . import _dtype

PRECISION = 4
THRESHOLD = 1000
EDGEITEMS = 3
LINEWIDTH = 80


class _Formatter:
    def __init__(self, values, dtype):
        self.floating = dtype.is_floating_point
        self.sci_mode = False
        self.int_mode = True
        self.width = 1
        flat = values.reshape(-1)
        if not self.floating:
            strs = [self._int_str(v) for v in flat.tolist()]
            self.width = max((len(s) for s in strs), default=1)
            return
        as_double = flat.astype(np.float64)
        finite = as_double[np.isfinite(as_double)]
        nonzero = np.abs(finite[finite != 0])
        if nonzero.size == 0:
            return
        # as in torch, widths come from the nonzero finite values only (-0., nan, inf may stick out)
        values = finite[finite != 0]
        self.int_mode = bool(np.all(values == np.ceil(values)))
        lo, hi = float(nonzero.min()), float(nonzero.max())
        if self.int_mode:
            if hi / lo > 1000.0 or hi > 1.0e8:
                self.sci_mode = True
                self.width = max(self.width, max(len(f"{v:.{PRECISION}e}") for v in values.tolist()))
            else:
                self.width = max(self.width, max(len(f"{v:.0f}") + 1 for v in values.tolist()))
        else:
            if hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4:
                self.sci_mode = True
                self.width = max(self.width, max(len(f"{v:.{PRECISION}e}") for v in values.tolist()))
            else:
                self.width = max(self.width, max(len(f"{v:.{PRECISION}f}") for v in values.tolist()))

    @staticmethod
    def _int_str(v):
        return str(v)

    def format(self, v):
        if not self.floating:
            return str(v).rjust(self.width)
        if not math.isfinite(v):
            return _nonfinite(str(v)).rjust(self.width)
        if self.sci_mode:
            s = f"{v:.{PRECISION}e}"
        elif self.int_mode:
            s = f"{v:.0f}."
        else:
            s = f"{v:.{PRECISION}f}"
        return s.rjust(self.width)


def _nonfinite(s):
    return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(s, s)


def _summarized(values):
    """The values that will be printed (edges only when summarizing)."""
    if values.ndim == 0:
        return values.reshape(1)
    if values.shape[0] > 2 * EDGEITEMS:
        parts = [values[:EDGEITEMS], values[-EDGEITEMS:]]
    else:
        parts = [values]
    return np.concatenate([_summarized(p[i]).reshape(-1) for p in parts for i in range(p.shape[0])]) if values.ndim > 1 \
        else np.concatenate([p.reshape(-1) for p in parts])


def _vector_str(values, indent, formatter, summarize):
    element_length = formatter.width + 2
    per_line = max(int(math.floor((LINEWIDTH - indent) / element_length)), 1)
    items = values.tolist()
    if summarize and len(items) > 2 * EDGEITEMS:
        strs = [formatter.format(v) for v in items[:EDGEITEMS]] + [" ..."] + [formatter.format(v) for v in items[-EDGEITEMS:]]
    else:
        strs = [formatter.format(v) for v in items]
    lines = [", ".join(strs[i:i + per_line]) for i in range(0, len(strs), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str(values, indent, formatter, summarize):
    dim = values.ndim
    if dim == 0:
        return formatter.format(values.item())
    if dim == 1:
        return _vector_str(values, indent, formatter, summarize)
    if summarize and values.shape[0] > 2 * EDGEITEMS:
        slices = ([_tensor_str(values[i], indent + 1, formatter, summarize) for i in range(EDGEITEMS)] + ["..."] +
                  [_tensor_str(values[i], indent + 1, formatter, summarize) for i in range(len(values) - EDGEITEMS, len(values))])
    else:
        slices = [_tensor_str(values[i], indent + 1, formatter, summarize) for i in range(values.shape[0])]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def tensor_repr(t, prefix="tensor("):
    suffixes = []
    if t._np is None:
        body = "..."
        suffixes.append(f"size={tuple(t.shape)}")
    else:
        values = t._np
        if t.numel() == 0:
            body = "[]"
            if tuple(t.shape) != (0,):
                suffixes.append(f"size={tuple(t.shape)}")
        else:
            summarize = t.numel() > THRESHOLD
            formatter = _Formatter(_summarized(values) if summarize else values, t.dtype)
            body = _tensor_str(values, len(prefix), formatter, summarize)
    default_float = _dtype.get_default_dtype()
    show_dtype = t.dtype not in (default_float, _dtype.int64, _dtype.bool_) or (t.numel() == 0 and t.dtype is not default_float)
    if show_dtype:
        suffixes.append(f"dtype={t.dtype}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name().rsplit('::', 1)[-1]}>")  # torch prints the class name
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    text = prefix + body
    for s in suffixes:
        text += ", " + s
    return text + ")"
