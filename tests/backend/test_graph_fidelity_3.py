"""The inductor's graphs against torch's, third set: an input mutation applied inside the compiled graph.

BatchNorm in training under the "inductor" backend: torch's forward graph (what its compile_fx hands each graph's
inner compile) ends in `copy_` into running_mean, running_var and num_batches_tracked, and its compiled code writes
them in itself. Ours: the same aot graphs, a lowering of copy_ that computes the new value with the rest of the
graph, and a wrapper that copies it into the caller's tensor after every kernel (backend/lowering.py,
backend/wrapper.py). Buffers and gradients after several steps are torch's."""
import pytest
import torch
import torch._inductor.compile_fx as torch_compile_fx

import backend.compile_fx
import frontend
import minitorch2


def _model(lib):
    return lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.ReLU(), lib.nn.Linear(4, 2))


def _our_backend(graphs):
    def recording_inner(gm, example_inputs, graph_kind="forward"):
        compiled = inner(gm, example_inputs, graph_kind=graph_kind)
        graphs.append((graph_kind, [str(n.target) for n in gm.graph.nodes if n.op == "call_function"],
                       compiled.source))
        return compiled

    inner = backend.compile_fx.compile_fx_inner

    def compile_recording(gm, example_inputs):
        backend.compile_fx.compile_fx_inner = recording_inner
        try:
            return backend.compile_fx.compile_fx(gm, example_inputs)
        finally:
            backend.compile_fx.compile_fx_inner = inner

    return compile_recording


def _torch_backend(graphs):
    def recording_inner(gm, example_inputs, **kwargs):
        kind = "backward" if kwargs.get("is_backward") else "forward" if kwargs.get("is_inference") is False \
            else "inference"
        graphs.append((kind, [str(n.target) for n in gm.graph.nodes if n.op == "call_function"], None))
        return torch_compile_fx.compile_fx_inner(gm, example_inputs, **kwargs)

    return lambda gm, example_inputs: torch_compile_fx.compile_fx(gm, example_inputs, inner_compile=recording_inner)


def _ours_and_torchs(run):
    """run(lib, make_backend) on minitorch2 with our inductor, then on torch with its (graph caches off: a cached
    graph skips the inner compile that records it)."""
    frontend.reset()
    torch._dynamo.reset()
    ours = run(minitorch2, _our_backend)
    with torch._inductor.config.patch(fx_graph_cache=False), \
            torch._functorch.config.patch(enable_autograd_cache=False):
        return ours, run(torch, _torch_backend)


def _train(lib, make_backend, steps=3):
    lib.manual_seed(0)
    model = _model(lib)
    graphs = []
    compiled = lib.compile(model, backend=make_backend(graphs))
    losses = []
    for step in range(steps):
        x = (lib.arange(15.0).reshape(5, 3) * 0.37 + 0.1).sin() * (step + 1)
        loss = compiled(x).sum()
        loss.backward()
        losses.append(loss.item())
    with lib.no_grad():  # (still training: the statistics update, in an inference graph)
        losses.append(compiled(lib.ones(5, 3)).sum().item())
    values = [v for t in (*model.buffers(), *(p.grad for p in model.parameters())) for v in t.reshape(-1).tolist()]
    return graphs, losses + values


def test_batch_norm_training_under_inductor_copies_into_buffers_in_graph():
    ours, theirs = _ours_and_torchs(_train)
    assert [(kind, ops) for kind, ops, _ in ours[0]] == [(kind, ops) for kind, ops, _ in theirs[0]]
    forward, inference = ours[0][0], ours[0][-1]
    assert forward[1][-3:] == inference[1][-3:] == ["aten.copy_.default"] * 3
    for _, _, source in (forward, inference):  # the compiled graph writes the three buffers itself
        assert sum(line.strip().startswith("args[") and ".copy_(" in line for line in source.splitlines()) == 3
    assert ours[1] == pytest.approx(theirs[1], rel=1e-4, abs=1e-5)  # (float32 kernels fused differently)


