"""A Python container changed inside a compiled frame and read again in it must show its new state, as in
torch.compile: the second read of the same list or dict is the same tracker (issue: a compiled
`COUNTER.append(len(COUNTER)); return x + len(COUNTER)` returned x + 0 where torch gives x + 1)."""
import collections
import subprocess
import sys

import pytest
import torch
import torch._dynamo

import frontend
import minitorch2


def program(name, lib):
    if name == "global list appended then measured":
        store = []
        scope = {"COUNTER": store}
        exec("def f(x):\n    COUNTER.append(len(COUNTER))\n    return x + len(COUNTER)\n", scope)
        return scope["f"], lambda x: (x,), lambda: list(store)
    if name == "argument list extended then summed":
        store = [1.0]

        def f(x, xs):
            xs.extend([2.0, 3.0])
            return x * sum(xs) + len(xs)
        return f, lambda x: (x, store), lambda: list(store)
    if name == "global dict written then read":
        table = {"a": 1}
        scope = {"TABLE": table}
        exec("def f(x):\n    TABLE['b'] = len(TABLE) + 1\n    return x + TABLE['b'] + len(TABLE)\n", scope)
        return scope["f"], lambda x: (x,), lambda: dict(table)
    if name == "global dict changed before a graph break":
        table = {"a": 1, "old": 2}
        scope = {"TABLE": table, "dynamo": torch._dynamo if lib is torch else frontend}
        exec("def f(x):\n    TABLE['b'] = TABLE.pop('old', 0) + 1\n    y = x + 1\n    dynamo.graph_break()\n"
             "    return y * TABLE['b'] + len(TABLE)\n", scope)
        return scope["f"], lambda x: (x,), lambda: dict(table)
    if name == "one list through two names":
        store = [1]
        scope = {"A": store}

        def make():
            exec("def f(x, b):\n    A.append(5)\n    return x + sum(b)\n", scope)
            return scope["f"]
        return make(), lambda x: (x, store), lambda: list(store)
    if name == "list popped in a loop":
        store = [3.0, 2.0, 1.0]

        def f(x, xs):
            total = x
            while xs:
                total = total * xs.pop()
            return total + len(xs)
        return f, lambda x: (x, store), lambda: list(store)
    raise KeyError(name)


NAMES = ["global list appended then measured", "argument list extended then summed", "global dict written then read",
         "global dict changed before a graph break", "one list through two names", "list popped in a loop"]


@pytest.mark.parametrize("name", NAMES)
def test_a_container_changed_then_read_shows_its_new_state(name):
    results = []
    for lib, dynamo in ((torch, torch._dynamo), (minitorch2, frontend)):
        dynamo.reset()
        fn, args, state = program(name, lib)
        compiled = lib.compile(fn, backend="eager")
        calls = [compiled(*args(lib.ones(2))).tolist() for _ in range(3)]
        results.append((calls, state()))
        dynamo.reset()
    assert results[1] == results[0]


def test_deque_argument_is_mutated_once():
    for lib in (torch, minitorch2):
        d = collections.deque([0])

        def f(x, d):
            d.append(1)
            d.appendleft(-1)
            return x + len(d)
        assert lib.compile(f, backend="eager")(lib.zeros(1), d).tolist() == [3.0]
        assert list(d) == [-1, 0, 1]


def test_the_first_compile_set_up_turns_distribution_validation_off_as_dynamo_does():
    """Dynamo's TorchPatcher switches torch.distributions' argument validation off, once per process, when
    the first compile is set up; a script that builds an invalid Normal afterwards runs on both."""
    script = ("lib.compile(lambda x: x + 1, backend='eager')\n"
              "print(lib.distributions.Distribution._validate_args)\n"
              "lib.distributions.Distribution.set_default_validate_args(True)\n"
              "lib.compile(lambda x: x + 2, backend='eager')\n"
              "print(lib.distributions.Distribution._validate_args)\n")
    outputs = [subprocess.run([sys.executable, "-c", f"import {name} as lib\n" + script], capture_output=True,
                              text=True, check=True).stdout for name in ("torch", "minitorch2")]
    assert outputs[1] == outputs[0] == "False\nTrue\n"
