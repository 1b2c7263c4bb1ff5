"""The min-cut's judgement calls: what a saved value costs, and what must never be recomputed
(the heuristics of `solve_min_cut` in torch._functorch.partitioners).

partition layer, consulted by `partition/network.py` while it builds the flow network. A min cut only knows
capacities; these rules turn a node into one:

    cost of saving     its output's bytes (`size_of`), scaled by 1.1 per op of distance from the backward (capped
                       at 100), doubled when every user could fuse it (nobody must write it to memory, so saving
                       it is relatively dear); static primals (parameters) are free
    banned (infinite)  off the recompute allowlist (`op_types.py`); materialised in the backward anyway (an `mm`
                       reads it: recomputing would cost a whole kernel); a reduction shrinking its input 4x or
                       more; fusible uses after an unfusible one (used far apart); a fusible chain past 100 ops

(PyTorch's "too far from the backward" ban, unreachable with its default limits, is left out.)

The one idea to hold: "recomputation is free" is the bet behind the min-cut, and each rule here marks a place where
the bet is wrong for a fusing compiler. Turning a rule off (`MinCutOptions`) trades memory for compute.
"""
import heapq
import math
from dataclasses import dataclass

from minitorch2._sym import SymFloat, is_symbolic
from minitorch2._tensor import Tensor
from minitorch2.fx.node import Node

from .op_types import op_name

LONG_CHAIN = 100  # ops in one fusible chain before it must be broken


@dataclass(frozen=True)
class MinCutOptions:
    """Which ban rules are on (all of them, as in PyTorch's default config)."""
    ban_if_used_far_apart: bool = True
    ban_if_long_fusible_chains: bool = True
    ban_if_materialized_backward: bool = True
    ban_if_not_in_allowlist: bool = True
    ban_if_reduction: bool = True


def size_of(node):
    """Bytes of a node's output: its tensor, or the sum of the tensors of a tuple; 1 for a scalar or a size. A
    symbolic size counts as its example value (its hint; 4096 for a data-dependent one, as torch's fallback)."""
    val = node.meta.get("val")
    if isinstance(val, (list, tuple)):
        return sum(_hint(v.numel()) * v.dtype.itemsize for v in val if isinstance(v, Tensor))
    if isinstance(val, Tensor):
        return _hint(val.numel()) * val.dtype.itemsize
    return 1 if isinstance(val, (bool, int, float)) or is_symbolic(val) else 0


def _hint(size):
    return size if not is_symbolic(size) else 4096 if size.node.hint is None else size.node.hint


def _policy(node):
    policy = node.meta.get("recompute")
    return str(getattr(policy, "name", policy)).upper() if policy is not None else None


def must_recompute(node):
    """Selective checkpointing asked for this node to be recomputed."""
    return _policy(node) in ("MUST_RECOMPUTE", "PREFER_RECOMPUTE")


def must_save(node):
    return _policy(node) == "MUST_SAVE"


class RecomputeRules:
    """The per-node rules, bound to one joint graph's classification."""

    def __init__(self, node_info, op_types, options):
        self.info = node_info
        self.ops = op_types
        self.options = options

    def is_fusible(self, producer, consumer):
        """Could `consumer` read `producer` inside one fused kernel? (`cat` absorbs anything.)"""
        fusible = self.ops.fusible
        return op_name(consumer) == "cat" or (op_name(producer) in fusible and op_name(consumer) in fusible)

    def is_materialized_backwards(self, node):
        """Does some backward user (looking through views) need `node` written to memory?"""
        if op_name(node) in self.ops.view:
            return False
        pending = [node]
        while pending:
            current = pending.pop()
            for user in current.users:
                if not self.info.is_required_fw(user) and not self.is_fusible(current, user):
                    return True
                if op_name(user) in self.ops.view:
                    pending.append(user)
        return False

    def ban_reason(self, node):
        """Why `node` may not be recomputed, or None when it may."""
        if node.op != "call_function" or op_name(node) == "getitem":
            return None
        if must_save(node):
            return "marked MUST_SAVE"
        if op_name(node) in ("lift_fresh_copy", "lift_fresh"):
            return None
        if self.options.ban_if_not_in_allowlist:
            if op_name(node) not in self.ops.recomputable:
                return "not in recomputable allowlist"
        elif op_name(node) in self.ops.random:
            return "random op"
        elif op_name(node) in self.ops.compute_intensive:
            return "compute intensive op"
        if self.options.ban_if_materialized_backward and self.is_materialized_backwards(node):
            return "materialized in backward"
        if self.options.ban_if_reduction:
            inputs = sum(size_of(arg) for arg in node.args if isinstance(arg, Node))
            if size_of(node) * 4 < inputs:
                return "reduction op"
        return None

    def is_materialized(self, node):
        """Must this value be written to memory even in the forward (some user cannot fuse it)?"""
        return node.op == "placeholder" or not all(self.is_fusible(node, user) for user in node.users)

    def weight(self, node):
        """(capacity of the node's in->out edge, reason it cannot be saved or None)."""
        val = node.meta.get("val")
        if is_symbolic(val):  # a size: as cheap to save as torch counts it (a SymFloat dearer)
            return (4 if isinstance(val, SymFloat) else 1), None
        if not isinstance(val, Tensor):
            return math.inf, "non-tensor output"
        if node in self.info.static_lifetime_inputs:
            return 0, None
        size = int(size_of(node) * (1.1 ** max(min(self.info.dist_from_bw[node], 100), 1)))
        return (size, None) if self.is_materialized(node) else (size * 2, None)


# ---------------------------------------------------------------- whole-graph ban rules

def ban_uses_far_apart(rules, network):
    """Ban recomputing fusible uses of a value that come after an unfusible use of it in the forward."""
    info = rules.info
    for used in info.required_fw_nodes:
        fw_users = [user for user in used.users if info.is_required_fw(user)]
        if not fw_users:
            continue
        first_unfusible = _first_unfusible(rules, fw_users, max(info.fw_order[u] for u in fw_users))
        for user in tuple(used.users):
            if (info.is_required_fw(user) and info.fw_order[user] > first_unfusible
                    and rules.is_fusible(used, user) and user not in network.banned):
                network.ban(user, "used far apart")


def _first_unfusible(rules, start_nodes, max_range):
    """Forward position of the first unfusible step reachable from `start_nodes` (or `max_range`)."""
    order = rules.info.fw_order
    heap = [(order[n], n, True) for n in start_nodes]
    heapq.heapify(heap)
    queued = set(heap)
    while heap:
        entry = heapq.heappop(heap)
        queued.discard(entry)
        _, node, fusible = entry
        if not fusible:
            return order[node]
        for user in node.users:
            if rules.info.is_required_fw(user) and order[user] <= max_range:
                item = (order[user], user, rules.is_fusible(node, user))
                if item not in queued:
                    queued.add(item)
                    heapq.heappush(heap, item)
    return max_range


def ban_long_fusible_chains(rules, network):
    """Walk fusible chains from each forward node; ban the node where a chain passes 100 ops."""
    info = rules.info
    visited = set()
    for start in info.required_fw_nodes:
        start_order = info.fw_order[start]
        heap = [(start_order, start)]
        while heap:
            _, current = heapq.heappop(heap)
            if current in visited:
                continue
            visited.add(current)
            if info.fw_order[current] > start_order + LONG_CHAIN and not heap:
                network.ban(current, "long fusible chain")
                break
            for user in current.users:
                if info.is_required_fw(user) and rules.is_fusible(current, user) and user not in network.banned:
                    heapq.heappush(heap, (info.fw_order[user], user))
