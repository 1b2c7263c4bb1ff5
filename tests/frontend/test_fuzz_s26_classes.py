"""Differential fuzzing of session 25's classes, minitorch2 against torch, with what users pass in.

Each property draws a small program's source, execs it once with `torch` bound to minitorch2 and once to torch,
compiles its f with a CompileCounter, calls it, and compares values, the inputs' gradients and (where Dynamo's
counts are stable) frame_count and op_count:

- test_jit_objects_match_torch: torch.jit.script / torch.jit.trace of a function or a module, made inside the
  compiled frame, passed in as an argument, or read as a global, called in f (minitorch2/jit.py, the inlining of
  a ScriptFunction in frontend/variables/dataclass_internals.py, the refusal of a scripted module);
- test_strided_outputs_match_torch: compiled functions returning permuted, transposed, expanded, stepped,
  channels_last or size-1-dim outputs under autograd (autograd/tangent_strides.py), from contiguous or
  non-contiguous inputs, with aot_eager or the inductor, backward with a contiguous or a non-contiguous
  `gradient=` (Tensor.backward for one output); values, strides and gradients against torch's aot_eager;
- test_refused_modules_match_torch: nn.RNN/GRU/LSTM (allow_rnn off) and scripted modules read as globals, passed
  as arguments, read from a plain object's attribute (into a local or called at once), iterated from a ModuleList
  (frontend/rnn_refusal.py).

The named tests at the end are the differences these properties found (each failed before its fix).
20 examples per property by default; the slow variants (CI's slow step) draw 60; `python -m minitorch2 fuzz --layer classes
--examples N` draws more.
"""
import contextlib
import io
import itertools
import os
import sys
import tempfile
import types
import warnings

import numpy as np
import pytest
import torch
import torch._dynamo
import torch._dynamo.testing
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import frontend
import minitorch2
from frontend.testing import CompileCounter
from minitorch2.cli.fuzz import EXAMPLES_VARIABLE

# `python -m minitorch2 fuzz --layer ... --examples N` draws N in each property; the default run 20
FAST = settings(max_examples=int(os.environ.get(EXAMPLES_VARIABLE, 20)), deadline=None,
                suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=int(os.environ.get(EXAMPLES_VARIABLE, 60)), deadline=None,
                suppress_health_check=list(HealthCheck))

POINTWISE = ["x.sin()", "x * 2", "x + 1", "x.relu()", "x.exp() - 1", "torch.tanh(x)", "x / 3", "x.abs() + x"]


def _run(source, lib, make_args, call_name="f"):
    """Exec source with `torch` as lib, compile its f with a counter, call it on make_args(lib): (values, input
    gradients, counts)."""
    lib.manual_seed(0)
    namespace = _namespace(source, lib)
    counter = CompileCounter() if lib is minitorch2 else torch._dynamo.testing.CompileCounter()
    compiled = lib.compile(namespace[call_name], backend=counter)
    args = make_args(lib, namespace)
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        out = compiled(*args)
    tensors = [t for t in (out if isinstance(out, tuple) else (out,)) if hasattr(t, "requires_grad")]
    if any(t.requires_grad for t in tensors):
        sum((t * (i + 1.5)).sum() for i, t in enumerate(tensors) if t.requires_grad).backward()
    grads = [None if getattr(a, "grad", None) is None else a.grad.detach().numpy().copy() for a in args]
    values = [t.detach().float().numpy().copy() for t in tensors]
    return values, grads, (counter.frame_count, counter.op_count)


def _namespace(source, lib):
    """Exec source as a module of its own, in a file (torch.jit.script reads its functions' and classes' source)."""
    name = f"s26_program_{next(_COUNT)}"
    path = os.path.join(tempfile.mkdtemp(prefix="s26_fuzz_"), name + ".py")
    with open(path, "w") as file:
        file.write(source)
    module = types.ModuleType(name)
    module.__file__ = path
    module.torch, module.nn = lib, lib.nn
    sys.modules[name] = module
    exec(compile(source, path, "exec"), module.__dict__)
    return module.__dict__


_COUNT = itertools.count()


def _reset():
    frontend.reset()
    torch._dynamo.reset()


