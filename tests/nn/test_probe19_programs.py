"""Programs in the style of third-party projects run in session 39 (lucidrains/linear-attention-transformer:
LinearAttentionTransformerLM with reversible layers, local attention heads, ff_chunks, GLU, shift_tokens,
attend_axially, an encoder-decoder with receives_context, Linformer settings, AutoregressiveWrapper's training loss and
generate, eager and compiled), tests/nn/programs19/, each run by `python -m minitorch2 run --compare-torch`: what it
prints must be torch's, its graphs op by op torch's, both runs exit 0.
deterministic_linear_attention_rng.py: the library's reversible layers (and linformer's, which it imports at load)
do `from torch.utils.checkpoint import get_device_states, set_device_states`, an ImportError here (no library of
theirs loaded); torch.utils.checkpoint now has those helpers, detach_variable, check_backward_validity,
noop_context_fn and DefaultDeviceType as a CPU-only torch has them. Their `Deterministic` reads
`torch.cuda._initialized` (an AttributeError here; now False, as on a CPU-only build). Compiled, its
`torch.get_rng_state()` was recorded as a node of the graph, one graph of the whole model where Dynamo breaks: it
skips torch/random.py, so get_rng_state and set_rng_state are graph breaks, and now are here too.
The other runs (Linformer settings, an encoder with shift_tokens compiled, AutoregressiveWrapper's generate) print
and trace as torch's. Torch itself fails to compile the decoder with receives_context and a context mask
(inductor: "Cannot view a tensor ... as (2, 8, 128)" at an in-place masked_fill_ of a transposed key) and crashes
the process ("double free") compiling attend_axially, so those were not compared compiled.
Found here and fixed in session 40: a graph break inside a call written with * or ** (CALL_FUNCTION_EX), as
AutoregressiveWrapper's `self.net(xi, **kwargs)`, ran the callee with its frames uncompiled, where Dynamo compiles
each; it goes through a RoutedCall now, as CALL does. That exposed a crash: a frame compiled inside an
autograd.Function's forward (grad off) returning chunks of its input failed in AOT ("element 0 of tensors does not
require grad"), as the views torch.chunk made were not seen as aliases of the input; and a frame that broke inside a
Function's forward was counted as one frame more than Dynamo counts it (`ctx.state = ...` in its resume function was
a break of its own: ctx is now a user object there, as Dynamo's AutogradFunctionContextVariable)."""
import pytest

import minitorch2

from .program_reports import all_same, compare_report

FOLDER = "programs19"


@pytest.mark.parametrize("name", ["deterministic_linear_attention_rng"])
def test_program_prints_and_traces_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report


def test_checkpoint_helpers_of_reversible_layers_match_torch():
    import torch
    import torch.utils.checkpoint as theirs

    import minitorch2.utils.checkpoint as ours

    for lib, module in ((torch, theirs), (minitorch2, ours)):
        x = lib.ones(2, requires_grad=True)
        assert module.get_device_states(x, [x], 3) == ([], [])
        module.set_device_states([], [])
        detached = module.detach_variable((x, 1))
        assert detached[0].requires_grad and detached[0] is not x and detached[1] == 1
        with pytest.raises(RuntimeError, match="Only tuple of tensors is supported. Got Unsupported input type: list"):
            module.detach_variable([x])
        assert module.DefaultDeviceType.get_device_type() == "cpu"
        assert len(module.noop_context_fn()) == 2
        assert lib.cuda._initialized is False and lib.cuda.is_initialized() is False


@pytest.mark.parametrize("call", ["get", "set", "random.get"])
def test_generator_state_functions_break_the_graph_as_dynamo(call):
    import torch
    import torch._dynamo.testing

    from frontend.testing import CompileCounter

    counts = []
    for lib, counter in ((torch, torch._dynamo.testing.CompileCounter()), (minitorch2, CompileCounter())):
        def f(x, lib=lib):
            y = x.sin()
            if call == "set":
                lib.set_rng_state(lib.get_rng_state())
            state = lib.random.get_rng_state() if call == "random.get" else lib.get_rng_state()
            return y + 1, state.shape

        out, shape = lib.compile(f, backend=counter)(lib.ones(3))
        counts.append((counter.frame_count, counter.op_count, out.tolist(), shape))
    assert counts[1] == counts[0], counts


def test_frames_of_a_function_whose_forward_breaks_match_dynamo():
    import torch
    from torch._dynamo.utils import counters as their_counters

    from frontend.utils import counters as our_counters

    frames = []
    for lib, counters in ((torch, their_counters), (minitorch2, our_counters)):
        class Recorded(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x, block, lib=lib):
                ctx.state = lib.get_rng_state()
                with lib.no_grad():
                    return block(x)

            @staticmethod
            def backward(ctx, grad):
                return grad * 2, None

        def block(x):
            return x.sin() * 2

        def model(x):
            return Recorded.apply(x.cos(), block).sum()

        counters.clear()
        x = lib.ones(3, requires_grad=True)
        lib.compile(model, backend="eager")(x).backward()
        frames.append((dict(counters["frames"]), x.grad.tolist()))
    assert frames[1] == frames[0], frames


def test_frames_called_by_a_breaking_call_with_star_kwargs_are_compiled():
    import torch
    from torch._dynamo.utils import counters as their_counters

    from frontend.utils import counters as our_counters

    def frames_counted(lib, counters):
        class Inner(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = lib.nn.Linear(3, 3)

            def forward(self, x, **kwargs):
                x = x.cos()
                lib.get_rng_state()
                return self.proj(x).sum()

        class Wrapper(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.net = Inner()

            def forward(self, x, **kwargs):
                return self.net(x, **kwargs) * 2

        counters.clear()
        lib.compile(Wrapper(), backend="eager")(lib.ones(3))
        return dict(counters["frames"])

    frames = [frames_counted(torch, their_counters), frames_counted(minitorch2, our_counters)]
    assert frames[1] == frames[0], frames


def test_a_break_under_no_grad_inside_a_function_forward_compiles():
    import torch

    def loss_of_compiled(lib):
        class Recorded(lib.nn.Module):
            def __init__(self, net):
                super().__init__()
                self.net = net

            def forward(self, x, record_rng=False):
                if record_rng:
                    self.cpu_state = lib.get_rng_state()
                return self.net(x)

        class Block(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.f = Recorded(lib.nn.Linear(2, 2))

            def forward(self, x):
                x1, x2 = lib.chunk(x, 2, dim=1)
                with lib.no_grad():
                    y1 = x1 + self.f(x2, record_rng=self.training)
                return lib.cat([y1, x2], dim=1)

        class Reversible(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x, blocks):
                for block in blocks:
                    x = block(x)
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad, None

        class Model(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.blocks = lib.nn.ModuleList([Block() for _ in range(2)])

            def forward(self, x):
                return Reversible.apply(x.cos(), self.blocks).sum()

        lib.manual_seed(0)
        return lib.compile(Model(), backend="aot_eager")(lib.ones(3, 4, requires_grad=True)).item()

    assert loss_of_compiled(minitorch2) == pytest.approx(loss_of_compiled(torch), rel=1e-6)
