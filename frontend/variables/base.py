"""VariableTracker: what the translator keeps on its stack instead of values.

Frontend layer. The translator never holds a real Python value from the frame: it holds trackers, each answering the
questions bytecode asks (attribute, call, item, iteration, truth) by folding them at translation time (constants,
lists, modules) or by recording FX nodes (tensors). The one idea to hold: a tracker with a `source` came from
outside the frame and is guarded; one without was built inside the frame and needs no guard.
"""
from ..exc import Unsupported


class VariableTracker:
    mutable_identity = False  # rebuilt once per graph break and shared (a list built in the frame)

    def __init__(self, source=None):
        self.source = source

    def realize(self):
        """The concrete tracker (lazy frame inputs become tensors, constants... only when used)."""
        return self

    def python_type(self):
        raise Unsupported(f"{type(self).__name__} has no known Python type", "unsupported")

    def is_python_constant(self):
        return False

    def as_python_constant(self):
        raise Unsupported(f"{self} is not a Python constant", "unsupported")

    def var_getattr(self, tx, name):
        if hasattr(self, "call_method"):  # (lists, dicts...) a method, called through the tracker's call_method
            return MethodVariable(self, name)
        raise Unsupported(f"attribute {name!r} of {self}", "unsupported_attr")

    def call_function(self, tx, args, kwargs):
        raise Unsupported(f"call to {self}", "unsupported_call")

    def unpack_var_sequence(self, tx):
        raise Unsupported(f"iteration over {self}", "unsupported")

    def truth(self, tx):
        if hasattr(self, "length"):  # (sequences, dicts and their views) true when not empty, as Python's
            return self.length() > 0
        raise Unsupported(f"truth value of {self}", "unsupported")

    def output_plan(self, og):
        """How to rebuild this value after the graph runs: a function (graph outputs, L, G) -> value."""
        if self.source is not None:
            source = self.source
            return lambda outs, L, G: source.fetch(L, G)
        raise Unsupported(f"returning {self} from a compiled frame", "unsupported")

    def reconstruct(self, cg):
        """Append instructions (to the assemble.Codegen cg) that push this value at run time: a value read from
        the frame is loaded from its source again; one made in the frame is made anew (`build`)."""
        if self.source is not None:
            cg.load_source(self.source)
        else:
            self.build(cg)

    def build(self, cg):
        if not self.is_python_constant():
            raise Unsupported(f"{self} cannot be rebuilt after a graph break", "unresumable")
        cg.load_const(self.as_python_constant())

    def __repr__(self):
        return f"{type(self).__name__}()"


class ValueVariable(VariableTracker):
    """A tracker standing for one Python object known now, `value` (a constant, a torch function, a user's object)."""

    def __init__(self, value, source=None):
        super().__init__(source)
        self.value = value

    def python_type(self):
        return type(self.value)

    def __repr__(self):
        return f"{type(self).__name__}({getattr(self.value, '__name__', self.value)})"


class LazyVariableTracker(VariableTracker):
    """A frame input not looked at yet: made a real tracker when first needed (inputs in order of first use)."""

    def __init__(self, output, value, source):
        super().__init__(source)
        self._output = output  # the OutputGraph that wraps it
        self._value = value
        self._realized = None

    def realize(self):
        if self._realized is None:
            self._realized = self._output.wrap(self._value, self.source)
        return self._realized

    def reconstruct(self, cg):
        if self._realized is None:
            cg.load_source(self.source)  # never looked at: reload it, no guard needed
        else:
            cg.reconstruct(self._realized)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.realize(), name)

    def __repr__(self):
        return f"Lazy({self.source.name()})"


class MethodVariable(VariableTracker):
    """`obj.name`, a method read but not called yet; rebuilt by reading the attribute again. Calling it runs the
    tracker's own call_method (lists, tuples, dicts); other kinds of method say how they are called."""

    def __init__(self, obj, name):
        super().__init__()
        self.obj, self.name = obj, name

    def call_function(self, tx, args, kwargs):
        return self.obj.call_method(tx, self.name, args, kwargs)

    def reconstruct(self, cg):
        cg.reconstruct(self.obj)
        cg.append("LOAD_ATTR", self.name)


class NullVariable(VariableTracker):
    """The NULL that LOAD_GLOBAL/PUSH_NULL put below a callable (3.11 call protocol)."""

    def reconstruct(self, cg):
        cg.append("PUSH_NULL")
