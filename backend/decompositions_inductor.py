"""Decompositions torch's inductor applies on top of the core table that only shape its graphs (plays part of
torch._inductor.decomposition): a batched outer product as a broadcast multiply, one-row products on the CPU as
multiply and sum, roll as indexing, a cat of one tensor as a clone (repeated: an expand), and max pooling's low-memory
form (maxima with int8 offsets in their windows, indices made from them where read) with its backward a scatter_add,
rrelu's slopes drawn for every element by an eager `uniform`.
(torch's also turns index_select into indexing and index_add into an accumulating index_put, whose generated code
checks bounds with words of its own; minitorch2's compiled graphs raise eager's error for an index out of range, so
those two stay whole.)

Backend layer, used by compile_fx.select_decomp_table (the inductor backend's decomposition table; aot_eager has
none of these). Each returns NotImplemented where torch's keeps the op, so the op stays whole there. Sizes that are
symbolic are never assumed to be 1: torch's checks are statically_known_true, which a size symbol does not pass."""
import minitorch2
from minitorch2 import _dtype, ops
from minitorch2._aten.decompositions import inplace_by_copy
from minitorch2._aten.meta_util import wrap_dim
from minitorch2._tensor import channels_last, contiguous_format

aten, prims = ops.aten, ops.prims


def _is(size, value):
    return isinstance(size, int) and size == value


def bmm(self, batch2):
    """[B, M, 1] x [B, 1, N]: the broadcast multiply; on the CPU, [B, 1, K] x [B, K, 1]: multiply and sum.
    (Half inputs, which torch's computes in float32, keep the op.)"""
    if self.dtype.itemsize < 4:
        return NotImplemented
    if _is(self.shape[2], 1) and _is(batch2.shape[1], 1):
        outer = aten.mul.Tensor(self, batch2)
        return outer if outer.is_contiguous() else aten.clone.default(outer, memory_format=contiguous_format)
    if _is(self.shape[1], 1) and _is(batch2.shape[-1], 1):
        products = aten.mul.Tensor(aten.squeeze.dim(self, 1), aten.squeeze.dim(batch2, -1))
        return aten.unsqueeze.default(aten.sum.dim_IntList(products, [1], True), 1)
    return NotImplemented


def addmm(self, mat1, mat2, beta=1, alpha=1):
    """On the CPU, one row times a column, or times a matrix of at most 16 x 16 (a Linear layer on one sample), as
    multiply and sum, then `alpha * out + beta * self`. (Half inputs, which torch's computes in float32, keep the
    op.)"""
    if not _is(mat1.shape[0], 1) or self.dtype.itemsize < 4:
        return NotImplemented
    if _is(mat2.shape[-1], 1):
        out = _row_times_column(mat1, mat2)
    elif all(isinstance(n, int) and n <= 16 for n in mat2.shape):
        out = aten.sum.dim_IntList(aten.mul.Tensor(aten.permute.default(mat1, [1, 0]), mat2), [0], True)
    else:
        return NotImplemented
    return aten.add.Tensor(aten.mul.Tensor(out, alpha), aten.mul.Tensor(self, beta))


def _row_times_column(row, column):
    products = aten.mul.Tensor(aten.squeeze.dim(row, 0), aten.squeeze.dim(column, -1))
    return aten.unsqueeze.default(aten.sum.dim_IntList(products, [0], True), 0)


def mm(self, input2):
    """A small outer product (inner size 1, at most 32 elements in all) as a multiply; a row times a column as
    multiply and sum."""
    if (_is(self.shape[-1], 1) and not _is(self.shape[0], 1) and not _is(input2.shape[1], 1)
            and isinstance(self.shape[0], int) and self.shape[0] > 0 and _is(input2.shape[0], 1)
            and self.dtype is input2.dtype and self.numel() + input2.numel() <= 32):
        return aten.mul.Tensor(self, input2)
    return _row_times_column(self, input2) if _is(self.shape[0], 1) and _is(input2.shape[-1], 1) else NotImplemented


