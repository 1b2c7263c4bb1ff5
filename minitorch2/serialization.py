"""torch.save and torch.load (as torch.serialization): objects to a file and back, within minitorch2.

Runtime library surface. A file is minitorch2's own format: a magic line, then a pickle (a tensor pickles
as its storage's raw bytes and dtype, with its size, stride, offset and requires_grad, so no numpy class is
named; an object reached twice, such as a tied Parameter, stays one object, and views of one storage, saved
together, load as views of one storage again, as torch's do). PyTorch's zip format is read (a checkpoint torch.save wrote:
its pickle's tensors rebuilt from their storages, views of one storage sharing it, torch's classes taken as
minitorch2's) but not written: minitorch2's files do not
load in torch. As torch's, `load` defaults to weights_only=True: only tensors,
Parameters, containers, numbers, strings, dtypes and sizes come back, and any other class (a numpy array
too) raises pickle.UnpicklingError; pass weights_only=False only for a file you trust, since unpickling
it runs code.
"""
import contextlib
import importlib
import io
import os
import pickle
import zipfile

import numpy as np

from . import _dtype
from ._tensor import Tensor
from .fx._spelling import torch_module_name

MAGIC = b"minitorch2.save v1\n"

# What a weights-only load may construct: (module, name) pairs a pickle of tensors and containers names.
_WEIGHTS_ONLY_GLOBALS = {
    ("collections", "OrderedDict"), ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "slice"),
    ("builtins", "complex"), ("builtins", "range"), ("builtins", "bytes"), ("_codecs", "encode"),
    *(("__builtin__", name) for name in ("set", "frozenset", "slice", "complex", "range", "bytes")),  # protocol 2's
    ("minitorch2.serialization", "_rebuild_tensor"), ("minitorch2.serialization", "_rebuild_storage"),
    ("minitorch2.serialization", "_rebuild_view"), ("minitorch2._tensor", "Size"),
    ("minitorch2._dtype", "from_name"), ("minitorch2.nn.parameter", "Parameter"),
}


def _rebuild_tensor(data, dtype, shape, requires_grad):
    t = Tensor._from_numpy(np.frombuffer(data, dtype=dtype.np).reshape(shape).copy())
    t.requires_grad = requires_grad
    return t


def _rebuild_storage(data, dtype):
    return Tensor._from_numpy(np.frombuffer(data, dtype=dtype.np).copy())


def _rebuild_view(storage, shape, stride, offset, requires_grad):
    t = storage.as_strided(shape, stride, offset).detach()
    t.requires_grad = requires_grad
    return t


class _SavedStorage:
    """One storage in a pickle: the pickler keeps one per storage it meets, so pickle's memo writes its bytes
    once and every tensor over it refers back to that one record."""

    def __init__(self, array, dtype):
        self.array, self.dtype = array, dtype


