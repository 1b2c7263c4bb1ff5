"""Modules whose members have odd names (unicode, builtins' names, dunder-like, leading digits, '-', names of
nn.Module's own methods), eager and compiled, against torch.

Session 24's probes found nn.Module without torch's `type`, `cuda`, `to_empty`, `set_submodule`, `_apply`,
`get_extra_state`/`set_extra_state`, `call_super_init` and `dump_patches`: a program calling one failed with
AttributeError, and a parameter, buffer or submodule (or a ParameterDict key) named after one was accepted where
torch refuses it (KeyError: attribute already exists); and state_dict neither saved nor loaded a module's extra
state.
"""
import numpy as np
import pytest
import torch

import frontend
import minitorch2 as mt

TORCH_METHOD_NAMES = ["type", "cuda", "to_empty", "set_submodule", "_apply", "get_extra_state", "set_extra_state",
                      "call_super_init", "dump_patches"]
ODD_NAMES = ["sum", "len", "0x", "a-b", "ü", "__x__", "forward_", "weight_"]


def _outcome(fn):
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001 - the class is compared
        return type(e).__name__, None


@pytest.mark.parametrize("kind", ["parameter", "buffer", "module", "parameter_dict"])
@pytest.mark.parametrize("name", TORCH_METHOD_NAMES + ODD_NAMES)
def test_member_names_accepted_or_refused_as_torch(name, kind):
    def register(L):
        m = L.nn.Linear(2, 2)
        if kind == "parameter":
            setattr(m, name, L.nn.Parameter(L.ones(1)))
        elif kind == "buffer":
            m.register_buffer(name, L.ones(1))
        elif kind == "module":
            m.add_module(name, L.nn.ReLU())
        else:
            m = L.nn.ParameterDict({name: L.nn.Parameter(L.ones(1))})
        return sorted(m.state_dict())

    assert _outcome(lambda: register(mt)) == _outcome(lambda: register(torch))


def _sequential(L):
    L.manual_seed(0)
    m = L.nn.Sequential(L.nn.Linear(2, 3), L.nn.ReLU())
    m.register_buffer("steps", L.tensor([3]))
    return m


@pytest.mark.parametrize("call", ["type", "type_name", "cuda", "to_empty", "to_empty_not_recursive"])
def test_conversions(call):
    def convert(L):
        m = _sequential(L)
        if call == "type":
            m.type(L.float64)
        elif call == "type_name":
            m.type("torch.DoubleTensor")
        elif call == "cuda":
            m.cuda()
        elif call == "to_empty":
            m.to_empty(device="cpu")
        else:
            m.register_parameter("own", L.nn.Parameter(L.ones(2)))
            assert m.to_empty(device="cpu", recurse=False) is m
        return [(k, str(v.dtype), tuple(v.shape)) for k, v in m.state_dict().items()]

    assert _outcome(lambda: convert(mt)) == _outcome(lambda: convert(torch))


@pytest.mark.parametrize("target, strict", [("1", False), ("2", False), ("2", True), ("0.weight", False),
                                            ("", False), ("0.inner", False), ("9.x", False)])
def test_set_submodule(target, strict):
    def replace(L):
        m = _sequential(L)
        m.set_submodule(target, L.nn.Tanh(), strict=strict)
        return [type(c).__name__ for c in m.modules()]

    assert _outcome(lambda: replace(mt)) == _outcome(lambda: replace(torch))


def test_set_submodule_refuses_what_is_no_module():
    assert _outcome(lambda: _sequential(mt).set_submodule("1", 3)) == _outcome(
        lambda: _sequential(torch).set_submodule("1", 3))


def _with_extra_state(L):
    class WithExtra(L.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = L.nn.Linear(1, 1)
            self.extra = {"n": 1}

        def get_extra_state(self):
            return self.extra

        def set_extra_state(self, state):
            self.extra = dict(state, loaded=True)

    return L.nn.Sequential(WithExtra())


def test_extra_state_saved_and_loaded():
    def round_trip(L):
        saved = _with_extra_state(L).state_dict()
        saved["0._extra_state"] = {"n": 2}
        loaded = _with_extra_state(L)
        result = loaded.load_state_dict(saved)
        return list(saved), loaded[0].extra, list(result.missing_keys), list(result.unexpected_keys)

    assert round_trip(mt) == round_trip(torch)
    assert _outcome(lambda: mt.nn.Linear(1, 1).get_extra_state()) == ("RuntimeError", None)


class _OddNames:
    """A module whose members have odd names, read by attribute, by getattr with a computed name, and by key."""

    @staticmethod
    def build(L):
        L.manual_seed(0)
        m = L.nn.Module()
        m.sum = L.nn.Linear(3, 3)
        setattr(m, "0weird", L.nn.Parameter(L.full((3,), 2.0)))
        setattr(m, "a-b", L.nn.Linear(3, 3))
        m.register_buffer("__dunderish__", L.ones(3) * 3)
        m.ünï = L.nn.Parameter(L.ones(3) * 4)
        m.d = L.nn.ModuleDict({"sum": L.nn.Linear(3, 3), "ü": L.nn.Identity(), "1x": L.nn.Tanh()})
        m.p = L.nn.ParameterDict({"kind": L.nn.Parameter(L.ones(3)), "ñ": L.nn.Parameter(L.ones(3) * 2)})
        return m

    @staticmethod
    def forward(m, x):
        y = m.sum(x) + getattr(m, "0weird") + getattr(m, "a-b")(x) + getattr(m, "__dunderish__") + m.ünï
        for key in ["sum", "ü", "1x"]:
            y = m.d[key](y)
        for _, v in m.p.items():
            y = y * v
        return getattr(m, "".join(["s", "u", "m"]))(y)


@pytest.mark.parametrize("backend", ["eager", "aot_eager", "inductor"])
def test_odd_member_names_compiled(backend):
    def run(L):
        m = _OddNames.build(L)
        x = L.arange(6.0).reshape(2, 3).requires_grad_()
        out = L.compile(lambda x: _OddNames.forward(m, x), backend=backend)(x)
        out.sum().backward()
        return out.detach().numpy(), x.grad.numpy(), m.p["ñ"].grad.numpy()

    frontend.reset()
    torch._dynamo.reset()
    for ours, theirs in zip(run(mt), run(torch), strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