def check_program(source, make_args, counts=True, tolerance=dict(rtol=1e-4, atol=1e-5)):
    _reset()
    ours = _run(source, minitorch2, make_args)
    _reset()
    theirs = _run(source, torch, make_args)
    _reset()
    assert len(ours[0]) == len(theirs[0])
    for o, t in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(o, t, **tolerance)
    for o, t in zip(ours[1], theirs[1]):
        assert (o is None) == (t is None), "gradient present in one only"
        if t is not None:
            np.testing.assert_allclose(o, t, **tolerance)
    if counts:
        assert ours[2] == theirs[2], f"counts {ours[2]} vs torch's {theirs[2]}"


def _input(lib, shape=(2, 4), seed=0):
    data = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return lib.tensor(data, requires_grad=True)


# ---- a. torch.jit objects in compiled frames --------------------------------------------------------------------

@st.composite
def jit_programs(draw):
    body = draw(st.lists(st.sampled_from(POINTWISE), min_size=1, max_size=3))
    helper = "def helper(x):\n" + "".join(f"    x = {op}\n" for op in body) + "    return x\n"
    kind = draw(st.sampled_from(["script_fn", "trace_fn", "script_module", "trace_module"]))
    sites = ["global", "argument", "in_forward"] + (["in_frame"] if kind.endswith("fn") else [])
    site = draw(st.sampled_from(sites))
    before, after = draw(st.sampled_from(POINTWISE)), draw(st.sampled_from(POINTWISE))
    made = {"script_fn": "torch.jit.script(helper)", "trace_fn": "torch.jit.trace(helper, torch.ones(2, 4))",
            "script_module": "torch.jit.script(Net())",
            "trace_module": "torch.jit.trace(Net(), torch.ones(2, 4))"}[kind]
    net = ("class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
           "        self.lin = nn.Linear(4, 4)\n    def forward(self, x):\n        return helper(self.lin(x))\n")
    source = helper + net
    if site == "global":
        source += f"J = {made}\ndef f(x, j):\n    x = {before}\n    y = J(x)\n    x = y\n    return {after}\n"
    elif site == "in_forward":  # a module whose forward calls the jit object, its attribute
        source += (f"class Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                   f"        self.j = {made}\n    def forward(self, x):\n        return self.j(x)\n"
                   f"J = Outer()\ndef f(x, j):\n    x = {before}\n    y = J(x)\n    x = y\n    return {after}\n")
    elif site == "argument":
        source += f"J = {made}\ndef f(x, j):\n    x = {before}\n    y = j(x)\n    x = y\n    return {after}\n"
    else:
        source += f"def f(x, j):\n    x = {before}\n    y = {made}(x)\n    x = y\n    return {after}\n"
    return source


def jit_args(lib, namespace):
    return _input(lib), namespace.get("J")


@FAST
@given(jit_programs())
def test_jit_objects_match_torch(program):
    note(program)
    check_program(program, jit_args)


# ---- b. non-contiguous outputs under autograd -----------------------------------------------------------------

LAYOUTS = {  # output expression of a (2, 3, 4, 5) tensor y
    "permute": "y.permute(2, 0, 3, 1)", "transpose": "y.transpose(1, 3)", "expand": "y[:, :1].expand(2, 3, 4, 5)",
    "step": "y[:, ::2, :, ::3]", "channels_last": "y.contiguous(memory_format=torch.channels_last)",
    "size1": "y[:, 1:2].permute(1, 0, 2, 3)", "sum_mT": "y.sum(1).mT", "unsqueeze": "y.unsqueeze(2).transpose(0, 2)",
}


@st.composite
def strided_programs(draw):
    ops = draw(st.lists(st.sampled_from(POINTWISE), min_size=1, max_size=2))
    outs = draw(st.lists(st.sampled_from(sorted(LAYOUTS)), min_size=1, max_size=2, unique=True))
    body = "def f(x):\n" + "".join(f"    x = {op}\n" for op in ops) + "    y = x\n"
    body += "    return (" + "".join(f"{LAYOUTS[name]} * {k + 1}, " for k, name in enumerate(outs)) + ")\n"
    return body, draw(st.booleans()), draw(st.sampled_from(sorted(INPUT_LAYOUTS))), draw(st.sampled_from(
        ["aot_eager", "inductor"]))


INPUT_LAYOUTS = {  # the (2, 3, 4, 5) input the user passes: a leaf, or a view of one (its gradient is the leaf's)
    "contiguous": ((2, 3, 4, 5), lambda t: t), "permuted": ((4, 2, 5, 3), lambda t: t.permute(1, 3, 0, 2)),
    "channels_last": ((2, 4, 5, 3), lambda t: t.permute(0, 3, 1, 2)), "stepped": ((2, 3, 8, 5), lambda t: t[:, :, ::2]),
}


