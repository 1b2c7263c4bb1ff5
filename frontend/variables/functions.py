"""User functions: called by inlining their bytecode into the graph being built.

Frontend layer. A call to a function the user wrote is no graph node: an InliningInstructionTranslator sharing the
output graph runs the callee's bytecode, so the graph records only the tensor operations inside.
"""
import inspect
import types

from ..exc import Unsupported
from minitorch2._compile_markers import graph_break, is_compiling
from ..profile_capture import original_function
from ..source import AttrSource, GetItemSource
from .base import LazyVariableTracker, VariableTracker
from .constant import ConstantVariable
from .context_trackers import CONTEXTMANAGER_CODE, GeneratorContextVariable
from .dicts import DictVariable
from .dynamo_forms import ANSWERED_WHILE_TRACING
from .escaping_closures import EscapingFunctionMixin, InlinedCellMixin
from .function_attributes import BoundMethodPartsMixin, FunctionAttributesMixin
from .lists import TupleVariable


class CellVariable(InlinedCellMixin, VariableTracker):  # (the mixin: escaping_closures.py)
    """A closure cell. `from_outside` cells belong to a real function: writing them is a side effect. A cell of the
    frame being compiled (`frame_name`: its own or its closure's) is the real one at run time, so it crosses a break."""

    def __init__(self, contents=None, from_outside=False, frame_name=None, source=None):
        super().__init__(source)  # (an outside function's cell read through its source: written back through it)
        self.contents, self.from_outside, self.frame_name = contents, from_outside, frame_name

    def reconstruct(self, cg):
        if self.frame_name is None:
            return self.rebuild_as_new_cell(cg)  # (a cell of an inlined call)
        cg.append("LOAD_CLOSURE", cg.cell_ref(self.frame_name))


