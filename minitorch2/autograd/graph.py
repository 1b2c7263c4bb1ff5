"""The backward graph: Nodes (grad_fns), edges and saved tensors.

Runtime layer, built by the autograd layer of the dispatcher (`_record.py`) and walked by the engine (`engine.py`).
Each differentiable op call leaves one `Node` behind, named as PyTorch names it (`AddmmBackward0`); its
`next_functions` point at the nodes that produced its inputs, ending at an `AccumulateGrad` per leaf tensor. A node
keeps what its formula needs as `SavedTensor`s, whose version check catches an in-place change after saving.
"""
import itertools
import re
import weakref

from .._aten.meta_util import is_non_overlapping_and_dense
from .._aten import views
from .._dispatch import redispatch_below_autograd, state
from .._inference_tensors import check_saved as check_saved_inference_tensor
from .._ops import ops
from .._tensor import contiguous_format, preserve_format
from .anomaly_mode import is_anomaly_enabled
from .saved_hooks import current as saved_tensor_hooks, disable_saved_tensors_hooks, pack, save_on_cpu, saved_tensors_hooks  # noqa: F401,E501

_sequence = itertools.count()


class Node:
    """A grad_fn. Subclasses implement `apply(grad_outputs) -> grads for next_functions`."""

    _name = "Node"

    def __init__(self):
        self.next_functions = ()
        # per edge: (shape, dtype) of the tensor it came from, None for an edge that takes no gradient
        self.input_metadata = ()
        self.sequence_nr = next(_sequence)
        self._pre_hooks = {}  # output_nr -> tensor hooks (register_hook on non-leaf tensors)
        self._retained = {}  # output_nr -> weakref of a tensor with retain_grad()
        self._hooks = []
        self.metadata = {}

    def name(self):
        return self._name

    def __repr__(self):  # torch's repr names the Python type; name() may be the C++ class (torch::autograd::...)
        return f"<{self._name.split('::')[-1]} object at {hex(id(self))}>"

    def register_hook(self, hook):
        self._hooks.append(hook)

    def release(self):
        """Free saved tensors after a backward without retain_graph."""

    def __call__(self, *grads):
        return self.apply(list(grads))


class DelayedError(Node):
    """A grad_fn that raises if the backward reaches it: the history of a tensor that was not recorded
    (a fake copy of a non-leaf). Named as PyTorch's."""

    _name = "Error"

    def __init__(self, message):
        super().__init__()
        self.message = message

    def apply(self, grads):
        raise RuntimeError(self.message)


class SavedTensor:
    """A tensor kept for backward, with the version it had when saved."""

    __slots__ = ("tensor", "version", "hooks", "node_ref", "output_nr", "freed", "had_history")

    def __init__(self, tensor, node=None, output_nr=0):
        check_saved_inference_tensor(tensor)
        self.version, self.hooks = tensor._version, saved_tensor_hooks(tensor)
        self.freed, self.output_nr, self.had_history = False, output_nr, tensor._grad_fn is not None
        self.node_ref = None if node is None else weakref.ref(node)
        # an output of the node itself is kept without its grad_fn, as torch does (with saved_tensors_hooks open,
        # what the pack hook makes of the tensor instead)
        self.tensor = pack(self.hooks, tensor) if self.hooks else tensor if node is None else redispatch_below_autograd(
            ops.aten.detach.default, (tensor,), {})

    def unpack(self, owner):
        if self.freed:
            raise RuntimeError(
                "Trying to backward through the graph a second time (or directly access saved tensors after they "
                "have already been freed). Saved intermediate values of the graph are freed when you call "
                ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
                "graph a second time or if you need to access saved tensors after calling backward.")
        t = self.tensor if self.hooks is None else self.hooks[1](self.tensor)
        if self.hooks is None and t._version != self.version:  # (torch checks no version through hooks)
            producer = owner if self.node_ref is not None else t.grad_fn  # torch names it without "Backward0"
            where = f", which is output {self.output_nr} of {re.sub(r'Backward[0-9]*$', '', producer.name())}," \
                if producer is not None else ""
            hint = ("the backtrace further above shows the operation that failed to compute its gradient. The variable "
                    "in question was changed in there or anywhere later. Good luck!") if is_anomaly_enabled() else (
                "enable anomaly detection to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True, check_nan=False).")
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an inplace operation: "
                f"[{t.type()} [{', '.join(map(str, t.shape))}]]{where} is at version {t._version}; expected "
                f"version {self.version} instead. Hint: {hint}")
        if self.node_ref is not None:
            t = ops.aten.detach.default(t)
            if state.grad_enabled:  # create_graph: the saved output is connected to its node again
                t._requires_grad, t.grad_fn, t._output_nr = False, self.node_ref(), self.output_nr
        elif self.had_history and self.hooks is None and t.grad_fn is None and not hasattr(owner, "ctx"):
            # (its history was cut since it was saved; torch checks no custom Function's saved tensors so)
            raise RuntimeError("Trying to use a saved tensor that has been detached in-place, i.e. with .detach_()."
                               "This is not supported, please use out-of-place `.detach()` instead")
        return t

    def free(self):
        self.tensor = None
        self.freed = True


