"""tensorify_python_scalars: a traced graph's Python floats computed as tensors (torch's pass of that name).

autograd layer, run on the inference or joint graph before partitioning, after logging it, as PyTorch's aot runs it. A frontend graph
passes floats symbolically (SymFloats): a dynamic float argument read with `.item()` (here `_local_scalar_dense`),
math on sizes (`torch._sym_sqrt(s27)`). Where a tensor op takes one, the float's expression is computed as 0-d
float64 tensors, converted to the op's computation dtype, and the op takes its all-tensor form:

    add = aten.add.Tensor(norm, _local_scalar_dense)   ->   convert_element_type_default = convert(arg1_1, f64)
                                                            convert_element_type_default_1 = convert(.., f32)
                                                            add_tensor = aten.add.Tensor(norm, convert_.._1)

so the compilers see only tensors. An expression with no tensor form (a size divided by an int) stays as it was. A
frontend float input (its fake's `item_memo`) that an op still takes as a number (layer_norm's eps) or that none takes
raises SpecializeFloatInputs (their positions): the frontend translates again with them constants (Dynamo's restart).
"""
import functools

import sympy

import minitorch2
from minitorch2._subclasses.fake_tensor import FakeTensorMode
from minitorch2._sym import MATH_OP_NAMES, SymFloat, is_symbolic
from minitorch2.fx.experimental.symbolic_shapes import FloatTrueDiv, SpecializeFloatInputs, ToFloat
from minitorch2.utils import _pytree as pytree

aten, prims, f32, f64 = minitorch2.ops.aten, minitorch2.ops.prims, minitorch2.float32, minitorch2.float64
# a tensor op taking a float -> its form taking a tensor there (a returned float's scalar_tensor: that tensor)
TENSOR_FORMS = {aten.scalar_tensor.default: None, aten.pow.Tensor_Tensor: aten.pow.Tensor_Tensor,
                **{getattr(aten, n).Tensor: getattr(aten, n).Tensor for n in ("add", "sub", "mul", "div")},
                **{getattr(aten, n).Scalar: getattr(aten, n).Tensor for n in ("eq", "ne", "lt", "le", "gt", "ge")}}
# the dtype an op computes in, where not its result's (a comparison's floats: float64)
_COMPUTATION_DTYPE = {minitorch2.float16: f32, minitorch2.bfloat16: f32, minitorch2.bool: f64}


class _Tensorifier:
    def __init__(self, graph):
        self.graph = graph
        self.sym_nodes, self.tensors = {}, {}  # expression -> the node computing it as a number / as a tensor
        self.tensorified = set()  # the float symbols some op now takes as tensors

    def call(self, target, *args, **kwargs):
        node = self.graph.call_function(target, args, kwargs)
        with FakeTensorMode():
            node.meta["val"] = target(*pytree.tree_map(lambda a: getattr(a, "meta", {}).get("val", a), args), **kwargs)
        return node

    def convert(self, node, dtype):
        return node if node.meta["val"].dtype is dtype else self.call(prims.convert_element_type.default, node, dtype)

    def tensor_of(self, expr):
        """The node computing expr as a 0-d tensor: a symbol from its number, constants, float(), +, *, / in f64,
        math's kin."""
        if expr not in self.tensors:
            numerator, denominator = expr.as_numer_denom() if expr.is_Mul else (expr, 1)
            name = "sqrt" if expr.is_Pow and expr.exp == sympy.Rational(1, 2) else type(expr).__name__
            if expr.is_Symbol:
                self.tensors[expr] = self.call(aten.scalar_tensor.default, self.sym_nodes[expr])
            elif isinstance(expr, (ToFloat, FloatTrueDiv)):
                operands = [self.convert(self.tensor_of(a), f64) for a in expr.args]
                self.tensors[expr] = operands[0] if len(operands) == 1 else self.call(aten.true_divide.Tensor, *operands)
            elif expr.is_Integer or expr.is_Float:
                number, dtype = (int(expr), minitorch2.int64) if expr.is_Integer else (float(expr), f64)
                self.tensors[expr] = self.call(aten.scalar_tensor.default, number, dtype=dtype)
            elif denominator != 1 or name in MATH_OP_NAMES:
                parts = (numerator, denominator) if denominator != 1 else expr.args[:1]
                int_division = numerator.is_integer and denominator.is_integer
                operands = [self.tensor_of(p) if int_division else self.convert(self.tensor_of(p), f64) for p in parts]
                target = aten.true_divide.Tensor if denominator != 1 else getattr(aten, name).default
                if not int_division:  # (IntTrueDiv: torch's pass leaves it, having made its operands)
                    self.tensors[expr] = self.call(target, *operands)
            elif expr.is_Add or expr.is_Mul:
                binary, operands = aten.add.Tensor if expr.is_Add else aten.mul.Tensor, map(self.tensor_of, expr.args)
                self.tensors[expr] = functools.reduce(lambda a, b: self.call(binary, a, b), list(operands))
        if expr not in self.tensors:  # (a size divided by an int or a size, a power other than sqrt)
            raise NotImplementedError(f"no tensor form for {expr}")
        return self.tensors[expr]

    def replace(self, node, dtype):
        """node in its all-tensor form, each float argument a tensor of dtype, the one node computes in."""
        try:
            args = [self.convert(self.convert(self.tensor_of(v.node.shape_env.simplify(v.node.expr)), f64), dtype)
                    if isinstance(v := getattr(a, "meta", {}).get("val"), SymFloat) else a for a in node.args]
        except NotImplementedError:
            return
        if args != list(node.args):
            self.tensorified.update(*(a.meta["val"].node.expr.free_symbols for a, b in zip(node.args, args) if a is not b))
            form = TENSOR_FORMS[node.target]
            replacement = args[0] if form is None else self.call(form, *args, **node.kwargs)
            node.replace_all_uses_with(self.convert(replacement, node.meta["val"].dtype))
            self.graph.erase_node(node)


def tensorify_python_scalars(gm):
    graph, t = gm.graph, _Tensorifier(gm.graph)
    nodes = list(graph.nodes)
    first_op = next(n for n in nodes if n.op != "placeholder")
    for node, after in zip(nodes, nodes[1:]):
        with graph.inserting_before(first_op if node.op == "placeholder" else after):
            value = node.meta.get("val")
            if node.target is aten._local_scalar_dense.default and node.args[0].meta["val"].is_floating_point():
                source = node.args[0]
                if source.meta["val"].dim():
                    source = t.call(aten.reshape.default, source, [])
                if is_symbolic(value):  # (a number where the frontend pinned it)
                    t.tensors[value.node.expr] = t.call(prims.convert_element_type.default, source, f64)  # (f64's too)
            if is_symbolic(value):
                t.sym_nodes.setdefault(value.node.shape_env.simplify(value.node.expr), node)
            if node.target in TENSOR_FORMS and hasattr(value, "dtype"):
                t.replace(node, _COMPUTATION_DTYPE.get(value.dtype, value.dtype))
    if graph.eliminate_dead_code():  # (the reads and math the tensor forms replaced)
        gm.recompile()
    memos = [getattr(n.meta.get("val"), "item_memo", None) for n in nodes if n.op == "placeholder"]
    untensorified = [i for i, memo in enumerate(memos) if memo is not None and memo.node.expr not in t.tensorified]
    if untensorified:
        raise SpecializeFloatInputs(untensorified, "float inputs no op takes as tensors: specialize them")
