"""Graphs and errors of labml-style programs (annotated_deep_learning_paper_implementations) compiled, against
torch's: a WGAN-GP gradient penalty through a compiled discriminator (double backward, which torch.compile refuses),
LoRA's frozen-weight Linear, a hand-written LSTM cell loop, FNet's Fourier mixing."""
import pytest
import torch
import torch._inductor.compile_fx as torch_compile_fx

import backend.compile_fx

import frontend
import minitorch2


def _penalty_through_compiled_discriminator(lib, backend):
    """WGAN-GP: the gradient of the critic's output with create_graph=True, then backward of the penalty."""
    lib.manual_seed(0)
    disc = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.LeakyReLU(0.2), lib.nn.Linear(8, 1))
    x = lib.randn(3, 4, requires_grad=True)
    g, = lib.autograd.grad(lib.compile(disc, backend=backend)(x).sum(), x, create_graph=True)
    facts = [g.requires_grad, type(g.grad_fn).__name__]
    with pytest.raises(Exception) as info:
        ((g.norm(2, dim=1) - 1) ** 2).mean().backward()
    return facts + [type(info.value), str(info.value)]


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_wgan_gp_double_backward_refused_as_torch(backend):
    frontend.reset()
    torch._dynamo.reset()
    ours = _penalty_through_compiled_discriminator(minitorch2, backend)
    theirs = _penalty_through_compiled_discriminator(torch, backend)
    assert ours == theirs
    assert theirs[1:] == ["CompiledFunctionBackwardBackward", RuntimeError,
                          "torch.compile with aot_autograd does not currently support double backward"]


def test_first_order_gradient_under_create_graph_keeps_its_value():
    """The refusing node passes the gradients through unchanged: their values are torch's."""
    def grad_of(lib):
        lib.manual_seed(0)
        disc = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.Tanh(), lib.nn.Linear(8, 1))
        x = lib.randn(3, 4, requires_grad=True)
        g, = lib.autograd.grad(lib.compile(disc, backend="aot_eager")(x).sum(), x, create_graph=True)
        return g.detach().numpy()
    frontend.reset()
    torch._dynamo.reset()
    torch.testing.assert_close(torch.from_numpy(grad_of(minitorch2).copy()), torch.from_numpy(grad_of(torch)))


def _lora_linear(lib):
    """labml's LoRA Linear: a frozen weight and bias, `result += (x @ A.T @ B.T) * scaling` in place on
    linear's output (a view of addmm's), whose base requires no grad until the in-place add."""
    class Linear(lib.nn.Module):
        def __init__(self, i, o, r=2, alpha=4):
            super().__init__()
            self.weight = lib.nn.Parameter(lib.randn(o, i), requires_grad=False)
            self.bias = lib.nn.Parameter(lib.randn(o), requires_grad=False)
            self.scaling = alpha / r
            self.lora_a = lib.nn.Parameter(lib.randn(r, i))
            self.lora_b = lib.nn.Parameter(lib.randn(o, r))

        def forward(self, x):
            result = lib.nn.functional.linear(x, self.weight, bias=self.bias)
            result += (x @ self.lora_a.T @ self.lora_b.T) * self.scaling
            return result

    lib.manual_seed(0)
    return Linear(6, 5), lib.randn(2, 3, 6)


