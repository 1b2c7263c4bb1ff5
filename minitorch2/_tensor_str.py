"""`repr(tensor)` in PyTorch's format.

Runtime layer, coverage surface (no stage of the pipeline prints tensors). Reproduces torch/_tensor_str.py's
choices: 4 decimals, integer floats printed as `1.`, scientific notation when the magnitudes span more than 1000x
(or exceed 1e8, or go below 1e-4) unless set_printoptions forces it on or off, one common width per tensor, rows wrapped at 80 columns, `...` summaries beyond
1000 elements, complex values as a real and an imaginary part each with its own formatter, and the `dtype=`,
`requires_grad=True`, `grad_fn=<...>` suffixes.
"""
import math

import numpy as np

from . import _dtype

PRECISION = 4
THRESHOLD = 1000
EDGEITEMS = 3
LINEWIDTH = 80
SCI_MODE = None  # None: chosen per tensor; True/False: forced (set_printoptions(sci_mode=...))


class _Formatter:
    """One width for all elements; floats print as integers (`1.`), fixed or scientific, chosen by their spread."""

    def __init__(self, values, dtype):
        self.spec = None  # None: str(v) (integers, bools, nan, inf)
        shown = values.reshape(-1)
        if dtype.is_floating_point:
            as_double = shown.astype(np.float64)
            # as in torch, the choice and the width come from the nonzero finite values (-0., nan, inf may stick out)
            shown = as_double[np.isfinite(as_double) & (as_double != 0)]
            self.spec = "{:.0f}."
            if shown.size:
                magnitudes = np.abs(shown)
                lo, hi = float(magnitudes.min()), float(magnitudes.max())
                int_mode = bool(np.all(shown == np.ceil(shown)))
                if hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4 if SCI_MODE is None else SCI_MODE:
                    self.spec = f"{{:.{PRECISION}e}}"
                elif not int_mode:
                    self.spec = f"{{:.{PRECISION}f}}"
        self.width = max((len(self._str(v)) for v in shown.tolist()), default=1)

    def _str(self, v):
        return str(v) if self.spec is None or not math.isfinite(v) else self.spec.format(v)

    def format(self, v):
        return self._str(v).rjust(self.width)


class _ComplexFormatter:
    """torch's two formatters for a complex tensor: one for the real parts, one for the imaginary parts (`1.+2.j`)."""

    def __init__(self, values, dtype):
        part = _dtype.from_numpy(values.real.dtype)
        self.real, self.imag = _Formatter(values.real, part), _Formatter(values.imag, part)
        self.width = self.real.width + self.imag.width + 1

    def format(self, v):
        imag = (self.imag.format(v.imag) + "j").lstrip()
        return self.real.format(v.real) + ("" if imag[0] in "+-" else "+") + imag


def _summarized(values):
    """The values that will be printed: only the edges of every dim longer than 2 * EDGEITEMS."""
    if values.ndim == 0:
        return values.reshape(1)
    if values.shape[0] > 2 * EDGEITEMS:
        values = np.concatenate([values[:EDGEITEMS], values[-EDGEITEMS:]])
    return values if values.ndim == 1 else np.concatenate([_summarized(row) for row in values])


def _edges(items, summarize, show, ellipsis):
    """show(item) for every item, or, when summarizing, for the first and last EDGEITEMS around an ellipsis."""
    if summarize and len(items) > 2 * EDGEITEMS:
        return [show(x) for x in items[:EDGEITEMS]] + [ellipsis] + [show(x) for x in items[-EDGEITEMS:]]
    return [show(x) for x in items]


def _tensor_str(values, indent, formatter, summarize):
    if values.ndim == 0:
        return formatter.format(values.item())
    if values.ndim == 1:
        per_line = max(int(math.floor((LINEWIDTH - indent) / (formatter.width + 2))), 1)
        strs = _edges(values.tolist(), summarize, formatter.format, " ...")
        lines = [", ".join(strs[i:i + per_line]) for i in range(0, len(strs), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    slices = _edges(values, summarize, lambda row: _tensor_str(row, indent + 1, formatter, summarize), "...")
    return "[" + ("," + "\n" * (values.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def tensor_repr(t, prefix="tensor("):
    suffixes = []
    if t._np is None:
        body = "..."
        suffixes.append(f"size={tuple(t.shape)}")
    elif t.numel() == 0:
        body = "[]"
        if tuple(t.shape) != (0,):
            suffixes.append(f"size={tuple(t.shape)}")
    else:
        summarize = t.numel() > THRESHOLD
        formatter = (_ComplexFormatter if t.dtype.is_complex else _Formatter)(
            _summarized(t._np) if summarize else t._np, t.dtype)
        body = _tensor_str(t._np, len(prefix), formatter, summarize)
    default_float = _dtype.get_default_dtype()
    defaults = (default_float, _dtype.COMPLEX_OF.get(default_float), _dtype.int64, _dtype.bool_)
    if t.dtype not in defaults or (t.numel() == 0 and t.dtype is not default_float):
        suffixes.append(f"dtype={t.dtype}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name().rsplit('::', 1)[-1]}>")  # torch prints the class name
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _with_suffixes(prefix + body, suffixes, len(prefix))


def _with_suffixes(text, suffixes, indent):
    """torch's _add_suffixes: each suffix after ", ", or on its own indented line where it would pass the line width
    (a float64 matrix's `dtype=torch.float64,` then `grad_fn=<...>` below it)."""
    last_line = len(text) - text.rfind("\n") + 1  # (torch's count: one more than the last line's length)
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > LINEWIDTH:
            text += ",\n" + " " * indent + suffix
            last_line = indent + len(suffix)
        else:
            text += ", " + suffix
            last_line += len(suffix) + 2
    return text + ")"
