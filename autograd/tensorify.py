"""tensorify_python_scalars: a traced graph's Python floats computed as tensors (torch's pass of that name).

autograd layer, run on the inference or joint graph before partitioning, as PyTorch's aot runs it. A frontend graph
can pass a float along symbolically (a SymFloat): a dynamic float argument read with `.item()` (traced here as
`_local_scalar_dense`), or math on sizes (`torch._sym_sqrt(s27)`). Where a tensor op takes one, the float's
expression is computed as 0-d float64 tensors instead, converted to the op's computation dtype, and the op becomes
its all-tensor form; the scalar nodes then die:

    _local_scalar_dense = aten._local_scalar_dense(arg1_1)      convert_element_type_default = convert(arg1_1, f64)
    add = aten.add.Tensor(norm, _local_scalar_dense)       ->   convert_element_type_default_1 = convert(.., f32)
                                                                add_tensor = aten.add.Tensor(norm, convert_.._1)

so the compilers see only tensors. An expression it cannot compute so (a size divided by an int) stays as it was.
"""
import sympy

import minitorch2
from minitorch2._subclasses.fake_tensor import FakeTensorMode
from minitorch2._sym import MATH_OP_NAMES, SymFloat, is_symbolic
from minitorch2.utils import _pytree as pytree

aten, prims = minitorch2.ops.aten, minitorch2.ops.prims
# a tensor op taking a float -> its form taking a tensor there (a returned float's scalar_tensor: that tensor)
TENSOR_FORMS = {aten.scalar_tensor.default: None, **{getattr(aten, n).Tensor: getattr(aten, n).Tensor for n in ("add", "sub", "mul", "div")},
                **{getattr(aten, n).Scalar: getattr(aten, n).Tensor for n in ("eq", "ne", "lt", "le", "gt", "ge")},
                aten.pow.Tensor_Tensor: aten.pow.Tensor_Tensor}
_COMPUTATION_DTYPE = {minitorch2.float16: minitorch2.float32, minitorch2.bfloat16: minitorch2.float32}


def tensorify_python_scalars(gm):
    graph = gm.graph
    sym_nodes, tensors = {}, {}  # expression -> the node computing it as a number / as a tensor

    def call(target, *args, **kwargs):
        node = graph.call_function(target, args, kwargs)
        with FakeTensorMode():
            node.meta["val"] = target(*pytree.tree_map(lambda a: a.meta["val"] if hasattr(a, "meta") else a, args),
                                      **kwargs)
        return node

    def float64(node):
        return node if node.meta["val"].dtype is minitorch2.float64 else call(prims.convert_element_type.default,
                                                                              node, minitorch2.float64)

    def tensor_of(expr):
        if expr not in tensors:
            tensors[expr] = _compute(expr, call, float64, tensor_of, sym_nodes)
        return tensors[expr]

    nodes = list(graph.nodes)
    first_op = next(n for n in nodes if n.op != "placeholder")
    for node, after in zip(nodes, nodes[1:]):
        with graph.inserting_before(first_op if node.op == "placeholder" else after):
            value = node.meta.get("val")
            if node.target is aten._local_scalar_dense.default and node.args[0].meta["val"].is_floating_point():
                source = node.args[0] if node.args[0].meta["val"].dim() == 0 else call(aten.reshape.default,
                                                                                          node.args[0], [])
                tensors[value.node.expr] = call(prims.convert_element_type.default, source, minitorch2.float64)
            if is_symbolic(value):
                sym_nodes.setdefault(value.node.expr, node)
            if node.target in TENSOR_FORMS and hasattr(value, "dtype"):
                _replace(node, call, float64, tensor_of, _COMPUTATION_DTYPE.get(value.dtype, value.dtype))


def _replace(node, call, float64, tensor_of, dtype):
    """node in its all-tensor form, each float argument a tensor of its computation dtype (None: left as it is)."""
    args = []
    for arg in node.args:
        if isinstance(getattr(arg, "meta", {}).get("val"), SymFloat):
            try:
                arg = float64(tensor_of(arg.meta["val"].node.expr))
            except NotImplementedError:
                return
            if arg.meta["val"].dtype is not dtype and dtype is not minitorch2.bool:
                arg = call(prims.convert_element_type.default, arg, dtype)
        args.append(arg)
    if args == list(node.args):
        return
    form = TENSOR_FORMS[node.target]
    replacement = args[0] if form is None else call(form, *args, **node.kwargs)
    if replacement.meta["val"].dtype is not node.meta["val"].dtype:
        replacement = call(prims.convert_element_type.default, replacement, node.meta["val"].dtype)
    node.replace_all_uses_with(replacement)
    node.graph.erase_node(node)


def _compute(expr, call, float64, tensor_of, sym_nodes):
    """The node computing expr as a 0-d tensor: a symbol from its number, constants, +, *, sqrt and math's kin."""
    if expr.is_Symbol:
        return call(aten.scalar_tensor.default, sym_nodes[expr])
    if expr.is_Integer or expr.is_Float:
        number, dtype = (int(expr), minitorch2.int64) if expr.is_Integer else (float(expr), minitorch2.float64)
        return call(aten.scalar_tensor.default, number, dtype=dtype)
    if isinstance(expr, (sympy.Add, sympy.Mul)) and not any(a.is_Rational and not a.is_Integer for a in expr.args):
        op = aten.add.Tensor if isinstance(expr, sympy.Add) else aten.mul.Tensor
        result = tensor_of(expr.args[0])
        for arg in expr.args[1:]:
            result = call(op, result, tensor_of(arg))
        return result
    if isinstance(expr, sympy.Pow) and expr.exp == sympy.Rational(1, 2):
        return call(aten.sqrt.default, float64(tensor_of(expr.base)))
    if isinstance(expr, sympy.Function) and type(expr).__name__ in MATH_OP_NAMES:
        return call(getattr(aten, type(expr).__name__).default, float64(tensor_of(expr.args[0])))
    raise NotImplementedError(f"no tensor form for {expr}")  # (a size divided by an int: IntTrueDiv in torch)
