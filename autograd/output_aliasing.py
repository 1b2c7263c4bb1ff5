"""Aliased outputs: which outputs of a traced function are views, of what, and by which view ops
(torch's output alias analysis in aot_autograd's collect_metadata_analysis).

autograd layer, step 5 of `aot.py`. A compiled function returns fresh tensors, but an eager function may return a
view of its input, of another output or of an intermediate. So before tracing the joint graph, the function runs
once on fake tensors noting every view op (`_ViewRecorder`), and each output that view ops made gets an
`OutputAlias`, replayed at every call on the real tensor.

The one idea to hold: an alias is a recipe, not a value: (what it views, which one, which view ops); replaying it on
the real base gives the output eager would have returned, sharing memory and version counter with that base.
"""
import enum
from dataclasses import dataclass

import minitorch2

from minitorch2._subclasses.fake_tensor import FakeTensorMode
from minitorch2._tensor import Tensor
from minitorch2.utils import _pytree as pytree
from minitorch2.utils._python_dispatch import TorchDispatchMode

from .multi_output_views import hidden_input_aliases


class AliasOf(enum.Enum):
    """What an aliased output is a view of."""

    INPUT = "input"  # an input (or is that input: no view ops), made again after the input got fn's writes
    OUTPUT = "output"  # another output
    BASE = "base"  # an intermediate that several outputs view (and that needs grad): it joins the outputs


@dataclass(frozen=True)
class ViewOp:
    """One view op as it ran: `op(tensor, *args, **kwargs)`."""

    op: object  # the view's OpOverload
    args: tuple  # its arguments after self
    kwargs: dict
    index: int = None  # which of its outputs, for a view op that makes several (split, chunk, unbind)

    def __call__(self, tensor, size_of=None):
        """`size_of`: a call's value of each symbolic size among the arguments (a trace over symbolic sizes)."""
        args = self.args if size_of is None else pytree.tree_map(size_of, self.args)
        out = self.op(tensor, *args, **self.kwargs)
        return out if self.index is None else out[self.index]


@dataclass(frozen=True)
class OutputAlias:
    """An output made by view ops from an input, another output or an intermediate base."""

    of: AliasOf
    position: int  # of that input, output or base (the k-th base for AliasOf.BASE)
    views: list  # ViewOps, from that tensor to the output

    def replay(self, tensor, size_of=None):
        """The output again: `tensor` (what it views) through the same view ops."""
        for view in self.views:
            tensor = view(tensor, size_of)
        return tensor


def trace_outputs(fn, args):
    """fn's outputs, run on fake copies of args; the aliased ones, {output position: OutputAlias}; the
    intermediate bases they view; {position: whether its new value requires grad} for the inputs fn changed in
    place; and {position: its fake after fn} for those whose geometry it changed (t_). As torch's aot sorts them,
    an output that view ops made from an input is an alias of that input; else, one made from another output, of
    that output; else one made from an intermediate that other outputs view too, of that intermediate, the k-th
    base (one only one output views is no alias to track: it leaves the compiled function as _unsafe_view)."""
    mode = FakeTensorMode()
    fake_args = [mode.from_tensor(a) if isinstance(a, Tensor) else a for a in args]
    versions = [a._version if isinstance(a, Tensor) else None for a in fake_args]
    recorder = _ViewRecorder(watched=fake_args)
    with mode, recorder:
        outputs = fn(*fake_args)
    positions = {id(a): i for i, a in enumerate(fake_args) if isinstance(a, Tensor)}
    outs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    out_positions = {id(o): i for i, o in enumerate(outs)}
    aliases, views_of = {}, {}
    for i, out in enumerate(outs):
        root, views = recorder.chain(out, stop=positions)
        if id(root) in positions:
            aliases[i] = OutputAlias(AliasOf.INPUT, positions[id(root)], views)
        elif views and out_positions.get(id(root), i) != i:
            aliases[i] = OutputAlias(AliasOf.OUTPUT, out_positions[id(root)], views)
        elif views and root.requires_grad:
            views_of.setdefault(id(root), (root, []))[1].append((i, views))
    for i in hidden_input_aliases({i: a for i, a in aliases.items() if a.of is AliasOf.INPUT}, outs):
        del aliases[i]
    bases = []
    for root, viewers in views_of.values():
        # (views made by a view op that makes several count as none: autograd forbids writes that need replay)
        if sum(all(view.index is None for view in views) for _, views in viewers) > 1:
            aliases.update({i: OutputAlias(AliasOf.BASE, len(bases), views) for i, views in viewers})
            bases.append(root)
    # a write made under no_grad, or through a detached alias, gives the input no history: its new value is
    # copied in under no_grad
    mutated = {i: a.requires_grad and i in recorder.written_with_grad
               for i, (a, version) in enumerate(zip(fake_args, versions))
               if isinstance(a, Tensor) and a._version != version}
    return outputs, aliases, bases, mutated, {i: fake_args[i] for i in sorted(recorder.meta_mutated)}


