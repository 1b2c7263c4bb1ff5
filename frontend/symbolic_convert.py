"""InstructionTranslator: runs a frame's bytecode over VariableTrackers, building an FX graph.

Frontend layer, the heart of capture. `eval_frame.py` hands it a code object and the frame's locals; it walks the
instructions with a symbolic stack, one method per opcode (`LOAD_FAST x` pushes the tracker for x; `CALL 0` on
`x.sum` records `sum_1 = l_x_.sum()`). Calls to user functions and module forwards are inlined by an
InliningInstructionTranslator sharing the OutputGraph. What it cannot model raises `Unsupported`;
`eval_frame.translate` then replays the frame up to there (`stop_at_step`), leaving a `BreakPoint` from which
`resume.py` builds the transformed frame. The one idea to hold: nothing here runs the user's code; branches are
taken on values known at translation time (and guarded), and a branch on tensor data breaks.
"""
import builtins
import functools
import operator

import minitorch2

from . import guards, pyversion, rnn_refusal
from .exc import Unsupported
from .opcodes_312 import Py312OpcodesMixin
from .opcodes_exceptions import ExceptionOpcodesMixin, ObservedException
from .opcodes_match import MatchOpcodesMixin
from .opcodes_strings import StringOpcodesMixin
from .output_graph import OutputGraph
from .source import ForeignGlobalSource, GlobalSource, LocalSource
from .variables import (CellVariable, ConstantVariable, DictVariable, LazyVariableTracker,
                        BuiltinVariable, ListVariable, NestedUserFunctionVariable, NullVariable,
                        TensorVariable, TupleVariable, binary_op, dict_items, unary_op, wrap)
from .variables.autocast import _exit_autocast
from .variables.ctx_manager import GRAD_MODE_CLASSES, _set_grad_enabled
from .variables.dicts import constant_key
from .variables.dynamo_forms import name_after_local
from .variables.exceptions import raise_keyword_given_twice, raise_unpack_error
from .variables.lists import BaseListVariable, iterate
from .variables.numpy_arrays import NumpyNdarrayVariable
from .variables.stdlib import SuspendingGeneratorMixin, generator_iterator
from .variables.sym_node import SliceVariable, SymNodeVariable
from .variables.tensor import record_mutation
from .variables.tensor_membership import list_contains
from .variables.user_defined import UserObjectVariable
from .variables.user_protocols import runs_a_setter

MAX_INSTRUCTIONS = 200_000
MAX_INLINE_DEPTH = 32
UNARY_OPS = {"UNARY_NEGATIVE": operator.neg, "UNARY_POSITIVE": operator.pos, "UNARY_INVERT": operator.invert}


@functools.lru_cache(maxsize=2048)
def decoded(code):
    """code's instructions and the index of each by offset, disassembled once per code object."""
    instructions = tuple(pyversion.instructions(code))
    return instructions, {inst.offset: i for i, inst in enumerate(instructions)}


