"""InstructionTranslator: runs a frame's bytecode over VariableTrackers, building an FX graph.

Frontend layer, the heart of capture. `eval_frame.py` hands it a code object
and the frame's locals; it walks the instructions with a symbolic stack:

    LOAD_FAST x        push the tracker for x (a lazy input until first used)
    LOAD_METHOD sum    push NULL and the bound method `x.sum`
    CALL 0             call it: records `sum_1 = l_x_.sum()` in the graph
    RETURN_VALUE       the frame's result, rebuilt after the graph runs

There is one method per opcode, named after it, grouped by theme; Python
version facts come from `pyversion.py`. Calls to user functions and module
forwards are inlined by an InliningInstructionTranslator sharing the same
OutputGraph. Anything the translator cannot model raises `Unsupported`
(with the instruction, file and line), and in this slice the whole frame
then runs eagerly. The one idea to hold: nothing here runs the user's code;
branches are taken on values known at translation time (and guarded), and a
branch on tensor data is a graph break.
"""
import operator

from . import pyversion
from .exc import Unsupported
from .output_graph import OutputGraph
from .source import GlobalSource
from .variables import (BaseListVariable, BuiltinVariable, CellVariable, ConstantVariable, LazyVariableTracker,
                        ListIteratorVariable, ListVariable, NestedUserFunctionVariable, NNModuleVariable,
                        NullVariable, TensorVariable, TupleVariable, binary_op, unary_op, wrap)
from .variables.lists import SizeVariable

MAX_INSTRUCTIONS = 200_000
MAX_INLINE_DEPTH = 32


