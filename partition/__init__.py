"""partition: cutting joint forward+backward graphs (plays `torch._functorch.partitioners`).

`default_partition` saves whatever the backward reads; the networkx min-cut
partitioner (its own issue) is still to come.
"""
from .default import default_partition

__all__ = ["default_partition"]
