"""The fusion scheduler (plays torch._inductor.scheduler): realized IR buffers -> fused loop_ir kernels.

Backend layer, between lowering (`lowering.py`, which decided what is a buffer) and code generation
(`codegen/`, which runs a `loop_ir.Kernel`).

    1. nodes      every ComputedBuffer becomes a SchedulerNode: its body written once over loop variables
                  (x0.. for its outer ranges, r0.. for its reduction ranges), size-1 dimensions dropped;
                  extern calls stay as they are. Dead buffers are dropped.
    2. fuse       in graph order, each node joins an earlier kernel when (a) its ranges fit the kernel's
                  (equal outer ranges, or outer+reduction ranges for a pointwise epilogue that runs in the
                  kernel's inner loop), (b) it shares data with the kernel (reads what it writes: vertical;
                  reads what it reads: horizontal), and (c) every value it reads from the kernel is the
                  element written in the same iteration (no element crosses iterations, which may run on
                  other threads). Else a new kernel starts; every refusal is recorded with its reason.
    3. emit       each group becomes one Kernel: an outer Loop holding, in order, Reduce statements,
                  outer-level stores and inner Loops; a reduction's result read inside its own kernel
                  becomes the Reduce's temporary, and its store is dropped when nothing outside reads it.

The one idea to hold: fusion never changes what is computed, only where the loops are. A refused fusion costs
a round trip through memory, never a result.
"""
import enum
import itertools
from dataclasses import dataclass, field, replace

from minitorch2.utils import _pytree as pytree

from . import config, ir
from . import loop_ir as L
from .kernel_rewrites import store_expensive_reductions
from .lowering import TensorArg
from .simplify import simplify, simplify_value

# ---- rewriting loop_ir expressions --------------------------------------------------------


def canonical(index):
    """An order-independent key for comparing two index expressions."""
    return ("+",) + tuple(sorted(str(canonical(t)) for t in index.terms)) if isinstance(index, L.Add) else str(index)


# ---- scheduler nodes ----------------------------------------------------------------------


def _non_unit(size):
    return tuple(n for n in size if n != 1)


@dataclass
class SchedulerNode:
    buffer: ir.ComputedBuffer
    outer: tuple  # non-1 output ranges (a pointwise: all its ranges)
    reduction: tuple  # non-1 reduction ranges; () for a pointwise
    value: object  # loop_ir value over x0.. (outer) and r0.. (reduction)
    store_index: L.Index

    @property
    def name(self):
        return self.buffer.name

    @property
    def store_name(self):
        """The buffer its stores go to (a ConcatBuffer for the pieces of a cat)."""
        return self.buffer.storage_name

    @property
    def is_reduction(self):
        return isinstance(self.buffer.data, ir.Reduction)

    @property
    def is_scatter(self):
        return isinstance(self.buffer.data, ir.Scatter)

    def reads(self):
        """What it reads; a scatter also depends on the storage it scatters into (written before it)."""
        found = {load.buffer for load in L.loads(self.value, self.store_index)}
        return found | {self.store_name} if self.is_scatter else found

    @classmethod
    def create(cls, buffer):
        data = buffer.data
        idx = ir.symbolic_index(data.size, "x")
        if isinstance(data, ir.Reduction):
            value = data.inner_fn(idx, ir.symbolic_index(data.reduction_ranges, "r"))
            reduction = _non_unit(data.reduction_ranges)
        else:
            value, reduction = data.inner_fn(idx), ()
        return cls(buffer, _non_unit(data.size), reduction, value, buffer.store_index(idx))

    def placed(self, place):
        """(value, store index) written over the kernel's loop variables, simplified with their ranges."""
        def rename(var):
            return place.mapping.get(var.name, var)

        return (simplify_value(L.substitute(self.value, on_var=rename), place.extents),
                simplify(L.substitute(self.store_index, on_var=rename), place.extents))


def regroup(node_ranges, kernel_ranges, kernel_vars, prefix, boundary=None):
    """Express a node's loop variables over a kernel's when each of the node's ranges is a product of
    consecutive kernel ranges ((128, 32) over (8, 16, 32): x0 -> 16*x0 + x1, x1 -> x2); None if not, or
    if a node range would straddle `boundary` (the outer/reduction split of the kernel's loops)."""
    mapping, j = {}, 0
    for i, n in enumerate(node_ranges):
        expr, product, start = L.Const(0), 1, j
        while product != n and j < len(kernel_ranges):  # (not `<`: a size over symbols compares only by equality)
            expr = expr * kernel_ranges[j] + L.Var(kernel_vars[j])
            product *= kernel_ranges[j]
            j += 1
        if product != n or (boundary is not None and start < boundary < j):
            return None
        mapping[f"{prefix}{i}"] = expr
    return mapping if j == len(kernel_ranges) else None


