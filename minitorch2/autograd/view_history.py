"""How autograd follows views: a view's history read through its base.

Runtime layer, between the backward graph (graph.py) and the dispatcher's autograd layer (_record.py). A view shares
its base's memory, so an in-place op on either changes what the other's gradient must be. Three moves keep the
history right, as PyTorch's do:

    an in-place op on a view    the base's grad_fn becomes CopySlices (the old
                                gradient outside the view's window, the op's inside)
                                and the view reads its history from the base
    a view asked for grad_fn    after its base changed in place: regenerated from
                                the base's new history (Tensor.grad_fn calls
                                refresh_view_history)
    a window onto the base      the view ops that made the view replayed on the
                                base where they were kept (views of fake tensors),
                                else an AsStridedBackward0 of the view's geometry
"""
from .._aten import derivatives_shape
from .._ops import ops
from .._tensor import contiguous_format
from .grad_mode import enable_grad
from .graph import Node, gradient_edge, tensor_metadata
from .view_refusals import refuse_multi_output_view


def refresh_view_history(view):
    """A view whose base was modified in place since its grad_fn was made reads the new base:
    its history becomes a window onto the base's current grad_fn, as PyTorch regenerates it."""
    made_at = view._grad_fn_version
    if made_at is None or made_at == view._version or not view._base.requires_grad:
        return
    refuse_multi_output_view(view, "and its base or another view of its base has been modified inplace")
    view.grad_fn, view._output_nr = view_history(view)
    view._grad_fn_version = view._version


def view_history(view):
    """(grad_fn, output_nr) of `view` read from its base's current history: its view ops replayed on the
    base, with grad mode on, where they were kept (a view of a fake tensor, as torch replays a view of a
    tensor handled in Python); else an AsStridedBackward0 window onto the base."""
    with enable_grad():
        replayed = _replay(view._view_ops, view._base)
    return (AsStridedBackward0(view._base, view), 0) if replayed is None else (replayed._grad_fn, replayed._output_nr)


def remember_view_ops(view, source, op, rest, kwargs):
    """Keep on `view` the view ops that made it from its base (source's, then this one), to replay."""
    if source._base is None:
        view._view_ops = [(op, rest, kwargs)]
    elif source._view_ops is not None:
        view._view_ops = source._view_ops + [(op, rest, kwargs)]


def _replay(chain, tensor):
    """A view's kept view ops (see remember_view_ops) applied to `tensor`; None when none were kept."""
    if chain is None:
        return None
    for op, rest, kwargs in chain:
        tensor = op(tensor, *rest, **kwargs)
    return tensor


def rebase_view_history(view, base, op_node):
    """An in-place op on a view changes its base: the base's new grad_fn is CopySlices
    (gradient of the base = old gradient outside the view, op's gradient inside), and the
    view becomes a window onto the base's new history (see view_history)."""
    base.grad_fn = CopySlices(base, view, op_node, gradient_edge(base))
    base._output_nr = 0
    view.grad_fn, view._output_nr = view_history(view)
    view._grad_fn_version = view._version


class CopySlices(Node):
    _name = "torch::autograd::CopySlices"

    def __init__(self, base, view, op_node, base_edge):
        super().__init__()
        self.base_geometry = (list(base.shape), list(base.stride()), base.storage_offset())
        self.view_geometry = (tuple(view.shape), view.stride(), view.storage_offset() - base.storage_offset())
        self.view_ops = view._view_ops
        self.op_node = op_node
        self.next_functions = ((base_edge or (None, 0)),) + tuple(op_node.next_functions[1:])
        self.input_metadata = (tensor_metadata(base) if base_edge else None,) + tuple(op_node.input_metadata[1:])

    def apply(self, grads):
        """As torch's: the gradient copied into a tensor laid out as the base, the window the view sees of
        it (the view's own ops replayed, or as_strided) replaced by the in-place op's gradient."""
        aten = ops.aten
        grad = grads[0]
        size, stride, _ = self.base_geometry
        result = aten.new_empty_strided.default(grad, size, stride)
        aten.copy_.default(result, grad)
        window = _replay(self.view_ops, result)
        if window is None:
            size, stride, offset = self.view_geometry
            window = aten.as_strided.default(result, list(size), list(stride), offset)
        op_grads = self.op_node.apply([aten.clone.default(window, memory_format=contiguous_format)])
        if op_grads[0] is not None:
            aten.copy_.default(window, op_grads[0])
        else:
            aten.zero_.default(window)
        return [result] + list(op_grads[1:])

    def release(self):
        self.op_node.release()


class AsStridedBackward0(Node):
    _name = "AsStridedBackward0"

    def __init__(self, base, view):
        super().__init__()
        self.base_geometry = (list(base.shape), list(base.stride()), 0)
        self.geometry = (list(view.shape), list(view.stride()), view.storage_offset() - base.storage_offset())
        self.next_functions = (gradient_edge(base) or (None, 0),)  # a leaf base: its AccumulateGrad
        self.input_metadata = (tensor_metadata(base) if self.next_functions[0][0] is not None else None,)

    def apply(self, grads):
        # as_strided's own formula: a view that repeats elements (an expand) sums their gradients
        size, stride, offset = self.geometry
        return [derivatives_shape.as_strided(grads[0], self.base_geometry, size, stride, offset)]