def _pool_program(lib, kernel, stride, padding, ceil_mode, channels_last):
    lib.manual_seed(0)
    conv = lib.nn.Conv2d(2, 3, 3)
    x = lib.randn(2, 2, 9, 9)
    if channels_last:
        x = x.contiguous(memory_format=lib.channels_last)

    def step(x):
        pooled = lib.nn.functional.max_pool2d(conv(x).relu(), kernel, stride, padding, ceil_mode=ceil_mode)
        return (pooled * pooled).sum()

    return conv, x, step


POOLS = {"2x2": (2, None, 0, False, False), "3x3_stride2_pad1": (3, 2, 1, False, False),
         "3x3_ceil": (3, 2, 0, True, False), "channels_last": (2, None, 0, False, True),
         "6x6_window_over_25": (6, 1, 0, False, False)}


@pytest.mark.parametrize("name", sorted(POOLS))
def test_max_pool2d_under_inductor_is_torchs_low_memory_form(name):
    """torch's inductor table writes max_pool2d_with_indices (window <= 25) as _low_memory_max_pool_with_offsets,
    the forward saving int8 offsets, and the backward recomputes the indices (_low_memory_max_pool_offsets_to_indices)
    for a scatter_add (its max_pool2d_with_indices_backward decomposition); a larger window keeps the op."""
    def run(lib, make_backend):
        conv, x, step = _pool_program(lib, *POOLS[name])
        graphs = []
        loss = lib.compile(step, backend=make_backend(graphs))(x)
        loss.backward()
        values = [loss.item(), *conv.weight.grad.reshape(-1).tolist(), *conv.bias.grad.tolist()]
        return [(kind, ops) for kind, ops, _ in graphs], values, "".join(source or "" for *_, source in graphs)

    ours, theirs = _ours_and_torchs(run)
    assert ours[0] == theirs[0]
    low_memory = "prims._low_memory_max_pool_with_offsets.default" in ours[0][0][1]
    assert low_memory == (name != "6x6_window_over_25")
    assert ours[1] == pytest.approx(theirs[1], rel=1e-4, abs=1e-5)
    # windows inside the input are lowered to kernels (backend/lowering_pooling.py); the others run ATen's way
    assert ("fallback_call(ops.prims._low_memory" in ours[2]) == (POOLS[name][2] != 0 or POOLS[name][3])


def _weight_normed(lib, dim):
    lib.manual_seed(0)
    return lib.nn.utils.parametrizations.weight_norm(lib.nn.Linear(3, 4), dim=dim)


def _weight_norm_run(lib, make_aot, partition, dim, backend=None):
    """(Dynamo graph targets, forward and backward code, values): aot_eager's settings with printing compilers, or
    the named backend."""
    module = _weight_normed(lib, dim)
    graphs = []

    def recording(kind):
        def compiler(gm, example_inputs):
            graphs.append((kind, gm.code.strip()))
            return gm.forward
        return compiler

    def dynamo(gm, example_inputs):
        graphs.append(("dynamo", [getattr(n.target, "__name__", str(n.target)) for n in gm.graph.nodes
                                  if n.op == "call_function"]))
        return make_aot(fw_compiler=recording("forward"), bw_compiler=recording("backward"), partition_fn=partition,
                        keep_inference_input_mutations=True)(gm, example_inputs)

    out = lib.compile(module, backend=backend or dynamo)(lib.linspace(-1.0, 1.0, 6).reshape(2, 3))
    out.sum().backward()
    weight = module.parametrizations.weight
    values = [*out.reshape(-1).tolist(), *weight.original0.grad.reshape(-1).tolist(),
              *weight.original1.grad.reshape(-1).tolist()]
    return graphs, values