class Level(enum.Enum):
    """The loop of a kernel a node's statement goes in."""
    REDUCE = "reduce"  # a reduction: a Reduce statement in the outer loop's body
    OUTER = "outer"  # a pointwise over the outer ranges: a store in the outer loop's body
    INNER = "inner"  # a pointwise over outer x reduction ranges: a store in an inner loop (an epilogue)


@dataclass
class Placement:
    """Where a node runs in a kernel: its level, its loop variables written over the kernel's (mapping:
    name -> Index), and the kernel's loop variables' ranges (extents: name -> int)."""
    level: Level
    mapping: dict
    extents: dict


def placement(node, outer, reduction):
    """The Placement of `node` in a kernel with loops outer x reduction, or None when its ranges do not fit."""
    xs, rs = _vars("x", outer), _vars("r", reduction or ())
    extents = dict(zip(xs + rs, tuple(outer) + tuple(reduction or ())))
    outer_map = regroup(node.outer, outer, xs, "x")
    if node.is_reduction:
        reduction_map = regroup(node.reduction, reduction, rs, "r") if reduction is not None else None
        if outer_map is None or reduction_map is None:
            return None
        return Placement(Level.REDUCE, {**outer_map, **reduction_map}, extents)
    if outer_map is not None:
        return Placement(Level.OUTER, outer_map, extents)
    inner_map = regroup(node.outer, outer + reduction, xs + rs, "x", boundary=len(outer)) if reduction else None
    return None if inner_map is None else Placement(Level.INNER, inner_map, extents)


@dataclass
class FusedGroup:
    nodes: list = field(default_factory=list)
    outer: tuple = None
    reduction: tuple = None  # None until a reduction joins
    dropped: list = field(default_factory=list)  # reductions read only inside the kernel, not stored (set by _emit)

    def writes(self):
        return {n.store_name for n in self.nodes}

    def reads(self):
        return set().union(*(n.reads() for n in self.nodes))

    def shapes_to_try(self, node):
        """Loop shapes the kernel could take with `node` in it: its own, a reduction's when the first
        reduction joins, or a finer pointwise shape that the kernel's nodes regroup into."""
        if node.is_reduction and self.reduction is None:
            return [(node.outer, node.reduction)]
        shapes = [(self.outer, self.reduction)]
        if self.reduction is None and not node.is_reduction and node.outer != self.outer:
            shapes.append((node.outer, None))
        return shapes

    def why_not(self, node):
        """(None, shape) if `node` may join (the kernel's loop shape then), else (reason, None)."""
        if len(self.nodes) >= config.max_fusion_size:
            return f"kernel already holds max_fusion_size={config.max_fusion_size} nodes", None
        if node.is_scatter or any(n.is_scatter for n in self.nodes):
            return "a scatter runs alone, on one thread (its iterations may write the same element)", None
        reason = None
        for outer, reduction in self.shapes_to_try(node):
            places = {n.name: placement(n, outer, reduction) for n in self.nodes + [node]}
            if None in places.values():
                reason = reason or (f"ranges: {node.outer} x {node.reduction} vs kernel {self.outer} x "
                                    f"{self.reduction or ()}")
                continue
            value, _ = node.placed(places[node.name])
            stores = {n.store_name: n.placed(places[n.name])[1] for n in self.nodes}
            shared = [n.store_name for n in self.nodes if n.store_name != n.name]
            for load in L.loads(value):
                if load.buffer in shared:
                    return f"reads {load.buffer}, a cat this kernel writes only part of", None
                if load.buffer in stores and canonical(load.index) != canonical(stores[load.buffer]):
                    return (f"reads {load.buffer}[{load.index}] but the kernel writes "
                            f"{load.buffer}[{stores[load.buffer]}]: an element from another iteration"), None
            return None, (outer, reduction)
        return reason, None

    def add(self, node, shape):
        self.outer, self.reduction = shape
        self.nodes.append(node)