def roll(self, shifts, dims=()):
    """torch's decomposition (its refs'): each rolled dim gathered by indexing at (start + i) mod size, start the
    size less the shift, mod size; with no dims, the flat view rolled (a 1-d tensor is its own flat view)."""
    if len(shifts) != max(len(dims), 1):
        return NotImplemented
    if self.numel() == 0:
        return aten.clone.default(self)
    if not dims:
        flat = self if self.dim() == 1 else aten.view.default(self, [self.numel()])
        return aten.view.default(roll(flat, shifts, [0]), list(self.shape))
    if len(dims) > 1:
        return roll(roll(self, shifts[:1], dims[:1]), shifts[1:], dims[1:])
    dim = wrap_dim(dims[0], self.dim())
    size = self.shape[dim]
    start = (size - shifts[0]) % size
    positions = aten.arange.start_step(0, size, dtype=_dtype.int64, device=self.device, pin_memory=False)
    return aten.index.Tensor(self, [None] * dim + [aten.fmod.Scalar(aten.add.Tensor(positions, start), size)])


def cat(tensors, dim=0):
    """One tensor: its clone. The same tensor more than once and nothing else: unsqueeze, expand, flatten, clone.
    (torch's also drops legacy empty inputs first; those keep the op whole here.)"""
    first = tensors[0]
    if any(t is not first for t in tensors) or any(s == 0 for s in first.shape):
        return NotImplemented
    if len(tensors) == 1:
        return aten.clone.default(first)
    dim = wrap_dim(dim, first.dim())
    shape = [*first.shape]
    shape.insert(dim, len(tensors))
    expanded = aten.expand.default(aten.unsqueeze.default(first, dim), shape)
    flat = aten.view.default(aten.clone.default(expanded, memory_format=contiguous_format), _flattened(shape, dim))
    return aten.clone.default(flat)  # (flatten of the expand copies it: torch's reshape, then the clone)


def _flattened(shape, dim):
    return [*shape[:dim], shape[dim] * shape[dim + 1], *shape[dim + 2:]]


def max_pool2d_with_indices(x, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    """The maxima and their offsets in their windows (int8), then the offsets as indices (minitorch2/_aten/
    inductor_prims.py); a window of more than 25 elements keeps the op, as torch's."""
    kernel_size, padding, dilation = _pair(kernel_size), _pair(padding), _pair(dilation)
    stride = _pair(stride) if stride else kernel_size
    if kernel_size[0] * kernel_size[1] > 25:
        return NotImplemented
    values, offsets = prims._low_memory_max_pool_with_offsets.default(x, kernel_size, stride, padding, dilation,
                                                                       ceil_mode)
    indices = prims._low_memory_max_pool_offsets_to_indices.default(offsets, kernel_size, list(x.shape[-2:]), stride,
                                                                    padding, dilation)
    return values, indices


def max_pool2d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices):
    """Each output's gradient added at its maximum's input position: a scatter_add over flat planes, summed in float32
    for half gradients (torch's decomposition, which its inductor table takes; not under deterministic algorithms)."""
    if minitorch2.are_deterministic_algorithms_enabled() or not all(isinstance(n, int) for n in grad_output.shape):
        return NotImplemented  # (over symbolic sizes too: scatter_add's lowering would decide on them; torch's not)
    batched = self.dim() == 4
    if not batched:
        self, grad_output, indices = (aten.unsqueeze.default(t, 0) for t in (self, grad_output, indices))
    batch, channels, height, width = self.shape
    planes, outputs = batch * channels, grad_output.shape[-2] * grad_output.shape[-1]
    half = grad_output.dtype in (_dtype.float16, _dtype.bfloat16)
    grad_input = aten.zeros.default([planes, height * width], dtype=_dtype.float32 if half else grad_output.dtype,
                                    device=grad_output.device)
    grads = grad_output.reshape(planes, outputs)  # (torch's reshape: a view where it can be one)
    grads = aten._to_copy.default(grads, dtype=_dtype.float32) if half else grads
    grad_input = aten.scatter_add.default(grad_input, 1, indices.reshape(planes, outputs), grads)
    grad_input = grad_input.reshape(batch, channels, height, width)
    grad_input = aten._to_copy.default(grad_input, dtype=grad_output.dtype) if half else grad_input
    if self.dim() == 4 and not self.is_contiguous() and self.is_contiguous(memory_format=channels_last):
        grad_input = aten.clone.default(grad_input, memory_format=channels_last)
    return grad_input if batched else aten.squeeze.dim(grad_input, 0)


def _end_in_starts_layout(start, end):
    """torch's `end.contiguous(memory_format=suggest_memory_format(start))`: a channels-last start keeps its layout."""
    if start.dim() == 4 and not start.is_contiguous() and start.is_contiguous(memory_format=channels_last) and \
            not end.is_contiguous(memory_format=channels_last):
        return aten.clone.default(end, memory_format=channels_last)
    return end


