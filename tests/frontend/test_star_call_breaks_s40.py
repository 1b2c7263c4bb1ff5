"""Graph breaks inside functions called with * and ** (CALL_FUNCTION_EX), inside an autograd.Function's forward
run eagerly, and frames that return views made by split-like ops: frame and op counts, values and gradients
against torch.compile (session 40).

A break's instruction is replayed in the code after the graph; a call made with * or ** now goes through a
RoutedCall there too, so the callee's frames compile as Dynamo's callback compiles them. A frame of a Function's
forward reads `ctx` as a user object (its attributes set after the graph). An output made by chunk, split or unbind
of an input is an alias of that input (in an inference graph, made again from it) unless it was made with grad,
where torch's aot returns it fresh."""
import numpy as np
import pytest
import torch
import torch._dynamo.testing
from torch._dynamo.utils import counters as their_counters

import frontend
import minitorch2
from frontend.testing import CompileCounter
from frontend.utils import counters as our_counters


def _breaks(lib):
    return lib.get_rng_state  # (a function both Dynamos skip: a graph break where it is called)


def _star_args(lib):
    def h(x, k):
        y = x * k
        _breaks(lib)()
        return y + 1

    return lambda x: h(*(x, 3))


def _star_kwargs(lib):
    def h(x, *, scale, shift=0):
        y = (x * scale).sin()
        _breaks(lib)()
        return y + shift

    def f(x):
        options = {"scale": 2.0, "shift": 1}
        return h(x, **options) * 2

    return f


def _both_through_a_method(lib):
    class Model(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = lib.nn.Linear(3, 3)

        def block(self, x, *rest, **kwargs):
            x = self.proj(x).relu()
            _breaks(lib)()
            return x * rest[0] + kwargs["bias"]

        def forward(self, x, *args, **kwargs):
            return self.block(x.cos(), *args, **kwargs).sum()

    lib.manual_seed(0)
    model = Model()
    return lambda x: model(x, 2.0, bias=1.0)


def _wrapper_module_forwarding_kwargs(lib):  # (x-transformers' and linear-attention's AutoregressiveWrapper)
    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = lib.nn.Linear(3, 4)

        def forward(self, x, mask=None, **kwargs):
            h = self.emb(x)
            _breaks(lib)()
            return h.masked_fill(~mask, 0.0) if mask is not None else h

    class Wrapper(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = Net()

        def forward(self, x, **kwargs):
            return self.net(x[:, :-1], **kwargs).log_softmax(-1).mean()

    lib.manual_seed(0)
    wrapper = Wrapper()
    return lambda x: wrapper(x, mask=lib.ones(2, 2, 1, dtype=lib.bool))


def _partial_star(lib):
    import functools

    def h(x, a, b):
        y = x + a
        _breaks(lib)()
        return y * b

    def f(x):
        call = functools.partial(h, x)
        return call(*[1, 2]).sum()

    return f


PROGRAMS = [_star_args, _star_kwargs, _both_through_a_method, _wrapper_module_forwarding_kwargs, _partial_star]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__.strip("_"))
def test_frames_a_breaking_star_call_runs_compile_as_dynamo(program):
    results = []
    for lib in (torch, minitorch2):
        counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
        (torch._dynamo if lib is torch else frontend).reset()
        x = lib.linspace(-1, 1, 12).reshape(2, 3, 2).transpose(1, 2).contiguous()
        out = lib.compile(program(lib), backend=counter)(x)
        results.append((counter.frame_count, counter.op_count, out.tolist()))
    (theirs_frames, theirs_ops, theirs), (ours_frames, ours_ops, ours) = results
    assert (ours_frames, ours_ops) == (theirs_frames, theirs_ops)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def _function_breaking_in_forward(lib):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, w, k):
            ctx.k = k
            ctx.state = lib.get_rng_state()  # (a break: the rest of forward runs in a resume function)
            ctx.save_for_backward(x, w)
            ctx.flags = ctx.needs_input_grad
            return (x * w).sin() * k

        @staticmethod
        def backward(ctx, grad):
            x, w = ctx.saved_tensors
            g = grad * ctx.k * (x * w).cos()
            assert ctx.flags == (True, True, False)
            return g * w, g * x, None

    return lambda x, w: Scale.apply(x.cos(), w, 3.0).sum()


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_a_break_inside_a_function_forward_sets_ctx_attributes_as_dynamo(backend):
    results = []
    for lib, counters in ((torch, their_counters), (minitorch2, our_counters)):
        counters.clear()
        x, w = lib.ones(3, requires_grad=True), lib.full((3,), 2.0, requires_grad=True)
        out = lib.compile(_function_breaking_in_forward(lib), backend=backend)(x, w)
        out.backward()
        results.append((dict(counters["frames"]), dict(counters["stats"]), [out.item(), *x.grad.tolist(),
                                                                              *w.grad.tolist()]))
    theirs, ours = results
    assert ours[:2] == theirs[:2]
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5)


VIEWS_RETURNED = {
    "chunks of the input": lambda x: x.chunk(2),
    "a chunk and a view of the input": lambda x: (x.chunk(2)[0], x.view(4)),
    "chunks of an intermediate": lambda x: (x * 2).chunk(2),
    "a chunk and the unbound rows of intermediates": lambda x: ((x * 2).chunk(2)[0], *(x * 2).unbind(1)),
    "a chunk, a view and a row of one intermediate": lambda x: (lambda y: (y.chunk(2)[0], y.view(4), y[0]))(x * 2),
    "split rows, one scaled": lambda x: (lambda a, b: (a, b * 3))(*x.split(1)),
}


@pytest.mark.parametrize("name", VIEWS_RETURNED)
@pytest.mark.parametrize("grad", [True, False])
def test_views_from_split_like_ops_leave_a_compiled_function_as_torchs(name, grad):
    results = []
    for lib in (torch, minitorch2):
        x = lib.arange(4.0).reshape(2, 2).requires_grad_()
        with lib.set_grad_enabled(grad):
            out = lib.compile(VIEWS_RETURNED[name], backend="aot_eager")(x)
        seen = [(type(t.grad_fn).__name__, t.requires_grad, t._base is x, t.tolist()) for t in out]
        if grad:
            sum(t.sum() * (i + 1) for i, t in enumerate(out)).backward()
        results.append((seen, None if x.grad is None else x.grad.tolist()))
    assert results[1] == results[0]


def test_a_frame_returning_chunks_of_its_input_under_no_grad_compiles():
    """A frame compiled with grad off (inside a Function's forward, or a `with no_grad():` a break cut in two) that
    returns torch.chunk's views of an input that requires grad: an inference graph, as torch's."""
    results = []
    for lib in (torch, minitorch2):
        def f(x):
            x1, x2 = lib.chunk(x, 2, dim=1)
            with lib.no_grad():
                lib.get_rng_state()
                y1 = x1 + 1
            return lib.cat([y1, x2], dim=1)

        x = lib.ones(3, 4, requires_grad=True)
        with lib.no_grad():
            out = lib.compile(f, backend="aot_eager")(x)
        results.append((out.requires_grad, out.tolist()))
    assert results[1] == results[0]
