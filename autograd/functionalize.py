"""Functionalization: rewrite a traced aten graph so that nothing is mutated.

autograd layer, between make_fx and the partitioner. Graphs handed to compilers must be pure, but programs mutate
(`x.add_(1)`, `y[0] = 5`, BatchNorm's running statistics). This pass walks the traced graph once and keeps, for
every *base* (a placeholder or a non-view result), the node holding its latest value:

    in-place op on a base    x.add_(y)       ->  x' = add(x, y)        latest[x] = x'
    in-place op on a view    v = x[1:]; v.mul_(2)
                                             ->  v' = mul(v, 2)
                                                 x' = slice_scatter(x, v', 0, 1)   (the view written back)
    reading a view after its base changed    ->  the view is replayed on latest[x]
    (as torch's: so is a view taken after its base changed, where first read)

How a view is written back into its parent (slice -> slice_scatter, t -> t, ...) is one row per view op of
`_WRITE_BACK`.

A mutated graph input's final value becomes an extra output, which the runtime copies into the input (`copy_`) after
the call. An in-place op becomes the functional form its op table row names (`add_.Tensor` -> `add.Tensor`).
"""
import operator
from typing import Callable, NamedTuple

from minitorch2 import ops, strided
from minitorch2.autograd.grad_mode import no_grad
from minitorch2.fx import Graph, GraphModule
from minitorch2.fx.node import Node, map_arg
from minitorch2.fx.passes.shape_prop import _extract_tensor_metadata

from .inplace_decomposed import result_into_self
from .overlapping_views import refuse_overlapping_mutation, unfold_back


aten = ops.aten

def _is_mutating(op):
    return getattr(op, "is_inplace", False) or op is aten.native_batch_norm.default


