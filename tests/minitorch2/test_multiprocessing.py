"""torch.multiprocessing against torch 2.13 (issue 20): the standard library's names re-exported as the very same
objects, torch's sharing strategies and their refusal, and a process started through it that sends a tensor back."""
import multiprocessing

import pytest
import torch
import torch.multiprocessing

import minitorch2
import minitorch2.multiprocessing as ours


def test_the_standard_librarys_names_are_reexported_as_torch_does():
    theirs = torch.multiprocessing
    assert ours.__all__ == theirs.__all__
    for name in ("Process", "Queue", "Pool", "set_start_method", "get_start_method", "cpu_count", "get_context"):
        assert getattr(ours, name) is getattr(theirs, name) is getattr(multiprocessing, name)
    assert ours.cpu_count() == theirs.cpu_count()
    assert ours.get_start_method(allow_none=True) == theirs.get_start_method(allow_none=True)
    assert minitorch2.multiprocessing is ours


def test_sharing_strategies_match_torch():
    assert ours.get_all_sharing_strategies() == torch.multiprocessing.get_all_sharing_strategies()
    assert ours.get_sharing_strategy() == torch.multiprocessing.get_sharing_strategy()
    ours.set_sharing_strategy("file_system")
    assert ours.get_sharing_strategy() == "file_system"
    ours.set_sharing_strategy("file_descriptor")
    with pytest.raises(AssertionError) as theirs:
        torch.multiprocessing.set_sharing_strategy("shared")
    with pytest.raises(AssertionError) as got:
        ours.set_sharing_strategy("shared")
    assert str(got.value) == str(theirs.value)


def test_a_missing_name_is_one_line_naming_it():
    with pytest.raises(AttributeError, match="torch.multiprocessing.spawn_workers is not supported"):
        ours.spawn_workers


def _double(queue, tensor):
    queue.put(tensor * 2)


def test_a_process_sends_a_tensor_back():
    context = ours.get_context("fork")
    queue = context.Queue()
    process = context.Process(target=_double, args=(queue, minitorch2.arange(3.)))
    process.start()
    assert queue.get(timeout=30).tolist() == [0.0, 2.0, 4.0]
    process.join()
    assert process.exitcode == 0