@dataclass
class ExternStep:
    kernel: ir.Buffer  # an ExternKernel


@dataclass
class KernelStep:
    kernel: L.Kernel
    group: FusedGroup


# ---- the scheduler ------------------------------------------------------------------------


class Scheduler:
    """Schedules one lowered graph. After schedule(): `steps` (KernelStep / ExternStep in execution
    order), `refusals` (why each considered fusion did not happen), `layouts` (buffer name -> Layout)."""

    def __init__(self, graph):
        self.graph = graph
        self.layouts = {b.name: b.layout for b in graph.inputs + graph.buffers if b.layout is not None}
        self.output_names = {_buffer_name(o) for o in graph.outputs if isinstance(o, ir.IRNode)}
        self.refusals, self.steps, self._nodes = [], [], {}

    def node_for(self, buffer):
        """The SchedulerNode of a ComputedBuffer, built once (building evaluates its body)."""
        if buffer.name not in self._nodes:
            self._nodes[buffer.name] = SchedulerNode.create(buffer)
        return self._nodes[buffer.name]

    def schedule(self):
        live = self.live = self._live_buffers()
        order = []  # FusedGroup or ExternStep, in execution order
        for buffer in self.graph.buffers:
            if buffer.name not in live or isinstance(buffer, (ir.MultiOutput, ir.ConcatBuffer)):
                continue
            if isinstance(buffer, ir.ExternKernel):
                order.append(ExternStep(buffer))
                continue
            if ir.numel(buffer.layout.size) == 0:
                continue  # nothing to compute: the wrapper allocates it empty
            self._place(self.node_for(buffer), order)
        numbers = itertools.count()
        self.steps = [self._emit(item, f"kernel{next(numbers)}") if isinstance(item, FusedGroup) else item
                      for item in order]
        return self

    def _place(self, node, order):
        """Join the latest kernel that produces something `node` reads (vertical fusion); else the latest
        that reads what it reads (horizontal); else start a new kernel. Never move above a producer."""
        reads = node.reads()
        candidates = []
        for item in reversed(order):
            if isinstance(item, ExternStep):
                if reads & _extern_writes(item.kernel):
                    break
                continue
            if reads & item.writes():
                candidates.insert(0, item)
                break  # it must run after this kernel
            if reads & item.reads():
                candidates.append(item)
        for item in candidates:
            reason, shape = item.why_not(node)
            if reason is None:
                item.add(node, shape)
                return
            self.refusals.append(f"{node.name} not fused with [{', '.join(n.name for n in item.nodes)}]: {reason}")
        group = FusedGroup()
        group.add(node, (node.outer, node.reduction if node.is_reduction else None))
        order.append(group)

    def _live_buffers(self):
        needed = set(self.output_names)
        for buffer in reversed(self.graph.buffers):
            if isinstance(buffer, ir.ComputedBuffer) and buffer.storage_name in needed:
                needed.add(buffer.name)  # a piece of a cat that is needed
            outputs = buffer.outputs if isinstance(buffer, ir.ExternKernel) and buffer.layout is None else [buffer]
            if not outputs or any(o is not None and o.name in needed for o in outputs):  # (none: an assertion)
                needed.add(buffer.name)
                needed |= self._reads_of(buffer)
        return needed & {b.name for b in self.graph.buffers}

    def _reads_of(self, buffer):
        if isinstance(buffer, ir.ComputedBuffer):
            return self.node_for(buffer).reads()
        if isinstance(buffer, ir.ExternKernel):
            return {a.name for a in extern_tensor_args(buffer)}
        return {buffer.kernel.name} if isinstance(buffer, ir.MultiOutput) else set()

    # ---- emitting one kernel ----------------------------------------------------------------

    def _emit(self, group, name):
        outer, reduction = group.outer or (), group.reduction or ()
        readers_outside = self._readers_outside(group)
        body, temps, computed = [], {}, {}
        for node in group.nodes:
            place = placement(node, group.outer, group.reduction)
            value, store_index = node.placed(place)
            value = _use_temps(value, temps)
            if place.level is Level.REDUCE:
                key = (node.buffer.data.reduction_type, str(value))
                if key not in computed:  # the same reduction twice (var's mean and mean itself) runs once
                    computed[key] = L.Temp(f"tmp{len(computed)}", node.buffer.dtype)
                    body.append(L.Reduce(computed[key].name, key[0], _vars("r", reduction), reduction, value,
                                         node.buffer.dtype))
                temps[node.name] = (canonical(store_index), computed[key])
                if node.name in readers_outside:
                    body.append(L.Store(node.name, store_index, computed[key]))
            elif place.level is Level.OUTER:
                body.append(L.Store(node.store_name, store_index, value, node.buffer.data.mode if node.is_scatter
                                    else None))
            else:
                if not (body and isinstance(body[-1], L.Loop)):
                    body.append(L.Loop(_vars("r", reduction), reduction, []))
                body[-1].body.append(L.Store(node.store_name, store_index, value))
        body = store_expensive_reductions(body)
        loop = L.Loop(_vars("x", outer), outer, body) if outer else L.Loop(("x0",), (1,), body)
        group.dropped = [n.name for n in group.nodes if n.is_reduction and n.name not in readers_outside]
        kernel = self._bind_arguments(loop, name)
        kernel.serial = any(n.is_scatter for n in group.nodes)
        return KernelStep(kernel, group)

    def _readers_outside(self, group):
        """Buffers of the group that something outside it reads (or that are graph outputs)."""
        inside = group.writes()
        needed = inside & self.output_names
        for buffer in self.graph.buffers:
            if buffer.name not in inside and buffer.name in self.live:
                needed |= inside & self._reads_of(buffer)
        reductions = {n.name for n in group.nodes if n.is_reduction}
        return needed | (inside - reductions)  # pointwise buffers are always stored

    def _bind_arguments(self, loop, name):
        """Name the kernel's pointers (in_ptr0, out_ptr0, in_out_ptr0...) after what it does with each."""
        loaded, stored, order = set(), set(), []
        for stmt in L.statements(loop):
            for load in L.statement_loads(stmt):
                loaded.add(load.buffer)
                order.append(load.buffer)
            if isinstance(stmt, L.Store):
                stored.add(stmt.buffer)
                order.append(stmt.buffer)
                if stmt.mode == "add":  # read-modify-write
                    loaded.add(stmt.buffer)
        names, args = {}, []
        prefix = {"in": "in_ptr", "out": "out_ptr", "inout": "in_out_ptr"}
        for buffer in dict.fromkeys(order):
            role = "inout" if buffer in loaded and buffer in stored else ("out" if buffer in stored else "in")
            names[buffer] = f"{prefix[role]}{sum(arg.role == role for arg in args)}"
            layout = self.layouts[buffer]
            args.append(L.KernelArg(names[buffer], buffer, layout.dtype, layout.storage_numel(), role))
        loop = _rename_buffers(loop, names)
        return L.Kernel(name, args, loop, sizes=L.size_symbols(loop))

    # ---- reports ----------------------------------------------------------------------------

    def kernels(self):
        return [s.kernel for s in self.steps if isinstance(s, KernelStep)]