def bind_arguments(tx, fn, args, kwargs, source=None):
    """Python's binding of args to fn; defaults read from fn are inputs guarded through `source` (None: made here)."""
    try:
        bound = inspect.signature(fn, follow_wrapped=False).bind(*args, **kwargs)
    except TypeError as e:
        raise Unsupported(f"calling {fn.__qualname__}: {e}", "unsupported_call") from None
    bound.apply_defaults()
    params = inspect.signature(fn, follow_wrapped=False).parameters
    result = {}
    for name, value in bound.arguments.items():
        kind = params[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            value = TupleVariable(value)
        elif kind is inspect.Parameter.VAR_KEYWORD:
            value = DictVariable(value)
        elif not isinstance(value, VariableTracker):
            value = _wrap_default(tx, fn, name, value, source)
        # inspect spells a comprehension's hidden iterator parameter `.0` as `implicit0`
        result[".0" if name == "implicit0" and fn.__code__.co_varnames[:1] == (".0",) else name] = value
    return result


def _wrap_default(tx, fn, name, value, source):
    if source is not None:
        names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
        if name in names and fn.__defaults__:
            index = names.index(name) - (len(names) - len(fn.__defaults__))
            return tx.output.wrap(value, GetItemSource(AttrSource(source, "__defaults__"), index))
        return tx.output.wrap(value, GetItemSource(AttrSource(source, "__kwdefaults__"), name))
    return tx.output.wrap(value, None)


class UserFunctionVariable(FunctionAttributesMixin, VariableTracker):
    def __init__(self, fn, source=None):
        super().__init__(source)
        self.fn = fn

    def python_type(self):
        return types.FunctionType

    def var_getattr(self, tx, name):
        if name in ("__name__", "__qualname__", "__module__", "__doc__"):  # (the function is guarded by identity)
            return ConstantVariable(getattr(self.fn, name))
        return super().var_getattr(tx, name)

    def closure_cells(self, tx):
        cells = {}
        for i, (name, cell) in enumerate(zip(self.fn.__code__.co_freevars, self.fn.__closure__ or ())):
            # (no source: a function made while the frame ran, e.g. a method of a class made there, whose cells
            # were filled then too: their contents are read as values made in the frame are, unguarded, as Dynamo's)
            cells_source = self.source and AttrSource(self.source, "__closure__")
            source = cells_source and AttrSource(GetItemSource(cells_source, i), "cell_contents")
            if id(cell) not in tx.output.frame_cells:  # (one tracker a cell, however many functions hold it: a write
                tx.output.frame_cells[id(cell)] = CellVariable(  # through one is seen through the others)
                    LazyVariableTracker(tx.output, cell.cell_contents, source), True, None, source and source.base)
            cells[name] = tx.output.frame_cells[id(cell)]
        return cells

    def call_function(self, tx, args, kwargs, self_var=None):
        if self.fn is graph_break or (self.fn.__module__, self.fn.__name__) == ("frontend.compiler", "disable"):
            raise Unsupported(f"frontend.{self.fn.__name__}() called", "graph_break")  # (Dynamo breaks at disable(f))
        if self.fn is is_compiling or self.fn in ANSWERED_WHILE_TRACING:  # (a function of an inlined package)
            return ConstantVariable(self.fn is is_compiling or self.fn())
        if self.fn.__dict__.get("_dynamo_marked_constant"):  # torch.compiler.assume_constant_result: run now, a constant
            return ConstantVariable(self.fn(*[a.as_python_constant() for a in args],
                                            **{k: v.as_python_constant() for k, v in kwargs.items()}))
        if self.fn.__code__ is CONTEXTMANAGER_CODE:  # a @contextmanager function: its generator runs at `with`
            wrapped = AttrSource(self.source, "__wrapped__") if self.source is not None else None
            return GeneratorContextVariable(UserFunctionVariable(self.fn.__wrapped__, wrapped), args, kwargs)
        return self.inline(tx, [self_var, *args] if self_var is not None else list(args), kwargs)

    def inline(self, tx, args, kwargs, suspending=False):
        """Run the function's bytecode on these arguments (see InstructionTranslatorBase.inline_call)."""
        fn = original_function(self.fn)  # a function `with optimize()` routed: read its real code
        bound = bind_arguments(tx, fn, args, kwargs, self.source)
        return tx.inline_call(fn.__code__, fn.__globals__, bound, self.closure_cells(tx), suspending)

    def build(self, cg):
        cg.append("LOAD_CONST", self.fn)

    def __repr__(self):
        return f"UserFunctionVariable({self.fn.__qualname__})"


class UserMethodVariable(BoundMethodPartsMixin, VariableTracker):
    """`obj.method` for a Python-level method: the function with its self tracker bound."""

    def __init__(self, fn_var, self_var):
        super().__init__()
        self.fn_var, self.self_var = fn_var, self_var

    def call_function(self, tx, args, kwargs):
        if isinstance(self.fn_var, UserFunctionVariable):
            return self.fn_var.call_function(tx, args, kwargs, self_var=self.self_var)
        return self.fn_var.call_function(tx, [self.self_var, *args], kwargs)  # (a library function: self first)

    def reconstruct(self, cg):
        if self.self_var.source is None and hasattr(self.self_var, "call_dunder"):  # as Dynamo's, which cannot
            raise Unsupported("a method of an object made in the frame, at a break", "unresumable")  # rebuild it
        cg.call_const(types.MethodType, [self.fn_var, self.self_var])


# (the mixins: escaping_closures.py, function_attributes.py)
class NestedUserFunctionVariable(EscapingFunctionMixin, FunctionAttributesMixin, VariableTracker):
    """A function made by MAKE_FUNCTION inside the frame; its defaults and cells are trackers."""
    mutable_identity = True  # (an attribute set on it at a break is seen by the resume function)

    def __init__(self, code, f_globals, defaults, closure):
        super().__init__()
        self.code, self.f_globals, self.defaults, self.closure = code, f_globals, defaults, closure or ()
        self.kwdefaults = {}

    def python_type(self):
        return types.FunctionType

    def reconstruct(self, cg):
        if self.kwdefaults:
            raise Unsupported("a nested function with keyword-only defaults cannot be rebuilt", "unresumable")
        cg.append("PUSH_NULL")
        for const in (types.FunctionType, self.code, self.f_globals, self.code.co_name):
            cg.append("LOAD_CONST", const)
        cg.reconstruct(TupleVariable(self.defaults))
        cg.reconstruct(TupleVariable(list(self.closure)))  # the cells themselves (a frame's cells cross a break)
        cg.call(5)
        self.reconstruct_attributes(cg)  # (`f.scale = 4` in the frame)

    def call_function(self, tx, args, kwargs, suspending=False):
        if self.code is CONTEXTMANAGER_CODE:  # the wrapper contextmanager(f) made in the frame: as a global one's
            return GeneratorContextVariable(self.closure[self.code.co_freevars.index("func")].contents, args, kwargs)
        if not self.code.co_flags & inspect.CO_GENERATOR and any(cell.contents is None for cell in self.closure):
            # (Dynamo rebuilds a function, reading its cells, to look up its trace rule; not a generator's)
            raise Unsupported(f"calling {self.code.co_name} reads a closure cell not yet written", "unsupported")
        shell = types.FunctionType(self.code, self.f_globals, self.code.co_name, tuple(self.defaults) or None,
                                   tuple(types.CellType(c) for c in self.closure) or None)
        shell.__kwdefaults__ = self.kwdefaults or None
        bound = bind_arguments(tx, shell, args, kwargs)
        return tx.inline_call(self.code, self.f_globals, bound, dict(zip(self.code.co_freevars, self.closure)),
                              suspending)


class DisabledFunctionVariable(VariableTracker):
    """A function marked frontend.disable or disallow_in_graph: a call of it is a graph break (it runs natively)."""

    def __init__(self, fn, source=None):
        super().__init__(source)
        self.fn = fn

    def call_function(self, tx, args, kwargs):
        raise Unsupported(f"call to {self.fn.__qualname__}, marked not to be compiled", "unsupported_call")

    build = UserFunctionVariable.build
