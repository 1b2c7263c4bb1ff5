"""minitorch2.optim (as torch.optim): SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, and lr_scheduler."""
from .._unsupported import module_getattr
from . import lr_scheduler
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "lr_scheduler"]

__getattr__ = module_getattr("minitorch2.optim", "torch.optim")  # a missing name: one line under `run`
