"""torch.save / torch.load within minitorch2, checked against torch's behaviour: state dicts, tensors and
tied parameters round-trip; weights_only=True (the default) refuses other classes with
pickle.UnpicklingError, as torch's does; the README says files do not move between the two."""
import io
import pickle

import numpy as np
import pytest
import torch

import minitorch2
import minitorch2.onnx  # noqa: F401  (scripts import it at their top)


def round_trip(lib, obj, **load_options):
    buffer = io.BytesIO()
    lib.save(obj, buffer)
    buffer.seek(0)
    return lib.load(buffer, **load_options)


def test_state_dict_round_trip_loads_into_a_fresh_model(tmp_path):
    for lib in (torch, minitorch2):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 2))
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save(model.state_dict(), path)
        fresh = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 2))
        fresh.load_state_dict(lib.load(path))
        x = lib.randn(5, 3)
        np.testing.assert_array_equal(fresh(x).detach().numpy(), model(x).detach().numpy())


def test_tensors_keep_dtype_values_and_requires_grad_and_shared_objects_stay_shared():
    for lib in (torch, minitorch2):
        weight = lib.nn.Parameter(lib.randn(2, 3))
        obj = {"w": weight, "tied": weight, "ints": lib.arange(4, dtype=lib.int32), "half": lib.ones(2).half(),
               "meta": [1, 2.5, "x", (True, None)], "size": lib.zeros(2, 3).shape}
        back = round_trip(lib, obj)
        assert back["w"] is back["tied"] and isinstance(back["w"], lib.nn.Parameter) and back["w"].requires_grad
        assert back["ints"].dtype == lib.int32 and back["half"].dtype == lib.float16
        assert back["meta"] == [1, 2.5, "x", (True, None)] and tuple(back["size"]) == (2, 3)
        np.testing.assert_array_equal(back["w"].detach().numpy(), weight.detach().numpy())


def test_a_whole_module_needs_weights_only_false_as_in_torch():
    for lib in (torch, minitorch2):
        model = lib.nn.Linear(2, 3)
        with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
            round_trip(lib, model)
        back = round_trip(lib, model, weights_only=False)
        np.testing.assert_array_equal(back.weight.detach().numpy(), model.weight.detach().numpy())


def test_a_file_from_the_other_library_is_refused_with_a_clear_message():
    buffer = io.BytesIO()
    torch.save({"a": torch.ones(2)}, buffer)
    buffer.seek(0)
    with pytest.raises(RuntimeError, match="not a file written by minitorch2.save"):
        minitorch2.load(buffer)


def test_loading_onto_cuda_fails_as_on_a_cpu_only_torch():
    buffer = io.BytesIO()
    minitorch2.save(minitorch2.ones(2), buffer)
    buffer.seek(0)
    with pytest.raises(RuntimeError, match="torch.cuda.is_available\\(\\) is False"):
        minitorch2.load(buffer, map_location="cuda:0")


def test_onnx_imports_and_export_says_it_is_not_supported():
    with pytest.raises(NotImplementedError, match="does not export ONNX"):
        minitorch2.onnx.export(minitorch2.nn.Linear(2, 2), (minitorch2.ones(1, 2),), "model.onnx")


def make_net(lib):
    """A user module class at module level, as pytorch/examples' word_language_model saves whole models."""
    class Model(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.drop, self.rnn, self.decoder = lib.nn.Dropout(0.1), lib.nn.LSTM(3, 4), lib.nn.Linear(4, 2)
    Model.__qualname__ = f"Model_{lib.__name__}"
    globals()[Model.__qualname__] = Model
    Model.__module__ = __name__
    return Model()


def test_safe_globals_let_a_whole_model_load_with_weights_only_as_in_torch():
    for lib in (torch, minitorch2):
        model = make_net(lib)
        classes = [type(model), lib.nn.modules.dropout.Dropout, lib.nn.modules.rnn.LSTM,
                   lib.nn.modules.linear.Linear]
        with lib.serialization.safe_globals(classes):
            back = round_trip(lib, model)
        assert type(back) is type(model)
        np.testing.assert_array_equal(back.rnn.weight_hh_l0.detach().numpy(), model.rnn.weight_hh_l0.detach().numpy())
        with pytest.raises(pickle.UnpicklingError):
            round_trip(lib, model)
