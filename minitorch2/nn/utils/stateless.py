"""torch.nn.utils.stateless: call a module with some of its parameters and buffers replaced for one call.

Runtime layer, coverage surface. `_functional_call` is torch.func.functional_call (autograd/func.py re-exports
it); this module's `functional_call` is the same call under its deprecated name, with torch's FutureWarning.
"""
import collections
import contextlib
import warnings


@contextlib.contextmanager
def _swapped(module, tensors):
    """module with each dotted-name parameter or buffer replaced by the given tensor, restored after (a name the
    module lacks is set as a plain attribute for the call, as torch's accessor sets it)."""
    saved = []
    for name, value in tensors.items():
        owner_path, _, leaf = name.rpartition(".")
        owner = module.get_submodule(owner_path) if owner_path else module
        slots = owner._parameters if leaf in owner._parameters else owner._buffers
        if leaf not in slots:
            saved.append((owner, leaf, getattr(owner, leaf, _MISSING)))
            object.__setattr__(owner, leaf, value)
            continue
        saved.append((slots, leaf, slots[leaf]))
        slots[leaf] = value
    try:
        yield module
    finally:
        for slots, leaf, old in reversed(saved):
            if isinstance(slots, dict):
                slots[leaf] = old
            elif old is _MISSING:
                object.__delattr__(slots, leaf)
            else:
                object.__setattr__(slots, leaf, old)


_MISSING = object()


def _functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True, strict=False):
    dicts = parameter_and_buffer_dicts
    tensors = _merged(dicts if isinstance(dicts, (list, tuple)) else [dicts])
    if tie_weights:
        tensors = _untied(module, tensors)
    if strict:
        _check_keys(module, tensors)
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    with _swapped(module, tensors):
        return module(*args, **(kwargs or {}))


def _merged(dicts):
    counts = collections.Counter(key for d in dicts for key in d)
    repeated = [key for key, n in counts.items() if n > 1]
    if repeated:
        raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is ambiguous")
    return {k: v for d in dicts for k, v in d.items()}


def _all_named_tensors(module):
    return {**dict(module.named_parameters(remove_duplicate=False)), **dict(module.named_buffers(remove_duplicate=False))}


def _untied(module, tensors):
    """tensors with a value given for one name of a tied parameter (shared by several names) given for all of them."""
    names_of = collections.defaultdict(set)
    for name, tensor in _all_named_tensors(module).items():
        names_of[id(tensor)].add(name)
    tied = {name: names for names in names_of.values() if len(names) > 1 for name in names}
    untied = dict(tensors)
    for given in [name for name in tensors if name in tied]:
        if len({id(tensors[n]) for n in tied[given] if n in tensors}) > 1:
            raise ValueError(f"functional_call got multiple values for keys {sorted(tied[given])}, which are tied. "
                             "Consider using tie_weights=False")
        untied.update(dict.fromkeys(tied[given], tensors[given]))
    return untied


def _check_keys(module, tensors):
    valid = set(_all_named_tensors(module))
    unexpected, missing = sorted(set(tensors) - valid), sorted(valid - set(tensors))
    errors = ([f"Unexpected key(s): {', '.join(map(repr, unexpected))}."] if unexpected else []) + \
        ([f"Missing key(s): {', '.join(map(repr, missing))}."] if missing else [])
    if errors:
        raise RuntimeError(f"Error(s) in reparametrizing for {module._get_name()}:\n\t" + "\n\t".join(errors))


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *, tie_weights=True, strict=False):
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be removed "
                  "in a future version of PyTorch. Please use `torch.func.functional_call` instead which is a "
                  "drop-in replacement.", FutureWarning, stacklevel=2)
    return _functional_call(module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict)
