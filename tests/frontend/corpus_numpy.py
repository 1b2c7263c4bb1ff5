"""Corpus programs with numpy code inside the compiled frame (see corpus.py), traced as Dynamo traces it.

Kept apart from corpus.CORPUS_SRC as corpus_breaks.py is; corpus.build() execs the three texts together.
NUMPY_PROGRAMS are called on one (4, 4) float32 tensor, twice, and return tensors (the harnesses compare those).
The programs mirror real code: numpy's ufuncs on a tensor and on an array, normalizing with ndarray methods, a
clipped 0-d sum back as a tensor, np.arange positions added to a tensor, and x.numpy() round trips through
torch.from_numpy / torch.as_tensor.
"""

NUMPY_SRC = r'''
import numpy as np

# ---- numpy inside the frame (frontend/variables/numpy_arrays.py) ---------------------------
def c_numpy_ufunc_on_tensor(x):
    return torch.as_tensor(np.exp(x)) * 2 + np.sin(x.numpy()).sum()
def c_numpy_normalize(x):
    a = x.numpy()
    return torch.from_numpy((a - a.mean(axis=0)) / (np.std(a, axis=0) + 1e-5))
def c_numpy_clip_sum(x):
    a = x.numpy()
    return torch.as_tensor(np.clip(a, 0, 1).sum()) + x
def c_numpy_arange_positions(x):
    return x + torch.from_numpy(np.arange(x.shape[1])).float()
def c_numpy_methods_round_trip(x):
    a = x.numpy()
    b = np.where(a > 0, a, 0.0) @ a
    return torch.as_tensor(a.T.reshape(-1).astype(np.float64)), torch.from_numpy(a.max(0)), torch.as_tensor(b)
'''

NUMPY_PROGRAMS = ("c_numpy_ufunc_on_tensor", "c_numpy_normalize", "c_numpy_clip_sum", "c_numpy_arange_positions",
                  "c_numpy_methods_round_trip")