class _Functionalizer:
    def __init__(self, graph):
        self.old = graph
        self.new = Graph()
        self.env = {}  # old node -> new node (for bases: the value at the time it was made)
        self.base_of = {}  # old node -> old base node
        self.chain_of = {}  # old view node -> [(target, args, kwargs, getitem_index, old node)] from its base
        self.latest = {}  # old base -> new node with its current value
        self.mutations = {}  # old base -> number of mutations so far
        self.view_cache = {}  # old view -> (new node, mutation count it reflects)
        self.projections = {}  # old multi-output node -> getitem nodes already made for it

    # ---------------------------------------------------------- values
    def current(self, value):
        if isinstance(value, (list, tuple)):
            return type(value)(self.current(v) for v in value)
        if not hasattr(value, "op"):  # not an fx Node
            return value
        base = self.base_of.get(value, value)
        if not self.chain_of.get(value):  # a base, or an alias of one (an in-place op's result)
            return self.latest.get(base, self.env.get(value))
        cached = self.view_cache.get(value)
        if cached is not None and cached[1] == self.mutations.get(base, 0):
            return cached[0]
        node = self._replay(self.latest[base], self.chain_of[value])
        self.view_cache[value] = (node, self.mutations.get(base, 0))
        return node

    def _replay(self, start, chain):
        """The views of `chain` made again from `start`; each takes the metadata of the view it remakes
        (the same view of a base of the same geometry), which the passes after this one read."""
        node = start
        for target, args, kwargs, index, old in chain:
            node = self.new.call_function(target, (node, *self.current(args)), self.current(kwargs), name=_name(target))
            if index is not None:
                node.meta.update(_tensor_meta(old.args[0]))
                node = self.new.call_function(operator.getitem, (node, index))
            node.meta.update(_tensor_meta(old))
        return node

    # ---------------------------------------------------------- node kinds
    def run(self):
        for node in self.old.nodes:
            made_before = len(self.new.nodes)
            if node.op == "output":
                return node
            elif node.op == "call_function" and node.target is operator.getitem and node.args[0] in self.projections:
                self.env[node] = self.latest[node] = self.projections[node.args[0]][node.args[1]]
                self.env[node].meta = dict(node.meta)
            elif node.op == "call_function" and node.target is operator.getitem and node.args[0] in self.chain_of:
                self._view(node, getitem_of=node.args[0])
            elif node.op == "call_function" and getattr(node.target, "is_view", False):
                self._view(node)
            elif node.op == "call_function" and _is_mutating(node.target):
                self._mutation(node)
            else:  # a placeholder, or an op that neither views nor mutates
                self.latest[node] = self._copy(node)
            self._inherit_stack_trace(node, len(self.new.nodes) - made_before)
        raise AssertionError("graph has no output node")

    def _inherit_stack_trace(self, node, count):
        """The nodes made for `node` (a write-back scatter, a replayed view) point at its source, as the
        nodes PyTorch's functionalization makes while tracing an op do."""
        stack_trace = node.meta.get("stack_trace")
        if stack_trace:
            for new, _ in zip(reversed(self.new.nodes), range(count)):
                new.meta.setdefault("stack_trace", stack_trace)

    def _copy(self, node):
        new = self.new.node_copy(node, lambda n: self.current(n))
        self.env[node] = new
        return new

    def _view(self, node, getitem_of=None):
        source = node.args[0]
        base = self.base_of.get(source, source)
        if getitem_of is not None:  # one output of split/unbind: extend the producer's chain with the index
            target, args, kwargs, _, _ = self.chain_of[getitem_of][-1]
            chain = self.chain_of[getitem_of][:-1] + [(target, args, kwargs, node.args[1], node)]
        else:
            chain = self.chain_of.get(source, []) + [(node.target, node.args[1:], dict(node.kwargs), None, node)]
        self.base_of[node], self.chain_of[node] = base, chain
        new = self._copy(node)
        # as torch's functionalization: a view of a base mutated before it was taken is out of date from the
        # start and made again where first used (the copy just made stays unused); but t_'s view, adopted where made
        self.view_cache[node] = (new, -1 if self.mutations.get(base, 0) and not node.meta.get("adopted") else
                                 self.mutations.get(base, 0))

    def _mutation(self, node):
        if node.target is aten.native_batch_norm.default:
            return self._batch_norm(node)
        functional = node.target.functional_variant
        if self.chain_of.get(node.args[0]):  # (as torch's: a view can't be written back where eager writes a shared
            refuse_overlapping_mutation(node.args[0])  # element once per alias; a base's new value can be copied in)
        if functional is None:
            raise NotImplementedError(f"functionalization: {node.target} has no functional form registered "
                                      "(its row in minitorch2/_aten/table.py)")
        value = result_into_self(node, self.current)  # (an in-place op's decomposition: inplace_decomposed.py)
        if value is None:  # `bernoulli_(t)` means p=0.5, which `bernoulli.p` needs said: fill the in-place op's
            # defaults, then put the call in the functional op's canonical form
            args, kwargs = functional._schema.normalize(functional, _with_defaults(node.target, node.args),
                                                        dict(node.kwargs))
            value = self._call(functional, self.current(args), self.current(kwargs))
            value.meta = {**node.meta, **value.meta}
        if getattr(value.meta.get("val"), "dtype", None) not in (None, dtype := node.args[0].meta["val"].dtype):
            value = self._call(aten._to_copy.default, (value,), {"dtype": dtype, "layout": strided})
        self._write(node.args[0], value)
        # the in-place op's result is its first argument, mutated: an alias with the same view chain
        target = node.args[0]
        self.base_of[node] = self.base_of.get(target, target)
        self.chain_of[node] = self.chain_of.get(target, [])
        if target in self.view_cache:
            self.view_cache[node] = self.view_cache[target]
        self.env[node] = value

    def _write(self, target, value):
        """Make `value` the new value of `target` (a base, or a view written back into its base)."""
        base = self.base_of.get(target, target)
        self.latest[base] = self._scatter_chain(self.latest[base], self.chain_of.get(target, []), value, base)
        self.mutations[base] = self.mutations.get(base, 0) + 1

    def _scatter_chain(self, parent_value, chain, value, parent):
        """`parent_value` (the current value of `parent`, an old node) with `value`, the new value at the end of
        `chain`, written back through each view of it."""
        if not chain:
            return value
        target, args, _, index, view = chain[0]
        if chain[1:]:  # (the parent of the next view down, replayed; the last view's own value is `value`)
            value = self._scatter_chain(self._replay(parent_value, chain[:1]), chain[1:], value, view)
        parent_shape = list(parent.meta["val"].shape)
        return _WRITE_BACK[target](_WriteBack(self._call, parent_value, value, self.current(args), index, view,
                                              parent_shape))

    def _call(self, target, args, kwargs=None):
        """A node this pass adds, with the metadata of its value (its op run on its inputs' fake values): the
        partitioner sizes and saves what it knows to be a tensor."""
        node = self.new.call_function(target, args, kwargs or {}, name=_name(target))
        values, kwargs = map_arg((args, kwargs or {}), lambda n: n.meta.get("val"))
        if all(n.meta.get("val") is not None for n in node.all_input_nodes):
            with no_grad():
                node.meta.update(_meta_of(target(*values, **kwargs)))
        return node

    def _batch_norm(self, node):
        """native_batch_norm updates running stats in place; its functional form returns them."""
        input_, weight, bias, running_mean, running_var, training, momentum, eps = node.args
        args = self.current((input_, weight, bias, running_mean, running_var))
        if running_mean is None:
            op, op_args = aten._native_batch_norm_legit.no_stats, (*args[:3], training, momentum, eps)
        elif not training:
            op, op_args = aten._native_batch_norm_legit_no_training.default, (*args, momentum, eps)
        else:
            op, op_args = aten._native_batch_norm_legit_functional.default, (*args, training, momentum, eps)
        value = self.new.call_function(op, op_args, name=_name(op))
        if op is aten._native_batch_norm_legit_functional.default:
            items = [self.new.call_function(operator.getitem, (value, i)) for i in range(5)]
            metas = list(node.meta.get("val", ())) + [running_mean.meta.get("val"), running_var.meta.get("val")]
            for item, meta_source in zip(items, map(_meta_of, metas)):
                item.meta.update(meta_source)
                if "partitioner_tag" in node.meta:  # the new running stats are forward values too
                    item.meta["partitioner_tag"] = node.meta["partitioner_tag"]
            self._write(running_mean, items[3])
            self._write(running_var, items[4])
            self.projections[node] = items[:3]
        value.meta = dict(node.meta)
        self.env[node] = self.latest[node] = value


