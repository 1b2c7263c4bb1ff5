"""Compiled gaps seen in session 24, against real torch and Dynamo: binary ops on bools and integer extremes,
autograd.Function given one tensor twice, nn.Sequential built in a frame, `.item()` after an automatic-dynamic
recompile, weight_norm, two threads compiling at once, flip in linear attention, channels_last adaptive pooling,
and list.remove of a tensor."""
import collections
import re
import threading
import time
import warnings

import pytest
import torch
import torch._dynamo
from torch._dynamo.backends.common import aot_autograd as torch_aot_autograd
from torch._dynamo.testing import CompileCounter as TorchCompileCounter

import frontend
import minitorch2
from autograd import aot_autograd
from frontend.testing import CompileCounter

from .fresh_compilers import fresh_compilers  # noqa: F401  (autouse: fresh caches in both Dynamos)


def _error(e):
    """The class and the words that say what went wrong (Dynamo's wrapping prose aside)."""
    got = re.search(r"got (\w+\(.*?\))\n", str(e))
    return type(e).__name__, got.group(1) if got else str(e).split("\n")[0]


COMPILED_BINARY = ["a // b", "lib.floor_divide(a, b)", "lib.div(a, b, rounding_mode='floor')",
                   "a.clone().floor_divide_(b)", "a % b", "lib.remainder(a, b)", "lib.fmod(a, b)", "a - b",
                   "lib.div(a, b, rounding_mode='trunc')", "a // True", "a + b", "a * b", "a ** b", "a << b"]
OPERANDS = {
    "bool": lambda lib: (lib.tensor([True, False, True]), lib.tensor([True, True, False])),
    "int64": lambda lib: (lib.tensor([-2 ** 63, 5, -7]), lib.tensor([-1, 0, 2])),
}


def _compiled_outcome(lib, expression, operands):
    fn = eval("lambda a, b: " + expression, {"lib": lib})
    try:
        result = lib.compile(fn, backend="aot_eager")(*OPERANDS[operands](lib))
        return str(result.dtype), result.tolist()
    except Exception as e:  # (the class and message are what is compared)
        return _error(e)


@pytest.mark.parametrize("operands", list(OPERANDS))
@pytest.mark.parametrize("expression", COMPILED_BINARY)
def test_compiled_binary_op_on_bools_and_integer_extremes_as_torch(expression, operands):
    if operands == "int64" and "trunc" in expression:
        pytest.skip("torch's trunc division of int64 min by -1 dies of SIGFPE")
    assert _compiled_outcome(minitorch2, expression, operands) == _compiled_outcome(torch, expression, operands)


