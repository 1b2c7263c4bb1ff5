"""torch.distributed for a world of one process.

Runtime layer, coverage surface. Training scripts written for many processes (nanoGPT's train.py, the examples'
DDP variants) import the process-group functions at the top and use them only when a launcher such as torchrun set
RANK and WORLD_SIZE. minitorch2 runs in one process, so it provides the group of one: init_process_group accepts a
world size of 1 (and raises torch's errors for a missing env:// variable), every collective over a single rank
leaves its tensors as they are (the sum, mean, min or max of one value is that value), and a larger world ends the
script with one line naming it. The one idea to hold: with one rank, communication is the identity.
"""
import enum
import os
import warnings

from .._unsupported import Unsupported, module_getattr

__all__ = ["ReduceOp", "is_available", "is_initialized", "init_process_group", "destroy_process_group", "get_rank",
           "get_world_size", "get_backend", "barrier", "all_reduce", "reduce", "broadcast", "all_gather"]

_NOT_INITIALIZED = "Default process group has not been initialized, please make sure to call init_process_group."
# the backends a CPU-only torch has no library for (gloo is the one it builds)
_NOT_BUILT_IN = {"nccl": "Distributed package doesn't have NCCL built in",
                 "mpi": "Distributed package doesn't have MPI built in. MPI is only included if you build PyTorch from "
                        "source on a host that has MPI installed."}
# the default group once init_process_group ran: {"backend": ..., "rank": 0, "world_size": 1}
_default_group = None


class ReduceOp(enum.Enum):
    SUM = 0
    AVG = 1
    PRODUCT = 2
    MIN = 3
    MAX = 4
    BAND = 5
    BOR = 6
    BXOR = 7
    PREMUL_SUM = 8


class _CompletedWork:
    """What an async_op=True collective returns: with one rank, the work is done before it is returned."""

    def wait(self, timeout=None):
        return True

    def is_completed(self):
        return True


def is_available():
    return True


def is_initialized():
    return _default_group is not None


def _env_value(name, given):
    if given != -1:
        return given
    if name not in os.environ:
        raise ValueError(f"Error initializing torch.distributed using env:// rendezvous: environment variable {name} "
                         "expected, but not set")
    return int(os.environ[name])


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    global _default_group
    if _default_group is not None:
        raise ValueError("trying to initialize the default process group twice!")
    if backend == "nccl" and timeout is None:
        warnings.warn("Attempted to get default timeout for nccl backend, but NCCL support is not compiled")
    if backend == "mpi":  # MPI's runtime assigns ranks: no rendezvous to check first
        if world_size != -1 or rank != -1:
            warnings.warn(f"For MPI backend, world_size ({world_size}) and rank ({rank}) are ignored since they are "
                          "assigned by the MPI runtime.")
        raise RuntimeError(_NOT_BUILT_IN["mpi"])
    if store is None and init_method in (None, "env://"):
        rank = _env_value("RANK", rank)
        world_size = _env_value("WORLD_SIZE", world_size)
        for name in ("MASTER_ADDR", "MASTER_PORT"):
            if name not in os.environ:
                raise ValueError(f"Error initializing torch.distributed using env:// rendezvous: environment variable "
                                 f"{name} expected, but not set")
    if backend in _NOT_BUILT_IN:
        raise RuntimeError(_NOT_BUILT_IN[backend])
    if world_size != 1:
        raise Unsupported(f"torch.distributed with world_size={world_size} is not supported (minitorch2 runs in one "
                          "process; a world of one is)")
    _default_group = {"backend": "undefined" if backend is None else str(backend), "rank": int(rank), "world_size": 1}


def _group():
    if _default_group is None:
        raise ValueError(_NOT_INITIALIZED)
    return _default_group


def destroy_process_group(group=None):
    global _default_group
    if _default_group is None:
        raise AssertionError("Process group cannot be None")
    _default_group = None


def get_rank(group=None):
    return _group()["rank"]


def get_world_size(group=None):
    return _group()["world_size"]


def get_backend(group=None):
    return _group()["backend"]


def _done(async_op):
    _group()
    return _CompletedWork() if async_op else None


def barrier(group=None, async_op=False, device_ids=None):
    return _done(async_op)


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    return _done(async_op)


def reduce(tensor, dst=0, op=ReduceOp.SUM, group=None, async_op=False):
    return _done(async_op)


def broadcast(tensor, src=0, group=None, async_op=False):
    return _done(async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    work = _done(async_op)
    if len(tensor_list) != 1:  # (the words of torch's gloo group)
        raise RuntimeError(f"ProcessGroupGloo::allgather: invalid output tensor list at index 0 (expected length 1, "
                           f"got {len(tensor_list)})")
    tensor_list[0].copy_(tensor)
    return work


__getattr__ = module_getattr("minitorch2.distributed", "torch.distributed")