# ---------------------------------------------------------- writing a view back into its parent
class _WriteBack(NamedTuple):
    """What a view op's row gets to write a new value of the view into the view's parent."""
    call: Callable  # adds a node to the new graph: call(op, args)
    parent: Node  # the parent's current value
    src: Node  # the view's new value
    args: tuple  # the view op's arguments after its input
    index: int | None  # for split and unbind: which output the view is
    view: Node  # the view's node in the traced graph
    parent_shape: list


def _scatter_into(scatter_op):
    """The row of a view whose scatter op takes the view's own arguments (slice -> slice_scatter)."""
    return lambda w: w.call(scatter_op, (w.parent, w.src, *w.args))


def _permute_back(w):
    inverse = [0] * len(w.args[0])
    for i, d in enumerate(w.args[0]):
        inverse[d % len(inverse)] = i
    return w.call(aten.permute.default, (w.src, inverse))


def _expand_back(w):
    """As torch's inverse of expand: the parent plus the view's changes summed over each element's copies."""
    shape, leading = w.view.meta["val"].shape, w.view.meta["val"].dim() - len(w.parent_shape)
    copied = [d for d in range(len(shape)) if d < leading or (w.parent_shape[d - leading] == 1 and shape[d] != 1)]
    change = w.call(aten.sub.Tensor, (w.src, w.parent))
    change = w.call(aten.sum.dim_IntList, (change, copied, True)) if copied else change
    change = w.call(aten.view.default, (change, w.parent_shape)) if leading else change
    return w.call(aten.add.Tensor, (w.parent, change))