# (the mixins: try/except, the 3.12 and 3.13 opcodes, f-strings, the match statement)
class InstructionTranslatorBase(ExceptionOpcodesMixin, Py312OpcodesMixin, StringOpcodesMixin, MatchOpcodesMixin):
    def __init__(self, code, f_globals, output, symbolic_locals, cells, depth):
        self.code, self.f_globals, self.output, self.cells, self.depth = code, f_globals, output, cells, depth
        self.symbolic_locals = symbolic_locals
        self.instructions, self.index_of_offset = decoded(code)
        self.stack, self.ip, self.kw_names, self.return_value = [], 0, (), None
        self.lineno = code.co_firstlineno
        self.steps = 0
        self.root_globals = f_globals  # the frame's globals (G); inlined callees from elsewhere use their own
        self.stop_at_step = None  # root frame only: stop before this step, for a graph break (see BreakPoint)
        self.break_point = None
        self.checkpoint = None  # root frame: (step, offset) of the last instruction with an empty stack and 2+ ops
        self.current_instruction = None  # its line and columns locate the nodes it records (stack_trace.py)

    # ---- the loop -------------------------------------------------------------------------

    def run(self):
        self.output.tracers.append(self)  # the frames a node's stack_trace names
        try:
            return self._run_instructions()
        finally:
            self.output.tracers.pop()

    def _run_instructions(self):
        while self.return_value is None:
            inst = self.instructions[self.ip]
            rnn_refusal.note_checkpoint(self, inst)
            if self.steps + 1 == self.stop_at_step:
                self.break_point = BreakPoint(self, inst)
                return None
            self.ip += 1
            self.current_instruction = inst
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
                self.note_break_context(e, inst)
                raise
            except ObservedException as e:  # the program raised: on to its handler
                self.unwind_to_handler(e, inst)
        return self.return_value

    def note_break_context(self, e, inst):
        """Record on e what decides whether the frame can resume: a loop still to run, an enclosing try or with."""
        if self.depth == 0:  # loops and blocks of inlined callees do not matter: the callee reruns as its own frame
            e.in_loop = e.in_loop or pyversion.has_backedge_after(self.instructions, self.ip - 1)
            e.blocks = pyversion.enclosing_blocks(self.code, inst.offset)
            e.break_step, e.break_offset, e.break_opname = self.steps, inst.offset, inst.opname
            e.next_opname = self.instructions[self.ip].opname if self.ip < len(self.instructions) else None

    def push(self, var):
        self.stack.append(var)

    def pop(self):
        return self.stack.pop()

    def popn(self, n):
        items = self.stack[len(self.stack) - n:]
        del self.stack[len(self.stack) - n:]
        return items

    def push_callable(self, fn_var):
        """Push a callable (a bound method too) and its NULL as CALL reads them: [NULL, fn], 3.13 [fn, NULL]."""
        self.stack += [fn_var, NullVariable()] if pyversion.NULL_AFTER_CALLABLE else [NullVariable(), fn_var]

    def jump(self, inst):
        self.ip = self.index_of_offset[inst.argval]  # dis resolves relative and backward jumps

    JUMP_FORWARD = JUMP_BACKWARD = JUMP_BACKWARD_NO_INTERRUPT = jump

    def inline_call(self, code, f_globals, bound_args, cells, suspending=False):
        """Run the callee's bytecode; `suspending` (a generator): return the translator, run on to each yield."""
        if self.depth >= MAX_INLINE_DEPTH:
            raise Unsupported("inlining recursion too deep", "unsupported_call")
        translator = SuspendingGeneratorTranslator if suspending else InliningInstructionTranslator
        if pyversion.is_generator(code) and not suspending:
            # a generator function or expression runs lazily, yield by yield (stdlib.py): `sum(x * i for i in r)`
            # computes each item when its add needs it, as Dynamo's
            return generator_iterator(code, lambda: self.inline_call(code, f_globals, bound_args, cells, True))
        sub = translator(code, f_globals, self.output, dict(bound_args), dict(cells), self.depth + 1)
        sub.root_globals = self.root_globals
        return sub if suspending else sub.run()

    # ---- frame setup and no-ops ------------------------------------------------------------

    def NOP(self, inst):
        pass

    # (dis already folded EXTENDED_ARG's bits into the next instruction's arg)
    RESUME = PRECALL = EXTENDED_ARG = COPY_FREE_VARS = NOP

    def MAKE_CELL(self, inst):
        if inst.argval not in self.cells:  # (a cell of the compiled frame crosses a break: it has a frame_name)
            self.cells[inst.argval] = CellVariable(self.symbolic_locals.pop(inst.argval, None),
                                                   frame_name=inst.argval if self.depth == 0 else None)

    # ---- locals, constants, globals, cells ------------------------------------------------

    def LOAD_FAST(self, inst):
        name = inst.argval
        if name not in self.symbolic_locals and name in self.cells:  # 3.13 compiles LOAD_CLOSURE to LOAD_FAST
            return self.push(self.cells[name])
        if name not in self.symbolic_locals:
            raise Unsupported(f"local {name!r} read before assignment", "unsupported")
        self.push(self.symbolic_locals[name])

    LOAD_FAST_CHECK = LOAD_FAST  # 3.12+: a maybe-unbound local, which LOAD_FAST already refuses

    def STORE_FAST(self, inst):
        var = self.pop()
        if isinstance(var, NullVariable):  # 3.12: an inlined comprehension restoring an unbound variable
            return self.DELETE_FAST(inst)
        name_after_local(self.output.graph, var, inst.argval)
        self.symbolic_locals[inst.argval] = var

    def DELETE_FAST(self, inst):
        self.symbolic_locals.pop(inst.argval, None)

    def LOAD_CONST(self, inst):
        # a resume function re-entering a `with` block loads its class (resume.py): no_grad, inference_mode(True)'s
        reentered = any(inst.argval is c for c in GRAD_MODE_CLASSES) or type(inst.argval) is functools.partial
        self.push(wrap(self.output, inst.argval, None) if reentered else ConstantVariable(inst.argval))

    def LOAD_GLOBAL(self, inst):
        push = self.push_callable if inst.arg & 1 else self.push  # (3.11-3.13: the low bit asks for a NULL)
        push(self._global_value(inst.argval))

    def _global_value(self, name):
        own = self.f_globals is self.root_globals
        if own and name in self.output.stored_globals:
            return self.output.stored_globals[name]  # written earlier in this frame (a pending side effect)
        source = GlobalSource(name) if own else ForeignGlobalSource(self.f_globals, name)
        if name in self.f_globals:
            return LazyVariableTracker(self.output, self.f_globals[name], source)  # realized at first use, as Dynamo's
        if not hasattr(builtins, name):
            raise Unsupported(f"global name {name!r} is not defined", "unsupported")
        value = getattr(builtins, name)
        # guarded, as the module may define the name later or builtins.<name> be replaced (mock.patch)
        self.output.guards.add(guards.builtin_guard("G" if own else source.dict_name(), name, value), value)
        return wrap(self.output, value, None)

    def IMPORT_NAME(self, inst):  # `import numpy as np` in the frame: the module, as Python imports it
        fromlist, level = self.pop().as_python_constant(), self.pop().as_python_constant()
        self.push(wrap(self.output, __import__(inst.argval, self.f_globals, None, fromlist, level), None))

    def IMPORT_FROM(self, inst):
        self.push(self.stack[-1].var_getattr(self, inst.argval))

    def STORE_GLOBAL(self, inst):
        if self.f_globals is not self.root_globals:
            raise Unsupported(f"writing the global {inst.argval!r} of another module", "side_effect")
        self.output.stored_globals[inst.argval] = self.pop()

    def LOAD_CLOSURE(self, inst):
        self.push(self.cells[inst.argval])

    def LOAD_DEREF(self, inst):
        cell = self.cells.get(inst.argval)
        if cell is None or cell.contents is None:
            raise Unsupported(f"free variable {inst.argval!r} is empty", "unsupported")
        self.push(cell.contents)

    def STORE_DEREF(self, inst):
        cell, value = self.cells.setdefault(inst.argval, CellVariable()), self.pop()
        if cell.from_outside and cell.frame_name is None:  # an outside function's cell: its cell_contents set back
            if cell.source is None:  # (after the graph or at a break) through its source, as an attribute is
                raise Unsupported(f"writing the closure variable {inst.argval!r} of an outer function", "side_effect")
            self.output.stored_attrs[(cell.source, "cell_contents")] = (cell, value)
        if cell.frame_name is not None:  # the compiled frame's (its own or its closure's): written back at a break,
            self.output.stored_cells[cell.frame_name] = cell  # and its closure's after the graph, as a global is
        cell.contents = value

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
        push = self.push_callable if pyversion.is_method_load(inst) else self.push  # 3.12+: LOAD_METHOD's bit
        push(self.pop().realize().var_getattr(self, inst.argval))

    LOAD_METHOD = LOAD_ATTR

    def STORE_ATTR(self, inst):
        obj, value = self.pop().realize(), self.pop()
        if hasattr(obj, "store_attr") and (obj.source is None or runs_a_setter(obj, inst.argval)):  # made in the
            return obj.store_attr(self, inst.argval, value)  # frame, or a property's setter (inlined: user_protocols.py)
        if not hasattr(obj, "can_store_attr") or not obj.can_store_attr(inst.argval, value):  # a module's, a class's
            raise Unsupported(f"setting attribute {inst.argval!r} of {obj}", "side_effect")
        self.output.stored_attrs[(obj.source, inst.argval)] = (obj, value)

    def STORE_SUBSCR(self, inst):
        key, obj, value = self.pop().realize(), self.pop().realize(), self.pop()
        if isinstance(obj, DictVariable):
            obj.setitem(self, key, value)
        elif isinstance(obj, NumpyNdarrayVariable):  # `a[0] = v`: ndarray.__setitem__, a numpy node
            obj.call_method(self, "__setitem__", [key, value], {})
        elif isinstance(obj, TensorVariable):  # `y[0] = v`: an in-place setitem node, as Dynamo records
            record_mutation(self.output, operator.setitem, [obj, key, value.realize()])
        elif isinstance(obj, ListVariable) and key.is_python_constant():
            if obj.source is not None:
                self.output.note_mutation(obj)
            index = key.as_python_constant()
            obj.items[index] = value.realize().unpack_var_sequence(self) if isinstance(index, slice) else value
        elif hasattr(obj, "call_dunder") and obj.has_dunder("__setitem__"):  # a user class's (UserDict's), inlined
            obj.call_dunder(self, "__setitem__", [key, value])
        else:
            raise Unsupported("item assignment (obj[i] = v) on a value from outside the frame", "side_effect")

    def DELETE_SUBSCR(self, inst):  # `del d[k]`: a pop whose value goes; `del xs[i]`, `del xs[i:j]`: list_methods.py
        key, obj = self.pop().realize(), self.pop().realize()
        if not (isinstance(obj, DictVariable) or type(obj) is ListVariable):
            raise Unsupported(f"del of an item of {obj}", "unsupported")
        obj.call_method(self, "pop" if isinstance(obj, DictVariable) else "__delitem__", [key], {})  # (list_methods.py)

    def DELETE_ATTR(self, inst):  # `del obj.x`: as delattr(obj, "x") (user_protocols.py)
        BuiltinVariable(delattr).call_function(self, [self.pop(), ConstantVariable(inst.argval)], {})

    def BINARY_SUBSCR(self, inst):  # `obj[index]` is operator.getitem(obj, index), as operator.getitem's call
        self.push(binary_op(self, operator.getitem, *self.popn(2)))

    def BUILD_SLICE(self, inst):
        parts = [p.realize() for p in self.popn(inst.arg)]
        if all(p.is_python_constant() for p in parts):
            return self.push(ConstantVariable(slice(*[p.as_python_constant() for p in parts])))
        if not all(p.is_python_constant() or isinstance(p, SymNodeVariable) for p in parts):
            raise Unsupported("slice with non-constant bounds", "unsupported")
        self.push(SliceVariable(parts))

    # ---- calls ------------------------------------------------------------------------------

    def KW_NAMES(self, inst):
        self.kw_names = pyversion.kw_names(inst, self.code)

    def CALL(self, inst):
        args = self.popn(inst.arg)
        first, second = self.popn(2)  # [NULL, fn] or [fn, self]; 3.13: [fn, NULL] or [fn, self]
        if isinstance(first, NullVariable):
            fn = second
        elif isinstance(second, NullVariable):
            fn = first
        else:
            fn, args = first, [second, *args]
        n_positional = len(args) - len(self.kw_names)
        kwargs = dict(zip(self.kw_names, args[n_positional:]))
        args, self.kw_names = args[:n_positional], ()
        self.push(self.call_function(fn, args, kwargs))

    def CALL_FUNCTION_EX(self, inst):
        kwargs_var = self.pop().realize() if inst.arg & 1 else None
        args_var = self.pop().realize()
        fn = self.pop()
        if isinstance(fn, NullVariable):  # 3.13: [fn, NULL, args, kwargs]
            fn = self.pop()
        elif isinstance(self.stack[-1] if self.stack else None, NullVariable):
            self.pop()
        kwargs = dict_items(self, kwargs_var) if kwargs_var is not None else {}
        self.push(self.call_function(fn, args_var.unpack_var_sequence(self), kwargs))

    def call_function(self, fn, args, kwargs):
        return fn.realize().call_function(self, args, kwargs)

    def MAKE_FUNCTION(self, inst):
        fn = NestedUserFunctionVariable(self.pop().as_python_constant(), self.f_globals, (), ())
        for flag in (0x08, 0x04, 0x02, 0x01):  # the parts below the code, top down (3.13: none; see below)
            if (inst.arg or 0) & flag:
                self.set_function_part(fn, flag, self.pop())
        self.push(fn)

    def set_function_part(self, fn, flag, value):
        """One part of a function being made, named by its MAKE_FUNCTION flag (3.13: SET_FUNCTION_ATTRIBUTE's)."""
        if flag == 0x01:
            fn.defaults = value.realize().unpack_var_sequence(self)  # a constant tuple or a built one
        elif flag == 0x08:
            fn.closure = value.items
        elif flag == 0x02:
            fn.kwdefaults = value.realize().items  # (a dict built by BUILD_CONST_KEY_MAP)
        elif flag == 0x04:  # (name, annotation, ...) pairs: the function's __annotations__
            fn.annotations = value  # (read as a dict: function_attributes.py)

    # ---- operators --------------------------------------------------------------------------

    def BINARY_OP(self, inst):
        self.push(binary_op(self, pyversion.BINARY_OPS[inst.argrepr], *self.popn(2)))

    def COMPARE_OP(self, inst):
        # (3.13's bool(...) form too: dis gives the bare operator as argval)
        self.push(binary_op(self, pyversion.COMPARE_OPS[inst.argval], *self.popn(2)))

    def IS_OP(self, inst):
        same = BuiltinVariable(operator.is_).call_function(self, self.popn(2), {}).value  # (stdlib.py's rule)
        self.push(ConstantVariable(same != bool(inst.arg)))

    def CONTAINS_OP(self, inst):
        container, item = self.pop().realize(), self.pop().realize()
        if isinstance(container, DictVariable):
            found = container.has_key(constant_key(item, True))
        elif container.is_python_constant() and item.is_python_constant():
            found = item.as_python_constant() in container.as_python_constant()
        elif isinstance(container, UserObjectVariable):  # (its __contains__, else a search of its items)
            return self.push(container.contains(self, item, bool(inst.arg)))
        elif isinstance(container, BaseListVariable):  # as Dynamo: the | of each item's == (a tensor of tensors)
            return self.push(list_contains(self, container.items, item, bool(inst.arg)))
        elif hasattr(container, "contains"):  # (an nn.ModuleDict)
            found = container.contains(self, item)
        else:
            raise Unsupported("`in` on non-constant values", "unsupported")
        self.push(ConstantVariable(found != bool(inst.arg)))

    def UNARY_NEGATIVE(self, inst):  # and UNARY_POSITIVE, UNARY_INVERT: the operator is the opname's
        self.push(unary_op(self, UNARY_OPS[inst.opname], self.pop()))

    UNARY_POSITIVE = UNARY_INVERT = UNARY_NEGATIVE

    def UNARY_NOT(self, inst):
        self.push(ConstantVariable(not self.pop().realize().truth(self)))

    # ---- containers -------------------------------------------------------------------------

    def BUILD_TUPLE(self, inst):
        self.push(TupleVariable(self.popn(inst.arg)))

    def BUILD_LIST(self, inst):
        self.push(ListVariable(self.popn(inst.arg)))

    def LIST_EXTEND(self, inst):  # (the list is below the popped item: inst.arg + 1 from the top before the pop)
        self.stack[-inst.arg - 1].items.extend(self.pop().realize().unpack_var_sequence(self))

    def LIST_APPEND(self, inst):
        self.stack[-inst.arg - 1].items.append(self.pop())

    def LIST_TO_TUPLE(self, inst):
        self.push(TupleVariable(self.pop().items))

    def BUILD_SET(self, inst):  # a set of constants is a constant (its methods fold); one of tensors is not modelled
        self.push(ConstantVariable({constant_key(v) for v in self.popn(inst.arg)}))

    def SET_UPDATE(self, inst):
        items = iterate(self, self.pop()).unpack_var_sequence(self)
        self.stack[-inst.arg].value.update(constant_key(v) for v in items)

    def SET_ADD(self, inst):
        self.stack[-inst.arg - 1].value.add(constant_key(self.pop()))

    def BUILD_MAP(self, inst):
        flat = self.popn(2 * inst.arg)
        self.push(DictVariable({constant_key(k, True): v for k, v in zip(flat[::2], flat[1::2])}))

    def BUILD_CONST_KEY_MAP(self, inst):
        keys = self.pop().as_python_constant()
        self.push(DictVariable(dict(zip(keys, self.popn(inst.arg)))))

    def DICT_UPDATE(self, inst):
        items = dict_items(self, self.pop())
        self.stack[-inst.arg].items.update(items)

    def DICT_MERGE(self, inst):
        items = dict_items(self, self.pop())
        target = self.stack[-inst.arg]
        raise_keyword_given_twice(self.stack[-inst.arg - 2], items, target.items)
        target.items.update(items)

    def MAP_ADD(self, inst):
        value, key = self.pop(), self.pop()
        self.stack[-inst.arg].setitem(self, key, value)

    def UNPACK_EX(self, inst):
        items = self.pop().realize().unpack_var_sequence(self)
        before, after = inst.arg & 0xFF, inst.arg >> 8
        if len(items) < before + after:
            raise_unpack_error(len(items), before + after, starred=True)
        rest = ListVariable(items[before:len(items) - after])
        self.stack.extend(reversed([*items[:before], rest, *items[len(items) - after:]]))

    def UNPACK_SEQUENCE(self, inst):
        items = self.pop().realize().unpack_var_sequence(self)
        if len(items) != inst.arg:
            raise_unpack_error(len(items), inst.arg)
        self.stack.extend(reversed(items))

    # ---- control flow -----------------------------------------------------------------------

    def POP_JUMP_IF_TRUE(self, inst):
        """Every POP_JUMP_*: pop a value, jump if the test the name ends with (TRUE, FALSE, NONE, NOT_NONE) holds.
        3.11 spells FORWARD or BACKWARD into the name (POP_JUMP_FORWARD_IF_TRUE); dis resolves the target alike."""
        var, test = self.pop().realize(), inst.opname.split("_IF_")[1]
        holds = ((var.is_python_constant() and var.as_python_constant() is None) == (test == "NONE")
                 if test in ("NONE", "NOT_NONE") else var.truth(self) == (test == "TRUE"))
        if holds:
            self.jump(inst)

    POP_JUMP_IF_FALSE = POP_JUMP_IF_NONE = POP_JUMP_IF_NOT_NONE = POP_JUMP_IF_TRUE
    POP_JUMP_FORWARD_IF_TRUE = POP_JUMP_FORWARD_IF_FALSE = POP_JUMP_FORWARD_IF_NONE = POP_JUMP_IF_TRUE
    POP_JUMP_BACKWARD_IF_TRUE = POP_JUMP_BACKWARD_IF_FALSE = POP_JUMP_BACKWARD_IF_NONE = POP_JUMP_IF_TRUE
    POP_JUMP_FORWARD_IF_NOT_NONE = POP_JUMP_BACKWARD_IF_NOT_NONE = POP_JUMP_IF_TRUE

    def JUMP_IF_TRUE_OR_POP(self, inst):
        """3.11's `a or b` (and JUMP_IF_FALSE_OR_POP's `a and b`): keep a and jump if its truth is the name's."""
        if self.stack[-1].realize().truth(self) == (inst.opname == "JUMP_IF_TRUE_OR_POP"):
            self.jump(inst)
        else:
            self.pop()

    JUMP_IF_FALSE_OR_POP = JUMP_IF_TRUE_OR_POP

    def GET_ITER(self, inst):
        self.push(iterate(self, self.pop()))

    def FOR_ITER(self, inst):
        item = self.stack[-1].next_item(self)
        if item is None:
            self.pop()
            self.ip = self.index_of_offset[pyversion.for_iter_exit(inst)]
        else:
            self.push(item)

    def RETURN_VALUE(self, inst):
        self.return_value = self.pop()

    # ---- explicitly unsupported (each a graph break with a reason) ---------------------------

    def LOAD_BUILD_CLASS(self, inst):  # a class statement: the call of builtins.__build_class__ is the break, as Dynamo's
        self.push(wrap(self.output, builtins.__build_class__, None))

    def RETURN_GENERATOR(self, inst):
        raise Unsupported("generators cannot be captured", "generator")

    def BEFORE_WITH(self, inst):
        ctx = self.pop().realize()
        if not hasattr(ctx, "enter"):  # (the context managers modelled: grad modes, autocast, stdlib.py's)
            raise Unsupported(f"`with` on {ctx} (only no_grad/enable_grad/set_grad_enabled/autocast/@contextmanager)",
                              "graph_break_in_with")
        exit_var = ctx.enter(self)
        self.push(exit_var)
        self.push(getattr(exit_var, "yielded", ConstantVariable(None)))  # what `as` binds (a contextmanager's yield)


