"""Tensor.share_memory_, Tensor.is_shared and nn.Module.share_memory (hogwild training), compared with torch: values,
strides and grads kept; the memory really shared with a forked child and with a tensor sent through
multiprocessing's pickler (a Queue, a spawned Process's arguments); a tensor not shared still sent by value."""
import copy
import io
import multiprocessing
import pickle

import numpy as np
import pytest
import torch

import minitorch2

LIBS = (torch, minitorch2)
FORK = multiprocessing.get_context("fork")


def test_share_memory_keeps_values_layout_and_autograd():
    def run(lib):
        base = lib.arange(12.0).reshape(3, 4).t()
        x = base.clone().requires_grad_()
        shared = [t.is_shared() for t in (base, x)]
        assert base.share_memory_() is base and x.share_memory_() is x
        (x * x).sum().backward()
        view = base[1:]
        return (shared, base.is_shared(), x.is_shared(), view.is_shared(), base.stride(), base.tolist(),
                x.grad.tolist(), lib.zeros(0).share_memory_().is_shared())

    assert run(minitorch2) == run(torch)


def test_what_stays_shared_views_and_what_does_not_copies():
    def run(lib):
        t = lib.arange(6.0).reshape(2, 3).share_memory_()
        saved = io.BytesIO()
        lib.save(t, saved)
        saved.seek(0)
        return [x.is_shared() for x in (copy.deepcopy(t), t.clone(), t.detach(), t[0], t.view(-1), t.contiguous(),
                                        t.t().contiguous(), t + 1, pickle.loads(pickle.dumps(t)), lib.load(saved))]

    assert run(minitorch2) == run(torch)


def test_module_share_memory_shares_parameters_and_buffers_in_place():
    def run(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.BatchNorm1d(2))
        weight = model[0].weight
        assert model.share_memory() is model and model[0].weight is weight
        return [t.is_shared() for t in (*model.parameters(), *model.buffers())], type(weight).__name__

    assert run(minitorch2) == run(torch)


def _add_in_child(tensor):
    tensor.add_(1)


def test_a_forked_childs_writes_reach_the_parent():
    shared, private = minitorch2.zeros(3).share_memory_(), minitorch2.zeros(3)
    for tensor in (shared, private):
        child = FORK.Process(target=_add_in_child, args=(tensor,))
        child.start()
        child.join()
    assert shared.tolist() == [1.0, 1.0, 1.0] and private.tolist() == [0.0, 0.0, 0.0]


def _receive_and_add(queue):
    parameter = queue.get()
    parameter.data.add_(1)
    queue.put((type(parameter).__name__, parameter.requires_grad, parameter.is_shared()))


@pytest.mark.parametrize("shared", [True, False])
def test_a_parameter_through_a_queue_travels_by_its_memory_only_when_shared(shared):
    parameter = minitorch2.nn.Parameter(minitorch2.tensor(np.ones((2, 2), np.float32)).t())
    if shared:
        parameter.share_memory_()
    queue = FORK.SimpleQueue()
    child = FORK.Process(target=_receive_and_add, args=(queue,))
    child.start()
    queue.put(parameter)
    child.join()
    assert queue.get() == ("Parameter", True, shared)
    assert parameter.tolist() == ([[2.0, 2.0], [2.0, 2.0]] if shared else [[1.0, 1.0], [1.0, 1.0]])
