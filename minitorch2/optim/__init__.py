"""minitorch2.optim (as torch.optim): SGD, Adam, AdamW."""
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW"]
