"""torch.autograd.graph's saved-tensor hooks, and the `_saved_<name>` attributes of a grad_fn.

Runtime library surface beside the backward graph (graph.py). While a `saved_tensors_hooks(pack, unpack)` context
is open, every tensor an op or a custom Function keeps for backward goes through `pack` when it is saved (under
no_grad, as torch's), and the node stores whatever `pack` returned; `unpack` turns it back into a tensor each time
the backward (or a `grad_fn._saved_self` read) needs it. `save_on_cpu` is such a pair that keeps a CPU copy;
`disable_saved_tensors_hooks` makes opening any of them an error. `SavedValues` gives a node the attributes torch's
generated nodes have for what they keep (`_saved_self`, `_saved_other`, `_saved_result`, `_saved_exponent`, ...).
"""
import contextlib

_stack = []  # the open saved_tensors_hooks contexts' (pack, unpack), innermost last
_disabled = [None]  # the error message while disable_saved_tensors_hooks is open


def current(tensor):
    """The innermost open (pack, unpack) pair for a tensor being saved; None without one (and for a stand-in
    with no memory, which the node keeps only for its shape)."""
    from .._tensor import FakeTensor  # reason: the runtime imports this module while it is being built

    return _stack[-1] if _stack and type(tensor) is not FakeTensor else None


def pack(hooks, tensor):
    from .grad_mode import no_grad  # reason: the runtime imports this module while it is being built

    with no_grad():
        return hooks[0](tensor)


class saved_tensors_hooks:
    """Pack every tensor saved for backward inside the context with pack_hook; unpack it with unpack_hook."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _disabled[0] is not None:
            raise RuntimeError(_disabled[0])
        _stack.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *args):
        _stack.pop()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors kept on the CPU (a copy with pin_memory, the tensor itself without: minitorch2 has only the
    CPU) and moved back to their device when the backward reads them."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        import minitorch2  # reason: the runtime imports this module while it is being built

        def pack_to_cpu(tensor):
            if not pin_memory:
                return tensor.device, tensor.cpu()
            packed = minitorch2.empty(tensor.size(), dtype=tensor.dtype, layout=tensor.layout)
            packed.copy_(tensor)
            return tensor.device, packed

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Opening saved_tensors_hooks (or save_on_cpu) inside raises RuntimeError(error_message)."""
    previous, _disabled[0] = _disabled[0], error_message
    try:
        yield
    finally:
        _disabled[0] = previous


# torch's names for saved metadata that our formulas name by another suffix
_TORCH_SUFFIXES = {"_sym_sizes": "_shape", "_scalar_type": "_dtype", "_sizes": "_shape"}


class SavedValues:
    """`_saved_<name>` on an op's grad_fn: what it keeps under that name, a tensor unpacked as the backward
    would (so after a backward without retain_graph, torch's error)."""

    def __getattr__(self, name):
        if name.startswith("_saved_") and "saved" in self.__dict__:
            key, saved = name[len("_saved_"):], self.__dict__["saved"]
            for theirs, ours in _TORCH_SUFFIXES.items():
                if key.endswith(theirs) and key not in saved:
                    key = key[:-len(theirs)] + ours
            if key in saved:
                from ._record import unpacked  # reason: _record builds its node classes on this one

                return unpacked(saved[key], self)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
