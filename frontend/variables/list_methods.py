"""The list methods that reorder, copy or take from a list inside a compiled frame: `xs.copy()`,
`xs.sort(key=..., reverse=...)`, `xs.remove(v)` and `del xs[i]` / `del xs[i:j:k]`.

Frontend layer, coverage surface beside lists.py: BaseListVariable.call_method hands a method it has no rule for to
`sequence_method`. As in Dynamo, the list's items are trackers and the work is done on them at translation time: a
sort asks each item (or its key function's result) for a constant to order by, so a list of numbers, strings or
tuples sorts, and a key function of the program is inlined per item; items that are tensors with no key break the
graph. A list from outside the frame that changes is written back after the graph (OutputGraph.note_mutation).
"""
import collections

from ..exc import Unsupported
from .constant import ConstantVariable
from .exceptions import raise_observed


def sequence_method(tx, seq, name, args, kwargs):
    """`seq.<name>(*args, **kwargs)` for the methods lists.py leaves to this module; any other is a graph break."""
    if seq.python_cls is list and name == "copy" and not args and not kwargs:
        return type(seq)(list(seq.items))
    if seq.python_cls is list and name == "sort" and not args:
        _mutated(tx, seq)
        seq.items[:] = sorted_items(tx, seq.items, kwargs.get("key"), kwargs.get("reverse"))
        return ConstantVariable(None)
    if seq.python_cls in (list, collections.deque) and name == "remove" and len(args) == 1 and not kwargs:
        index = _first_equal(seq.items, args[0].realize(), seq.python_cls.__name__)
        _mutated(tx, seq)
        del seq.items[index]
        return ConstantVariable(None)
    if seq.python_cls is list and name == "__delitem__" and type(getattr(args[0], "value", None)) in (int, slice):
        _mutated(tx, seq)
        del seq.items[args[0].value]
        return ConstantVariable(None)
    raise Unsupported(f"{seq.python_cls.__name__}.{name}", "unsupported_call")


def run_on_items(items, name, args):
    """`items.<name>(*args)` on the list of trackers (append, extend, insert, pop, clear, reverse); a pop of an empty
    list, or past its end, raises the program's own IndexError."""
    try:
        return getattr(items, name)(*args)
    except IndexError as e:
        raise_observed(IndexError, e.args, f"list.{name}(): {e}")


def _first_equal(items, x, kind="list"):
    """The index of the first item that is x, or a constant equal to it, as Dynamo's polyfill (`elem is x or
    elem == x`); none: the program's ValueError. A tensor met before x's match needs the truth of its `==`: a graph
    break, as Dynamo's (list.remove then runs as Python's, raising for a tensor of more than one element)."""
    from .tensor import TensorVariable  # (tensor.py imports this module, through lists.py)
    for i, item in enumerate(items):
        item = item.realize()
        if item is not x and (isinstance(item, TensorVariable) or isinstance(x, TensorVariable)):
            raise Unsupported("list.remove: the truth of a tensor's `==`", "data_dependent_branch")
        if item is x or x.is_python_constant() and item.is_python_constant() and item.as_python_constant() == \
                x.as_python_constant():
            return i
    raise_observed(ValueError, [f"{kind}.remove(x): x not in {kind}"], f"{kind}.remove of an item not in it")


def _mutated(tx, seq):
    if seq.source is not None:  # a list from outside: its new contents are written back after the graph
        tx.output.note_mutation(seq)


def sorted_items(tx, items, key, reverse):
    """The items in sorted order (stable, as list.sort): ordered by the constants they, or key(item), fold to."""
    key = None if key is None or key.realize().is_python_constant() and key.as_python_constant() is None else key
    ranks = [(key.realize().call_function(tx, [item], {}) if key is not None else item).realize() for item in items]
    if not all(rank.is_python_constant() for rank in ranks):
        raise Unsupported("sort with non-constant keys (user objects, tensors, sizes)", "unsupported_call")
    reverse = bool(reverse.realize().as_python_constant()) if reverse is not None else False
    order = sorted(range(len(items)), key=lambda i: ranks[i].as_python_constant(), reverse=reverse)
    return [items[i] for i in order]
