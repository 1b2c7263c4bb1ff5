"""What the pytorch/examples scripts met on their way, each in a small program of their style, against torch:
torch.accelerator's CPU-only answers (mnist, vae, siamese_network, gcn open with them), legacy type
constructors over numpy arrays (gcn, gat), torch.load refusing a numpy array by default
(time_sequence_prediction), a DataLoader's worker and pin_memory warnings (makemore), and the mask checks
of the transformer layers (language_translation)."""
import array
import collections
import io
import os
import pickle
import warnings

import numpy as np
import pytest
import torch

import minitorch2

LIBS = (torch, minitorch2)


def caught_warnings(action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = action()
    return result, [str(w.message) for w in caught]


# ---- torch.accelerator on a CPU-only build


@pytest.mark.parametrize("question", ["is_available()", "current_accelerator()", "device_count()",
                                      "current_accelerator(check_available=True)"])
def test_accelerator_answers_as_a_cpu_only_torch(question):
    assert eval(f"minitorch2.accelerator.{question}") == eval(f"torch.accelerator.{question}")


@pytest.mark.parametrize("call", ["current_device_index()", "synchronize()", "empty_cache()", "memory_allocated()",
                                  "set_device_index(0)", "current_stream()"])
def test_accelerator_device_calls_raise_torchs_error(call):
    for lib in LIBS:
        with pytest.raises(RuntimeError, match="^Cannot access accelerator device when none is available.$"):
            eval(f"lib.accelerator.{call}")


def test_accelerator_device_index_none_is_a_no_op_and_an_index_raises():
    for lib in LIBS:
        with lib.accelerator.device_index(None):
            pass
        with pytest.raises(RuntimeError, match="Cannot access accelerator device"):
            with lib.accelerator.device_index(0):
                pass


def test_script_device_choice_takes_the_cpu_path():
    for lib in LIBS:
        use_accel = lib.accelerator.is_available()
        device = lib.accelerator.current_accelerator() if use_accel else lib.device("cpu")
        assert str(device) == "cpu" and str(lib.ones(2).to(device).device) == "cpu"


def test_functional_data_parallel_has_no_device_type_to_run_on():
    for lib in LIBS:
        with pytest.raises(RuntimeError, match="^device type could not be determined$"):
            lib.nn.parallel.data_parallel(lib.nn.Linear(2, 1), lib.ones(3, 2))


# ---- legacy tensor types over numpy arrays


@pytest.mark.parametrize("type_name, array", [
    ("FloatTensor", np.array([[0, 1, 1], [1, 0, 2]], dtype=np.int32)),
    ("LongTensor", np.array([2, 0, 1], dtype=np.int64)),
    ("LongTensor", np.array([1.7, -2.5])),
    ("DoubleTensor", np.array(3.5)),
    ("IntTensor", np.array([True, False])),
    ("FloatTensor", np.ones((2, 3), np.float32).T),
])
def test_legacy_type_builds_from_a_numpy_array_in_its_dtype(type_name, array):
    ours, theirs = getattr(minitorch2, type_name)(array), getattr(torch, type_name)(array)
    assert str(ours.dtype) == str(theirs.dtype) and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    array[...] = 0  # the array's memory when the dtypes agree, else a copy, as torch's
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("make", [lambda: range(3), lambda: collections.deque([1.5, 2]),
                                  lambda: array.array("i", [4, 5])], ids=["range", "deque", "array"])
def test_legacy_type_builds_from_any_python_sequence(make):
    for type_name in ("FloatTensor", "LongTensor"):
        ours, theirs = getattr(minitorch2, type_name)(make()), getattr(torch, type_name)(make())
        assert str(ours.dtype) == str(theirs.dtype) and ours.tolist() == theirs.tolist()


@pytest.mark.parametrize("data", ["ab", {1: 2}], ids=["str", "dict"])
def test_legacy_type_refuses_strings_and_dicts_in_torchs_words(data):
    messages = []
    for lib in LIBS:
        with pytest.raises(TypeError) as error:
            lib.FloatTensor(data)
        messages.append(str(error.value))
    assert messages[1] == messages[0]


# ---- torch.load's weights-only default refuses numpy arrays


def saved(lib, obj):
    buffer = io.BytesIO()
    lib.save(obj, buffer)
    buffer.seek(0)
    return buffer


@pytest.mark.parametrize("obj", [np.sin(np.arange(6.0)).reshape(2, 3), np.float64(2.5)], ids=["array", "scalar"])
def test_a_saved_numpy_value_loads_only_with_weights_only_false(obj):
    messages = []
    for lib in LIBS:
        with pytest.raises(pickle.UnpicklingError) as error:
            lib.load(saved(lib, obj))
        messages.append(str(error.value))
        np.testing.assert_array_equal(lib.load(saved(lib, obj), weights_only=False), obj)
    assert messages[1] == messages[0]


def test_tensors_still_load_by_default_with_dtype_shape_layout_and_grad():
    values = {"t": minitorch2.arange(6).view(2, 3).t(), "half": minitorch2.ones(3, dtype=minitorch2.float16),
              "empty": minitorch2.zeros(0, 4), "grad": minitorch2.ones(2, requires_grad=True)}
    back = minitorch2.load(saved(minitorch2, values))
    for key, value in values.items():
        assert back[key].dtype is value.dtype and back[key].shape == value.shape
        # (the layout kept, as torch's load keeps a transposed tensor's strides over its saved storage)
        assert back[key].requires_grad == value.requires_grad and back[key].stride() == value.stride()
        np.testing.assert_array_equal(back[key].detach().numpy(), value.detach().numpy())


# ---- DataLoader warnings


def loader_warnings(lib, **options):
    dataset = lib.utils.data.TensorDataset(lib.arange(8.0))

    def load():
        loader = lib.utils.data.DataLoader(dataset, batch_size=4, **options)
        return [batch[0].tolist() for batch in loader]

    return caught_warnings(load)


@pytest.mark.parametrize("options", [dict(num_workers=os.cpu_count() + 2, pin_memory=True), dict(pin_memory=True),
                                     dict(num_workers=1)], ids=["many workers, pinned", "pinned", "one worker"])
def test_dataloader_warns_as_torch_on_too_many_workers_and_pin_memory(options):
    theirs, ours = loader_warnings(torch, **options), loader_warnings(minitorch2, **options)
    assert ours == theirs


# ---- transformer mask checks


def translator_step(lib):
    lib.manual_seed(0)
    model = lib.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16,
                               dropout=0.0)
    src, tgt = lib.randn(5, 2, 8), lib.randn(4, 2, 8)
    src_padding = lib.zeros(2, 5, dtype=lib.bool)
    src_padding[1, 3:] = True
    tgt_padding = lib.zeros(2, 4, dtype=lib.bool)
    tgt_padding[0, 2:] = True
    tgt_mask = model.generate_square_subsequent_mask(4)  # float, beside bool padding masks: torch warns
    src_mask = lib.zeros(5, 5).type(lib.bool)
    out = model(src, tgt, src_mask, tgt_mask, None, src_padding, tgt_padding, src_padding)
    return out.detach().numpy()


def test_translator_with_mismatched_mask_types_warns_and_computes_as_torch():
    (theirs, their_warnings), (ours, our_warnings) = caught_warnings(lambda: translator_step(torch)), \
        caught_warnings(lambda: translator_step(minitorch2))
    assert our_warnings == their_warnings
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


def test_an_integer_mask_is_refused_with_torchs_assertion():
    for lib in LIBS:
        attention = lib.nn.MultiheadAttention(4, 2)
        x = lib.randn(3, 1, 4)
        with pytest.raises(AssertionError, match="only bool and floating types of key_padding_mask are supported"):
            attention(x, x, x, key_padding_mask=lib.zeros(1, 3, dtype=lib.int64))