def run_strided(source, lib, strided_gradient, input_layout="contiguous", backend="aot_eager"):
    namespace = _namespace(source, lib)
    shape, view = INPUT_LAYOUTS[input_layout]
    leaf = _input(lib, shape)
    x = view(leaf)
    outs = lib.compile(namespace["f"], backend=backend)(x)
    grads = []
    for k, out in enumerate(outs):
        rng = np.random.default_rng(k)
        if strided_gradient:  # a gradient of the output's shape, itself a transposed view
            g = lib.tensor(rng.standard_normal(tuple(reversed(out.shape))).astype(np.float32)).permute(
                *reversed(range(out.dim())))
        else:
            g = lib.tensor(rng.standard_normal(tuple(out.shape)).astype(np.float32))
        grads.append(g)
    if len(outs) == 1:
        outs[0].backward(gradient=grads[0])
    else:
        lib.autograd.backward(list(outs), grads)
    return [(o.detach().numpy().copy(), o.stride()) for o in outs], leaf.grad.numpy().copy()


@FAST
@given(strided_programs())
def test_strided_outputs_match_torch(program):
    check_strided(program)


def check_strided(program):
    source, strided_gradient, input_layout, backend = program
    note(f"{backend}; {input_layout} input; {'strided' if strided_gradient else 'contiguous'} gradient\n{source}")
    _reset()
    # (ours with the backend drawn; torch's aot_eager: its outputs' strides are eager's, which Inductor keeps)
    ours = run_strided(source, minitorch2, strided_gradient, input_layout, backend)
    theirs = run_strided(source, torch, strided_gradient, input_layout)
    _reset()
    for (o, o_stride), (t, t_stride) in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(o, t, rtol=1e-5, atol=1e-6)
        assert o_stride == t_stride, f"strides {o_stride} vs torch's {t_stride}"
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-5)


# ---- d. refused modules -------------------------------------------------------------------------------------

REFUSED = {"gru": "nn.GRU(4, 4)", "lstm": "nn.LSTM(4, 4)", "rnn": "nn.RNN(4, 4)",
           "scripted": "torch.jit.script(nn.Linear(4, 4))"}
SITES = {  # how f reaches the module M: (setup after M is made, the statements calling it, at `    ` indentation)
    "global": ("", "x = first(M(x))"), "argument": ("", "x = first(m(x))"),
    "attribute_call": ("", "x = first(holder.m(x))"), "attribute_local": ("", "mod = holder.m\nx = first(mod(x))"),
    "global_local": ("", "mod = M\nx = first(mod(x))"), "argument_local": ("", "mod = m\nx = first(mod(x))"),
    "list_local": ("", "mods = [holder.m]\nx = first(mods[0](x))"),
    "tuple_argument": ("", "x = first((m,)[0](x))"),
    "module_list": ("LIST = nn.ModuleList([M])\n", "for mod in LIST:\n    x = first(mod(x))"),
    "module_attribute": ("", "x = first(owner.m(x))"),
    "module_attribute_local": ("", "mod = owner.m\nx = first(mod(x))"),
    "helper": ("def helper(m, x):\n    return m(x)\n", "x = first(helper(holder.m, x))"),
    # f is itself a module (compiled as one), M its submodule, read as self.m
    "self": ("", "x = first(self.m(x))"), "self_local": ("", "mod = self.m\nx = first(mod(x))"),
}


@st.composite
def refused_programs(draw):
    kind, site = draw(st.sampled_from(sorted(REFUSED))), draw(st.sampled_from(sorted(SITES)))
    before = draw(st.lists(st.sampled_from(POINTWISE), min_size=0, max_size=3))
    after = draw(st.sampled_from(POINTWISE))
    setup, calls = SITES[site]
    source = (f"M = {REFUSED[kind]}\n{setup}class Holder:\n    def __init__(self, m):\n        self.m = m\n"
              "class Owner(nn.Module):\n    def __init__(self, m):\n        super().__init__()\n        self.m = m\n"
              "def first(out):\n    return out[0] if isinstance(out, tuple) else out\n")
    indent = "        " if site.startswith("self") else "    "
    body = "".join(f"{indent}{line}\n" for line in [*(f"x = {op}" for op in before), *calls.splitlines(),
                                                     f"return {after}"])
    if site.startswith("self"):
        return source + "class F(Owner):\n    def forward(self, x, m, holder, owner):\n" + body + "f = F(M)\n"
    return source + "def f(x, m, holder, owner):\n" + body


