"""SubgraphMatcher: find every place where a pattern graph occurs in a graph.

FX pass utility (as torch.fx.passes.utils.matcher_utils), the engine of
`subgraph_rewriter.replace_pattern`. Matching is structural and starts from
the pattern's outputs ("anchors"), walking backwards through arguments:

    pattern:  mul(x, sigmoid(x))          graph: mul(%lin, sigmoid(%lin))   match
                                                 mul(sigmoid(%lin), %lin)   no match

Two nodes match when they have the same opcode and target and their
arguments match in order (positions, then keyword names). Pattern
placeholders match any value, but consistently: the same placeholder must
meet the same graph node every time. A match must also be self-contained
(no node inside it, except the ones it returns, used from outside it) and
must not overlap an earlier match.

The one idea to hold: argument *order* is part of the structure. `x * s`
and `s * x` are different graphs, so a pass that wants both writes both.
"""
import copy
from collections import defaultdict
from dataclasses import dataclass, field

from ...._ops import OpOverload
from ...._tensor import Tensor
from ...node import Node

__all__ = ["SubgraphMatcher", "InternalMatch"]


@dataclass
class InternalMatch:
    anchors: list
    nodes_map: dict = field(default_factory=dict)  # pattern node -> graph node
    placeholder_nodes: list = field(default_factory=list)
    returning_nodes: list = field(default_factory=list)
    name_node_map: dict = field(default_factory=dict)

    def __copy__(self):
        return InternalMatch(
            anchors=self.anchors,
            nodes_map=self.nodes_map.copy(),
            placeholder_nodes=self.placeholder_nodes.copy(),
            returning_nodes=self.returning_nodes.copy(),
        )


def _get_attr(module, target):
    for atom in target.split("."):
        module = getattr(module, atom)
    return module


