"""Several partitioners on one joint graph, side by side: their reports, or one drawing of all their cuts.

partition layer, an observer like `partition/report.py` and `partition/draw.py`, but above both partitioners, so it
can import them.

The one idea to hold: a comparison is the same joint graph cut by each partitioner in turn (`PARTITIONERS`); what
differs is only the list of saved values.
"""
from .default import default_partition
from .draw import partition_dot
from .min_cut import min_cut_rematerialization_partition
from .report import partition_report

PARTITIONERS = {
    "default_partition": default_partition,
    "min_cut_rematerialization_partition": min_cut_rematerialization_partition,
}


def run_partitioners(joint_module, num_fwd_outputs, partitioners=None):
    """{name: (fw_module, bw_module)}: `joint_module` cut by each partitioner (PARTITIONERS unless told otherwise)."""
    partitioners = partitioners or PARTITIONERS
    return {name: partition_fn(joint_module, None, num_fwd_outputs=num_fwd_outputs)
            for name, partition_fn in partitioners.items()}


def compare_partitions(joint_module, num_fwd_outputs, partitioners=None):
    """Reports for several partitioners on one joint graph (default and min-cut unless told otherwise)."""
    return {name: partition_report(joint_module, fw, bw, name)
            for name, (fw, bw) in run_partitioners(joint_module, num_fwd_outputs, partitioners).items()}


def draw_partitions(joint_module, num_fwd_outputs, partitioners=None):
    """DOT text comparing the default and min-cut partitions (or the given ones) of `joint_module`."""
    return partition_dot(joint_module, run_partitioners(joint_module, num_fwd_outputs, partitioners))