def refused_args(lib, namespace):
    module = namespace["M"]
    return _input(lib), module, namespace["Holder"](module), namespace["Owner"](module)


@FAST
@given(refused_programs())
def test_refused_modules_match_torch(source):
    note(source)
    check_program(source, refused_args)


# ---- the finds ---------------------------------------------------------------------------------------------

ATTRIBUTE_INTO_A_LOCAL = """
M = nn.GRU(4, 4)
class Holder:
    def __init__(self, m):
        self.m = m
def f(x, m, holder, owner):
    x = x.sin()
    x = x.cos()
    mod = holder.m
    return mod(x)[0] + 1
"""

GLOBAL_INTO_A_LOCAL = ATTRIBUTE_INTO_A_LOCAL.replace("mod = holder.m", "mod = M").replace(
    "nn.GRU(4, 4)", "torch.jit.script(nn.Linear(4, 4))").replace("mod(x)[0]", "mod(x)")

MODULE_LIST_LOOP = """
M = nn.LSTM(4, 4)
LIST = nn.ModuleList([M])
def f(x, m, holder, owner):
    x = x.sin() * 2
    for mod in LIST:
        x = mod(x)[0]
    return x + 1
"""


LIST_IN_A_LOCAL = ATTRIBUTE_INTO_A_LOCAL.replace("mod = holder.m", "mods = [holder.m]").replace("mod(x)", "mods[0](x)")


@pytest.mark.parametrize("source", [ATTRIBUTE_INTO_A_LOCAL, GLOBAL_INTO_A_LOCAL, MODULE_LIST_LOOP, LIST_IN_A_LOCAL],
                         ids=["attribute_into_a_local", "global_into_a_local", "module_list_loop", "list_in_a_local"])
def test_refused_module_in_a_local_runs_the_frame_eagerly(source):
    """A refused module in a local of the frame (not its own argument): Dynamo's lazy tracker of it fails at every
    resume, so the whole frame runs eagerly, (0, 0); ours compiled up to the checkpoint, (1, 2)."""
    source = "class Holder:\n    def __init__(self, m):\n        self.m = m\nclass Owner(Holder):\n    pass\n" + source
    check_program(source, refused_args)


SCRIPTED_MODULE_AFTER_ONE_OP = """
def helper(x):
    return x.sin()
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
    def forward(self, x):
        return helper(self.lin(x))
J = torch.jit.script(Net())
def f(x, j):
    y = J(x.sin())
    return y.cos()
"""


def test_scripted_module_in_a_frame_run_eagerly():
    """With no checkpoint before the scripted module's call, the frame runs eagerly; TorchScript runs the module, so
    its forward is no frame Dynamo's callback sees: (0, 0). Ours compiled the forward as a frame of its own, (1, 1)."""
    check_program(SCRIPTED_MODULE_AFTER_ONE_OP, jit_args)


SUBMODULE_INTO_A_LOCAL = """
class F(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = nn.LSTM(4, 4)
    def forward(self, x, m, holder, owner):
        x = x.sin().cos()
        mod = self.m
        return mod(x)[0] * 2
f = F()
M = f.m
"""


def test_submodule_into_a_local_compiles_up_to_the_checkpoint():
    """A module's own submodule is wrapped, and refused, at `self.m`: the frame goes back to its checkpoint before
    the read, with no refused local to rebuild, (1, 2), as before."""
    source = "class Holder:\n    def __init__(self, m):\n        self.m = m\nclass Owner(Holder):\n    pass\n"
    check_program(source + SUBMODULE_INTO_A_LOCAL, refused_args)


@pytest.mark.slow
@SLOW
@given(jit_programs())
def test_jit_objects_match_torch_many(program):
    note(program)
    check_program(program, jit_args)


@pytest.mark.slow
@SLOW
@given(strided_programs())
def test_strided_outputs_match_torch_many(program):
    check_strided(program)


@pytest.mark.slow
@SLOW
@given(refused_programs())
def test_refused_modules_match_torch_many(source):
    note(source)
    check_program(source, refused_args)
