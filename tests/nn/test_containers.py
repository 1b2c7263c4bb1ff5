"""Sequential's and ModuleList's indexing (positions, negative indices, slices, assignment, deletion with
renumbering, insert, out-of-range errors) against torch.nn's."""
from collections import OrderedDict

import pytest
import torch

import minitorch2


def _layers(nn):
    return [nn.Linear(2, 2), nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Identity()]


def _summary(container):
    return [(key, type(module).__name__) for key, module in container._modules.items()]


def _edits(nn, container):
    """A run of edits; the summary after each, and the errors met, as text."""
    seen = [_summary(container), type(container[-2]).__name__, _summary(container[1:4])]
    container[-1] = nn.Tanh()
    del container[1]
    seen.append(_summary(container))
    del container[::2]
    seen.append(_summary(container))
    container.append(nn.ReLU())
    container.extend([nn.Sigmoid()])
    seen.append(_summary(container))
    for bad in (len(container), -len(container) - 1):
        with pytest.raises(IndexError) as error:
            container[bad]
        seen.append(str(error.value))
    return seen


@pytest.mark.parametrize("kind", ["Sequential", "Sequential-named", "ModuleList"])
def test_container_indexing_matches_torch(kind):
    def build(nn):
        if kind == "ModuleList":
            return nn.ModuleList(_layers(nn))
        if kind == "Sequential":
            return nn.Sequential(*_layers(nn))
        return nn.Sequential(OrderedDict(zip("abcde", _layers(nn))))

    assert _edits(minitorch2.nn, build(minitorch2.nn)) == _edits(torch.nn, build(torch.nn))


def test_module_list_insert_and_add_match_torch():
    def run(nn):
        modules = nn.ModuleList(_layers(nn)[:2])
        modules.insert(1, nn.Tanh())
        joined = modules + nn.ModuleList([nn.Sigmoid()])
        return _summary(modules), _summary(joined), type(joined).__name__

    assert run(minitorch2.nn) == run(torch.nn)
