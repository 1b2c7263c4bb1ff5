"""A dict the frame reads from outside (a global settings table, a registry, a kwargs dict argument) is guarded on
what the frame asked of it, as Dynamo's: `k in d`, `d[k]` and `d.get(k)` guard that key alone (DICT_CONTAINS, then
the item's value), so a key added later that the frame never read compiles nothing new; iterating the dict, its
len(), keys(), values(), items(), or changing it guard its whole key list. Frame counts and values against
torch.compile (session 40)."""
import pytest
import torch
import torch._dynamo.testing

import frontend
import minitorch2
from frontend.testing import CompileCounter

REGISTRY = {}


def _reads_two_keys(x):
    return x + (1 if "relu" in REGISTRY else 0) + REGISTRY["scale"]


def _asks_for_a_missing_key(x):
    return x * REGISTRY.get("bias", 0.5) + ("gelu" in REGISTRY)


def _iterates(x):
    for name in REGISTRY:
        x = x + len(name)
    return x


def _counts(x):
    return x * len(REGISTRY)


def _reads_items(x):
    return x + sum(v for k, v in REGISTRY.items() if k != "relu")


def _writes(x):
    REGISTRY["calls"] = REGISTRY.get("calls", 0) + 1
    return x + REGISTRY["scale"]


# (what each call does to REGISTRY before it runs: the changes are cumulative)
CHANGES = [
    lambda d: d.update(relu=1, scale=2),
    lambda d: d.__setitem__("unrelated", 7),  # a key nothing above reads by name
    lambda d: d.__setitem__("bias", 3.0),
    lambda d: d.pop("unrelated"),
    lambda d: d.__setitem__("scale", 5),  # a value read
    lambda d: d.pop("relu"),  # a key asked about
    lambda d: d.__setitem__("another", 1),
]


@pytest.mark.parametrize("program", [_reads_two_keys, _asks_for_a_missing_key, _iterates, _counts, _reads_items,
                                     _writes], ids=lambda f: f.__name__.strip("_"))
def test_a_global_dict_recompiles_where_dynamo_recompiles(program):
    results = []
    for lib in (torch, minitorch2):
        counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
        (torch._dynamo if lib is torch else frontend).reset()
        REGISTRY.clear()
        compiled = lib.compile(program, backend=counter)
        seen = []
        for change in CHANGES:
            change(REGISTRY)
            seen.append((compiled(lib.ones(2)).tolist(), counter.frame_count, dict(REGISTRY)))
        results.append(seen)
    assert results[1] == results[0]


def test_a_kwargs_dict_argument_read_by_key_compiles_once_for_new_keys():
    def f(x, options):
        return x * options["scale"] if "scale" in options else x

    results = []
    for lib in (torch, minitorch2):
        counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
        (torch._dynamo if lib is torch else frontend).reset()
        compiled = lib.compile(f, backend=counter)
        seen = [compiled(lib.ones(2), options).tolist() for options in (
            {"scale": 2}, {"scale": 2, "name": "a"}, {"name": "b", "scale": 2}, {"name": "c"}, {"scale": 3})]
        results.append((seen, counter.frame_count))
    assert results[1] == results[0]


def test_keys_no_literal_writes_guard_the_whole_dict_and_compile_once():
    table = {"a": 1, 2: 3, True: 4}

    def f(x):
        return x + (1 if x in table else 0) + (3.5 in table) + ((1,) in table) + table.get(2.0, 0)

    results = []
    for lib in (torch, minitorch2):
        counter = torch._dynamo.testing.CompileCounter() if lib is torch else CompileCounter()
        compiled = lib.compile(f, backend=counter)
        results.append(([compiled(lib.ones(1)).tolist() for _ in range(3)], counter.frame_count))
    assert results[1] == results[0]
