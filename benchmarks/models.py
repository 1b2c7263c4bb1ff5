"""The models the benchmarks share, built for either library (torch or minitorch2).

Not part of the pipeline: benchmarks/eager.py, inductor.py and frontend.py
time the same transformer block that examples/transformer_block.py trains.
"""
import math
import os

EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples", "transformer_block.py")


def transformer_classes(lib):
    """examples/transformer_block.py's class definitions (Block, TinyLM), with `torch` bound to lib."""
    source = open(EXAMPLE).read().split("torch.manual_seed(0)")[0]  # the class definitions only
    source = (source.replace("import torch.nn as nn", "").replace("import torch.nn.functional as F", "")
              .replace("import torch", ""))
    namespace = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional, "math": math}
    exec(compile(source, EXAMPLE, "exec"), namespace)
    return namespace
