"""Tensors as dict keys, `in` on lists of tensors, requires_grad_() of an intermediate and the warning at a
Tensor.item() break, against Dynamo 2.13.

Each program runs compiled twice under torch.compile and minitorch2.compile with a CompileCounter (the runner of the
ported Dynamo tests): (frames, ops, breaks) and values must be Dynamo's. The warning is read from the stderr of a
script run by each library in a fresh process (torch prints it once a process).
"""
import os
import subprocess
import sys
import textwrap

import pytest
import torch

import minitorch2

from .test_dynamo_tests_ported import _build, _names, check_against_dynamo

PROGRAMS = '''
def dk_tensor_keys_iterated(a, b):
    d = {a: 1, b: 2}
    s = 0
    for k in d:
        s = s + k * d[k]
    return s
def dk_tensor_keys_items_and_values(a, b):
    d = {a: a + 1, b: b * 2}
    return [k * v for k, v in d.items()] + list(d.values())
def dk_tensor_key_set_get_pop(a, b):
    d = {}
    d[a] = 2
    d[b] = d.get(a) + 1
    n = d.pop(a)
    return b * d[b] + n + len(d)
def dk_same_tensor_twice_is_one_key(a, b):
    c = a
    d = {a: 1, c: 5, b: 2}
    return a * d[a] + len(d)
def dk_tensor_keyed_dict_returned(a, b):
    d = {a: 1, b: a + b}
    return d[b], list(d)
def dk_intermediate_tensor_key(a, b):
    c = a * 2
    d = {c: 3}
    return c * d[c] + b
def in_tensor_in_list(a, b):
    return a * (a in [a, b]) + b
def in_tensor_in_tuple(a, b):
    xs = (a, b)
    return b * (a in xs)
def in_constant_in_list_with_tensors(a, b):
    xs = [3, a, b]
    return a * (3 in xs) + b
def in_intermediate_in_list(a, b):
    c = a + 1
    return b * (c in [c, a])
def rg_requires_grad_twice_on_intermediate(a, b):
    w = (a * 2).requires_grad_()
    w.requires_grad_(True)
    return (w * b).detach()
def rg_requires_grad_false_on_intermediate(a, b):
    w = (a * 2).requires_grad_(False)
    return w + b
def rg_requires_grad_keyword_on_intermediate(a, b):
    w = (a + b).requires_grad_(requires_grad=True)
    return (w * w).detach() + w.requires_grad
'''
NAMES = _names(PROGRAMS)
TORCH_NS, MT_NS = _build(torch, PROGRAMS), _build(minitorch2, PROGRAMS)


@pytest.mark.parametrize("name", NAMES)
def test_programs_match_dynamo(name):
    check_against_dynamo(TORCH_NS[name], MT_NS[name])


@pytest.mark.parametrize("lib", [torch, minitorch2])
def test_tensor_keyed_dict_keys_are_the_callers_tensors(lib):
    def fn(a, b):
        d = {a: 1, b: a + b}
        return d, list(d)
    a, b = lib.ones(3), lib.ones(3)
    d, keys = lib.compile(fn, backend="eager")(a, b)
    assert keys[0] is a and keys[1] is b and list(d) == keys and d[a] == 1
    assert lib.equal(d[b], a + b)


ITEM_SCRIPT = textwrap.dedent('''
    import torch
    def inner(b):
        return b.sum().item()
    def f(a):
        b = a * 2
        n = inner(b)
        return a + n
    def g(a):
        return a.sum().item() + 1
    fn, gn = torch.compile(f), torch.compile(g)
    fn(torch.ones(3)); fn(torch.ones(4)); gn(torch.ones(3))
''')


def _stderr_lines(command, path, repo):
    env = {k: v for k, v in os.environ.items() if k not in ("TORCH_LOGS", "MINITORCH2_LOGS", "PYTHONPATH")}
    env.update({"OMP_NUM_THREADS": "1"}, **({"PYTHONPATH": repo} if repo else {}))
    result = subprocess.run(command + [path], capture_output=True, text=True, timeout=300, env=env,
                            cwd=os.path.dirname(path))
    assert result.returncode == 0, result.stderr
    # torch's lines carry glog's prefix (`W1205 15:28:35.699000 2601 .../tensor.py:1759] [0/0] `): compare the text
    return [line.split("] ", 2)[-1] if line.startswith("W") and "] " in line else line
            for line in result.stderr.splitlines()]


def test_item_break_warns_as_torch_once_with_the_user_code(tmp_path):
    path = tmp_path / "item_break.py"
    path.write_text(ITEM_SCRIPT)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    theirs = _stderr_lines([sys.executable], str(path), None)
    ours = _stderr_lines([sys.executable, "-m", "minitorch2", "run"], str(path), repo)
    text = "\n".join(theirs)
    assert text.count("Graph break from `Tensor.item()`, consider setting:") == 1  # (torch's: once a process)
    start = theirs.index("Graph break from `Tensor.item()`, consider setting:")
    expected = [line.rstrip() for line in theirs[start:start + 15]]
    assert "    return b.sum().item()" in expected and "    n = inner(b)" in expected
    start = ours.index("Graph break from `Tensor.item()`, consider setting:")
    assert [line.rstrip() for line in ours[start:start + 15]] == expected
    assert "\n".join(ours).count("Graph break from `Tensor.item()`") == 1
