"""torch.einsum: Einstein summation, composed of the ops torch's einsum calls, in its order.

Runtime layer, coverage surface (a torch-level function no stage of the compiler needs; its traced graphs are
torch's because it is made of the same permutes, diagonals, sums, views and bmms). The plan, as ATen's:

    1. parse the equation (or the sublist form) into labels per operand and for the output;
    2. give every label a position: the output's labels first (in the output's order, an ellipsis where it stands),
       then the contracted labels in label order (A-Z, then a-z); take diagonals of repeated labels, unsqueeze the
       labels an operand lacks and permute, so every operand has every position;
    3. contract left to right: a pair is multiplied and summed over the contracted positions no later operand has
       by `_sum_product` (permute, reshape to three dims, bmm, view back); positions that only one operand of the
       pair has a size for are summed first. The contracted positions, size 1 by then, are viewed away at the end.
"""
import string

from ._functions_shape import reshape
from ._ops import ops
from ._tensor import Tensor

aten = ops.aten
ELLIPSIS = "..."


def _label_index(label):
    """ATen's subscript number: A-Z are 0-25, a-z 26-51 (the order contracted labels take)."""
    return (string.ascii_letters.index(label) + 26) % 52


def _parse_operand(text, position, start):
    """The labels of one operand's subscripts (position None: the output's), which begin at `start` in the equation."""
    labels, i, who = [], 0, "output" if position is None else f"operand {position}"
    while i < len(text):
        if text[i] == " ":
            i += 1
        elif text[i] == ".":
            if ELLIPSIS in labels:
                raise RuntimeError(f"einsum(): found '.' for {who} " + ("but an ellipsis (...) was already found"
                                   if position is None else "for which an ellipsis was already found"))
            if text[i:i + 3] != ELLIPSIS:
                raise RuntimeError(f"einsum(): found '.' for {who} that is not part of any ellipsis"
                                   + (" (...)" if position is None else ""))
            labels.append(ELLIPSIS)
            i += 3
        elif text[i].isalpha() and text[i].isascii():
            labels.append(text[i])
            i += 1
        else:
            raise RuntimeError(f"einsum(): invalid subscript given at index {start + i} in the equation string, "
                               "subscripts must be in [a-zA-Z]")
    return labels


def _sublist_equation(args):
    """einsum(op1, [0, 1], op2, [1, 2], [0, 2]) as an equation and its operands (torch.functional's conversion)."""
    def letters(sublist):
        return "".join(ELLIPSIS if s is Ellipsis else string.ascii_uppercase[s] if s < 26
                       else string.ascii_lowercase[s - 26] for s in sublist)

    operands, inputs = list(args[0::2][:len(args) // 2]), [letters(s) for s in args[1::2][:len(args) // 2]]
    equation = ",".join(inputs)
    if len(args) % 2:
        equation += "->" + letters(args[-1])
    return equation, operands


def einsum(*args):
    if not args:
        raise TypeError("einsum(): must specify the equation string and at least one operand, or at least one "
                        "operand and its subscripts list")
    if isinstance(args[0], Tensor):
        equation, operands = _sublist_equation(args)
    else:
        equation, operands = args[0], list(args[1:])
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = list(operands[0])
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    lhs, arrow, rhs = equation.partition("->")
    texts = lhs.split(",")
    if len(texts) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    if len(texts) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    starts = [sum(len(text) + 1 for text in texts[:i]) for i in range(len(texts))]
    op_labels = [_parse_operand(text, i, start) for i, (text, start) in enumerate(zip(texts, starts))]
    return _contract(operands, op_labels, _parse_operand(rhs, None, len(lhs) + 2) if arrow else None)


def _positions(operands, op_labels, out_labels):
    """Each label's position in the aligned operands, the ellipsis' first position and width, the output's width."""
    counts = {}
    ell_width = 0
    for i, (op, labels) in enumerate(zip(operands, op_labels)):
        named = [label for label in labels if label != ELLIPSIS]
        for label in named:
            counts[label] = counts.get(label, 0) + 1
        if ELLIPSIS in labels:
            ell_width = max(ell_width, op.dim() - len(named))
        if (len(named) > op.dim()) if ELLIPSIS in labels else (len(named) != op.dim()):
            relation = "is more than" if ELLIPSIS in labels else "does not match"
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(named)}) {relation} the "
                               f"number of dimensions ({op.dim()}) for operand {i}"
                               + ("" if ELLIPSIS in labels else " and no ellipsis was given"))
    position, ell_start, ell_in_output = {}, 0, out_labels is None or ELLIPSIS in out_labels
    if out_labels is None:  # implicit: the ellipsis, then the labels seen once, in label order
        for label in sorted(counts, key=_label_index):
            if counts[label] == 1:
                position[label] = ell_width + len(position)
        out_width = ell_width + len(position)
    else:
        next_position = 0
        for label in out_labels:
            if label == ELLIPSIS:
                ell_start, next_position = next_position, next_position + ell_width
                continue
            if label not in counts or label in position:
                problem = "appears more than once in the output" if label in position else \
                    "does not appear in the equation for any input operand"
                raise RuntimeError(f"einsum(): output subscript {label} {problem}")
            position[label] = next_position
            next_position += 1
        out_width = next_position
    total = out_width
    if not ell_in_output:
        ell_start, total = total, total + ell_width
    for label in sorted(counts, key=_label_index):
        if label not in position:
            position[label] = total
            total += 1
    return position, ell_start, ell_width, out_width, total


