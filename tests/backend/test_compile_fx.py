"""End to end: `minitorch2.compile(..., backend="inductor")` runs programs through the backend and gives
eager's values and gradients; the debug folder and log artifacts show each stage.

Every test checks that compilation really happened (graphs compiled, kernels
generated, no fallback where none is expected) so a silent fallback to eager
cannot pass. Both code generators run the end-to-end training step.
"""
import os

import numpy as np
import pytest

import backend
import frontend
import minitorch2
import minitorch2.nn as nn
from backend.compile_fx import compile_fx
from tests.backend.codegens import codegen_fixture

codegen = codegen_fixture()


def make_mlp():
    minitorch2.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.GELU(), nn.LayerNorm(32),
                         nn.Linear(32, 4))


def test_mlp_training_step_matches_eager(codegen):
    check_mlp_training_step()


def check_mlp_training_step():
    """Two SGD steps of make_mlp() compiled with minitorch2.compile against the same model run eagerly."""
    model, reference = make_mlp(), make_mlp()
    x, y = minitorch2.randn(16, 8), minitorch2.randint(0, 4, (16,))
    loss_fn = nn.CrossEntropyLoss()
    compiled = minitorch2.compile(model, backend="inductor")
    optimizers = [minitorch2.optim.SGD(m.parameters(), lr=0.1) for m in (model, reference)]
    for _ in range(2):
        for opt in optimizers:
            opt.zero_grad()
        loss = loss_fn(compiled(x), y)
        loss.backward()
        expected = loss_fn(reference(x), y)
        expected.backward()
        np.testing.assert_allclose(loss.item(), expected.item(), rtol=1e-5)
        for (name, p), q in zip(model.named_parameters(), reference.parameters()):
            np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)
        for opt in optimizers:
            opt.step()
    kinds = [g.name.split("_")[0] for g in backend.metrics.graphs]
    assert kinds == ["forward", "backward"], kinds  # compiled once, reused by the second step
    assert backend.metrics.generated_kernel_count >= 4
    assert all(g.fallbacks == [] for g in backend.metrics.graphs), [g.fallbacks for g in backend.metrics.graphs]


def test_mlp_forward_fuses_bias_and_activation(codegen):
    model = make_mlp()
    x = minitorch2.randn(16, 8)
    with minitorch2.no_grad():
        out = minitorch2.compile(model, backend="inductor")(x)
        expected = model(x)
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-4, atol=1e-5)
    (graph,) = backend.metrics.graphs
    assert graph.name.startswith("inference")
    externs = [s for s in graph.scheduler.steps if not hasattr(s, "group")]
    assert len(externs) == 3  # the three matmuls
    # bias+relu, bias+gelu and layernorm(+bias of the next linear's input) fuse around the matmuls
    assert len(graph.kernels) <= 4


def test_default_backend_is_inductor(codegen):
    @minitorch2.compile
    def f(x):
        return minitorch2.softmax(x * 2, dim=-1)

    x = minitorch2.randn(4, 10)
    np.testing.assert_allclose(f(x).numpy(), minitorch2.softmax(x * 2, dim=-1).numpy(), rtol=1e-5, atol=1e-6)
    assert backend.metrics.generated_kernel_count == 1


