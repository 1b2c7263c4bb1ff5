"""torch.__config__: how this build was made (runtime layer, coverage surface), asked by scripts that log their
environment. minitorch2 is Python over numpy, so that is what it says."""
import numpy as np

from . import _settings


def show():
    return f"minitorch2 built with:\n  - Python and numpy {np.__version__} (no C++ extension)\n"


def parallel_info():
    return f"ATen/Parallel:\n\tat::get_num_threads() : {_settings.get_num_threads()}\n"