class BreakPoint:
    """The state of the root frame just before the instruction that breaks the graph."""

    def __init__(self, tx, inst):
        self.inst = inst
        self.stack = list(tx.stack)
        self.symbolic_locals = dict(tx.symbolic_locals)
        self.kw_names = tx.kw_names
        self.lineno = tx.lineno
        self.grad_enabled = minitorch2.is_grad_enabled()  # inside a no_grad block: False


class InstructionTranslator(InstructionTranslatorBase):
    """The translator of the frame being compiled: its locals are lazy inputs with LocalSources."""

    def __init__(self, code, f_globals, f_locals, closure=None):
        pyversion.check_supported()
        output = OutputGraph(code)
        inputs = {name: LazyVariableTracker(output, value, LocalSource(name)) for name, value in f_locals.items()}
        # (every cell of the closure: an empty one, which f_locals leaves out, holds None until the frame writes it)
        cells = {name: CellVariable(inputs.get(name), from_outside=True, frame_name=name) for name in code.co_freevars}
        symbolic_locals = {name: var for name, var in inputs.items() if name not in code.co_freevars}
        # (a function called in the frame that shares one of these cells reads and writes this tracker of it)
        output.frame_cells = {id(real): cells[name] for name, real in zip(code.co_freevars, closure or ())
                              if name in cells}
        super().__init__(code, f_globals, output, symbolic_locals, cells, depth=0)

    def run(self):
        """Translate the frame; grad-mode and autocast blocks switch the real mode while inside them: restore it."""
        grad_enabled = minitorch2.is_grad_enabled()
        try:
            return super().run()
        finally:
            for region in reversed(self.output.open_regions):  # the translation stopped inside an autocast block
                _exit_autocast(region)
            _set_grad_enabled(grad_enabled)  # (after: leaving an inference_mode block restores the mode it began in)


class InliningInstructionTranslator(InstructionTranslatorBase):
    """Runs a called user function's bytecode inside the caller's translation (same OutputGraph)."""


class SuspendingGeneratorTranslator(SuspendingGeneratorMixin, InliningInstructionTranslator):
    """Runs a @contextmanager's generator from yield to yield (variables/stdlib.py)."""
