"""replace_pattern: rewrite every occurrence of one subgraph with another.

FX pass (as torch.fx.subgraph_rewriter). Both the pattern and the
replacement are written as ordinary functions and traced:

    def pattern(x):       return x * torch.sigmoid(x)
    def replacement(x):   return torch.nn.functional.silu(x)
    matches = replace_pattern(gm, pattern, replacement)     # [Match(anchor, nodes_map), ...]

For each match (found by passes/utils/matcher_utils.SubgraphMatcher): copy
the replacement graph in just before the first user of the match's result,
with its placeholders bound to the values the pattern's placeholders
matched; point the users at the copy; erase the matched nodes, last first.
Then recompile once.

The one idea to hold: matching is structural, exactly as in torch.fx, so
`torch.sigmoid(x) * x` is not matched by `x * torch.sigmoid(x)`; and a later
match whose input was produced by an earlier replacement is rewired to the
replacement's output (`match_changed_node`).
"""
import copy
from dataclasses import dataclass
from typing import NamedTuple

from ..nn import Module
from ._symbolic_trace import symbolic_trace
from .graph import Graph
from .graph_module import GraphModule
from .node import Node
from .passes.utils.matcher_utils import SubgraphMatcher

__all__ = ["Match", "replace_pattern", "replace_pattern_with_filters", "ReplacedPatterns"]


class Match(NamedTuple):
    anchor: Node  # the graph node matched by the pattern's output
    nodes_map: dict  # pattern node -> graph node


@dataclass
class ReplacedPatterns:
    anchor: Node
    nodes_map: dict
    replacements: list


def replace_pattern(gm, pattern, replacement):
    """Replace every non-overlapping match of pattern in gm with replacement; returns the Matches."""
    return [Match(anchor=m.anchor, nodes_map=m.nodes_map) for m in _replace_pattern(gm, pattern, replacement)]


def replace_pattern_with_filters(gm, pattern, replacement=None, match_filters=None, ignore_literals=False):
    """replace_pattern, keeping only matches every `filter(match, graph, pattern_graph)` accepts."""
    return _replace_pattern(gm, pattern, replacement, match_filters, ignore_literals)


def _as_graph(obj):
    if isinstance(obj, GraphModule):
        return obj.graph
    if isinstance(obj, Graph):
        return obj
    return symbolic_trace(obj).graph


def _replace_pattern(gm, pattern, replacement, match_filters=None, ignore_literals=False):
    original_graph = gm.graph
    pattern_graph = _as_graph(pattern)
    matcher = SubgraphMatcher(pattern_graph, match_output=False, match_placeholder=False,
                              remove_overlapping_matches=True, ignore_literals=ignore_literals)
    matches = [
        m for m in matcher.match(original_graph)
        if all(f(m, original_graph, pattern_graph) for f in (match_filters or []))
    ]
    replacement_graph = _as_graph(replacement)
    replacement_placeholders = [n for n in replacement_graph.nodes if n.op == "placeholder"]
    match_changed_node = {}  # a graph node erased by an earlier replacement -> what replaced it
    results = []
    for match in matches:
        if len(match.placeholder_nodes) != len(replacement_placeholders):
            raise AssertionError(
                f"Placeholder count mismatch: {len(match.placeholder_nodes)} vs {len(replacement_placeholders)}"
            )
        val_map = _bind_placeholders(match, replacement_placeholders, match_changed_node)
        with original_graph.inserting_before(_insert_point(original_graph, match)):
            copied_returning = original_graph.graph_copy(replacement_graph, val_map)
        if isinstance(copied_returning, Node):
            copied_returning = (copied_returning,)
        replacement_nodes = [v for v in val_map.values() if v not in match.placeholder_nodes]
        if len(match.returning_nodes) != len(copied_returning):
            raise AssertionError(
                f"Returning nodes count mismatch: {len(match.returning_nodes)} vs {len(copied_returning)}"
            )
        for gn, copied in zip(match.returning_nodes, copied_returning):
            gn.replace_all_uses_with(copied)
            match_changed_node[gn] = copied
        for pn in reversed(pattern_graph.nodes):
            if pn.op not in ("placeholder", "output"):
                gm.graph.erase_node(match.nodes_map[pn])
        results.append(ReplacedPatterns(anchor=match.anchors[0], nodes_map=match.nodes_map, replacements=replacement_nodes))
    gm.recompile()
    if isinstance(replacement, Module):
        _replace_attributes(gm, replacement)
    return results


def _bind_placeholders(match, replacement_placeholders, match_changed_node):
    """Replacement placeholder -> the graph value it stands for (following earlier replacements)."""
    val_map = {}
    for rn, gn in zip(replacement_placeholders, match.placeholder_nodes):
        if not isinstance(gn, Node):
            val_map[rn] = gn
            continue
        val_map[rn] = match_changed_node.get(gn, gn)
        if gn is not val_map[rn]:
            match.placeholder_nodes[match.placeholder_nodes.index(gn)] = val_map[rn]
            pattern_node = list(match.nodes_map.keys())[list(match.nodes_map.values()).index(gn)]
            match.nodes_map[pattern_node] = val_map[rn]
    return val_map


def _insert_point(graph, match):
    """Just before the first user of the matched result (or after the match, if it has none)."""
    users = set()
    for n in match.returning_nodes:
        users.update(n.users)
    if len(users) == 1:
        return next(iter(users))
    if users:
        return next(n for n in graph.nodes if n in users)
    following = None
    for n in reversed(graph.nodes):
        if n in match.returning_nodes:
            return following
        following = n
    raise AssertionError("The insert point can't be None")


def _replace_attributes(gm, replacement):
    """Copy attributes the replacement's get_attr/call_module nodes need from the replacement module."""
    gm.delete_all_unused_submodules()
    for node in gm.graph.nodes:
        if node.op in ("call_module", "get_attr"):
            if _try_get_attr(gm, node.target) is not None:
                continue
            attr = _try_get_attr(replacement, node.target)
            if attr is None:
                raise RuntimeError(
                    f'Attempted to create a "{node.op}" node during subgraph rewriting with target {node.target}, '
                    "but the referenced attribute does not exist in the replacement GraphModule"
                )
            if isinstance(attr, Module):
                gm.add_submodule(node.target, copy.deepcopy(attr))
            else:
                setattr(gm, node.target, copy.deepcopy(attr))
    gm.graph.lint()


def _try_get_attr(module, target):
    for atom in target.split("."):
        module = getattr(module, atom, None)
        if module is None:
            return None
    return module