def recording_inductor(lib, graphs):
    """lib's inductor as a backend, its inner compile appending each graph's call targets (in order) to graphs."""
    if lib is torch:
        def inner(gm, example_inputs, **kwargs):
            graphs.append([str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
            return torch_compile_fx.compile_fx_inner(gm, example_inputs, **kwargs)
        return lambda gm, inputs: torch_compile_fx.compile_fx(gm, inputs, inner_compile=inner)

    def inner(gm, example_inputs, graph_kind="forward"):
        graphs.append([str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
        return ours(gm, example_inputs, graph_kind=graph_kind)
    ours = backend.compile_fx.compile_fx_inner

    def compiler(gm, inputs):
        backend.compile_fx.compile_fx_inner = inner
        try:
            return backend.compile_fx.compile_fx(gm, inputs)
        finally:
            backend.compile_fx.compile_fx_inner = ours
    return compiler


def _aot_graphs(lib, program):
    """The forward and backward graphs the inductor's inner compile gets (targets in order), and the grads."""
    graphs = []
    model, *inputs = program(lib)
    lib.compile(model, backend=recording_inductor(lib, graphs))(*inputs).sum().backward()
    return graphs, [p.grad.numpy() for p in model.parameters() if p.requires_grad]


def _ours_and_torchs(program):
    frontend.reset()
    torch._dynamo.reset()
    ours = _aot_graphs(minitorch2, program)
    with torch._inductor.config.patch(fx_graph_cache=False), \
            torch._functorch.config.patch(enable_autograd_cache=False):
        theirs = _aot_graphs(torch, program)
    for a, b in zip(ours[1], theirs[1]):
        torch.testing.assert_close(torch.from_numpy(a.copy()), torch.from_numpy(b), rtol=1e-4, atol=1e-5)
    return ours[0], theirs[0]


def test_lora_backward_graph_is_torchs():
    """The in-place add on a view of a tensor that needed no grad: the backward's CopySlices replays the view
    (torch's `view`, not an as_strided scatter), and the copy into its fresh tensor is a no-op the joint-graph
    pass removes, as torch's remove_noop_ops."""
    ours, theirs = _ours_and_torchs(_lora_linear)
    assert len(ours) == len(theirs) == 2
    assert ours == theirs
    assert "aten.new_empty_strided.default" not in ours[1]


def _lstm_cell_loop(lib):
    """labml's LSTMCell (`ifgo = hidden_lin(h) + input_lin(x)`, `.chunk(4, dim=-1)`) stepped over time, the hidden
    states stacked by writing each into a slice of a zero buffer that requires no grad."""
    class Cell(lib.nn.Module):
        def __init__(self, i, hs):
            super().__init__()
            self.hidden_lin = lib.nn.Linear(hs, 4 * hs)
            self.input_lin = lib.nn.Linear(i, 4 * hs, bias=False)

        def forward(self, x, h, c):
            i, f, g, o = (self.hidden_lin(h) + self.input_lin(x)).chunk(4, dim=-1)
            c_next = lib.sigmoid(f) * c + lib.sigmoid(i) * lib.tanh(g)
            return lib.sigmoid(o) * lib.tanh(c_next), c_next

    class Loop(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.cell = Cell(3, 4)

        def forward(self, x):
            hs, c = x.new_zeros(x.shape[0] + 1, x.shape[1], 4), x.new_zeros(x.shape[1], 4)
            for t in range(x.shape[0]):
                hs[t + 1], c = self.cell(x[t], hs[t].clone(), c)
            return hs[1:]

    lib.manual_seed(0)
    return Loop(), lib.randn(3, 2, 3)


def test_lstm_states_written_into_a_buffer_graphs_are_torchs():
    """Writes into views of a buffer that needed no grad: functionalized and differentiated through the view
    ops (select_scatter in the forward, select in the backward), not as_strided and copies."""
    ours, theirs = _ours_and_torchs(_lstm_cell_loop)
    assert len(ours) == len(theirs) == 2
    assert ours == theirs
    assert "aten.select_scatter.default" in ours[0]


def _fnet_layer(lib):
    """labml's FNet mixing (`torch.real(fft(fft(x, dim=2), dim=0))`) in a transformer layer, dropout after it: the
    mix's strides are _fft_c2c's CPU layout (the transformed dim innermost), so the dropout's rand_like draws in
    that memory order (torch's permute and clone)."""
    class Layer(lib.nn.Module):
        def __init__(self, d):
            super().__init__()
            self.norm1, self.norm2 = lib.nn.LayerNorm(d), lib.nn.LayerNorm(d)
            self.ff = lib.nn.Sequential(lib.nn.Linear(d, 2 * d), lib.nn.ReLU(), lib.nn.Linear(2 * d, d))
            self.drop = lib.nn.Dropout(0.1)

        def forward(self, x):
            z = self.norm1(x)
            x = x + self.drop(lib.real(lib.fft.fft(lib.fft.fft(z, dim=2), dim=0)))
            return x + self.ff(self.norm2(x))

    lib.manual_seed(0)
    return Layer(4), lib.randn(3, 2, 4)


def test_fnet_layer_graphs_are_torchs():
    ours, theirs = _ours_and_torchs(_fnet_layer)
    assert len(ours) == len(theirs) == 2
    assert ours == theirs
    assert "aten._fft_c2c.default" in ours[0]


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_fft_c2c_output_strides_are_torchs(dim):
    def strides(lib):
        x = lib.fft.fft(lib.ones(3, 2, 4), dim=2)
        return lib.fft.fft(x, dim=dim).stride(), lib.fft.fft(x.transpose(0, 2), dim=dim).stride()
    assert strides(minitorch2) == strides(torch)
