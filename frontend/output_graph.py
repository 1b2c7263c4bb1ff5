"""OutputGraph: the FX graph a translation builds, its inputs, guards and outputs (plays Dynamo's OutputGraph).

Frontend layer, owned by the InstructionTranslator and shared with every inlined call:

    graph inputs   one placeholder per tensor the frame reads, parameters too, named from its Source
    nodes          torch-level calls (`torch.relu(l_x_)`, `relu.sum()`), meta["example_value"] a fake tensor
    output         a tuple of the tensors the frame returns; guards, a GuardSet (guards.py)
    side effects   outside lists and dicts it changed, globals and module attributes it wrote: replayed in order
                   after the graph (`write_back(L['xs'], [...])`) or before the breaking instruction of a split frame

The one idea to hold: the backend gets a GraphModule and the REAL example inputs, and returns a callable; the cache
entry later fetches the same inputs from the live frame by their sources and calls it.
"""
import collections
import operator

import minitorch2
from minitorch2 import fx
from minitorch2._memory_overlap import overlap_groups
from minitorch2._sym import SymInt, is_symbolic
from minitorch2._subclasses.fake_tensor import FakeTensorMode
from minitorch2._subclasses.strided_symbols import symbols_to_lift
from minitorch2.fx.experimental._constraint_messages import constrain_marked
from minitorch2.fx.experimental.symbolic_shapes import ShapeEnv

from . import dynamic_shapes, guards as guards_mod
from .exc import Unsupported
from .size_nodes import reuse_and_rebuild_sizes
from .source import FloatTensorSource, GetItemSource, TensorSizeSource
from .stack_trace import StackTraceRecorder
from .variables import BaseListVariable, ConstantVariable, TensorVariable, dynamo_forms, requires_grad_leaks, wrap
from .variables.ctx_manager import _set_grad_enabled
from .variables.hop_size_symbols import passed_to_a_body
from .variables.lists import SizeVariable
from .variables.sym_node import SliceVariable, SymNodeVariable
from .variables.user_defined import is_plain_object


def _is_static_input(source, value):
    """Dynamo's static inputs: nn.Parameters, and tensors a module holds as a parameter or buffer."""
    return isinstance(value, minitorch2.nn.Parameter) or (
        isinstance(source, GetItemSource) and source.is_parameter_or_buffer())


GraphInput = collections.namedtuple("GraphInput", "source value node")


def write_back(target, contents):
    """A list, deque, dict or set from outside the frame takes the contents the frame left it (a replayed change)."""
    target.clear()
    (target.update if isinstance(target, (dict, set)) else target.extend)(contents)