def lerp_scalar(start, end, weight):
    """torch 2.13's: the difference added to start scaled by the weight, or, for a weight of 0.5 or more in size, to
    end scaled by -(1 - weight), that factor computed in double (eager's kernel computes 1 - weight in the tensor's
    precision, so the compiled values differ from eager's in the last bits, as torch's)."""
    end = _end_in_starts_layout(start, end)
    diff = aten.sub.Tensor(end, start)
    if weight >= 0.5 or weight <= -0.5:
        return aten.add.Tensor(end, diff, alpha=-(1.0 - weight))
    return aten.add.Tensor(start, diff, alpha=weight)


def lerp_tensor(start, end, weight):
    """torch 2.13's: the same two formulas chosen per element, as a multiply-add."""
    end = _end_in_starts_layout(start, end)
    diff = aten.sub.Tensor(end, start)
    from_end = aten.ge.Scalar(aten.abs.default(weight), 0.5)
    factor = aten.where.self(from_end, aten.neg.default(aten.rsub.Scalar(weight, 1.0)), weight)
    return aten.addcmul.default(aten.where.self(from_end, end, start), factor, diff, value=1)


def linspace(start, end, steps, *, dtype=None, layout=None, device=None, pin_memory=None):
    """torch's refs (its inductor table): from start in the first half and back from end in the second, so both
    ends are exact, positions from an integer arange scaled by (end - start) / (steps - 1) in the computation type
    (int64 for an integral dtype, float32 for a half one), then cast. Tensor or complex bounds keep the op."""
    dtype = dtype or minitorch2.get_default_dtype()
    if not all(isinstance(v, (int, float)) for v in (start, end)) or dtype.is_complex:
        return NotImplemented
    if steps < 2:
        return aten.full.default([steps], start if steps else 0, dtype=dtype, device=device, pin_memory=False)
    positions = aten.arange.start_step(0, steps, layout=layout, device=device, pin_memory=pin_memory)
    computation = dtype if dtype.is_floating_point else _dtype.int64
    computation = _dtype.float32 if computation.itemsize < 4 else computation

    def scaled(index):
        return aten.mul.Tensor(_converted(index, computation), (end - start) / (steps - 1))
    values = aten.where.self(aten.lt.Scalar(positions, steps / 2), aten.add.Tensor(scaled(positions), start),
                             aten.sub.Tensor(end, scaled(aten.sub.Tensor(steps - 1, positions))))
    return _converted(values, dtype)


def _converted(t, dtype):
    return t if t.dtype is dtype else prims.convert_element_type.default(t, dtype)


def _pair(value):
    return list(value) * (2 // len(value)) if isinstance(value, (list, tuple)) else [value, value]


def rrelu_with_noise_functional(self, noise, lower=0.125, upper=1 / 3, training=False, generator=None):
    """torch's: in training, slopes drawn for every element by the eager `uniform` (inductor leaves it on eager's
    stream) and used where self <= 0; in eval, leaky_relu with their mean and an empty noise."""
    if not training:
        return aten.leaky_relu.default(self, (lower + upper) / 2), aten.empty.memory_format([0], dtype=self.dtype)
    not_positive = aten.le.Scalar(self, 0)
    slopes = aten.uniform.default(self, lower, upper, generator=generator)
    one = aten.scalar_tensor.default(1, dtype=self.dtype)
    return (aten.where.self(not_positive, aten.mul.Tensor(self, slopes), self),
            aten.where.self(not_positive, slopes, one))


DECOMPOSITIONS = {aten.bmm.default: bmm, aten.mm.default: mm, aten.addmm.default: addmm, aten.roll.default: roll, aten.cat.default: cat,
                  aten.max_pool2d_with_indices.default: max_pool2d_with_indices,
                  aten.max_pool2d_with_indices_backward.default: max_pool2d_with_indices_backward,
                  aten.lerp.Scalar: lerp_scalar, aten.lerp.Tensor: lerp_tensor,
                  aten.lerp_.Scalar: inplace_by_copy(lerp_scalar), aten.lerp_.Tensor: inplace_by_copy(lerp_tensor),
                  aten.linspace.default: linspace,
                  aten.rrelu_with_noise_functional.default: rrelu_with_noise_functional}