class SubgraphMatcher:
    def __init__(self, pattern, match_output=False, match_placeholder=False, remove_overlapping_matches=True,
                 ignore_literals=False):
        self.pattern = pattern
        self.match_output = match_output
        self.match_placeholder = match_placeholder
        self.remove_overlapping_matches = remove_overlapping_matches
        self.ignore_literals = ignore_literals
        if len(pattern.nodes) == 0:
            raise ValueError("SubgraphMatcher cannot be initialized with an empty pattern")
        for node in pattern.nodes:
            if node.op != "output" and node.op != "placeholder" and len(node.users) == 0:
                raise AssertionError("SubgraphMatcher cannot be initialized with an pattern with dead code")
        self.pattern_placeholder_nodes = [n for n in pattern.nodes if n.op == "placeholder"]
        output_node = next(iter(reversed(pattern.nodes)))
        self.pattern_returning_nodes = output_node.all_input_nodes
        if match_output:
            self.pattern_anchors = [output_node]
        else:
            self.pattern_anchors = [n for n in output_node.all_input_nodes if len(n.users) == 1]

    # ---------------------------------------------------------- node equality
    def _match_attributes(self, pn, gn):
        pn_value = _get_attr(pn.graph.owning_module, pn.target)
        gn_value = _get_attr(gn.graph.owning_module, gn.target)
        if type(pn_value) is not type(gn_value):
            return False
        if isinstance(pn_value, Tensor):
            return isinstance(gn_value, Tensor)
        raise RuntimeError(f"Unsupported type {pn_value} when matching attributes")

    def _nodes_are_equal(self, pn, gn):
        if not self.match_placeholder and pn.op == "placeholder":
            return True
        if pn.op != gn.op:
            return False
        if pn.op in ("placeholder", "output"):
            return True
        if pn.op == "get_attr":
            return self._match_attributes(pn, gn)
        return pn.target == gn.target

    def _is_contained(self, nodes_map):
        lookup = {gn: pn for pn, gn in nodes_map.items() if pn.op != "placeholder"}
        for gn, pn in lookup.items():
            if pn in self.pattern_returning_nodes:
                continue
            if any(user not in lookup for user in gn.users):
                return False
        return True

    def _remove_overlapping_matches(self, matches):
        kept = []
        taken = set()
        for match in matches:
            inner = [gn for pn, gn in match.nodes_map.items() if pn.op not in ("placeholder", "output")]
            if any(gn in taken for gn in inner):
                continue
            kept.append(match)
            taken.update(inner)
        return kept

    def _match_literals(self, pn, gn, match):
        if isinstance(pn, Node) and not isinstance(gn, Node):
            if pn.op == "placeholder":  # a pattern input may stand for a constant
                if pn in match.nodes_map:
                    return match.nodes_map[pn] == gn
                match.nodes_map[pn] = gn
                return True
            return False
        if not isinstance(pn, Node) and isinstance(gn, Node):
            return False
        return type(gn) is type(pn) and gn == pn

    # ---------------------------------------------------------- the walk
    def _match_nodes(self, pn, gn, match):
        if pn in match.nodes_map:
            return match.nodes_map[pn] == gn
        if gn in match.nodes_map.values():
            return False
        if not self._nodes_are_equal(pn, gn):
            return False
        match.nodes_map[pn] = gn
        if pn.op == "placeholder":
            return True
        pn_args, gn_args = self._comparable_arguments(pn, gn)
        return pn_args is not None and self._match_args(pn_args, gn_args, match)

    def _comparable_arguments(self, pn, gn):
        """Both nodes' arguments as lists to compare pairwise; (None, None) if shapes differ."""
        same_shape = len(pn.args) == len(gn.args) and list(pn.kwargs) == list(gn.kwargs)
        if not same_shape and pn.op == "call_function" and isinstance(pn.target, OpOverload):
            schema = pn.target._schema.arguments
            return _all_arguments(schema, pn.args, pn.kwargs), _all_arguments(schema, gn.args, gn.kwargs)
        if same_shape:
            return list(pn.args) + list(pn.kwargs.values()), list(gn.args) + list(gn.kwargs.values())
        return None, None

    def _match_args(self, args1, args2, match):
        if len(args1) != len(args2):
            return False
        for a1, a2 in zip(args1, args2):
            if isinstance(a1, Node) and isinstance(a2, Node):
                matched = self._match_nodes(a1, a2, match)
            elif isinstance(a1, (list, tuple)) and isinstance(a2, (list, tuple)):
                matched = self._match_args(a1, a2, match)
            else:
                matched = self._match_literals(a1, a2, match) or self.ignore_literals
            if not matched:
                return False
        return True

    def match(self, graph):
        """All non-overlapping, self-contained matches, in graph order of their anchors."""
        candidates = defaultdict(list)
        for anchor in self.pattern_anchors:
            for node in graph.nodes:
                if self._nodes_are_equal(anchor, node):
                    candidates[anchor].append(node)
        candidate_list = list(candidates.items())
        matches = []

        def backtrack(index, match):
            if index == len(candidate_list):
                match.placeholder_nodes = [match.nodes_map[pn] for pn in self.pattern_placeholder_nodes]
                match.returning_nodes = [match.nodes_map[pn] for pn in self.pattern_returning_nodes]
                matches.append(match)
                return
            anchor, nodes = candidate_list[index]
            saved = copy.copy(match)
            for node in nodes:
                if self._match_nodes(anchor, node, match):
                    backtrack(index + 1, match)
                match = copy.copy(saved)

        if candidate_list:
            backtrack(0, InternalMatch(anchors=self.pattern_anchors))
        matches = [m for m in matches if self._is_contained(m.nodes_map)]
        matches = [m for m in matches if _no_cycle_through_outside(m)]
        if self.remove_overlapping_matches:
            matches = self._remove_overlapping_matches(matches)
        return matches


def _all_arguments(schema_arguments, args, kwargs):
    """An OpOverload call's arguments by schema position, defaults filled in."""
    result = []
    for i, argument in enumerate(schema_arguments):
        if argument.name in kwargs:
            result.append(kwargs[argument.name])
        elif not argument.kwarg_only and i < len(args):
            result.append(args[i])
        else:
            result.append(argument.default if argument.has_default else None)
    return result


def _no_cycle_through_outside(match):
    """Replacing the matched nodes by one unit must not create a cycle: no path leaves and re-enters."""
    inside = {gn for pn, gn in match.nodes_map.items() if pn.op not in ("placeholder", "output")}
    outside_users = [user for node in inside for user in node.users if user not in inside]
    seen = set()
    while outside_users:
        node = outside_users.pop()
        if node in seen:
            continue
        seen.add(node)
        for user in node.users:
            if user in inside:
                return False
            outside_users.append(user)
    return True