class AccumulateGrad(Node):
    """The node at a leaf: adds the incoming gradient into `variable.grad`."""

    _name = "torch::autograd::AccumulateGrad"

    def __init__(self, variable):
        super().__init__()
        self.variable = variable
        self.sequence_nr = float("inf")  # leaves run as soon as they are ready, as in torch

    def apply(self, grads):
        grad, var = grads[0] if grads else None, self.variable  # (its tensor hooks ran in the engine)
        if grad is None or not var.requires_grad:  # (a leaf detach_()ed since the graph was recorded)
            return []
        if var.grad is None and not obeys_layout_contract(grad, var):
            var.grad = clone_obeying_layout_contract(grad, var)
        elif var.grad is None:
            var.grad = detached(grad) if not state.grad_enabled else grad
        elif state.grad_enabled:
            var.grad = var.grad + grad
        else:
            var.grad.add_(grad)
        for hook in var.__dict__.get("_post_accumulate_grad_hooks", ()):  # (Tensor.register_post_accumulate_grad_hook)
            if hook(var) is not None:
                raise RuntimeError("Tensor post accumulate grad hooks should return None.")
        return []


def detached(tensor):
    """aten.detach(tensor); with no dispatch mode to see the op, its kernel is called directly (the
    dispatcher would run only that), a few microseconds less for every leaf of every backward."""
    kernel, _ = views.detach
    return ops.aten.detach.default(tensor) if state.modes else kernel(tensor)


def obeys_layout_contract(grad, variable):
    """ATen's gradient layout contract: a dense, non-overlapping leaf's .grad has the leaf's strides
    (over its dims longer than 1); any other leaf's .grad is contiguous."""
    if grad._stride == variable._stride and variable.is_contiguous():
        return True  # (the common case, decided without sorting strides)
    if is_non_overlapping_and_dense(variable):
        return all(g == v for g, v, n in zip(grad.stride(), variable.stride(), variable.shape) if n != 1)
    return grad.is_contiguous()


def clone_obeying_layout_contract(grad, variable):
    if is_non_overlapping_and_dense(variable):  # empty_like keeps a dense tensor's strides (the gradient of x.sum(), an
        # expanded view of a scalar, gets memory of its own)
        out = ops.aten.empty_like.default(variable, dtype=grad.dtype, memory_format=preserve_format)
        return ops.aten.copy_.default(out, grad)
    return ops.aten.clone.default(grad, memory_format=contiguous_format)


def grad_accumulator(tensor):
    """The single AccumulateGrad node of a leaf tensor (kept weakly by the tensor, as in torch)."""
    ref = tensor._accumulator
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(tensor)
        tensor._accumulator = weakref.ref(node)
    return node


def tensor_metadata(tensor):
    """What the engine checks a gradient for `tensor` against (PyTorch's InputMetadata, less device and
    layout: minitorch2 tensors are CPU and strided). Size is an immutable tuple, so it is kept as is."""
    return (tensor._shape, tensor.dtype)


def gradient_edge(tensor):
    """(node, input_nr) where a gradient for `tensor` should flow, or None if it needs none."""
    node = tensor.grad_fn  # (a view's history is refreshed on the way)
    if node is not None:
        return (node, tensor._output_nr)
    return (grad_accumulator(tensor), 0) if tensor._requires_grad else None