class _Pickler(pickle.Pickler):
    """Tensors as bytes (Tensor's own pickling names numpy's array class, which a weights-only load refuses)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._storages = {}  # id of a tensor's storage array -> its _SavedStorage

    def reducer_override(self, obj):
        if isinstance(obj, _SavedStorage):
            return _rebuild_storage, (obj.array.tobytes(), obj.dtype)
        if isinstance(obj, Tensor) and type(obj).__reduce_ex__ is Tensor.__reduce_ex__:
            storage = obj._storage
            if obj._np is None or not isinstance(storage, np.ndarray) or storage.dtype != obj.dtype.np:
                array = obj._np if obj._np is not None else obj.numpy(force=True)
                return _rebuild_tensor, (array.tobytes(), obj.dtype, tuple(array.shape), obj.requires_grad)
            saved = self._storages.setdefault(id(storage), _SavedStorage(storage, obj.dtype))
            return _rebuild_view, (saved, tuple(obj.shape), tuple(obj.stride()), obj.storage_offset(),
                                   obj.requires_grad)
        return NotImplemented


_SAFE_GLOBALS = []  # classes and functions the user allowed (add_safe_globals, safe_globals)


def add_safe_globals(safe_globals):
    _SAFE_GLOBALS.extend(safe_globals)


def get_safe_globals():
    return list(_SAFE_GLOBALS)


def clear_safe_globals():
    _SAFE_GLOBALS.clear()


class safe_globals:
    """`with safe_globals([RNNModel, nn.LSTM]): torch.load(f)`: those classes load with weights_only=True."""

    def __init__(self, safe_globals):
        self.safe_globals = list(safe_globals)

    def __enter__(self):
        self.saved = get_safe_globals()
        add_safe_globals(self.safe_globals)

    def __exit__(self, *exc):
        _SAFE_GLOBALS[:] = self.saved


class _WeightsOnlyUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        allowed = {(g.__module__, g.__qualname__) for g in _SAFE_GLOBALS}
        if (module, name) not in _WEIGHTS_ONLY_GLOBALS and (module, name) not in allowed:
            shown = f"{torch_module_name(module)}.{name}"  # our classes named as the user imported them: torch.nn...
            raise pickle.UnpicklingError(
                f"Unsupported global: GLOBAL {shown} was not an allowed global by default. Please use "
                f"`torch.serialization.add_safe_globals([{shown}])` or the `torch.serialization.safe_globals("
                f"[{shown}])` context manager to allowlist this global if you trust this class/function.")
        return super().find_class(module, name)


@contextlib.contextmanager
def _opened(f, mode):
    if isinstance(f, (str, os.PathLike)):
        with open(f, mode) as file:
            yield file
    else:
        yield f


def save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    with _opened(f, "wb") as file:
        file.write(MAGIC)
        pickler = _Pickler if pickle_module is pickle else pickle_module.Pickler
        pickler(file, protocol=pickle_protocol).dump(obj)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    if str(map_location).startswith("cuda"):
        raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
                           "False. If you are running on a CPU-only machine, please use torch.load with "
                           "map_location=torch.device('cpu') to map your storages to the CPU.")
    with _opened(f, "rb") as file:
        start = file.tell()
        if file.read(len(MAGIC)) != MAGIC:
            file.seek(start)
            if not zipfile.is_zipfile(file):
                raise RuntimeError("minitorch2.load: neither a file written by minitorch2.save nor PyTorch's zip "
                                   "format")
            file.seek(start)
            return _load_weights_only(_torch_zip_loader(file, weights_only is False), pickle_load_args)
        if weights_only is False:
            return (pickle_module or pickle).load(file, **pickle_load_args)
        return _load_weights_only(lambda **kwargs: _WeightsOnlyUnpickler(file, **kwargs), pickle_load_args)


def _load_weights_only(make_unpickler, pickle_load_args):
    try:
        return make_unpickler(**pickle_load_args).load()
    except pickle.UnpicklingError as error:
        raise pickle.UnpicklingError(
            "Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo "
            "those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we "
            "changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. "
            "Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in "
            "arbitrary code execution. Do it only if you got the file from a trusted source.\n\t(2) "
            "Alternatively, to load with `weights_only=True` please check the recommended steps in the following "
            f"error message.\n\tWeightsUnpickler error: {error}\n\nCheck the documentation of torch.load to "
            "learn more about types accepted by default with weights_only "
            "https://pytorch.org/docs/stable/generated/torch.load.html.") from None


# ---- PyTorch's zip format: data.pkl, whose tensors name their storages (data/<key>) by persistent id
_STORAGE_DTYPES = {"FloatStorage": "float32", "DoubleStorage": "float64", "HalfStorage": "float16",
                   "BFloat16Storage": "bfloat16",                   "LongStorage": "int64", "IntStorage": "int32", "ShortStorage": "int16", "CharStorage": "int8",
                   "ByteStorage": "uint8", "BoolStorage": "bool"}


def _rebuild_from_storage(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    base, _ = storage
    t = base.as_strided(tuple(size), tuple(stride), storage_offset) if base.numel() else base.new_empty(size)
    t.requires_grad = requires_grad
    return t


def _rebuild_parameter(data, requires_grad, backward_hooks, *args):
    return importlib.import_module("minitorch2.nn.parameter").Parameter(data, requires_grad)  # (nn: at call time)


def _torch_zip_loader(file, trusted):
    """An unpickler factory for a PyTorch zip checkpoint: its storages read as flat minitorch2 tensors, one per key
    (so views of one storage share it, as tied weights do), torch's globals mapped to ours."""
    archive = zipfile.ZipFile(file)
    prefix = next(name for name in archive.namelist() if name.endswith("data.pkl"))[:-len("data.pkl")]
    storages = {}

    def storage(pid):
        _, storage_type, key, _location, numel = pid
        if key not in storages:
            array = np.frombuffer(archive.read(f"{prefix}data/{key}"), dtype=storage_type.np)[:numel]
            storages[key] = (Tensor._from_numpy(array.copy()), storage_type)
        return storages[key]

    class Unpickler(pickle.Unpickler if trusted else _WeightsOnlyUnpickler):
        def persistent_load(self, pid):
            return storage(pid)

        def find_class(self, module, name):
            if module == "torch" and name in _STORAGE_DTYPES:
                return _dtype.from_name(_STORAGE_DTYPES[name])
            if (module, name) in (("torch._utils", "_rebuild_tensor_v2"), ("torch._utils", "_rebuild_tensor")):
                return _rebuild_from_storage
            if (module, name) == ("torch._utils", "_rebuild_parameter"):
                return _rebuild_parameter
            if module == "torch" and name in _dtype._BY_NAME:
                return _dtype.from_name(name)
            if module == "torch" and name in ("Size", "device"):
                return getattr(__import__("minitorch2"), name)
            if module.startswith("torch.") or module == "torch":
                module = "minitorch2" + module[len("torch"):]
            if trusted and module.startswith("minitorch2"):
                return getattr(importlib.import_module(module), name)
            return super().find_class(module, name)

    return lambda **kwargs: Unpickler(io.BytesIO(archive.read(f"{prefix}data.pkl")), **kwargs)
