"""`config.patch(...)` for the knob modules (torch._dynamo.config.patch, torch._inductor.config.patch): the named
knobs set for a `with` block, or for each call of a decorated function, then put back.

Runtime layer, coverage surface: user programs and tests call it; no stage of the pipeline does. frontend/config.py
and backend/config.py each hold one (`patch = Patcher(__name__)`), which also gives a knob its old name.
"""
import contextlib
import sys
import types


class Patcher:
    def __init__(self, module_name, aliases=None):
        """aliases {old name: name}: the old name reads and writes the knob (torch 2.13's cache_size_limit is
        recompile_limit)."""
        self.module_name = module_name
        if aliases:
            module = sys.modules[module_name]
            module.__class__ = type("ConfigModule", (types.ModuleType,), {old: property(
                lambda m, new=new: getattr(m, new), lambda m, value, new=new: setattr(m, new, value))
                for old, new in aliases.items()})

    def __call__(self, name_or_changes=None, value=None, **changes):
        """patch("name", value), patch({"name": value}) or patch(name=value), as torch's."""
        if isinstance(name_or_changes, str):
            changes = {name_or_changes: value}
        elif name_or_changes is not None:
            changes = dict(name_or_changes)
        return _Patch(sys.modules[self.module_name], changes)


class _Patch(contextlib.ContextDecorator):
    def __init__(self, module, changes):
        self.module, self.changes, self.saved = module, changes, []

    def __enter__(self):
        torch_name = {"frontend.config": "torch._dynamo.config", "backend.config": "torch._inductor.config"}.get(
            self.module.__name__, self.module.__name__)
        for name in self.changes:
            if not hasattr(self.module, name):
                raise AttributeError(f"{torch_name}.{name} does not exist")
        self.saved.append({name: getattr(self.module, name) for name in self.changes})
        for name, value in self.changes.items():
            setattr(self.module, name, value)

    def __exit__(self, *exc_info):
        for name, value in self.saved.pop().items():
            setattr(self.module, name, value)
