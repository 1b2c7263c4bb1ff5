"""Dynamic shapes in the runtime: SymInt arithmetic and printing, the ShapeEnv's guards, make_fx's symbolic mode.

Each case runs on real torch (the oracle) and on minitorch2, and compares what a user sees: graph code, reprs,
guards, error classes.
"""
import functools

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx as torch_make_fx
from torch.fx.experimental.symbolic_shapes import ShapeEnv as TorchShapeEnv

import minitorch2
from autograd.proxy_tensor import make_fx
from minitorch2.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode, ShapeEnv

PROGRAMS = {
    # seed 002's example
    "seed002": (lambda lib: lambda x: (x.sin() * x.shape[0]).sum(0), [(3,)]),
    "arith_on_sizes": (lambda lib: lambda x, y: (x.sin() * x.shape[0] + y.sum()).view(-1, 2) * (x.shape[0] // 2 - 1),
                       [(6,), (6, 3)]),
    "duck_sized_broadcast": (lambda lib: lambda x, y: (x + y).relu().mean(0), [(5, 4), (5, 4)]),
    "view_flatten": (lambda lib: lambda x: x.view(x.shape[0], -1).sum(1) + x.shape[1], [(4, 3, 2)]),
    "cat_and_slice": (lambda lib: lambda x: lib.cat([x, x[1:]]).sum(), [(5, 3)]),
    "new_zeros": (lambda lib: lambda x: x.new_zeros(x.shape[0], 2) + x[:, :1], [(4, 3)]),
}


def _code(lib, name):
    build, shapes = PROGRAMS[name]
    maker = torch_make_fx if lib is torch else make_fx
    inputs = [lib.randn(*shape) for shape in shapes]
    gm = maker(build(lib), tracing_mode="symbolic")(*inputs)
    placeholders = [str(n.meta["val"]) for n in gm.graph.nodes if n.op == "placeholder"]
    return gm.code, placeholders, gm


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_make_fx_symbolic_prints_what_torch_prints(name):
    expected, expected_placeholders, _ = _code(torch, name)
    code, placeholders, gm = _code(minitorch2, name)
    assert code == expected
    assert [p.replace("FakeTensor", "") for p in placeholders] == \
        [p.replace("FakeTensor", "") for p in expected_placeholders]


def test_symbolic_graph_runs_for_other_sizes():
    _, _, gm = _code(minitorch2, "arith_on_sizes")
    for n in (4, 8, 10):
        x, y = minitorch2.randn(n), minitorch2.randn(n, 3)
        expected = ((x.sin() * n + y.sum()).view(-1, 2) * (n // 2 - 1)).numpy()
        assert gm(x, y).numpy() == pytest.approx(expected, rel=1e-5)


def _symbols(lib_env, hint, source):
    if isinstance(lib_env, TorchShapeEnv):
        from torch._dynamo.source import ConstantSource
        return lib_env.create_symintnode(lib_env.create_symbol(hint, ConstantSource(source)), hint=hint)
    return lib_env.create_symbol(hint, source)


@pytest.mark.parametrize("expression", [
    "s", "s // 2", "s % 4", "2 * (s // 2)", "s * s + 3", "s - 1", "s > 2", "s == 4", "-s", "s + 1",
])
def test_symint_repr(expression):
    reprs = []
    for env in (TorchShapeEnv(), ShapeEnv()):
        s = _symbols(env, 8, "x")
        reprs.append(repr(eval(expression)))
    assert reprs[1] == reprs[0]


# `//` and `%` over two sizes: a compound side parenthesised, a division of a division folded, the terms an
# integer divides taken out, a division inside a sum or product parenthesised again
DIVISIONS = ["a*b//2", "(a*b//2)//3", "a//2//3", "(a+1)//2", "(2*a+1)//2", "(a*b+2*a)//2", "(a - 1)//2", "(-a)//2",
             "(a*b)%4", "(a//2)+1", "a//2 - 1", "-(a//2)", "a//(a//2)", "(a*b)//(a//2)", "(a%3)+1", "a*(a%3)",
             "(a//2)*(b//3)", "(a%3)//2", "(a//2)%3", "a//(2*b)", "(a//2)//b", "(a//b)//(a//2)", "(4*a)//6",
             "a//(b+1)", "(a+b)//2", "a*a//3"]


@pytest.mark.parametrize("expression", DIVISIONS)
def test_symint_repr_of_divisions(expression):
    reprs = []
    for env in (TorchShapeEnv(), ShapeEnv()):
        sizes = {"a": _symbols(env, 8, "x"), "b": _symbols(env, 12, "y")}
        reprs.append((repr(eval(expression, sizes)), str(eval(expression, sizes))))
    assert reprs[1] == reprs[0]


def size_times_pairs(x):
    return x.view(-1, 2).sum(1) * x.shape[0]


def pairs_then_triples(x):
    return x.view(-1, 2).sum(1).view(-1, 3)


@pytest.mark.parametrize("fn, shape", [(size_times_pairs, (8,)), (pairs_then_triples, (4, 12))])
def test_make_fx_symbolic_print_readable_matches_torch(fn, shape):
    """The module's class is named after the function; a size node reads `sym_size_int: "Sym(s75)"`; view(-1, 2)
    of a 2-d tensor keeps torch's spelling of the split dim, `((s75*s96)//(((s75*s96)//2)))`."""
    texts = [maker(fn, tracing_mode="symbolic")(lib.randn(*shape)).print_readable(print_output=False)
             for maker, lib in ((torch_make_fx, torch), (make_fx, minitorch2))]
    assert texts[1] == texts[0]


def _callables(lib):
    def plain(x):
        return x * 2

    def star(*args):
        return args[0] * 2

    @functools.wraps(plain)
    def wrapped(x):
        return plain(x)

    def scaled(x, k):
        return x * k

    class Module(lib.nn.Module):
        def forward(self, x):
            return x + 1

    return [plain, star, wrapped, lambda x: x - 1, functools.partial(scaled, k=3), Module(), lib.sin]


@pytest.mark.parametrize("tracing_mode", ["real", "symbolic"])
def test_make_fx_names_the_module_class_as_torch(tracing_mode):
    """After the traced function; `<lambda>` where torch traces through a lambda of its own (a partial, a module, a
    builtin, a function taking *args)."""
    names = [[type(maker(fn, tracing_mode=tracing_mode)(lib.randn(4))).__name__ for fn in _callables(lib)]
             for maker, lib in ((torch_make_fx, torch), (make_fx, minitorch2))]
    assert names[1] == names[0]


def test_decisions_become_guards_and_ranges():
    env = ShapeEnv()
    s = env.create_symbol(8, "L['x'].size()[0]")
    assert bool(s > 2) and s % 2 == 0 and bool(s != 1)  # `s != 1` is known (sizes are >= 2): no guard
    assert env.produce_guards() == ["(L['x'].size()[0] % 2) == 0", "3 <= L['x'].size()[0]"]
    assert bool(s <= 10)
    assert env.produce_guards()[-1] == "3 <= L['x'].size()[0] and L['x'].size()[0] <= 10"  # (torch's code_list)
    assert int(s) == 8  # specialises: the symbol is replaced by its hint
    assert "L['x'].size()[0] == 8" in env.produce_guards()


def test_zero_one_specialisation_and_duck_sizing():
    env = ShapeEnv()
    assert env.create_symbol(1, "L['a'].size()[0]") == 1
    x = env.create_symbol(5, "L['x'].size()[0]")
    y = env.create_symbol(5, "L['y'].size()[0]")
    assert repr(x) == repr(y) == "s77"
    assert env.produce_guards() == ["L['y'].size()[0] == L['x'].size()[0]", "2 <= L['x'].size()[0]"]


def test_symint_is_unhashable_as_torchs():
    for env in (TorchShapeEnv(), ShapeEnv()):
        with pytest.raises(TypeError, match="unhashable type: non-nested SymInt"):
            hash(_symbols(env, 8, "x"))


def test_branching_on_an_unbacked_symbol_raises_data_dependent_error():
    env = ShapeEnv()
    u = env.create_unbacked_symfloat()  # (what `.item()` of a fake float tensor gives: the one unbacked kind made)
    assert repr(u) == "zuf0"
    with pytest.raises(GuardOnDataDependentSymNode, match=r"Could not guard on data-dependent expression zuf0 > 2"):
        bool(u > 2)