def _vars(prefix, ranges):
    return tuple(f"{prefix}{i}" for i in range(len(ranges)))


def _use_temps(value, temps):
    def leaf(node):
        if isinstance(node, L.Load) and node.buffer in temps and temps[node.buffer][0] == canonical(node.index):
            return temps[node.buffer][1]
        return node

    return L.substitute(value, on_leaf=leaf)


def _rename_buffers(loop, names):
    def leaf(node):
        return L.Load(names[node.buffer], node.index, node.dtype) if isinstance(node, L.Load) else node

    def statement(stmt):
        if isinstance(stmt, L.Loop):
            return _rename_buffers(stmt, names)
        if isinstance(stmt, L.Store):
            return L.Store(names[stmt.buffer], L.substitute(stmt.index, on_leaf=leaf),
                           L.substitute(stmt.value, on_leaf=leaf), stmt.mode)
        return replace(stmt, value=L.substitute(stmt.value, on_leaf=leaf))

    return L.Loop(loop.vars, loop.ranges, [statement(stmt) for stmt in loop.body])


def extern_tensor_args(kernel):
    """The TensorArgs of an extern call, in argument order (keyword arguments last)."""
    return [arg for arg in pytree.tree_leaves([kernel.args, kernel.kwargs]) if isinstance(arg, TensorArg)]


def _extern_writes(kernel):
    return {kernel.name} | {o.name for o in kernel.outputs if o is not None}


def _buffer_name(node):
    located = ir.affine_layout(node)
    return located[0] if located else node.realize().name
