"""What third-party programs (nanoGPT, minGPT, makemore, micrograd, pytorch/examples, seed 004's Triton softmax)
showed differing from torch when run under `python -m minitorch2 run` (issue 20), each compared with torch: the
node names of the in-place view methods and of matmul's vector-matrix product, the out-of-bounds index message,
a user's Triton kernel launched on our tensors (Tensor.set_ and the storage's cpu and copy_ its interpreter calls)."""
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


# ---- a user's Triton kernel launched on our tensors (seed 004's softmax), run by Triton's interpreter


def test_a_triton_kernel_inside_an_autograd_function_accepts_our_tensors():
    seed = pytest.importorskip("tests.minitorch2.triton_softmax_kernel")
    if not seed.INTERPRETED:
        pytest.skip("our tensors live in host memory: a GPU kernel cannot read them")

    def run(lib):
        class TritonSoftmax(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                output = lib.empty_like(x)
                seed.softmax_kernel[(x.shape[0],)](x, output, x.shape[0], x.shape[1],
                                                   BLOCK_SIZE=seed.triton.next_power_of_2(x.shape[1]))
                ctx.save_for_backward(output)
                return output

            @staticmethod
            def backward(ctx, grad):
                output, = ctx.saved_tensors
                return output * (grad - (grad * output).sum(dim=-1, keepdim=True))

        x = lib.tensor(np.linspace(-2, 3, 30, dtype=np.float32).reshape(3, 10), requires_grad=True)
        y = TritonSoftmax.apply(x)
        (y * lib.arange(10.0)).sum().backward()
        return y.detach().numpy(), x.grad.numpy()

    for ours, theirs in zip(run(minitorch2), run(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-7)


def test_set_takes_over_a_storage_window_or_a_tensor_as_torch():
    def run(lib):
        a = lib.arange(12.0).reshape(3, 4)
        window = lib.empty(0).set_(a.untyped_storage(), 2, (2, 3), (4, 1))
        window[0, 0] = -1
        whole = lib.zeros(2).set_(a.t())
        storage = lib.zeros(12).untyped_storage()
        storage.copy_(a.untyped_storage().cpu())
        return (window.tolist(), window.stride(), window.storage_offset(), window.data_ptr() - a.data_ptr(),
                a[0].tolist(), tuple(whole.shape), whole.stride(), tuple(lib.ones(3).set_().shape),
                tuple(lib.empty(0).set_(a.untyped_storage()).shape), lib.empty(0).set_(storage, 0, (4,), (1,)).tolist())

    assert run(minitorch2) == run(torch)


# ---- a saved tensor modified in place: torch names its producer without "Backward0", and its hint depends on
# anomaly mode (fast_neural_style's normalize_batch divides a saved output in place)


@pytest.mark.parametrize("anomaly", [False, True])
@pytest.mark.parametrize("case", ["input of mul", "output of exp", "output of sigmoid", "twice in place", "no history",
                                  "view"])
def test_a_saved_tensor_modified_in_place_is_refused_with_torchs_message(case, anomaly):
    def message(lib):
        a = lib.ones(3, requires_grad=True)
        if case == "input of mul":
            b = a * 2
            loss = (b * b).sum()
            b.add_(1)
        elif case == "output of exp":
            b = a.exp()
            loss = b.sum()
            b.div_(2)
        elif case == "output of sigmoid":
            b = a.sigmoid()
            loss = b.sum()
            b.mul_(2)
        elif case == "twice in place":
            b = a * 2
            loss = (b * b).sum()
            b.pow_(2).relu_()
        elif case == "no history":
            b = lib.ones(3)
            loss = (a * b).sum()
            b.add_(1)
        else:
            b = a * 2
            loss = (b * b).sum()
            b[:2].add_(1)
        with lib.autograd.set_detect_anomaly(anomaly), pytest.raises(RuntimeError) as caught:
            loss.backward()
        return str(caught.value)

    assert message(minitorch2) == message(torch)


@pytest.mark.parametrize("view", ["split(2)[1]", "chunk(2)[1][:1]", "unbind(0)[3]"])
def test_in_place_writes_into_a_multi_output_views_outputs_are_refused_as_torch(view):
    messages = []
    for lib in (minitorch2, torch):
        a = lib.ones(4, requires_grad=True)
        with pytest.raises(RuntimeError) as raised:
            eval(f"(a * 2).{view}").add_(1)
        messages.append(str(raised.value))
        with lib.no_grad():
            eval(f"(a * 2).{view}").add_(1)  # (allowed without grad, as in torch)
    assert messages[0] == messages[1]
