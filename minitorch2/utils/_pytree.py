"""A small pytree library (as torch.utils._pytree): flatten nested lists, tuples (namedtuples and return types
such as torch.return_types.sort too) and dicts to leaves and back.

Runtime utility. `None` is a leaf, as in PyTorch, so a joint graph's outputs
`([loss], [None, grad_w])` flatten to `[loss, None, grad_w]`.
"""
import collections
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TreeSpec:
    type: object  # list, tuple, a namedtuple or return type, dict, OrderedDict, or None for a leaf
    context: object = None  # dict keys
    children_specs: tuple = field(default_factory=tuple)

    @property
    def num_leaves(self):
        return 1 if self.type is None else sum(c.num_leaves for c in self.children_specs)

    def __repr__(self):
        if self.type is None:
            return "*"
        inner = ", ".join(map(repr, self.children_specs))
        return f"TreeSpec({self.type.__name__}, {self.context}, [{inner}])"


LEAF = TreeSpec(None)


def tree_flatten(tree):
    if isinstance(tree, list) or type(tree) is tuple:  # list subclasses (fx's immutable_list) count as lists
        kind, context, children = list if isinstance(tree, list) else tuple, None, tree
    elif isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a namedtuple, or torch.return_types.sort and kin
        kind, context, children = type(tree), None, tree
    elif type(tree) is dict or isinstance(tree, collections.OrderedDict):
        kind, context, children = type(tree), tuple(tree), tree.values()
    else:
        return [tree], LEAF
    leaves, specs = [], []
    for child in children:
        child_leaves, spec = tree_flatten(child)
        leaves.extend(child_leaves)
        specs.append(spec)
    return leaves, TreeSpec(kind, context, tuple(specs))


def tree_unflatten(leaves, spec):
    leaves = list(leaves)
    if len(leaves) != spec.num_leaves:
        raise ValueError(f"tree_unflatten(leaves, spec): `leaves` has length {len(leaves)} but the spec refers to "
                         f"a pytree that holds {spec.num_leaves} items ({spec}).")
    return _build(iter(leaves), spec)


def _build(leaves, spec):
    if spec.type is None:
        return next(leaves)
    children = [_build(leaves, child) for child in spec.children_specs]
    if spec.type in (dict, collections.OrderedDict):
        return spec.type(zip(spec.context, children))
    if spec.type in (list, tuple) or not hasattr(spec.type, "_make"):  # (a return type takes one sequence)
        return spec.type(children)
    return spec.type._make(children)


def tree_map(fn, tree):
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


def tree_leaves(tree):
    return tree_flatten(tree)[0]
