"""Patterns of tensor-manipulation libraries (einops' rearrange, its backend cache, its recipe parser) that Dynamo
traces through in one graph: written here as a small library of our own (einops itself is not a dependency), run
under minitorch2 and real torch, compared on values, frame/op counts and the Dynamo graphs' ops.

- a module-level cache keyed by classes: `_type2backend.get(type(x))`, `type(x) in cache`, `cache[type(x)]`, read
  from a function of another module (foreign globals) and from the frame's own globals;
- a keyword check through a frozenset constant's bound method (`keyword.iskeyword` is `frozenset(...).__contains__`);
- an lru_cache'd recipe parser of the pattern string, with `set.difference(a, b)` read unbound.
"""
import itertools
import sys
import types

import numpy as np
import torch
import torch._dynamo
import torch._dynamo.testing

import frontend
import frontend.testing
import minitorch2

SIDES = {"torch": (torch, torch._dynamo, torch._dynamo.testing.CompileCounterWithBackend),
         "minitorch2": (minitorch2, frontend, frontend.testing.CompileCounterWithBackend)}

LIBRARY = '''
import functools
import keyword

_type2backend = {}
_RESERVED = frozenset(["self", "cls"])


class Backend:
    def reshape(self, x, shape):
        return x.reshape(shape)

    def permute(self, x, axes):
        return x.permute(axes)


def get_backend(tensor):
    backend = _type2backend.get(type(tensor), None)
    if backend is not None:
        return backend
    backend = _type2backend[type(tensor)] = Backend()
    return backend


def has_backend(tensor):
    return type(tensor) in _type2backend


def _check_names(names):
    for name in names:
        if keyword.iskeyword(name) or _RESERVED.__contains__(name):
            raise ValueError(f"{name} cannot be an axis name")


@functools.lru_cache(256)
def _recipe(pattern):
    left, right = (side.split() for side in pattern.split("->"))
    _check_names(left)
    if set.symmetric_difference(set(left), set(right)) or set.difference(set(right), set(left)):
        raise ValueError(f"axes differ in {pattern}")
    return tuple(left.index(name) for name in right)


def rearrange(tensor, pattern):
    backend = get_backend(tensor)
    return backend.permute(tensor, _recipe(pattern))
'''


_modules = itertools.count()


def _library(name, lib):
    """The library as a module of its own (its functions' globals are not the test's), a new one for each test."""
    name = f"{name}_{next(_modules)}"
    module = types.ModuleType(name)
    exec(compile(LIBRARY, f"<{name}>", "exec"), module.__dict__)
    sys.modules[name] = module
    module.get_backend(lib.zeros(1))  # warmed before compiling, as Dynamo's einops hook runs one rearrange
    return module


def _run(program):
    """program(lib, library, compile) under each side: (results, (frames, ops), graphs' ops) for each."""
    runs = []
    for name, (lib, dynamo, counter_class) in SIDES.items():
        dynamo.reset()
        graphs = []

        def keep(gm, example_inputs, graphs=graphs):
            graphs.append([str(n.target) for n in gm.graph.nodes if n.op in ("call_function", "call_method")])
            return gm.forward

        counter = counter_class(keep)
        library = _library(f"patterns_library_{name}", lib)
        results = program(lib, library, lambda fn, lib=lib, counter=counter: lib.compile(fn, backend=counter))
        runs.append((results, (counter.frame_count, counter.op_count), graphs))
    return runs


def _assert_same(program, frames=1):
    (t_results, t_counts, t_graphs), (m_results, m_counts, m_graphs) = _run(program)
    assert m_counts == t_counts, f"(frames, ops): ours {m_counts}, torch {t_counts}"
    assert t_counts[0] == frames
    assert m_graphs == t_graphs
    for ours, theirs in zip(m_results, t_results, strict=True):
        np.testing.assert_allclose(np.asarray(ours.detach().numpy()), theirs.detach().numpy(), rtol=1e-6)


def test_backend_cache_keyed_by_type_read_from_another_module():
    def program(lib, library, compile_):
        def f(x):
            y = x + 1  # (an op on each side of the library's call: a break there would make two graphs)
            return library.get_backend(y).reshape(y, (2, 3)) * 2

        x = lib.arange(6.0)
        return [compile_(f)(x), compile_(f)(x + 1)]

    _assert_same(program)


def test_type_in_a_class_keyed_cache_and_its_item():
    def program(lib, library, compile_):
        def f(x):
            cache = library._type2backend
            y = x + 1 if type(x) in cache else x - 1
            return cache[type(x)].permute(y.reshape(2, 3), (1, 0))

        return [compile_(f)(lib.arange(6.0))]

    _assert_same(program)


def test_a_new_class_in_the_cache_recompiles():
    def program(lib, library, compile_):
        def f(x):
            y = x + 1
            return y * len(library._type2backend) if library.has_backend(y) else y

        compiled, x = compile_(f), lib.arange(3.0)
        first = compiled(x)
        library.get_backend(lib.nn.Parameter(lib.zeros(1)))  # a second class key: the keys guard fails
        return [first, compiled(x)]

    _assert_same(program, frames=2)


def test_keyword_check_through_a_frozenset_method():
    def program(lib, library, compile_):
        def f(x):
            y = x.cos()
            library._check_names(["a", "b"])
            return y.sin()

        return [compile_(f)(lib.arange(4.0))]

    _assert_same(program)


def test_lru_cached_recipe_parsed_in_the_frame():
    def program(lib, library, compile_):
        def f(x):
            return library.rearrange(x, "a b c -> c a b") + library.rearrange(x, "a b c -> c a b")

        x = lib.arange(24.0).reshape(2, 3, 4)
        return [compile_(f)(x)]

    _assert_same(program)
