"""minitorch2.optim (as torch.optim): the optimizers, lr_scheduler and swa_utils.

Coverage surface: SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam, ASGD,
Rprop, SparseAdam (constructor and dense-gradient refusal), LBFGS and Adafactor, each on PyTorch's
single-tensor (CPU) formulas.
"""
from .._unsupported import module_getattr
from . import lr_scheduler, swa_utils
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam", "ASGD",
           "Rprop", "SparseAdam", "LBFGS", "Adafactor", "lr_scheduler", "swa_utils"]

__getattr__ = module_getattr("minitorch2.optim", "torch.optim")  # a missing name: one line under `run`