class InstructionTranslatorBase:
    def __init__(self, code, f_globals, output, symbolic_locals, cells, depth):
        self.code = code
        self.f_globals = f_globals
        self.output = output
        self.symbolic_locals = symbolic_locals
        self.cells = cells
        self.depth = depth
        self.instructions = pyversion.instructions(code)
        self.index_of_offset = {inst.offset: i for i, inst in enumerate(self.instructions)}
        self.stack = []
        self.ip = 0
        self.kw_names = ()
        self.return_value = None
        self.lineno = code.co_firstlineno
        self.steps = 0

    # ---- the loop -------------------------------------------------------------------------

    def run(self):
        while self.return_value is None:
            inst = self.instructions[self.ip]
            self.ip += 1
            if inst.positions is not None and inst.positions.lineno is not None:
                self.lineno = inst.positions.lineno
            self.steps += 1
            try:
                if self.steps > MAX_INSTRUCTIONS:
                    raise Unsupported("too many instructions (an unrolled loop that does not end?)", "unsupported")
                handler = getattr(self, inst.opname, None)
                if handler is None:
                    raise Unsupported(f"opcode {inst.opname} is not supported", "unsupported_opcode")
                handler(inst)
            except Unsupported as e:
                e.add_location(inst, self.code.co_filename, self.lineno)
                raise
        return self.return_value

    def push(self, var):
        self.stack.append(var)

    def pop(self):
        return self.stack.pop()

    def popn(self, n):
        if n == 0:
            return []
        items = self.stack[-n:]
        del self.stack[-n:]
        return items

    def jump(self, inst):
        self.ip = self.index_of_offset[pyversion.jump_target(inst)]

    def inline_call(self, code, f_globals, bound_args, cells):
        if self.depth >= MAX_INLINE_DEPTH:
            raise Unsupported("inlining recursion too deep", "unsupported_call")
        if pyversion.is_generator(code):
            raise Unsupported(f"{code.co_name} is a generator", "generator")
        sub = InliningInstructionTranslator(code, f_globals, self.output, dict(bound_args), dict(cells), self.depth + 1)
        return sub.run()

    # ---- frame setup and no-ops ------------------------------------------------------------

    def RESUME(self, inst):
        pass

    def NOP(self, inst):
        pass

    def PRECALL(self, inst):
        pass

    def COPY_FREE_VARS(self, inst):
        pass

    def MAKE_CELL(self, inst):
        name = inst.argval
        if name not in self.cells:
            self.cells[name] = CellVariable(self.symbolic_locals.pop(name, None))

    # ---- locals, constants, globals, cells ------------------------------------------------

    def LOAD_FAST(self, inst):
        name = inst.argval
        if name not in self.symbolic_locals:
            raise Unsupported(f"local {name!r} read before assignment", "unsupported")
        self.push(self.symbolic_locals[name])

    def STORE_FAST(self, inst):
        var = self.pop()
        if isinstance(var, TensorVariable):
            self.output.rename(var.proxy.node, inst.argval)
        self.symbolic_locals[inst.argval] = var

    def DELETE_FAST(self, inst):
        self.symbolic_locals.pop(inst.argval, None)

    def LOAD_CONST(self, inst):
        self.push(ConstantVariable(inst.argval))

    def LOAD_GLOBAL(self, inst):
        if pyversion.load_global_pushes_null(inst):
            self.push(NullVariable())
        name = inst.argval
        if name in self.f_globals:
            self.push(LazyVariableTracker(self, self.f_globals[name], GlobalSource(name)))  # realized at first use, as Dynamo's
            return
        import builtins

        if not hasattr(builtins, name):
            raise Unsupported(f"global name {name!r} is not defined", "unsupported")
        self.push(wrap(self.output, getattr(builtins, name), None))

    def LOAD_CLOSURE(self, inst):
        self.push(self.cells[inst.argval])

    def LOAD_DEREF(self, inst):
        cell = self.cells.get(inst.argval)
        if cell is None or cell.contents is None:
            raise Unsupported(f"free variable {inst.argval!r} is empty", "unsupported")
        self.push(cell.contents)

    def STORE_DEREF(self, inst):
        cell = self.cells.setdefault(inst.argval, CellVariable())
        if cell.from_outside:
            raise Unsupported(f"writing the closure variable {inst.argval!r} of an outer function", "side_effect")
        cell.contents = self.pop()

    # ---- stack shuffles ---------------------------------------------------------------------

    def POP_TOP(self, inst):
        self.pop()

    def PUSH_NULL(self, inst):
        self.push(NullVariable())

    def COPY(self, inst):
        self.push(self.stack[-inst.arg])

    def SWAP(self, inst):
        self.stack[-1], self.stack[-inst.arg] = self.stack[-inst.arg], self.stack[-1]

    # ---- attributes and items ----------------------------------------------------------------

    def LOAD_ATTR(self, inst):
        obj = self.pop().realize()
        self.push(obj.var_getattr(self, inst.argval))

    def LOAD_METHOD(self, inst):
        obj = self.pop().realize()
        self.push(NullVariable())
        self.push(obj.var_getattr(self, inst.argval))

    def STORE_ATTR(self, inst):
        raise Unsupported(f"setting attribute {inst.argval!r}", "side_effect")

    def STORE_SUBSCR(self, inst):
        raise Unsupported("item assignment (obj[i] = v)", "side_effect")

    def BINARY_SUBSCR(self, inst):
        index = self.pop().realize()
        obj = self.pop().realize()
        if isinstance(obj, TensorVariable):
            from .variables.tensor import record

            self.push(record(self.output, "call_function", operator.getitem, [obj, index], {}))
        elif hasattr(obj, "getitem"):
            self.push(obj.getitem(self, index))
        elif obj.is_python_constant() and index.is_python_constant():
            self.push(ConstantVariable(obj.as_python_constant()[index.as_python_constant()]))
        else:
            raise Unsupported(f"indexing {obj}", "unsupported")

    def BUILD_SLICE(self, inst):
        parts = [p.realize() for p in self.popn(inst.arg)]
        if not all(p.is_python_constant() for p in parts):
            raise Unsupported("slice with non-constant bounds", "unsupported")
        self.push(ConstantVariable(slice(*[p.as_python_constant() for p in parts])))

    # ---- calls ------------------------------------------------------------------------------

    def KW_NAMES(self, inst):
        self.kw_names = pyversion.kw_names(inst, self.code)

    def CALL(self, inst):
        args = self.popn(inst.arg)
        fn, maybe_self = self.popn(2)
        if not isinstance(fn, NullVariable):
            args = [maybe_self, *args]
        else:
            fn = maybe_self
        kw_names, self.kw_names = self.kw_names, ()
        kwargs = {}
        if kw_names:
            kwargs = dict(zip(kw_names, args[-len(kw_names):]))
            args = args[:-len(kw_names)]
        self.push(self.call_function(fn, args, kwargs))

    def CALL_FUNCTION_EX(self, inst):
        kwargs_var = self.pop().realize() if inst.arg & 1 else None
        args_var = self.pop().realize()
        fn = self.pop()
        if isinstance(self.stack[-1] if self.stack else None, NullVariable):
            self.pop()
        kwargs = {}
        if kwargs_var is not None:
            if not kwargs_var.is_python_constant():
                raise Unsupported("**kwargs with non-constant values", "unsupported_call")
            kwargs = {k: ConstantVariable(v) for k, v in kwargs_var.as_python_constant().items()}
        self.push(self.call_function(fn, args_var.unpack_var_sequence(self), kwargs))

    def call_function(self, fn, args, kwargs):
        return fn.realize().call_function(self, args, kwargs)

    def MAKE_FUNCTION(self, inst):
        code = self.pop().as_python_constant()
        flags = inst.arg
        closure = self.pop().items if flags & 0x08 else ()
        if flags & 0x04:
            self.pop()
        kwdefaults = self.pop().realize() if flags & 0x02 else None
        defaults = self.pop().realize().items if flags & 0x01 else ()
        kwdefaults_map = {}
        if kwdefaults is not None:
            raise Unsupported("keyword-only defaults of a nested function", "unsupported")
        self.push(NestedUserFunctionVariable(code, self.f_globals, defaults, kwdefaults_map, closure))

    # ---- operators --------------------------------------------------------------------------

    def BINARY_OP(self, inst):
        b, a = self.pop(), self.pop()
        self.push(binary_op(self, pyversion.binary_op(inst), a, b))

    def COMPARE_OP(self, inst):
        b, a = self.pop(), self.pop()
        self.push(binary_op(self, pyversion.compare_op(inst), a, b))

    def IS_OP(self, inst):
        b, a = self.pop().realize(), self.pop().realize()
        if a.is_python_constant() and b.is_python_constant():
            same = a.as_python_constant() is b.as_python_constant()
        elif a.is_python_constant() or b.is_python_constant():
            same = False  # a tensor, module or list is never the constant it is compared with
        else:
            same = a is b
        self.push(ConstantVariable(same != bool(inst.arg)))

    def CONTAINS_OP(self, inst):
        container, item = self.pop().realize(), self.pop().realize()
        if not (container.is_python_constant() and item.is_python_constant()):
            raise Unsupported("`in` on non-constant values", "unsupported")
        found = item.as_python_constant() in container.as_python_constant()
        self.push(ConstantVariable(found != bool(inst.arg)))

    def UNARY_NEGATIVE(self, inst):
        self.push(unary_op(self, operator.neg, self.pop()))

    def UNARY_POSITIVE(self, inst):
        self.push(unary_op(self, operator.pos, self.pop()))

    def UNARY_INVERT(self, inst):
        self.push(unary_op(self, operator.invert, self.pop()))

    def UNARY_NOT(self, inst):
        self.push(ConstantVariable(not self.pop().realize().truth(self)))

    # ---- containers -------------------------------------------------------------------------

    def BUILD_TUPLE(self, inst):
        self.push(TupleVariable(self.popn(inst.arg)))

    def BUILD_LIST(self, inst):
        self.push(ListVariable(self.popn(inst.arg)))

    def LIST_EXTEND(self, inst):
        items = self.pop().realize().unpack_var_sequence(self)
        self.stack[-inst.arg].items.extend(items)

    def LIST_APPEND(self, inst):
        item = self.pop()
        self.stack[-inst.arg].items.append(item)

    def LIST_TO_TUPLE(self, inst):
        self.push(TupleVariable(self.pop().items))

    def BUILD_MAP(self, inst):
        flat = [v.realize() for v in self.popn(2 * inst.arg)]
        if not all(v.is_python_constant() for v in flat):
            raise Unsupported("dicts of non-constant values", "unsupported")
        values = [v.as_python_constant() for v in flat]
        self.push(ConstantVariable(dict(zip(values[::2], values[1::2]))))

    def BUILD_CONST_KEY_MAP(self, inst):
        keys = self.pop().as_python_constant()
        values = [v.realize() for v in self.popn(inst.arg)]
        if not all(v.is_python_constant() for v in values):
            raise Unsupported("dicts of non-constant values", "unsupported")
        self.push(ConstantVariable(dict(zip(keys, [v.as_python_constant() for v in values]))))

    def UNPACK_SEQUENCE(self, inst):
        items = self.pop().realize().unpack_var_sequence(self)
        if len(items) != inst.arg:
            raise Unsupported(f"unpacking {len(items)} values into {inst.arg}", "unsupported")
        for item in reversed(items):
            self.push(item)

    # ---- control flow -----------------------------------------------------------------------

    def _truth(self, var):
        return var.realize().truth(self)

    def POP_JUMP_FORWARD_IF_FALSE(self, inst):
        if not self._truth(self.pop()):
            self.jump(inst)

    def POP_JUMP_FORWARD_IF_TRUE(self, inst):
        if self._truth(self.pop()):
            self.jump(inst)

    POP_JUMP_BACKWARD_IF_FALSE = POP_JUMP_FORWARD_IF_FALSE
    POP_JUMP_BACKWARD_IF_TRUE = POP_JUMP_FORWARD_IF_TRUE

    def _is_none(self, var):
        var = var.realize()
        return var.is_python_constant() and var.as_python_constant() is None

    def POP_JUMP_FORWARD_IF_NONE(self, inst):
        if self._is_none(self.pop()):
            self.jump(inst)

    def POP_JUMP_FORWARD_IF_NOT_NONE(self, inst):
        if not self._is_none(self.pop()):
            self.jump(inst)

    POP_JUMP_BACKWARD_IF_NONE = POP_JUMP_FORWARD_IF_NONE
    POP_JUMP_BACKWARD_IF_NOT_NONE = POP_JUMP_FORWARD_IF_NOT_NONE

    def JUMP_IF_FALSE_OR_POP(self, inst):
        if not self._truth(self.stack[-1]):
            self.jump(inst)
        else:
            self.pop()

    def JUMP_IF_TRUE_OR_POP(self, inst):
        if self._truth(self.stack[-1]):
            self.jump(inst)
        else:
            self.pop()

    def JUMP_FORWARD(self, inst):
        self.jump(inst)

    JUMP_BACKWARD = JUMP_FORWARD
    JUMP_BACKWARD_NO_INTERRUPT = JUMP_FORWARD

    def GET_ITER(self, inst):
        obj = self.pop().realize()
        if isinstance(obj, ListIteratorVariable):
            self.push(obj)
        else:
            self.push(ListIteratorVariable(obj.unpack_var_sequence(self)))

    def FOR_ITER(self, inst):
        item = self.stack[-1].next_item()
        if item is None:
            self.pop()
            self.ip = self.index_of_offset[pyversion.for_iter_exit(inst)]
        else:
            self.push(item)

    def RETURN_VALUE(self, inst):
        self.return_value = self.pop()

    # ---- explicitly unsupported (each a graph break with a reason) ---------------------------

    def RETURN_GENERATOR(self, inst):
        raise Unsupported("generators cannot be captured", "generator")

    def BEFORE_WITH(self, inst):
        raise Unsupported("`with` blocks are not supported yet", "unsupported_opcode")

    def RAISE_VARARGS(self, inst):
        raise Unsupported("raise inside a compiled frame", "unsupported_opcode")


class InstructionTranslator(InstructionTranslatorBase):
    """The translator of the frame being compiled: its locals are lazy inputs with LocalSources."""

    def __init__(self, code, f_globals, f_locals):
        from .source import LocalSource

        pyversion.check_supported()
        output = OutputGraph()
        symbolic_locals = {}
        cells = {}
        for name, value in f_locals.items():
            lazy = LazyVariableTracker(None, value, LocalSource(name))
            lazy._tx = self
            if name in code.co_freevars:
                cells[name] = CellVariable(lazy, from_outside=True)
            else:
                symbolic_locals[name] = lazy
        super().__init__(code, f_globals, output, symbolic_locals, cells, depth=0)


class InliningInstructionTranslator(InstructionTranslatorBase):
    """Runs a called user function's bytecode inside the caller's translation (same OutputGraph)."""