# ---------------------------------------------------------------- 2. autograd.Function given one tensor twice
def _mul_function(lib):
    class MulPlusFirst(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b + a

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * b + grad, grad * a * 2  # (b's gradient doubled on purpose: the sum over both uses shows)

    return MulPlusFirst


TWICE = {
    "same": lambda f: lambda x: f.apply(x, x).sum(),
    "view": lambda f: lambda x: f.apply(x, x.view(2, 3)).sum(),
    "transposed_view": lambda f: lambda x: f.apply(x, x.view(3, 2).t()).sum(),
    "computed": lambda f: lambda x: f.apply(x * 2, x * 2).sin().sum(),
    "rows": lambda f: lambda x: f.apply(x[0], x[1]).sum() + f.apply(x, x).mean(),
    "detached": lambda f: lambda x: f.apply(x, x.detach()).sum(),
}


def _twice_outcome(lib, counter, which, backend):
    counter = counter() if backend is None else None
    x = lib.arange(6.).view(2, 3).requires_grad_()
    out = lib.compile(TWICE[which](_mul_function(lib)), backend=counter or backend)(x)
    out.backward()
    counts = (counter.frame_count, counter.op_count) if counter else None
    return round(out.item(), 4), [round(v, 4) for v in x.grad.flatten().tolist()], counts


@pytest.mark.parametrize("backend", [None, "aot_eager"])
@pytest.mark.parametrize("which", list(TWICE))
def test_autograd_function_given_one_tensor_twice_as_torch(which, backend):
    ours = _twice_outcome(minitorch2, CompileCounter, which, backend)
    torch._dynamo.reset()
    assert ours == _twice_outcome(torch, TorchCompileCounter, which, backend)


# ---------------------------------------------------------------- 3. nn.Sequential built in a compiled frame
HELD = ("held", "unpacked_list", "ordered_dict", "indexed", "module_list")


def _holder(lib, which, first, second):
    nn = lib.nn

    class Holder(nn.Module):
        def __init__(self):
            super().__init__()
            self.first, self.second = first, second
            self.mods = nn.ModuleList([first, nn.ReLU(), second])

        def forward(self, x):
            if which == "held":
                return nn.Sequential(self.first, nn.ReLU(), self.second)(x)
            if which == "unpacked_list":
                return nn.Sequential(*self.mods)(x)
            if which == "ordered_dict":
                return nn.Sequential(collections.OrderedDict(a=self.first, act=nn.Tanh(), b=self.second))(x)
            if which == "indexed":
                made = nn.Sequential(self.first, nn.ReLU(), self.second)
                return made[0](x) + made[-1](x).sum() * len(made)
            total = x.sum()
            for m in nn.ModuleList([self.first, nn.Sigmoid()]):
                total = total + m(x).sum()
            return total

    return Holder()


def _sequential_outcome(lib, counter, which):
    nn = lib.nn
    first, second = nn.Linear(4, 4), nn.Linear(4, 4)
    with lib.no_grad():
        first.weight.copy_(lib.arange(16.).view(4, 4) / 10)
        second.weight.copy_(lib.arange(16.).view(4, 4) / -20)
        first.bias.fill_(0.5)
        second.bias.fill_(-0.25)
    counter, x = counter(), lib.arange(8.).view(2, 4)
    if which in HELD:
        out = lib.compile(_holder(lib, which, first, second), backend=counter)(x)
    elif which == "arguments":
        out = lib.compile(lambda x, a, b: nn.Sequential(a, nn.ReLU(), b)(x), backend=counter)(x, first, second)
    else:
        out = lib.compile(lambda x, *mods: nn.Sequential(*mods)(x), backend=counter)(x, first, nn.Sigmoid(), second)
    return [round(v, 4) for v in out.flatten().tolist()], counter.frame_count, counter.op_count


@pytest.mark.parametrize("which", HELD + ("arguments", "star_arguments"))
def test_sequential_built_in_the_frame_as_dynamo(which):
    ours = _sequential_outcome(minitorch2, CompileCounter, which)
    assert ours == _sequential_outcome(torch, TorchCompileCounter, which)


def test_sequential_built_in_the_frame_graph_as_dynamo():
    def code(lib):
        graphs = []
        first, second = lib.nn.Linear(4, 4), lib.nn.Linear(4, 2)
        fn = lib.compile(lambda x, a, b: lib.nn.Sequential(a, lib.nn.ReLU(), b)(x),
                         backend=lambda gm, example_inputs: graphs.append(gm.code) or gm.forward)
        fn(lib.ones(2, 4), first, second)
        return graphs

    assert code(minitorch2) == code(torch)


# ---------------------------------------------------------------- 4. .item() after an automatic-dynamic recompile
def _item_outcome(lib, counter, config, capture):
    counter = counter()

    def fn(x):
        total = x.sum().item()
        return x * total + x.shape[0], total

    compiled, outs = lib.compile(fn, backend=counter), []
    old = getattr(config, "capture_scalar_outputs", False)
    config.capture_scalar_outputs = capture
    try:
        for n in (3, 5, 7):
            out, total = compiled(lib.arange(float(n)))
            outs.append((out.tolist(), total, type(total).__name__))
    finally:
        config.capture_scalar_outputs = old
    return outs, counter.frame_count, counter.op_count


def test_item_after_a_dynamic_recompile_as_dynamo():
    """capture_scalar_outputs False (the default): .item() breaks the graph; the resumed frame's float goes
    dynamic at the third call and is returned from its input, not the graph (Dynamo's codegen prefers a source)."""
    ours = _item_outcome(minitorch2, CompileCounter, frontend.config, False)
    assert ours == _item_outcome(torch, TorchCompileCounter, torch._dynamo.config, False)


@pytest.mark.xfail(strict=True, reason="capture_scalar_outputs (unbacked .item() in the graph) is not implemented: "
                                       "ours breaks the graph as with the flag off (4 frames; Dynamo's 2)")
def test_item_captured_after_a_dynamic_recompile_as_dynamo():
    ours = _item_outcome(minitorch2, CompileCounter, frontend.config, True)
    assert ours == _item_outcome(torch, TorchCompileCounter, torch._dynamo.config, True)


# ---------------------------------------------------------------- 5. weight_norm(m, dim=None), both forms
def _weight_normed(lib, form, dim):
    linear = lib.nn.Linear(3, 2)
    with lib.no_grad():
        linear.weight.copy_(lib.arange(6.).view(2, 3) - 2)
        linear.bias.fill_(0.5)
    if form == "hook":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # (torch deprecates the hook form)
            return lib.nn.utils.weight_norm(linear, dim=dim)
    return lib.nn.utils.parametrizations.weight_norm(linear, dim=dim)


def _weight_norm_outcome(lib, form, dim):
    module, x, graphs = _weight_normed(lib, form, dim), lib.arange(6.).view(2, 3) / 3, []

    def backend(gm, example_inputs):
        graphs.append([(n.op, getattr(n.target, "__name__", n.target)) for n in gm.graph.nodes
                       if n.op != "placeholder"])  # (the inputs' names: the parametrization test below)
        return gm.forward

    def run(fn):
        out = fn(x)
        out.sum().backward()
        grads = {name: [round(v, 4) for v in p.grad.flatten().tolist()] for name, p in module.named_parameters()}
        module.zero_grad(set_to_none=True)
        return [round(v, 4) for v in out.flatten().tolist()], grads

    eager = run(module)
    compiled = run(lib.compile(module, backend=backend))
    weight = [round(v, 4) for v in module.weight.flatten().tolist()]  # (the hook's store, replayed after the graph)
    return eager, compiled, weight, sorted(graphs[0]) if len(graphs) == 1 else graphs


@pytest.mark.parametrize("dim", [None, 1])
@pytest.mark.parametrize("form", ["hook", "parametrization"])
def test_weight_norm_values_gradients_and_graph_ops_as_torch(form, dim):
    ours = _weight_norm_outcome(minitorch2, form, dim)
    assert ours[0] == ours[1]
    assert ours == _weight_norm_outcome(torch, form, dim)


def test_weight_norm_parametrization_graph_as_dynamo():
    def code(lib):
        graphs = []
        module = _weight_normed(lib, "parametrization", None)
        lib.compile(module, backend=lambda gm, example_inputs: graphs.append(gm.code) or gm.forward)(lib.ones(2, 3))
        return [c.replace("L_self_", "L_fn_").replace("L_input_", "L_args_0_").replace("l_self_", "l_fn_")
                .replace("l_input_", "l_args_0_") for c in graphs]

    assert code(minitorch2) == [c.replace("L_self_", "L_fn_") for c in code(torch)]


# ---------------------------------------------------------------- 6. threads compiling one function at once
def _racing_threads_outcome(lib, counter, threads=4):
    """Each thread that missed the cache compiles, one at a time under the compile lock, as Dynamo's (torch 2.13
    does not look at the cache again once it holds the lock: 4 racing threads, 4 compiles); afterwards the cache
    answers every call."""
    counter, busy, most_busy = counter(), [0], [0]

    def slow_backend(gm, example_inputs):
        busy[0] += 1
        most_busy[0] = max(most_busy[0], busy[0])
        time.sleep(0.2)  # (the other threads reach the cache, and miss it, meanwhile)
        busy[0] -= 1
        return counter(gm, example_inputs)

    def fn(x):
        return x.sin() + x.cos() * 2

    compiled, barrier, results, errors = lib.compile(fn, backend=slow_backend), threading.Barrier(threads), {}, []

    def worker(i):
        try:
            barrier.wait()
            results[i] = [round(v, 5) for v in compiled(lib.full((3,), float(i))).tolist()]
        except Exception as e:  # (reported below)
            errors.append(repr(e))

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    frames = counter.frame_count
    after = [round(v, 5) for v in compiled(lib.ones(3)).tolist()]
    return sorted(results.items()), errors, frames, counter.frame_count, most_busy[0], after


def test_threads_compiling_one_function_at_once_as_dynamo():
    ours = _racing_threads_outcome(minitorch2, CompileCounter)
    assert ours[1] == [] and ours[4] == 1  # no error; never two translations at once
    assert ours == _racing_threads_outcome(torch, TorchCompileCounter)


# ---------------------------------------------------------------- 7. flip in linear-attention style code
def linear_attention(q, k, v):
    kv = k.unsqueeze(-1) * v.unsqueeze(-2)
    suffix_sums = kv.flip(1).cumsum(1).flip(1)  # (a reverse cumsum: flip, cumsum, flip back)
    out = (q.unsqueeze(-1) * suffix_sums).sum(-2)
    return out + q.flip(-1).cumsum(dim=-1).flip(dims=(-1,)) + q.flip(0, 2).tile(dims=(1, 1, 1))


def _attention_outcome(lib, backend_name):
    graphs = []

    def keep(kind):
        def compiler(gm, example_inputs):
            graphs.append((kind, [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]))
            return gm.forward
        return compiler

    backend = (aot_autograd if lib is minitorch2 else torch_aot_autograd)(fw_compiler=keep("fw"),
                                                                          bw_compiler=keep("bw")) \
        if backend_name == "aot_eager" else backend_name
    q = (lib.arange(24.).view(2, 3, 4) / 10).requires_grad_()
    out = lib.compile(linear_attention, backend=backend)(q, q.cos(), q.sin())
    out.sum().backward()
    return graphs, [round(x, 4) for x in out.flatten().tolist()], [round(x, 4) for x in q.grad.flatten().tolist()]


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_flip_in_linear_attention_as_torch(backend):
    ours = _attention_outcome(minitorch2, backend)
    theirs = _attention_outcome(torch, backend)
    assert ours == theirs
    if backend == "aot_eager":
        assert ours[0][0][1].count("aten.flip.default") == 5


# ---------------------------------------------------------------- 8. channels_last AdaptiveAvgPool2d, eval, compiled
def _pooled_outcome(lib, backend_name, output_size):
    graphs = []

    def keep(kind):
        def compiler(gm, example_inputs):
            graphs.append((kind, [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]))
            return gm.forward
        return compiler

    backend = (aot_autograd if lib is minitorch2 else torch_aot_autograd)(fw_compiler=keep("fw"),
                                                                          bw_compiler=keep("bw")) \
        if backend_name == "aot_eager" else backend_name
    model = lib.nn.Sequential(lib.nn.Conv2d(3, 4, 1), lib.nn.AdaptiveAvgPool2d(output_size)).eval()
    with lib.no_grad():
        model[0].weight.copy_(lib.arange(12.).view(4, 3, 1, 1) / 10)
        model[0].bias.fill_(0.1)
        x = (lib.arange(210.).view(2, 3, 5, 7) / 50).to(memory_format=lib.channels_last)
        eager = model(x)
        out = lib.compile(model, backend=backend)(x)
    return graphs, [round(v, 4) for v in out.flatten().tolist()], tuple(out.shape), out.stride(), eager.stride()


@pytest.mark.parametrize("output_size", [1, (1, 1), (2, 3), (None, 2)])
def test_channels_last_adaptive_avg_pool_in_eval_as_torch(output_size):
    assert _pooled_outcome(minitorch2, "aot_eager", output_size) == _pooled_outcome(torch, "aot_eager", output_size)


def test_channels_last_adaptive_avg_pool_in_eval_inductor_as_torch():
    assert _pooled_outcome(minitorch2, "inductor", 1) == _pooled_outcome(torch, "inductor", 1)


# ---------------------------------------------------------------- 9. list.remove of a tensor
REMOVALS = {
    "the_first_itself": "xs = [a, b, c]\n    xs.remove(a)\n    return xs[0] + xs[1]",
    "a_later_one_itself": "xs = [a, b, c]\n    xs.remove(b)\n    return xs[0] + xs[1]",
    "an_equal_copy": "xs = [a, b, c]\n    xs.remove(a.clone())\n    return len(xs)",
    "an_equal_one_element_copy": "xs = [s1, s2]\n    xs.remove(s2.clone())\n    return len(xs), xs[0]",
    "a_one_element_missing": "xs = [s1]\n    xs.remove(s2 * 5)\n    return len(xs)",
    "a_number_among_tensors": "xs = [s1, 2.0]\n    xs.remove(2.0)\n    return len(xs)",
}


def _removal_outcome(lib, counter, name):
    namespace = {}
    exec(f"def program(a, b, c, s1, s2):\n    {REMOVALS[name]}\n", namespace)
    counter = counter()
    args = (lib.ones(3), lib.ones(3) * 2, lib.ones(3) * 3, lib.tensor([1.]), lib.tensor([2.]))
    try:
        out = lib.compile(namespace["program"], backend=counter)(*args)
        out = [o.tolist() if hasattr(o, "tolist") else o for o in (out if isinstance(out, tuple) else (out,))]
    except Exception as e:  # (the class and message are what is compared)
        out = type(e).__name__, str(e).split("\n")[0]
    return out, counter.frame_count, counter.op_count


@pytest.mark.parametrize("name", list(REMOVALS))
def test_list_remove_of_a_tensor_as_dynamo(name):
    assert _removal_outcome(minitorch2, CompileCounter, name) == _removal_outcome(torch, TorchCompileCounter, name)


def test_returned_dynamic_numbers_read_from_their_sources_as_dynamo():
    """An int argument gone dynamic is returned from its source; a tensor's size stays a graph output."""
    def graphs(lib):
        codes = []
        compiled = lib.compile(lambda x, n: (x * n, n, x.shape[0]),
                               backend=lambda gm, example_inputs: codes.append(gm.code.strip().splitlines()[-1])
                               or gm.forward)
        results = [compiled(lib.ones(k), k + 1) for k in (2, 3, 4)]
        return codes, [(r[0].tolist(), r[1], r[2]) for r in results]

    assert graphs(minitorch2) == graphs(torch)
