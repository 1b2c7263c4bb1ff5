"""The op table's rows for complex numbers: the views between a complex tensor and its real parts, conjugation,
angle into the real dtype, sgn, and complex/polar from two real tensors.

Runtime layer, part of THE operator table (table.py appends these rows); coverage surface, as complex_ops.py, which
holds the kernels, meta functions and derivative formulas. torch.real/imag are no rows of their own: torch writes
them as view_as_real(self).select(-1, 0) (_functions_complex.py), so their grad_fn is a SelectBackward0.
"""
from . import complex_ops as cx, fft_ops as fft
from .table_row import CORE, POINTWISE, VIEW, op

# (torch tags view_as_real/view_as_complex with no "view": the tag here is what makes autograd and functionalization
# treat their outputs as views, as torch's alias annotations Tensor(a) do)
ROWS = [
    op("view_as_real(Tensor(a) self) -> Tensor(a)", VIEW, cx.view_as_real, cx.d_view_as_real),
    op("view_as_complex(Tensor(a) self) -> Tensor(a)", VIEW, cx.view_as_complex, cx.d_view_as_complex),
    # torch's _conj is a view carrying the conjugate bit; ours holds the conjugated values (complex_ops.py)
    op("_conj(Tensor(a) self) -> Tensor(a)", (), cx.conj, cx.d_conj, grad_fn="ConjBackward0"),
    op("conj_physical(Tensor self) -> Tensor", POINTWISE, cx.conj_physical, cx.d_conj_physical),
    op("angle(Tensor self) -> Tensor", POINTWISE, cx.angle, cx.d_angle),
    # sign's generalization to complex numbers: z / |z| (for real numbers it is sign)
    op("sgn(Tensor self) -> Tensor", POINTWISE, cx.sgn, cx.d_sgn, decomposition=cx.sgn_decomposition),
    op("complex(Tensor real, Tensor imag) -> Tensor", (), cx.complex_, cx.d_complex),
    op("polar(Tensor abs, Tensor angle) -> Tensor", (), cx.polar, cx.d_polar),
    # torch.fft's transforms (fft_ops.py; the functions over them in minitorch2/fft.py)
    op("_fft_c2c(Tensor self, SymInt[] dim, int normalization, bool forward) -> Tensor", (), fft.fft_c2c,
       fft.d_fft_c2c, grad_fn="FftC2CBackward0"),
    op("_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor", CORE, fft.fft_r2c,
       fft.d_fft_r2c, grad_fn="FftR2CBackward0"),
    op("_fft_c2r(Tensor self, int[] dim, int normalization, SymInt last_dim_size) -> Tensor", CORE, fft.fft_c2r,
       fft.d_fft_c2r, grad_fn="FftC2RBackward0"),
]
