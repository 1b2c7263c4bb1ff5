"""partition: cutting joint forward+backward graphs (plays `torch._functorch.partitioners`).

partition layer, between `autograd` (which traces the joint graph) and the backend compilers (which receive the two
halves). Two partitioners share one extraction (`default.extract_fwd_bwd_graphs`): `default_partition` saves
whatever the backward reads; `min_cut_rematerialization_partition` saves the cheapest set of tensors found by a
networkx minimum cut and recomputes the rest. `report` tells what a partition saves and recomputes; `draw` shows the
cut as Graphviz DOT; `compare` runs both partitioners on one joint graph.

The one idea to hold: a partition is a list of saved values. Everything crossing from the forward to the backward is
activation memory; everything the backward needs but was not saved, it recomputes.
"""
from .compare import compare_partitions, draw_partitions
from .default import default_partition
from .draw import partition_dot, render_svg
from .min_cut import min_cut_rematerialization_partition
from .report import PartitionReport, partition_report

__all__ = ["default_partition", "min_cut_rematerialization_partition", "partition_report", "compare_partitions",
           "PartitionReport", "partition_dot", "draw_partitions", "render_svg"]