def test_compile_fx_as_a_frontend_backend(codegen):
    def f(x, w):
        return (minitorch2.tanh(x @ w) * 3).sum()

    x, w = minitorch2.randn(5, 6), minitorch2.randn(6, 7, requires_grad=True)
    out = frontend.optimize(compile_fx)(f)(x, w)
    out.backward()
    w_ref = w.detach().requires_grad_()
    expected = f(x, w_ref)
    expected.backward()
    np.testing.assert_allclose(out.item(), expected.item(), rtol=1e-5)
    np.testing.assert_allclose(w.grad.numpy(), w_ref.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_compile_debug_writes_every_stage(tmp_path, monkeypatch):
    monkeypatch.setattr(backend.config, "debug", True)
    monkeypatch.setattr(minitorch2._logging, "debug_dir_root", str(tmp_path))
    monkeypatch.setattr(minitorch2._logging, "_run_dir", None)
    frontend.reset()

    def f(x):
        return minitorch2.relu(x) + 1

    minitorch2.compile(f, backend="inductor")(minitorch2.randn(3, 3))
    (run,) = os.listdir(tmp_path)
    assert run.startswith("run_") and f"pid_{os.getpid()}" in run
    graphs = os.listdir(tmp_path / run / "torchinductor")
    assert graphs and graphs[0].startswith("model__")
    folder = tmp_path / run / "torchinductor" / graphs[0]
    expected = {"fx_graph_readable.py", "fx_graph_runnable.py", "ir_pre_fusion.txt", "ir_post_fusion.txt",
                "output_code.py"}
    assert expected <= set(os.listdir(folder))
    code = (folder / "output_code.py").read_text()
    assert "def call(args):" in code and "kernel0" in code
    if backend.config.cpu_codegen == "llvm":
        assert "define" in code  # the LLVM IR of each kernel
    assert "relu" in (folder / "ir_pre_fusion.txt").read_text()


def test_output_code_and_fusion_logs(capsys):
    from minitorch2 import _logging

    _logging.reload("output_code,fusion")
    frontend.reset()
    try:
        minitorch2.compile(lambda x: minitorch2.exp(x).sum(), backend="inductor")(minitorch2.randn(4))
    finally:
        _logging.reload()
    err = capsys.readouterr().err
    assert "[__fusion]" in err and "[__output_code]" in err
    assert "def call(args):" in err
    assert "fusions refused" in err


def test_convolution_is_an_extern_kernel_not_a_fallback(codegen):
    """As in torch's Inductor: the convolution is an extern call (im2col + BLAS), its epilogue a kernel."""
    def f(x, w):
        return minitorch2.nn.functional.conv2d(x, w).relu()

    x, w = minitorch2.randn(1, 2, 6, 6), minitorch2.randn(3, 2, 3, 3)
    backend.metrics.reset()
    out = minitorch2.compile(f, backend="inductor")(x, w)
    np.testing.assert_allclose(out.numpy(), f(x, w).numpy(), rtol=1e-4, atol=1e-5)
    assert backend.metrics.fallback_ops == []
    assert backend.metrics.generated_kernel_count >= 1  # the relu is still a kernel


def test_tensor_constants_made_in_the_compiled_code_become_inputs(codegen):
    """`torch.tensor([...])` inside a compiled function is a graph constant (get_attr): the backend passes it
    to the kernels like an input, forward and backward, on every call."""
    def f(x):
        return (x * minitorch2.tensor([1.0, -2.0, 3.0]) + minitorch2.tensor(0.5)).index_select(
            0, minitorch2.tensor([2, 0]))

    compiled = minitorch2.compile(f, backend="inductor")
    backend.metrics.reset()
    for _ in range(2):
        x = minitorch2.randn(3).requires_grad_()
        out = compiled(x)
        out.sum().backward()
        expected_x = x.detach().clone().requires_grad_()
        f(expected_x).sum().backward()
        np.testing.assert_allclose(out.detach().numpy(), f(x).detach().numpy(), rtol=1e-6)
        np.testing.assert_allclose(x.grad.numpy(), expected_x.grad.numpy(), rtol=1e-6)
    assert backend.metrics.fallback_ops == [] and backend.metrics.generated_kernel_count >= 1


def test_extern_fallback_is_listed(codegen):
    def f(x):
        return x.cumsum(1).relu()

    x = minitorch2.randn(3, 5)
    backend.metrics.reset()
    out = minitorch2.compile(f, backend="inductor")(x)
    np.testing.assert_allclose(out.numpy(), f(x).numpy(), rtol=1e-5, atol=1e-6)
    assert backend.metrics.fallback_ops == ["aten.cumsum.default"]
    assert backend.metrics.generated_kernel_count >= 1


def test_repeated_training_steps_reuse_the_compiled_graphs(codegen):
    def loss_of(x, w1, b1, w2):
        hidden = minitorch2.tanh(x @ w1 + b1)
        return ((hidden @ w2) ** 2).mean()

    minitorch2.manual_seed(1)
    params = [minitorch2.randn(6, 16) * 0.3, minitorch2.zeros(16), minitorch2.randn(16, 3) * 0.3]
    compiled_params = [p.clone().requires_grad_() for p in params]
    eager_params = [p.clone().requires_grad_() for p in params]
    compiled = minitorch2.compile(loss_of, backend="inductor")
    for _ in range(3):
        x = minitorch2.randn(8, 6)
        for fn, ps in ((compiled, compiled_params), (loss_of, eager_params)):
            fn(x, *ps).backward()
            with minitorch2.no_grad():
                for p in ps:
                    p -= 0.1 * p.grad
                    p.grad = None
    for got, want in zip(compiled_params, eager_params):
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-4, atol=1e-5)
    assert [g.name.split("_")[0] for g in backend.metrics.graphs] == ["forward", "backward"]  # compiled once


# The AOT corpus (tests/autograd/programs.py) through the backend: forward and backward compiled by
# compile_fx_inner, values and input gradients against eager. A few by default; all of them (about
# 15 s on numpy_ref) with MINITORCH2_BACKEND_CORPUS=1.
CORPUS_DEFAULT = ["attention", "transformer_block", "small_cnn", "batchnorm2d_train", "cat_stack_split",
                  "cross_entropy", "layernorm", "reduce_var_std", "slice_select", "tril_flip_repeat"]


def _corpus_names():
    from tests.autograd.programs import PROGRAMS, RANDOM

    names = sorted(PROGRAMS) if os.environ.get("MINITORCH2_BACKEND_CORPUS") == "1" else CORPUS_DEFAULT
    return [n for n in names if n not in RANDOM]


@pytest.mark.parametrize("name", _corpus_names())
def test_aot_corpus_program_through_backend(name):
    import functools

    from autograd import aot_function
    from backend.compile_fx import compile_fx_inner, select_decomp_table
    from partition import min_cut_rematerialization_partition
    from tests.autograd.programs import PROGRAMS

    saved = backend.config.cpu_codegen
    backend.config.cpu_codegen = "numpy_ref"
    try:
        minitorch2.manual_seed(0)
        fn, args = PROGRAMS[name](minitorch2)
        minitorch2.manual_seed(0)
        _, eager_args = PROGRAMS[name](minitorch2)
        compiled = aot_function(fn, functools.partial(compile_fx_inner, graph_kind="forward"),
                                functools.partial(compile_fx_inner, graph_kind="backward"),
                                min_cut_rematerialization_partition, select_decomp_table())
        outs, expected = _as_tuple(compiled(*args)), _as_tuple(fn(*eager_args))
        for got, want in zip(outs, expected):
            np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-4, atol=1e-4)
        differentiable = [(o, e) for o, e in zip(outs, expected) if o.dtype.is_floating_point and o.requires_grad]
        if differentiable:
            sum(o.sum() for o, _ in differentiable).backward()
            sum(e.sum() for _, e in differentiable).backward()
            for a, b in zip(args, eager_args):
                if isinstance(a, minitorch2.Tensor) and a.grad is not None:
                    np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-4, atol=1e-4)
    finally:
        backend.config.cpu_codegen = saved


def _as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)
