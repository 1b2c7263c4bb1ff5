"""torch.save / torch.load within minitorch2, checked against torch's behaviour: state dicts, tensors and
tied parameters round-trip; weights_only=True (the default) refuses other classes with
pickle.UnpicklingError, as torch's does; a checkpoint PyTorch wrote loads (its zip format), one of ours does not
load in PyTorch, as the README says."""
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
    minitorch2.save({"a": minitorch2.ones(2)}, buffer)
    buffer.seek(0)
    with pytest.raises(Exception):  # noqa: B017 (torch's own error for a file that is not its format)
        torch.load(buffer)
    with pytest.raises(RuntimeError, match="neither a file written by minitorch2.save nor PyTorch's zip format"):
        minitorch2.load(io.BytesIO(b"not a checkpoint"))


def _torch_checkpoint():
    """What nanoGPT's train.py saves: a state dict with a tied weight, AdamW's state, a 0-d tensor, plain values;
    beside them views of one storage, the dtypes minitorch2 has, a Parameter, a dtype and a Size."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Embedding(5, 4), torch.nn.Linear(4, 5, bias=False))
    model[1].weight = model[0].weight
    optimizer = torch.optim.AdamW(model.parameters())
    model(torch.tensor([1, 2])).sum().backward()
    optimizer.step()
    base = torch.arange(12.0)
    return {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "best_val_loss": torch.tensor(1.5),
            "iter_num": 3, "config": {"n_layer": 2}, "transposed": base.view(3, 4).t(), "tail": base[4:],
            "int64": torch.arange(4), "bool": torch.tensor([True, False]), "half": torch.ones(2, dtype=torch.float16),
            "param": torch.nn.Parameter(torch.ones(2)), "dtype": torch.float16, "size": torch.Size([2, 3])}


@pytest.mark.parametrize("weights_only", [True, False])
def test_a_checkpoint_pytorch_saved_loads_with_its_values_layouts_and_shared_storages(weights_only):
    theirs = _torch_checkpoint()
    buffer = io.BytesIO()
    torch.save(theirs, buffer)
    buffer.seek(0)
    ours = minitorch2.load(buffer, weights_only=weights_only)
    assert sorted(ours) == sorted(theirs)
    for key in ("best_val_loss", "transposed", "tail", "int64", "bool", "half", "param"):
        assert type(ours[key]).__name__ == type(theirs[key]).__name__
        assert str(ours[key].dtype) == str(theirs[key].dtype) and ours[key].stride() == theirs[key].stride()
        np.testing.assert_array_equal(ours[key].detach().numpy(), theirs[key].detach().numpy())
    assert (ours["iter_num"], ours["config"], str(ours["dtype"]), ours["size"]) == (3, {"n_layer": 2}, "torch.float16",
                                                                                     minitorch2.Size([2, 3]))
    state = ours["model"]
    assert list(state) == list(theirs["model"]) == ["0.weight", "1.weight"]
    state["0.weight"].add_(1.0)  # one storage, as torch's tied weights in the file
    np.testing.assert_array_equal(state["1.weight"].numpy(), theirs["model"]["1.weight"].numpy() + 1.0)
    ours["transposed"].add_(1.0)  # the views of one storage share it
    np.testing.assert_array_equal(ours["tail"].numpy(), theirs["tail"].numpy() + 1.0)
    assert ours["optimizer"]["param_groups"] == theirs["optimizer"]["param_groups"]
    np.testing.assert_array_equal(ours["optimizer"]["state"][0]["exp_avg"].numpy(),
                                  theirs["optimizer"]["state"][0]["exp_avg"].numpy())


def test_a_pytorch_bfloat16_checkpoint_loads_bit_for_bit():
    buffer = io.BytesIO()
    weight = torch.randn(3, 5, generator=torch.Generator().manual_seed(0)).bfloat16()
    saved = {"w": weight, "w_t": weight.t(), "b": torch.tensor([1e-3, -7.5, float("inf")], dtype=torch.bfloat16)}
    torch.save(saved, buffer)
    buffer.seek(0)
    ours = minitorch2.load(buffer)
    for name, theirs in saved.items():
        assert ours[name].dtype is minitorch2.bfloat16 and ours[name].stride() == theirs.stride()
        assert ours[name].float().tolist() == theirs.float().tolist()  # (float32 holds every bfloat16 exactly)


def test_bfloat16_tensors_survive_minitorch2_save_and_load():
    buffer = io.BytesIO()
    original = minitorch2.tensor([[0.1, -2.5, 3e38], [1e-40, float("nan"), 7.0]]).bfloat16()
    minitorch2.save({"p": original, "dtype": minitorch2.bfloat16}, buffer)
    buffer.seek(0)
    loaded = minitorch2.load(buffer)
    assert loaded["dtype"] is minitorch2.bfloat16 and loaded["p"].dtype is minitorch2.bfloat16
    expected = torch.tensor([[0.1, -2.5, 3e38], [1e-40, float("nan"), 7.0]]).bfloat16().float()
    np.testing.assert_array_equal(np.array(loaded["p"].float().tolist()), expected.numpy())


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