def _aligned(op, index, labels, position, ell_start, ell_width, total, dim_counts, sizes):
    """op with a dimension for every position, in position order (diagonals for repeated labels). dim_counts counts
    the operands with a size other than 1 at each position; sizes holds the size seen there (broadcast checked)."""
    permutation = [-1] * total
    dim, covered = 0, op.dim() - (len(labels) - 1)  # (the dims the ellipsis covers, counted before any diagonal)
    for label in labels:
        if label == ELLIPSIS:
            for j in range(ell_width - covered, ell_width):
                if op.shape[dim] != 1:
                    if sizes.get(ell_start + j, 1) not in (1, op.shape[dim]):
                        raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand {index}has size "
                                           f"{op.shape[dim]} which does not broadcast with previously seen ellipsis "
                                           f"with size {sizes[ell_start + j]} for the respective dimension")
                    sizes[ell_start + j] = op.shape[dim]
                    dim_counts[ell_start + j] += 1
                permutation[ell_start + j] = dim
                dim += 1
        elif permutation[position[label]] == -1:
            if op.shape[dim] != 1:
                if sizes.get(position[label], 1) not in (1, op.shape[dim]):
                    raise RuntimeError(f"einsum(): subscript {label} has size {op.shape[dim]} for operand {index} "
                                       f"which does not broadcast with previously seen size {sizes[position[label]]}")
                sizes[position[label]] = op.shape[dim]
                dim_counts[position[label]] += 1
            permutation[position[label]] = dim
            dim += 1
        else:  # a repeated label: its diagonal, moved to where the label first stood
            previous = permutation[position[label]]
            if op.shape[dim] != op.shape[previous]:
                raise RuntimeError(f"einsum(): subscript {label} is repeated for operand {index} but the sizes don't "
                                   f"match, {op.shape[dim]} != {op.shape[previous]}")
            op = aten.diagonal.default(op, 0, previous, dim)
            order = list(range(op.dim() - 1))
            order.insert(previous, op.dim() - 1)
            op = aten.permute.default(op, order)
    for p in range(total):
        if permutation[p] == -1:
            op = aten.unsqueeze.default(op, dim)
            permutation[p] = dim
            dim += 1
    return aten.permute.default(op, permutation)


def _contract(operands, op_labels, out_labels):
    position, ell_start, ell_width, out_width, total = _positions(operands, op_labels, out_labels)
    dim_counts, sizes = [0] * total, {}
    ops_ = [_aligned(op, i, labels, position, ell_start, ell_width, total, dim_counts, sizes)
            for i, (op, labels) in enumerate(zip(operands, op_labels))]
    while len(ops_) > 1:
        a, b = ops_.pop(0), ops_.pop(0)
        sum_dims, a_only, b_only = [], [], []
        for dim in range(out_width, total):
            sized_a, sized_b = a.shape[dim] != 1, b.shape[dim] != 1
            if sized_a and sized_b:
                dim_counts[dim] -= 1
                if dim_counts[dim] == 1:
                    sum_dims.append(dim)
                    dim_counts[dim] = 0
            elif dim_counts[dim] == 1 and (sized_a or sized_b):
                (a_only if sized_a else b_only).append(dim)
                dim_counts[dim] = 0
        if a_only:
            a = aten.sum.dim_IntList(a, a_only, True)
        if b_only:
            b = aten.sum.dim_IntList(b, b_only, True)
        ops_.insert(0, _sum_product(a, b, sum_dims))
    result = ops_[0]
    if total == out_width:
        return result
    if len(operands) > 1:
        return aten.view.default(result, list(result.shape)[:out_width])
    return aten.sum.dim_IntList(result, list(range(out_width, total)))


def _sum_product(left, right, sum_dims):
    """(left * right) summed over sum_dims, kept as size 1, by one bmm: both operands permuted and reshaped to
    (batch, rows, inner) and (batch, inner, columns), the product viewed and permuted back."""
    if not sum_dims:
        return aten.mul.Tensor(left, right)
    both, left_only, right_only = [], [], []
    for i in range(left.dim()):
        sized_left, sized_right = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sized_left and not sized_right:
                left = aten.sum.dim_IntList(left, [i], True)
            elif sized_right and not sized_left:
                right = aten.sum.dim_IntList(right, [i], True)
        elif sized_left and sized_right:
            both.append(i)
        elif sized_left:
            left_only.append(i)
        else:
            right_only.append(i)
    if left_only and right_only and right_only[-1] < left_only[0]:  # swapped, bmm writes the output's order
        left, right, left_only, right_only = right, left, right_only, left_only
    size = _sizes_product
    inner = size(left, sum_dims)  # (a summed dim is 1 in both by now, or the same size in both)
    out_size = ([left.shape[d] for d in both] + [left.shape[d] for d in left_only] + [1] * len(sum_dims)
                + [right.shape[d] for d in right_only])
    left = reshape(aten.permute.default(left, both + left_only + sum_dims + right_only),
                   [size(left, both), size(left, left_only), inner])
    right = reshape(aten.permute.default(right, both + sum_dims + right_only + left_only),
                    [size(right, both), inner, size(right, right_only)])
    order = both + left_only + sum_dims + right_only
    inverse = [order.index(d) for d in range(len(order))]
    return aten.permute.default(aten.view.default(aten.bmm.default(left, right), out_size), inverse)


def _sizes_product(t, dims):
    result = 1
    for d in dims:
        result *= t.shape[d]
    return result
