"""torch.distributed.nn: the differentiable collectives, for a world of one process.

Runtime layer, coverage surface (see ../__init__.py). Library code written for many processes imports it at the
top (lucidrains' quantizers average their codebook statistics with `dist_nn.all_reduce`) and calls it only when
the world is larger than one; the functions themselves live in functional.py.
"""
from .functional import *
from .functional import __all__  # noqa: F401
