"""einsum over random equations against torch: up to three operands of up to three labels from four, repeated labels
(diagonals), an ellipsis anywhere covering zero to two dims, size-1 dims that broadcast, sizes of 0, implicit and
explicit outputs. Values (or the error's class and words) and gradients, as torch's. (A repeated label before an
ellipsis used to misplace the ellipsis' dims.)"""
import numpy as np
import torch
from hypothesis import HealthCheck, given, settings, strategies as st

import minitorch2


@st.composite
def equations(draw):
    sizes = {label: draw(st.sampled_from([0, 1, 2, 3])) for label in "abcd"}
    texts, shapes = [], []
    for _ in range(draw(st.integers(1, 3))):
        labels = draw(st.text("abcd", max_size=3))
        shape = [sizes[label] for label in labels]
        if draw(st.booleans()):
            at = draw(st.integers(0, len(labels)))
            covered = [draw(st.sampled_from([1, 2]))] * draw(st.integers(0, 2))
            labels, shape = labels[:at] + "..." + labels[at:], shape[:at] + covered + shape[at:]
        if shape and draw(st.integers(0, 9)) == 0:  # a size-1 dim that broadcasts against the label's size
            shape[draw(st.integers(0, len(shape) - 1))] = 1
        texts.append(labels)
        shapes.append(shape)
    equation = ",".join(texts)
    if draw(st.booleans()):
        used = sorted(set("".join(texts)) - {"."})
        output = "".join(draw(st.permutations(used))[:draw(st.integers(0, len(used)))])
        if "..." in equation and draw(st.booleans()):
            output = draw(st.sampled_from(["...", ""])) + output + draw(st.sampled_from(["", "..."]))
        equation += "->" + output
    return equation, shapes


def outcome(lib, equation, arrays):
    operands = [lib.tensor(array, requires_grad=True) for array in arrays]
    try:
        result = lib.einsum(equation, *operands)
    except RuntimeError as error:
        return "RuntimeError", str(error).splitlines()[0]
    result.sum().backward() if result.numel() else None
    return result.detach().numpy(), [op.grad.numpy() if op.grad is not None else None for op in operands]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(equations())
def test_random_equations_compute_and_differentiate_as_torch(case):
    equation, shapes = case
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    theirs, ours = outcome(torch, equation, arrays), outcome(minitorch2, equation, arrays)
    if isinstance(theirs[0], str) or isinstance(ours[0], str):
        assert ours == theirs
        return
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5, atol=1e-5)
    for our_grad, their_grad in zip(ours[1], theirs[1]):
        assert (our_grad is None) == (their_grad is None)
        if our_grad is not None:
            np.testing.assert_allclose(our_grad, their_grad, rtol=1e-5, atol=1e-5)
