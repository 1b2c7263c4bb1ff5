"""Read-only lists and dicts for `Node.args` and `Node.kwargs`.

FX layer. A node's users are recomputed only when its args or kwargs are
*assigned*; mutating a list inside `node.args` in place would silently leave
`users` stale. So, as in torch.fx, every list or dict stored in a node's
arguments is one of these: reading works as usual, writing raises a
TypeError that says how to do it instead (build a new tuple, assign it).
"""

_MESSAGE = (
    "'{}' object does not support mutation. If you are attempting to modify the kwargs or args of a "
    "torch.fx.Node object,\ninstead create a new copy of it and assign the copy to the node:\n\n"
    "    new_args = ...  # copy and mutate args\n    node.args = new_args\n"
)


def _refuse(self, *args, **kwargs):
    raise TypeError(_MESSAGE.format(type(self).__name__))


class immutable_list(list):
    __delitem__ = __iadd__ = __imul__ = __setitem__ = _refuse
    append = clear = extend = insert = pop = remove = reverse = sort = _refuse

    def __hash__(self):
        return hash(tuple(self))

    def __reduce__(self):
        return (immutable_list, (tuple(self),))


class immutable_dict(dict):
    __delitem__ = __ior__ = __setitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __hash__(self):
        return hash(tuple(self.items()))

    def __reduce__(self):
        return (immutable_dict, (tuple(self.items()),))
