"""Names from torch's internals that libraries and Dynamo's own tests call (found in session 42 by running Dynamo's
test_functions.py and a survey of APIs real scripts touch): torch._C's queries, torch._utils._get_device_index,
torch.overrides, F._Reduction, torch.autograd._is_checkpoint_valid, torch.jit._unwrap_optional, torch.hub's folder,
torch.is_storage, torch.compiled_with_cxx11_abi and torch.__config__. Each answers as torch does, or raises its
error class."""
import pytest
import torch
import torch.nn.functional as TF

import minitorch2
import minitorch2.nn.functional as MF

LIBS = [(torch, TF), (minitorch2, MF)]

QUERIES = {
    "tracing state": lambda lib, F: lib._C._get_tracing_state(),
    "any autocast": lambda lib, F: lib._C._is_any_autocast_enabled(),
    "any autocast inside cpu autocast": lambda lib, F: _inside_autocast(lib),
    "cublas tf32": lambda lib, F: lib._C._get_cublas_allow_tf32(),
    "privateuse1 name": lambda lib, F: lib._C._get_privateuse1_backend_name(),
    "functorch transforms": lambda lib, F: lib._C._are_functorch_transforms_active(),
    "log api usage": lambda lib, F: lib._C._log_api_usage_once("python.my_library"),
    "device index of an int": lambda lib, F: lib._utils._get_device_index(3),
    "device index of cpu allowed": lambda lib, F: lib._utils._get_device_index("cpu", allow_cpu=True),
    "device index of a cpu device": lambda lib, F: lib._utils._get_device_index(lib.device("cpu"), allow_cpu=True),
    "reduction enums": lambda lib, F: [F._Reduction.get_enum(r) for r in ("none", "mean", "sum")],
    "checkpoint valid": lambda lib, F: lib.autograd._is_checkpoint_valid(),
    "unwrap optional": lambda lib, F: lib.jit._unwrap_optional(7),
    "tensor is no storage": lambda lib, F: lib.is_storage(lib.ones(2)),
    "its storage is one": lambda lib, F: lib.is_storage(lib.ones(2).untyped_storage()),
    "cxx11 abi": lambda lib, F: lib.compiled_with_cxx11_abi(),
    "plain tensors override nothing": lambda lib, F: (lib.overrides.has_torch_function((lib.ones(1), 2)),
                                                      lib.overrides.has_torch_function_unary(lib.ones(1)),
                                                      lib.overrides.has_torch_function_variadic(lib.ones(1), None)),
    "config strings": lambda lib, F: (type(lib.__config__.show()), type(lib.__config__.parallel_info())),
}


def _inside_autocast(lib):
    with lib.autocast("cpu", dtype=lib.bfloat16):
        return lib._C._is_any_autocast_enabled()


@pytest.mark.parametrize("name", list(QUERIES))
def test_answers_as_torch(name):
    (theirs, ours) = (QUERIES[name](lib, F) for lib, F in LIBS)
    assert ours == theirs


ERRORS = {
    "cpu device refused": lambda lib, F: lib._utils._get_device_index("cpu"),
    "no index": lambda lib, F: lib._utils._get_device_index(None),
    "bad reduction": lambda lib, F: F._Reduction.get_enum("average"),
    "null optional": lambda lib, F: lib.jit._unwrap_optional(None),
    "unknown _C name": lambda lib, F: lib._C._no_such_function_here,
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_raises_torchs_error_class(name):
    raised = []
    for lib, F in LIBS:
        with pytest.raises(Exception) as info:
            ERRORS[name](lib, F)
        raised.append(info.value)
    assert isinstance(raised[1], type(raised[0])), raised
    assert str(raised[1]).split(":")[0] == str(raised[0]).split(":")[0] or name == "unknown _C name"


def test_handle_torch_function_hands_the_call_to_the_overriding_type():
    calls = []

    class Logged:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            calls.append((func.__name__, [type(a).__name__ for a in args]))
            return "handled"

    def my_op(x, y):
        if minitorch2.overrides.has_torch_function_variadic(x, y):
            return minitorch2.overrides.handle_torch_function(my_op, (x, y), x, y)
        return x + y

    assert minitorch2.overrides.has_torch_function((minitorch2.ones(1), Logged()))
    assert my_op(minitorch2.ones(1), Logged()) == "handled"
    assert calls == [("my_op", ["Tensor", "Logged"])]
    assert my_op(minitorch2.ones(1), minitorch2.ones(1)).tolist() == [2.0]


def test_hub_folder_follows_torch_home(monkeypatch, tmp_path):
    monkeypatch.setenv("TORCH_HOME", str(tmp_path))
    assert minitorch2.hub.get_dir() == torch.hub.get_dir() == str(tmp_path / "hub")


def test_c_namespaces_of_spelled_functions_still_resolve():
    assert minitorch2._C._nn.linear is not None and callable(minitorch2._C._fft.fft_fft)


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_unpooling_alerts_under_deterministic_algorithms_as_torch(nd):
    """max_unpool has no deterministic kernel in ATen: use_deterministic_algorithms(True) makes it raise, and with
    warn_only=True warn (found in session 42: ours ran on)."""
    messages = []
    for lib, F in LIBS:
        pooled, indices = getattr(F, f"max_pool{nd}d")(lib.randn(1, 1, *[4] * nd), 2, return_indices=True)
        unpool = getattr(F, f"max_unpool{nd}d")
        try:
            lib.use_deterministic_algorithms(True)
            with pytest.raises(RuntimeError) as info:
                unpool(pooled, indices, 2)
            lib.use_deterministic_algorithms(True, warn_only=True)
            with pytest.warns(UserWarning) as warned:
                unpool(pooled, indices, 2)
        finally:
            lib.use_deterministic_algorithms(False)
        messages.append((str(info.value), str(warned[0].message)))
    assert messages[1] == messages[0]


def test_nn_modules_utils_helpers_answer_as_torchs():
    """`from torch.nn.modules.utils import _pair` (custom conv layers; Dynamo's test_pair): a ModuleNotFoundError
    here before session 42."""
    import collections

    import torch.nn.modules.utils as theirs

    import minitorch2.nn.modules.utils as ours

    results = []
    for utils in (theirs, ours):
        state = collections.OrderedDict([("module.a", 1), ("module.b.c", 2), ("x", 3)])
        state._metadata = collections.OrderedDict([("module", {"v": 1}), ("module.b", {"v": 2})])
        utils.consume_prefix_in_state_dict_if_present(state, "module.")
        results.append((utils._pair(3), utils._single([2, 4]), utils._triple((1, 2, 3)), utils._quadruple(0),
                        utils._ntuple(3, "p")(5), utils._pair.__name__, utils._reverse_repeat_tuple((1, 2), 2),
                        utils._list_with_default([None, 3], [1, 2, 5, 6]), list(state.items()),
                        list(state._metadata.items())))
    assert results[1] == results[0]
    assert minitorch2.nn.modules.utils is ours  # (read as an attribute, without an import: Dynamo's test_pair)
