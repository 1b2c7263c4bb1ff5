"""torch.utils.hooks: RemovableHandle, what every register_*_hook returns (a module's forward, backward and
state-dict hooks, a tensor's gradient hooks), here so that libraries importing it from torch.utils.hooks find it.

Runtime layer, coverage surface: nn/modules/module_hooks.py registers module hooks through it, _tensor_more.py
tensor hooks through a subclass over the tensor's list of hooks.
"""


class RemovableHandle:
    """What a register_*_hook returns (torch.utils.hooks.RemovableHandle): remove() unregisters the hook."""
    _next_id = 0

    def __init__(self, hooks, hook, prepend=False, with_kwargs=None):
        self.hooks = hooks
        self.id = RemovableHandle._next_id
        RemovableHandle._next_id += 1
        hooks[self.id] = hook
        if prepend:
            hooks.move_to_end(self.id, last=False)
        self.with_kwargs = with_kwargs  # the module's dict of the ids of hooks called with kwargs, when this is one
        if with_kwargs is not None:
            with_kwargs[self.id] = True

    def remove(self):
        self.hooks.pop(self.id, None)
        if self.with_kwargs is not None:
            self.with_kwargs.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
