"""What third-party programs (nanoGPT, minGPT, makemore, micrograd, pytorch/examples, seed 004's Triton softmax)
showed differing from torch when run under `python -m minitorch2 run` (issue 20), each compared with torch: the
node names of the in-place view methods and of matmul's vector-matrix product, the out-of-bounds index message."""
import numpy as np
import pytest
import torch

import minitorch2

LIBS = (torch, minitorch2)
W = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)


# ---- node names: torch's in-place view methods have nodes of their own (SqueezeBackward3/4/5, TBackward1, ...)


@pytest.mark.parametrize("shape, method, args", [
    ((1, 3, 1), "squeeze_", ()), ((1, 3, 1), "squeeze_", (0,)), ((1, 3, 1), "squeeze_", ((0, 2),)),
    ((3,), "unsqueeze_", (1,)), ((2, 3), "t_", ()), ((2, 3, 1), "transpose_", (0, 2)),
])
def test_in_place_view_methods_name_their_nodes_as_torch(shape, method, args):
    def run(lib):
        leaf = lib.tensor(np.arange(np.prod(shape), dtype=np.float32).reshape(shape), requires_grad=True)
        x = leaf * 2
        getattr(x, method)(*args)
        (x * lib.arange(float(x.numel())).reshape(x.shape)).sum().backward()
        return type(x.grad_fn).__name__, x.grad_fn.name(), tuple(x.shape), x.stride(), leaf.grad.numpy().tolist()

    assert run(minitorch2) == run(torch)


def test_matmul_of_a_vector_and_a_matrix_squeezes_in_place_as_eager_torch():
    def run(lib):
        v, m = lib.tensor([1.0, -2.0, 0.5], requires_grad=True), lib.tensor(W, requires_grad=True)
        out = lib.matmul(v, m)
        (out * lib.arange(4.0)).sum().backward()
        return (type(out.grad_fn).__name__, out.grad_fn.next_functions[0][0].name(), out._is_view(), out.stride(),
                *(np.round(t.detach().numpy(), 5).tolist() for t in (out, v.grad, m.grad)))

    assert run(minitorch2) == run(torch)


def test_matmul_of_a_vector_and_a_matrix_compiles_to_torchs_values():
    v, m = np.array([1.0, -2.0, 0.5], np.float32), W
    ours = minitorch2.compile(lambda a, b: (a @ b).sin(), backend="aot_eager")(minitorch2.tensor(v), minitorch2.tensor(m))
    np.testing.assert_allclose(ours.numpy(), np.sin(v @ m), rtol=1e-6)


# ---- the out-of-bounds index an error names is the first one met, as torch's (not the largest)


@pytest.mark.parametrize("index", [[7, 9, 2], [1, 12, 9], [-9, 3], [[0, 5], [9, 1]]])
def test_out_of_bounds_index_message_names_the_first_bad_index(index):
    def message(lib):
        with pytest.raises(IndexError) as caught:
            lib.arange(5.0)[lib.tensor(index)]
        return str(caught.value)

    assert message(minitorch2) == message(torch)


def test_out_of_bounds_index_of_a_transposed_index_tensor_follows_memory_order():
    def message(lib):
        with pytest.raises(IndexError) as caught:
            lib.arange(3.0)[lib.tensor([[0, 5], [9, 1]]).t()]
        return str(caught.value)

    assert message(minitorch2) == message(torch)