class OutputGraph:
    def __init__(self, code=None):
        self.code = code  # the code object translated: automatic dynamic shapes remember its inputs' sizes
        self.graph = fx.Graph()
        self._appender = fx.proxy.GraphAppendingTracer(self.graph, record_torch_functions=False)
        self.shape_env = ShapeEnv()
        self.pinned_in_tensor_guards = set()  # the symbols pinned when the graph closed: their tensor guards check them
        self.marked_sizes = {}  # source of a dim mark_dynamic marked -> its symbol (it must stay one)
        self.fake_mode = FakeTensorMode(shape_env=self.shape_env)
        self.size_vars = {}  # symbol -> the SymNodeVariable of its graph input (`s77`)
        self.inputs_loaded = False  # a split frame's code loads the inputs (resume.py): none may be dropped since
        self.tensor_guards = []  # (a size pinned to one value while tracing is checked there, in the end)
        self.guards = guards_mod.GuardSet()
        self.grad_enabled_at_entry = minitorch2.is_grad_enabled()
        # a grad-mode switch pair record_grad_switch cancelled; Dynamo's compile_subgraph fast path (a lone tensor
        # returned, no side effects: it is the graph's output even if an input, so an empty graph still compiles)
        self.switches_dropped, self.common_case, self.reloading_inputs = False, True, False
        self.guards.add(guards_mod.global_state_guard(guards_mod.global_state()))  # grad mode, autocast, dtype
        self.inputs, self.outputs = [], []
        self._input_vars = {}  # source name -> tracker
        self._input_by_id = {}  # id(tensor) -> tracker: a tensor reached again by another source
        self._containers = {}  # id(list or dict) -> (it, its tracker): read again, it shows the frame's changes
        self.mutated = []  # side effects: lists from outside the frame whose contents changed, in order
        self.stored_globals = {}  # side effects: global name -> tracker written by the frame
        self.stored_attrs = {}  # side effects: (module source, attribute) -> (module tracker, value tracker)
        self.subgraph_root = minitorch2.nn.Module()  # higher-order ops' bodies (`fwd_body_0`), the graph's attributes
        self.stored_cells = {}  # side effects: name of a cell of the frame (or its closure) -> its CellVariable
        self.run_memo, self._planned = {}, []  # id(tracker) -> the object its plan made in this run (see `once`)
        self.frame_cells = {}  # id(a cell of the frame's closure, or of a function it calls) -> its CellVariable
        self.open_regions = []  # autocast regions the translation entered and has not left (variables/autocast.py)
        minitorch2._logging.unique_id("__builtins_dict__")  # Dynamo installs one per attempt: names count it
        self.stack_traces = StackTraceRecorder()
        self.tracers = self.stack_traces.tracers  # the translators running now, the compiled frame first

    # ---- inputs -----------------------------------------------------------------------

    def wrap(self, value, source):
        """The tracker of a value from outside the frame (builder.py); a list, dict, set or user object read again is
        the same tracker."""
        if type(value) not in (list, dict, set) and (source is None or not is_plain_object(value) or callable(value)):
            return wrap(self, value, source)
        seen = self._containers.get(id(value))
        if seen is None:
            seen = self._containers[id(value)] = (value, wrap(self, value, source))
        elif source is not None and seen[1].source is not None and source.name() != seen[1].source.name():
            self.guards.add(guards_mod.duplicate_input_guard(source, seen[1].source))
        return seen[1]

    def add_graph_input(self, source, value):
        key = source.name()
        if key in self._input_vars:
            return self._input_vars[key]
        first = self._input_by_id.get(id(value))
        if first is not None:  # one tensor reached by two sources: one graph input, the sameness guarded
            self.guards.add(guards_mod.duplicate_input_guard(source, first.source))
            self._input_vars[key] = first
            return first
        type_expr = minitorch2.nn.Parameter if isinstance(value, minitorch2.nn.Parameter) else minitorch2.Tensor
        dims = {} if _is_static_input(source, value) else dynamic_shapes.dynamic_dims(self.code, key, value)
        fake = self.fake_mode.from_tensor(value, source=key, dynamic_dims=dims)
        for d, (low, high) in value.__dict__.get("_dynamo_dynamic_range", {}).items():  # mark_dynamic's dims
            constrain_marked(self.shape_env, self.marked_sizes, f"{key}.size()[{d}]", fake.shape[d], low, high)
        self.shape_env.input_strides.append((key, fake.stride()))
        self.tensor_guards.append(guards_mod.tensor_guard(source, value, fake))
        self.guards.add(self.tensor_guards[-1])
        for dim, prop, n, name in symbols_to_lift(fake, self.size_vars):  # its new symbols first, as inputs
            number_source = TensorSizeSource(source, dim, prop)
            number_node = self._add_input(number_source, n, SymInt, name)
            self.size_vars[n.node.expr] = SymNodeVariable(fx.Proxy(number_node, self._appender), n, number_source)
        node = self._add_input(source, value, type_expr)
        node.meta["example_value"] = fake
        if _is_static_input(source, value):  # parameters and buffers live anyway: AOT's partitioner saves them free
            node.meta["tensor_dict"] = {"_dynamo_static_input_type": "unguarded"}
        var = TensorVariable(fx.Proxy(node, self._appender), fake, type_expr, source)
        self._input_vars[key] = var
        self._input_by_id[id(value)] = var  # (the value lives in self.inputs: its id stays its own)
        return var

    def add_int_input(self, source, value):
        """An int argument as a SymInt graph input (`L_n_: torch.SymInt`)."""
        symint = self.shape_env.create_symbol(value, source.name(), size=False)
        self.guards.add(guards_mod.type_guard(source, value))
        node = self._add_input(source, symint, SymInt)
        self.size_vars[symint.node.expr] = SymNodeVariable(fx.Proxy(node, self._appender), symint, source)
        return self.size_vars[symint.node.expr]

    def add_float_input(self, source, value):
        """A dynamic float argument (Dynamo's automatic dynamic floats): the graph takes it as a 0-d float64 tensor
        (`L_eps_`) and reads it with `.item()`, a SymFloat; guarded to stay a float, and not NaN; read again, the same.
        None (a constant) once AOT could not take it as a tensor: its symbol pinned, guarded `L['eps'] == 0.5`."""
        if source.name() in self._input_vars:
            return self._input_vars[source.name()]
        if dynamic_shapes.is_pinned_float(self.code, source.name()):
            self.shape_env.create_float_symbol(value, source.name()).node.guard_float()
            self.graph._graph_namespace.create_name("item", None)  # (Dynamo's graph made its .item() node, then
            self._input_vars[source.name()] = None                    # pinned it: the name is taken)
            return None
        self.guards.add(guards_mod.type_guard(source, value))
        tensor = minitorch2.tensor(value, dtype=minitorch2.float64)
        symfloat = tensor.item_memo = self.shape_env.create_float_symbol(value, source.name())  # (for AOT's tensorify)
        node = self._add_input(FloatTensorSource(source), tensor, minitorch2.Tensor)
        node.meta["example_value"] = self.fake_mode.from_tensor(tensor)
        proxy = self.create_proxy("call_method", "item", (node,), {}, symfloat, speculative=True)  # (unused: goes)
        self._input_vars[source.name()] = var = SymNodeVariable(proxy, symfloat, source)
        return var

    def _add_input(self, source, value, type_expr, name=None):
        """A placeholder after the last one (else before the first node), and its GraphInput."""
        where = self.graph.inserting_after(self.inputs[-1].node) if self.inputs else \
            self.graph.inserting_before(next(iter(self.graph.nodes), None))
        name, taken = name or source.placeholder_name(), {inp.node.target for inp in self.inputs}
        name = next(n for n in (name, *(f"{name}_{i}" for i in range(len(taken)))) if n not in taken)  # as Dynamo's:
        with where:  # (`a-b` and `a'b` spell one name, the second is numbered)
            node = self.graph.placeholder(name, type_expr=type_expr)
        node.meta["example_value"] = value
        self.stack_traces.record(node)  # where the input was first used, as Dynamo records it
        self.inputs.append(GraphInput(source, value, node))
        return node

    def _drop_input(self, node):
        self.inputs = [inp for inp in self.inputs if inp.node is not node]
        self.size_vars = {symbol: var for symbol, var in self.size_vars.items() if var.proxy.node is not node}
        self.graph.erase_node(node)

    def drop_unused_inputs(self):
        """As Dynamo's last pass: a tensor input no node uses (the frame read only its sizes) is no graph input (its
        guards stay); then nor is a size or int input no node uses, unless its symbol is in a kept tensor input's
        sizes or strides (that tensor binds it when the graph runs)."""
        for inp in [i for i in self.inputs if not i.node.users and not is_symbolic(i.value)]:
            self._drop_input(inp.node)
        fakes = [inp.node.meta["example_value"] for inp in self.inputs if isinstance(inp.value, minitorch2.Tensor)]
        held = {symbol for fake in fakes for n in (*fake.shape, *fake.stride(), fake._offset) if is_symbolic(n)
                for symbol in self.shape_env.simplify(n.node.expr).free_symbols}
        for inp in [i for i in self.inputs if not i.node.users and is_symbolic(i.value)]:
            if self.shape_env.simplify(inp.value.node.expr) not in held:
                self._drop_input(inp.node)
            held.discard(self.shape_env.simplify(inp.value.node.expr))  # (one input binds symbols found equal)

    def size_variable(self, tensor_var, dim, read=None, read_alone=False):
        """`x.shape[dim]`: a constant, or the speculative node that read a symbolic size (`read`, a getitem of `size =
        l_x_.size()`; read alone, `size = l_x_.size(dim)`; else `sym_size.int`), which size_nodes.py makes `s77`
        where it is that input's symbol. (Read alone: so a frame that only reads sizes compiles, as Dynamo's.)"""
        size = tensor_var.example_value.shape[dim]
        if not is_symbolic(size):
            return ConstantVariable(size)
        if read_alone:
            read = self.create_proxy("call_method", "size", (tensor_var.proxy.node, dim), {}, size, speculative=True)
        expr = self.shape_env.simplify(size.node.expr)
        # (a body's sizes: read as it binds them now; an intermediate's pinned one: its value, a made tensor's size
        # in torch being an int once its symbol is a number)
        if read is None or getattr(self.graph, "in_a_body", False) or expr.is_Integer and tensor_var.source is None:
            if expr.is_Integer:
                return ConstantVariable(int(expr))
            if expr in self.size_vars:
                return self.size_vars[expr]
            if read is None:
                read = self.create_proxy("call_function", minitorch2.ops.aten.sym_size.int,
                                         (tensor_var.proxy.node, dim), {}, size, speculative=True)
        return SymNodeVariable(read, size, getattr(self.size_vars.get(expr), "source", None))

    # ---- nodes ------------------------------------------------------------------------

    def create_proxy(self, kind, target, args, kwargs, example_value, speculative=False):
        """A node; a `speculative` one (a size read, a comparison that only decided a branch) is removed at the
        end if nothing uses it, as Dynamo's dead-code pass removes those."""
        node = self.graph.create_node(kind, target, tuple(args), dict(kwargs))
        node.meta["example_value"] = example_value
        if speculative:
            node.meta["frontend_speculative"] = True
        self.stack_traces.record(node)
        return fx.Proxy(node, self._appender)

    def create_node(self, kind, target, args, kwargs):
        """A node with no source location, as Dynamo's grad-mode switches ("No stacktrace found")."""
        node = self.graph.create_node(kind, target, tuple(args), dict(kwargs))
        node.meta["example_value"] = None
        return node

    def as_arg(self, var, fake=False):
        """var as an argument of a node (a tensor or size: its node) or, `fake`, of its fake run (its example value)."""
        var = var.realize()
        if isinstance(var, TensorVariable):
            return var.example_value if fake else var.proxy.node
        if isinstance(var, SymNodeVariable):
            return var.value if fake else var.proxy.node
        if isinstance(var, SliceVariable):
            return slice(*[self.as_arg(p, fake) for p in var.parts])
        if isinstance(var, SizeVariable) and not fake and any(isinstance(v, SymNodeVariable) for v in var.items):
            return self._size_node(var)
        if isinstance(var, BaseListVariable):
            items = [self.as_arg(v, fake) for v in var.items]
            return items if var.python_cls is list else tuple(items)
        if var.is_python_constant():
            return var.as_python_constant()
        raise Unsupported(f"passing {var} to a graph operation", "unsupported_call")

    def _size_node(self, var):
        """A torch.Size of symbolic sizes as an op's argument, as Dynamo's: the `size = l_x_.size()` node it was
        read as, or else (sliced, concatenated) one built for it, `size_1 = torch.Size([s27])`."""
        if var.proxy is None:
            var.proxy = self.create_proxy("call_function", minitorch2.Size, ([self.as_arg(v) for v in var.items],), {},
                                          minitorch2.Size([self.as_arg(v, fake=True) for v in var.items]))
        return var.proxy.node

    # ---- outputs ----------------------------------------------------------------------

    def add_output(self, tensor_var):
        if tensor_var.proxy.node not in [v.proxy.node for v in self.outputs]:
            self.outputs.append(tensor_var)
        return [v.proxy.node for v in self.outputs].index(tensor_var.proxy.node)

    # ---- side effects -------------------------------------------------------------------

    def note_mutation(self, var):
        """A list or dict from outside the frame changed; its final contents are written back after the graph."""
        if all(m is not var for m in self.mutated):
            self.mutated.append(var)

    def once(self, var, make):
        """var's output plan `make`, run once per run of the frame: a list or object made in the frame and held in
        two places (returned, and stored on a global) is one object after the graph too."""
        memo, key = self.run_memo, id(var)
        self._planned.append(var)  # (alive while plans are made, so no other tracker gets its id)
        return lambda outs, L, G: memo[key] if key in memo else memo.setdefault(key, make(outs, L, G))

    def side_effect_plan(self):
        """(outs, L, G) -> None: write the tracked contents back into each mutated outside list or dict."""
        self.reloading_inputs = True  # (a tensor input they store is read from the frame again, as Dynamo's)
        plans = [(var.source, type(var)(var.items).output_plan(self)) for var in self.mutated]  # (a copy made here)
        global_plans = {name: var.realize().output_plan(self) for name, var in self.stored_globals.items()}
        attr_plans = [(source, name, value.realize().output_plan(self))
                      for (source, name), (_, value) in self.stored_attrs.items()]
        cell_plans = {name: cell.contents.realize().output_plan(self) for name, cell in self.stored_cells.items()
                      if cell.from_outside}  # (the frame's own cells end with it)
        self.reloading_inputs = False

        def replay(outs, L, G, fn):
            for source, contents in plans:
                write_back(source.fetch(L, G), contents(outs, L, G))
            for name, plan in global_plans.items():
                G[name] = plan(outs, L, G)
            for source, name, plan in attr_plans:
                setattr(source.fetch(L, G), name, plan(outs, L, G))
            for name, plan in cell_plans.items():
                fn.__closure__[fn.__code__.co_freevars.index(name)].cell_contents = plan(outs, L, G)

        return replay

    def reconstruct_side_effects(self, cg):
        """The same replay as instructions (`write_back(L['xs'], [...])`), for a frame cut by a graph break."""
        for var in self.mutated:
            cg.call_const(write_back, [var, type(var)(var.items)])
            cg.append("POP_TOP")
        for name, var in self.stored_globals.items():
            cg.reconstruct(var)
            cg.append("STORE_GLOBAL", name)
        for (source, name), (_, value) in self.stored_attrs.items():
            cg.reconstruct(value)
            cg.load_source(source)
            cg.append("STORE_ATTR", name)
        for name, cell in self.stored_cells.items():
            cg.reconstruct(cell.contents)
            cg.append("STORE_DEREF", cg.cell_ref(name))

    def op_count(self):
        return sum(1 for n in self.graph.nodes if n.op.startswith("call"))

    def finish(self, return_var):
        """Close the graph; returns (GraphModule, plan) where plan rebuilds the frame's return value."""
        requires_grad_leaks.check_outputs(self, return_var)  # (Dynamo's break at an intermediate's requires_grad_())
        result_plan = return_var.realize().output_plan(self)
        replay = self.side_effect_plan() if self.mutated or self.stored_globals or self.stored_attrs or \
            self.stored_cells else None
        self.common_case = replay is None and isinstance(return_var.realize(), TensorVariable)
        switches = [n.args[0] for n in self.graph.nodes if n.op == "call_function" and n.target is _set_grad_enabled]
        final_mode = bool(switches[-1]) if switches else self.grad_enabled_at_entry  # the mode the graph leaves
        leaves_grad_mode = final_mode != self.grad_enabled_at_entry
        memo = self.run_memo

        def plan(outs, L, G, fn):
            memo.clear()  # (a run that raised may have left objects)
            result = result_plan(outs, L, G)  # read before the replay changes what sources point at
            if replay is not None:
                replay(outs, L, G, fn)
            memo.clear()
            if leaves_grad_mode:  # `torch.set_grad_enabled(False)` left in force, even if a backend traced it away
                minitorch2.autograd.grad_mode.state.grad_enabled = final_mode
            return result

        return self.close(), plan

    def _install_aliasing_guards(self):
        """Guard, as Dynamo, that tensor inputs are distinct and, if one changes in place, which share memory."""
        tensors = [inp for inp in self.inputs if isinstance(inp.value, minitorch2.Tensor) and not isinstance(
            inp.source, FloatTensorSource)]  # (a float's tensor is made anew at each call)
        if len(tensors) < 2:
            return
        sources = [inp.source for inp in tensors]
        self.guards.add(guards_mod.no_aliasing_guard(sources))
        if any(inp.node.meta["example_value"]._version for inp in tensors):  # (fakes start at version 0)
            groups = overlap_groups([inp.value for inp in tensors])
            self.guards.add(guards_mod.overlap_guard(sources, groups))

    def specialize_pinned_sizes(self):
        """The size inputs as the guards recorded while tracing left them: a symbol pinned to one value (`if
        x.shape[0] == 8`) is that int in the graph and in its tensor's guard; one found equal to another symbol
        (`x.size(1) == mask.size(1)`) is that symbol's first input. Neither stays a graph input, but in a split
        frame, whose code loads every input already."""
        for i, guard in enumerate(self.tensor_guards):
            self.tensor_guards[i] = guards_mod.tensor_guard(*guard.of, shape_env=self.shape_env)  # pinned: an int
            self.guards.replace(guard, self.tensor_guards[i])
        first_input = {}  # symbol -> the first placeholder standing for it
        for symbol, var in list(self.size_vars.items()):
            value, node = self.shape_env.simplify(symbol), var.proxy.node
            if not value.is_Integer and (value not in first_input or passed_to_a_body(node)):
                first_input.setdefault(value, node)
                continue
            node.replace_all_uses_with(int(value) if value.is_Integer else first_input[value])
            if not self.inputs_loaded:
                self._drop_input(node)

    def install_shape_guards(self):
        """The ShapeEnv's guards as the frame's SHAPE_ENV guards; again once the backend returns, so that what the
        AOT trace decided on sizes (`4 <= L['x'].size()[0]` for a view(-1, 2) kept out of size 1) joins them."""
        for guard in [g for g in self.guards.guards.values() if g.kind == "SHAPE_ENV"]:
            self.guards.replace(guard, None)
        codes = self.shape_env.produce_guards(checked_elsewhere=self.pinned_in_tensor_guards)
        for code in dict.fromkeys(codes):
            guard = guards_mod.Guard("SHAPE_ENV", code, code)
            guard.code_list = [code] * codes.count(code)  # (Dynamo lists twice what it derives twice: a pinned float)
            self.guards.add(guard)

    def close(self):
        """Output the registered tensors and close the graph; dead nodes stay, as in Dynamo's, but unused getitems."""
        self.graph.output(tuple(v.proxy.node for v in self.outputs))
        self._install_aliasing_guards()
        self.specialize_pinned_sizes()
        self.pinned_in_tensor_guards = set(self.shape_env.replacements)
        self.install_shape_guards()
        self.calls_traced = self.op_count()  # Dynamo decides whether to compile before its dead-code pass
        reuse_and_rebuild_sizes(self.graph, self.shape_env)
        for node in reversed(list(self.graph.nodes)):
            if (node.meta.get("frontend_speculative") or node.target is operator.getitem) and not node.users:
                self.graph.erase_node(node)
        dynamo_forms.drop_undone_grad_switches(self.graph, self.grad_enabled_at_entry)
        if not self.inputs_loaded:
            self.drop_unused_inputs()
        gm = fx.GraphModule(self.subgraph_root, self.graph)
        gm.meta["dynamo_compile_id"] = minitorch2._logging.current_compile_id()  # AOT: a frontend graph
        return gm
