"""What a partition costs in activation memory: the saved tensors, their bytes, and what was recomputed.

partition layer, an observer: people call it, and the partitioners when MINITORCH2_LOGS asks for `partition`. Given a
joint graph and the `(fw_module, bw_module)` a partitioner made of it, it reads:

    saved       the backward's inputs other than tangents
    bytes       each saved value's numel x itemsize, from its FakeTensor
    recomputed  computations present in both graphs
"""
from dataclasses import dataclass, field

from minitorch2 import _logging
from minitorch2._tensor import Tensor


@dataclass(frozen=True)
class SavedTensor:
    name: str
    op: str  # what produced it: "aten.sin.default", or "placeholder" for a saved input
    shape: tuple
    dtype: str
    nbytes: int


@dataclass
class PartitionReport:
    name: str
    saved: list = field(default_factory=list)  # SavedTensor, in the order the forward returns them
    recomputed: list = field(default_factory=list)  # names of nodes computed in both graphs
    forward_ops: int = 0
    backward_ops: int = 0

    @property
    def total_bytes(self):
        return sum(s.nbytes for s in self.saved)

    @property
    def saved_names(self):
        return [s.name for s in self.saved]

    def __str__(self):
        plural = "" if len(self.saved) == 1 else "s"
        lines = [f"{self.name}: saves {len(self.saved)} tensor{plural} ({_bytes(self.total_bytes)}), "
                 f"recomputes {len(self.recomputed)} ops; forward {self.forward_ops} ops, "
                 f"backward {self.backward_ops} ops"]
        if self.saved:
            rows = [("saved", "produced by", "shape", "dtype", "bytes")]
            rows += [(s.name, s.op, str(list(s.shape)), s.dtype, str(s.nbytes)) for s in self.saved]
            widths = [max(len(row[i]) for row in rows) for i in range(5)]
            for row in rows:
                cells = [cell.ljust(w) if i < 4 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))]
                lines.append("  " + "  ".join(cells))
        lines.append("  recomputed in backward: " + (", ".join(self.recomputed) if self.recomputed else "(nothing)"))
        return "\n".join(lines)


def partition_report(joint_module, fw_module, bw_module, name="partition"):
    joint_nodes = {n.name: n for n in joint_module.graph.nodes}
    fw_nodes = {n.name: n for n in fw_module.graph.nodes}
    saved = [_describe(joint_nodes.get(node.name) or fw_nodes.get(node.name) or node, node)
             for node in bw_module.graph.nodes if node.op == "placeholder" and not node.name.startswith("tangents")]
    fw_calls = {n.name for n in fw_module.graph.nodes if n.op == "call_function"}
    bw_calls = [n.name for n in bw_module.graph.nodes if n.op == "call_function"]
    recomputed = [n for n in bw_calls if n in fw_calls]
    return PartitionReport(name, saved, recomputed, len(fw_calls), len(bw_calls))


def log_partition(joint_module, fw_module, bw_module, name):
    """The `partition` artifact of MINITORCH2_LOGS: what this partition saves (both partitioners call it)."""
    if _logging.enabled("partition"):
        _logging.log_artifact("partition", str(partition_report(joint_module, fw_module, bw_module, name)))


def _describe(source, fallback):
    val = source.meta.get("val", fallback.meta.get("val"))
    op = "placeholder" if source.op == "placeholder" else str(source.target)
    if isinstance(val, Tensor):
        return SavedTensor(source.name, op, tuple(val.shape), str(val.dtype).split(".")[-1],
                           val.numel() * val.dtype.itemsize)
    return SavedTensor(source.name, op, (), type(val).__name__, 0)


def _bytes(n):
    if n < 1024:
        return f"{n} B"
    for unit, scale in (("KiB", 1024), ("MiB", 1024 ** 2), ("GiB", 1024 ** 3)):
        if n < scale * 1024 or unit == "GiB":
            return f"{n / scale:.1f} {unit}"

