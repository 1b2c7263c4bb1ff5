"""Closures that outlive the call that made them: a function made by an inlined call (a tape entry's backward rule,
a hook's body) and stored on an outside list or returned, with the cells it holds.

Frontend layer, mixins of functions.py's CellVariable and NestedUserFunctionVariable. The cell of an inlined call
exists only while tracing; where a closure holding it crosses a graph break or leaves the frame, the cell is made
anew holding its contents, once however many closures share it (the codegen's temporaries at a break,
OutputGraph.once after the graph), and the function is made from its code, defaults and those cells, as Dynamo
rebuilds the cells of inlined calls it tracks as new objects. A cell of a function from outside the frame, read
through that function's source, is the real one: loaded again (and a nonlocal write to it set back through it,
symbolic_convert.py's STORE_DEREF).
"""
import types

from ..exc import Unsupported


class InlinedCellMixin:
    mutable_identity = True  # (one cell, however many closures hold it)

    def rebuild_as_new_cell(self, cg):
        if self.source is not None:  # (an outside function's cell, loaded again)
            return cg.load_source(self.source)
        if self.from_outside:
            raise Unsupported("a closure cell of a function made outside cannot be rebuilt", "unresumable")
        cg.call_const(types.CellType, [] if self.contents is None else [self.contents])

    def output_plan(self, og):
        if self.source is not None:
            return super().output_plan(og)
        if self.frame_name is not None or self.from_outside:
            raise Unsupported("returning a closure over the frame's own or an outside function's cell", "unsupported")
        plan = self.contents and self.contents.realize().output_plan(og)
        return og.once(self, lambda outs, L, G: types.CellType(*[plan(outs, L, G)] if plan else []))


class EscapingFunctionMixin:
    def output_plan(self, og):
        """A function made in the frame that outlives it (returned, or stored on a global list): made anew after the
        graph from its code, defaults and cells."""
        if self.kwdefaults or self.__dict__.get("fn_attrs"):
            raise Unsupported("returning a nested function with keyword-only defaults or attributes", "unsupported")
        code, f_globals = self.code, self.f_globals
        defaults, cells = [[v.realize().output_plan(og) for v in vs] for vs in (self.defaults, self.closure)]
        return og.once(self, lambda outs, L, G: types.FunctionType(code, f_globals, code.co_name, tuple(
            p(outs, L, G) for p in defaults) or None, tuple(p(outs, L, G) for p in cells) or None))