@pytest.mark.parametrize("dim", [0, 1, None])  # (None: the whole-tensor norm, ATen's composite, aten.norm.Scalar)
def test_weight_norm_graphs_hold_torchs_fused_op(dim):
    """Dynamo records torch._weight_norm; aot traces _weight_norm_interface (dim first or last; otherwise ATen's
    composite: the norm, div, mul) and its backward _weight_norm_interface_backward."""
    from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd  # (test-only: torch's oracle)
    from torch._functorch.partitioners import min_cut_rematerialization_partition as torch_min_cut  # (as above)

    from autograd import aot_autograd
    from partition import min_cut_rematerialization_partition

    frontend.reset()
    torch._dynamo.reset()
    ours = _weight_norm_run(minitorch2, aot_autograd, min_cut_rematerialization_partition, dim)
    theirs = _weight_norm_run(torch, torch_aot_autograd, torch_min_cut, dim)
    assert ours[0] == theirs[0]
    assert ("aten.norm.Scalar" in dict(ours[0])["forward"] if dim is None
            else "_weight_norm_interface_backward" in dict(ours[0])["backward"])
    assert ours[1] == pytest.approx(theirs[1], rel=1e-5, abs=1e-6)


def test_weight_norm_under_inductor_decomposes_the_forward_and_keeps_the_backward():
    ours_graphs, theirs_graphs = [], []
    ours, theirs = _ours_and_torchs(lambda lib, make_backend: _weight_norm_run(
        lib, None, None, 0, backend=make_backend(ours_graphs if lib is minitorch2 else theirs_graphs)))
    assert [(kind, ops) for kind, ops, _ in ours_graphs] == [(kind, ops) for kind, ops, _ in theirs_graphs]
    assert "aten._weight_norm_interface_backward.default" in ours_graphs[1][1]
    assert ours[1] == pytest.approx(theirs[1], rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("scale", ["div", "mul", "mul_negative"])
def test_scaled_log_softmax_under_inductor_is_torchs_joint_graph_pattern(scale):
    """torch's joint-graph passes rewrite x/T - amax(x/T) (log_softmax(s / T) of a distillation loss) as
    (x*sign - amax(x*sign)) / (sign*T) where all(isfinite(x/T)) along the dim (backend/joint_graph_softmax.py); the
    partitioned forward and backward then hold those ops, and recompute part of them in the backward, as torch's."""
    scaled = {"div": lambda s: s / 2.0, "mul": lambda s: s * 0.5, "mul_negative": lambda s: -0.5 * s}[scale]

    def run(lib, make_backend):
        F = lib.nn.functional
        lib.manual_seed(0)
        student, teacher = lib.randn(8, 5, requires_grad=True), lib.randn(8, 5)
        graphs = []

        def soft_loss(s, t):
            return F.kl_div(F.log_softmax(scaled(s), dim=1), F.softmax(t / 2.0, dim=1), reduction="batchmean")

        lib.compile(soft_loss, backend=make_backend(graphs))(student, teacher).backward()
        return [(kind, ops) for kind, ops, _ in graphs], student.grad.reshape(-1).tolist()

    ours, theirs = _ours_and_torchs(run)
    assert ours[1] == pytest.approx(theirs[1], rel=1e-5, abs=1e-6)
    assert ours[0] == theirs[0]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("dim", [0, 2])
def test_weight_norm_ops_eager_values_as_torchs(dim, dtype):
    def run(lib):
        lib.manual_seed(0)
        v = lib.randn(3, 4, 5, dtype=getattr(lib, dtype))
        g = lib.randn(*[n if d == dim else 1 for d, n in enumerate(v.shape)], dtype=v.dtype)
        w, norms = lib.ops.aten._weight_norm_interface(v, g, dim)
        grad_v, grad_g = lib.ops.aten._weight_norm_interface_backward(lib.ones_like(w) * 0.5 - v, v, g, norms, dim)
        return [t.reshape(-1).tolist() for t in (w, norms, grad_v, grad_g)], [tuple(t.shape) for t in (norms, grad_g)]

    ours, theirs = run(minitorch2), run(torch)
    assert ours[1] == theirs[1]
    for a, b in zip(ours[0], theirs[0]):
        assert a == pytest.approx(b, rel=1e-5, abs=1e-6)