def _split_piece_back(w):
    """One piece of split/split_with_sizes is a slice of the parent along `dim`."""
    dim = w.args[-1] if len(w.args) > 1 else 0
    start = sum(piece.shape[dim] for piece in list(w.view.args[0].meta["val"])[:w.index])
    end = start + w.view.meta["val"].shape[dim]
    return w.call(aten.slice_scatter.default, (w.parent, w.src, dim, start, end))


# view op -> how a new value of the view is written into the view's parent (the inverse of the view)
_WRITE_BACK = {
    aten.slice.Tensor: _scatter_into(aten.slice_scatter.default),
    aten.select.int: _scatter_into(aten.select_scatter.default),
    aten.diagonal.default: _scatter_into(aten.diagonal_scatter.default),
    aten.as_strided.default: _scatter_into(aten.as_strided_scatter.default),
    aten.transpose.int: lambda w: w.call(aten.transpose.int, (w.src, *w.args)),  # its own inverse
    aten.t.default: lambda w: w.call(aten.t.default, (w.src,)), aten.permute.default: _permute_back,
    aten.unsqueeze.default: lambda w: w.call(aten.squeeze.dim, (w.src, w.args[0])),
    **dict.fromkeys((aten.alias.default, aten.detach.default), lambda w: w.src),  # (an alias: its new value as it is)
    aten.view.dtype: lambda w: w.call(aten.view.dtype, (w.src, w.view.args[0].meta["val"].dtype)),  # the bytes back
    aten.view_as_real.default: lambda w: w.call(aten.view_as_complex.default, (w.src,)),  # (each the other's inverse)
    aten.view_as_complex.default: lambda w: w.call(aten.view_as_real.default, (w.src,)),
    aten.expand.default: _expand_back,
    **dict.fromkeys((aten.view.default, aten.squeeze.default, aten.squeeze.dim, aten.squeeze.dims),
                    lambda w: w.call(aten.view.default, (w.src, w.parent_shape))),  # (the parent's shape again)
    aten.unfold.default: unfold_back,  # (gaps between windows kept: overlapping_views.py)
    aten.split.Tensor: _split_piece_back, aten.split_with_sizes.default: _split_piece_back,
    aten.unbind.int: lambda w: w.call(aten.select_scatter.default,
                                      (w.parent, w.src, w.args[0] if w.args else 0, w.index)),
}


def _meta_of(value):
    """node.meta entries for a traced value (what partitioners read to size it)."""
    return {} if value is None else {"val": value, "tensor_meta": _extract_tensor_metadata(value)}


def _tensor_meta(node):
    return {key: node.meta[key] for key in ("val", "tensor_meta") if key in node.meta}


def _with_defaults(op, args):
    return tuple(args) + tuple(arg.default for arg in op._schema.positional[len(args):] if arg.has_default)


def _name(target):
    return getattr(target, "_opname", None) or getattr(target, "__name__", "value")


def functionalize_graph(gm):
    """A pure version of `gm`. Returns (module, mutated): `mutated` lists the input positions whose final values the new
    graph returns first, before the original outputs. A graph without mutations is returned as it is."""
    if not any(n.op == "call_function" and _is_mutating(n.target) for n in gm.graph.nodes):
        return gm, []
    worker = _Functionalizer(gm.graph)
    output = worker.run()
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    mutated = [i for i, p in enumerate(placeholders) if worker.mutations.get(p)]
    results = worker.current(output.args[0])
    if mutated:
        flat = list(results) if isinstance(results, (list, tuple)) else [results]
        results = (*[worker.latest[placeholders[i]] for i in mutated], *flat)  # (a tuple, as torch's graphs return)
    worker.new.output(results)
    worker.new.eliminate_dead_code()
    return GraphModule(gm, worker.new, type(gm).__name__), mutated  # (the traced function's name, as torch's)
