"""torch.distributed as a group of one process, and DistributedDataParallel over it (nanoGPT's train.py imports
both at the top and uses them only under torchrun), compared with torch's gloo group of one: the errors before
init_process_group, the env:// rendezvous errors, the collectives over one rank, DDP's printing, state-dict keys,
gradients and no_sync. torch.bfloat16 can be named (nanoGPT's dtype table) and prints as torch's."""
import socket
import warnings

import numpy as np
import pytest
import torch
import torch.distributed

import minitorch2
import minitorch2.distributed
from minitorch2._unsupported import Unsupported

LIBS = (torch, minitorch2)
RENDEZVOUS = ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")


@pytest.fixture
def one_process(monkeypatch):
    """Both libraries' default group, world size 1 (torch's over gloo on a local port), destroyed afterwards."""
    monkeypatch.setenv("MASTER_ADDR", "127.0.0.1")
    with socket.socket() as s:  # a port no other run of these tests holds
        s.bind(("127.0.0.1", 0))
        monkeypatch.setenv("MASTER_PORT", str(s.getsockname()[1]))
    for lib in LIBS:
        lib.distributed.init_process_group("gloo", rank=0, world_size=1)
    yield
    for lib in LIBS:
        lib.distributed.destroy_process_group()


def _error(call):
    try:
        call()
    except Exception as e:  # noqa: BLE001 (the class and words are what is compared)
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("call", [
    lambda lib: lib.distributed.get_rank(), lambda lib: lib.distributed.get_world_size(),
    lambda lib: lib.distributed.barrier(), lambda lib: lib.distributed.all_reduce(lib.ones(2)),
    lambda lib: lib.nn.parallel.DistributedDataParallel(lib.nn.Linear(2, 2)),
    lambda lib: lib.distributed.destroy_process_group(),
])
def test_before_init_process_group_the_calls_raise_torchs_errors(call):
    assert not minitorch2.distributed.is_initialized() and minitorch2.distributed.is_available()
    assert _error(lambda: call(minitorch2)) == _error(lambda: call(torch))


@pytest.mark.parametrize("missing", RENDEZVOUS)
def test_env_rendezvous_names_the_first_missing_variable(monkeypatch, missing):
    for name, value in zip(RENDEZVOUS, ("0", "1", "127.0.0.1", "29518")):
        monkeypatch.setenv(name, value)
    monkeypatch.delenv(missing)
    errors = [_error(lambda: lib.distributed.init_process_group("gloo")) for lib in LIBS]
    assert errors[0] == errors[1] and errors[0][0] == "ValueError"


@pytest.mark.parametrize("backend", [None, "gloo", "cpu:gloo", "nccl", "mpi"])
def test_the_backends_of_a_cpu_only_build(monkeypatch, backend):
    monkeypatch.setenv("MASTER_ADDR", "127.0.0.1")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        monkeypatch.setenv("MASTER_PORT", str(s.getsockname()[1]))

    def run(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            error = _error(lambda: lib.distributed.init_process_group(backend, rank=0, world_size=1))
        said = [str(w.message) for w in caught]
        if error is not None:
            return error, said
        name = lib.distributed.get_backend()
        lib.distributed.destroy_process_group()
        return name, said

    assert run(minitorch2) == run(torch)


def test_a_world_of_more_than_one_process_is_named_as_unsupported(monkeypatch):
    monkeypatch.setenv("MASTER_ADDR", "127.0.0.1")
    monkeypatch.setenv("MASTER_PORT", "29519")
    with pytest.raises(Unsupported, match="world_size=2"):
        minitorch2.distributed.init_process_group("gloo", rank=0, world_size=2)
    assert not minitorch2.distributed.is_initialized()


def test_a_group_of_one_reports_itself_and_its_collectives_leave_tensors_unchanged(one_process):
    def run(lib):
        d = lib.distributed
        t = lib.tensor([1.0, -2.0, 3.0])
        results = [d.all_reduce(t), d.all_reduce(t, op=d.ReduceOp.AVG), d.all_reduce(t, op=d.ReduceOp.MAX),
                   d.broadcast(t, src=0), d.reduce(t, dst=0), d.barrier(), d.all_reduce(t, async_op=True).wait()]
        gathered = [lib.zeros(3)]
        d.all_gather(gathered, t)
        too_many = _error(lambda: d.all_gather([lib.zeros(3), lib.zeros(3)], t))
        return (d.is_initialized(), d.get_rank(), d.get_world_size(), d.get_backend(), results, t.tolist(),
                gathered[0].tolist(), too_many)

    assert run(minitorch2) == run(torch)


def test_ddp_refuses_a_module_with_nothing_to_train(one_process):
    assert _error(lambda: minitorch2.nn.parallel.DistributedDataParallel(minitorch2.nn.ReLU())) == \
        _error(lambda: torch.nn.parallel.DistributedDataParallel(torch.nn.ReLU()))


def test_ddp_over_a_group_of_one_trains_as_its_module(one_process):
    w = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)

    def run(lib):
        inner = lib.nn.Linear(4, 3)
        with lib.no_grad():
            inner.weight.copy_(lib.tensor(w))
            inner.bias.zero_()
        model = lib.nn.parallel.DistributedDataParallel(inner)
        x = lib.tensor(w)
        with model.no_sync():
            inside = model.require_backward_grad_sync
            model(x).pow(2).sum().backward()
        model(x).sum().backward()
        return (repr(model), list(model.state_dict()), model.module is inner, inside, model.require_backward_grad_sync,
                np.round(inner.weight.grad.numpy(), 5).tolist(), np.round(inner.bias.grad.numpy(), 4).tolist())

    assert run(minitorch2) == run(torch)


def test_bfloat16_can_be_named_in_a_table_of_dtypes():
    def run(lib):
        table = {"float32": lib.float32, "bfloat16": lib.bfloat16, "float16": lib.float16}
        return repr(table["bfloat16"]), table["float16"] is lib.half, lib.bfloat16.is_floating_point

    assert run(minitorch2) == run(torch)
    assert minitorch2.bfloat16 is minitorch2.get_autocast_dtype("cpu")


@pytest.mark.parametrize("size, replicas, shuffle, drop_last", [
    (10, 3, True, False), (10, 3, True, True), (9, 3, False, False), (2, 5, True, False), (7, 2, False, True),
])
def test_distributed_sampler_splits_a_dataset_as_torchs(size, replicas, shuffle, drop_last):
    def shares(lib):
        samplers = [lib.utils.data.distributed.DistributedSampler(range(size), num_replicas=replicas, rank=rank,
                                                                  shuffle=shuffle, seed=3, drop_last=drop_last)
                    for rank in range(replicas)]
        epochs = []
        for epoch in (0, 1):
            for sampler in samplers:
                sampler.set_epoch(epoch)
            epochs.append([(len(s), list(s)) for s in samplers])
        return epochs

    assert shares(minitorch2) == shares(torch)


def test_distributed_sampler_reads_the_group_and_refuses_a_rank_outside_it(one_process):
    def run(lib):
        data = lib.utils.data
        loader = data.DataLoader(list(range(6)), batch_size=4, sampler=data.DistributedSampler(range(6)))
        return [batch.tolist() for batch in loader], _error(lambda: data.DistributedSampler(range(5), 2, rank=2))

    assert run(minitorch2) == run(torch)