def with_bases(fn, sources):
    """fn, its outputs followed by the intermediate bases: the k-th is found by walking back sources[k] =
    (output position, number of view ops) along the view ops that made that output."""
    if not sources:
        return fn

    def with_bases(*args):
        recorder = _ViewRecorder()
        with recorder:
            outs = fn(*args)
        outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
        return outs + [recorder.chain(outs[i], steps=steps)[0] for i, steps in sources]

    return with_bases


def _seen_by_autograd(written, tensor):
    """Whether an in-place write into `written` changes `tensor` in autograd's eyes: written is tensor or a
    differentiable view of it (or of its base). A write through x.detach() is hidden: the value changes, the
    history does not (torch's mutations_hidden_from_autograd)."""
    return written is tensor or (written._base is not None and (written._base is tensor or
                                                                written._base is tensor._base))


class _ViewRecorder(TorchDispatchMode):
    """Notes which view op made each view (made_by: id(view) -> (view, the tensor it views, ViewOp)) and
    which `watched` tensors were written with grad enabled (written_with_grad: their positions) or took a view's
    geometry (meta_mutated)."""

    def __init__(self, watched=()):
        self.made_by = {}
        self.watched = [(i, a) for i, a in enumerate(watched) if isinstance(a, Tensor)]
        self.written_with_grad, self.meta_mutated = set(), set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        versions = [(i, a, a._version) for i, a in self.watched] if minitorch2.is_grad_enabled() else ()
        out = func(*args, **kwargs)
        written = args[0] if func.is_inplace and args and isinstance(args[0], Tensor) else None
        self.written_with_grad.update(i for i, a, version in versions
                                      if a._version != version and (written is None or _seen_by_autograd(written, a)))
        if func.is_view and args and isinstance(args[0], Tensor):  # (each view kept: ids stay unique)
            views = [(None, out)] if isinstance(out, Tensor) else enumerate(out)  # (split's, chunk's: several)
            self.made_by.update((id(view), (view, args[0], ViewOp(func, args[1:], kwargs, k))) for k, view in views)
        return out

    def view_adopted(self, tensor, before, view):  # t_ and kin: tensor was `before`, now is view (made from before)
        self.meta_mutated.update(i for i, a in self.watched if a is tensor)  # (see input_metadata_mutations.py)
        if id(tensor) in self.made_by:
            self.made_by[id(before)] = (before, *self.made_by[id(tensor)][1:])
        self.made_by[id(tensor)] = (tensor, before, self.made_by[id(view)][2])

    def chain(self, tensor, stop=(), steps=None):
        """(root, view ops from root to tensor): the view ops that made tensor, followed back until a tensor
        no recorded view made, one in `stop` (ids) or `steps` ops back."""
        views = []
        while id(tensor) in self.made_by and id(tensor) not in stop and (steps is None or len(views) < steps):
            _, tensor, view = self.made_by[id(tensor)]
            views.append(view)
        return tensor, views[::-1]
