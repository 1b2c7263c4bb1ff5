"""From Graph to Python source: the `forward` a GraphModule runs.

FX layer. For FX graphs the printout is not a picture of the program, it *is* the program:

    def forward(self, x):
        lin = self.lin(x);  x = None
        sigmoid = torch.sigmoid(lin)
        mul = lin * sigmoid;  lin = sigmoid = None
        return mul

One line per node, in list order; after the last use of a value the line ends with `;  x = None`, exactly where torch.fx
frees it. Objects that cannot be reached by name (a user's function, a class) come in as globals.

The one idea to hold: names in the source come from a fresh `_Namespace` per generation, shared by locals (node names)
and globals (functions, types), so the two can never collide. The `torch` global is `_spelling.TORCH`.
"""
import enum
import keyword
import math
import typing
from dataclasses import dataclass

import numpy as np

from .._ops import OpOverload, OpOverloadPacket
from .._tensor import Tensor, device as _device_class
from ._spelling import TORCH, is_from_torch, qualified_name, type_repr
from ._verbose_code import stack_trace_comment, value_annotation
from .node import Node, last_uses

__all__ = ["CodeGen", "PythonCode"]

# Globals every generated module has, because the reprs of common values need
# them (`inf`, `device(type='cpu')`, `torch.float32`). Their names are also
# reserved (a node may not be called `torch`), as are those of the pytree
# calling convention's globals (_pytree.py).
_USABLE_BUILTINS = {"inf": math.inf, "nan": math.nan, "NoneType": type(None), "torch": TORCH, "device": _device_class}
custom_builtins = {**_USABLE_BUILTINS, "fx_pytree": object(), "pytree": object()}

reflectable_magic_methods = {
    "add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "floordiv": "{} // {}", "truediv": "{} / {}",
    "div": "{} / {}", "mod": "{} % {}", "pow": "{} ** {}", "lshift": "{} << {}", "rshift": "{} >> {}",
    "and_": "{} & {}", "or_": "{} | {}", "xor": "{} ^ {}", "getitem": "{}[{}]", "matmul": "{} @ {}",
}
magic_methods = {
    "eq": "{} == {}", "ne": "{} != {}", "lt": "{} < {}", "gt": "{} > {}", "le": "{} <= {}", "ge": "{} >= {}",
    "pos": "+{}", "neg": "-{}", "invert": "~{}", **reflectable_magic_methods,
}
inplace_methods = {
    "iadd": "{} += {}", "iand": "{} &= {}", "ifloordiv": "{} //= {}", "ilshift": "{} <<= {}", "imod": "{} %= {}",
    "imul": "{} *= {}", "imatmul": "{} @= {}", "ior": "{} |= {}", "ipow": "{} **= {}", "irshift": "{} >>= {}",
    "isub": "{} -= {}", "itruediv": "{} /= {}", "ixor": "{} ^= {}", "setitem": "{}[{}] = {}",
}

@dataclass
class PythonCode:
    """Source of a `forward` function and the globals it must be executed with."""

    src: str
    globals: dict


def _format_target(base, target):
    """`self` + `layers.0.weight` -> `getattr(self.layers, "0").weight`. A name that is not an identifier
    (or is a keyword) is read with getattr and a string literal, so no module name is ever pasted as code."""
    result = base
    for atom in target.split("."):
        attribute = atom.isidentifier() and not keyword.iskeyword(atom)
        result = f"{result}.{atom}" if attribute else f"getattr({result}, {_string_literal(atom)})"
    return result


def _string_literal(text):
    """text in double quotes, as torch.fx prints it, where that needs no escape; else repr()'s literal."""
    plain = str.__repr__(text) == f"'{text}'" and '"' not in text
    return f'"{text}"' if plain else str.__repr__(text)


class CodeGen:
    """Turns a graph into `def forward(self, ...)`. Subclass to change the calling convention."""

    def gen_fn_def(self, free_vars, maybe_return_annotation):
        if not free_vars or free_vars[0] != "self":
            free_vars.insert(0, "self")
        return f"def forward({', '.join(free_vars)}){maybe_return_annotation}:"

    def generate_output(self, output_args, repr_fn=repr):
        return f"return {repr_fn(output_args)}"

    def additional_globals(self):
        return []

    def generate(self, graph, root_module, namespace, *, verbose=False, include_stride=False, include_device=False):
        """Emit the source. Node reprs are overridden to names from `namespace` meanwhile."""
        nodes = list(graph.nodes)
        saved = {node: node._repr_fn for node in nodes}
        for node in nodes:
            node._repr_fn = lambda n: namespace.create_name(n.name, n)
        try:
            return _Emitter(self, nodes, root_module, namespace, verbose, include_stride, include_device).run()
        finally:
            for node, fn in saved.items():
                node._repr_fn = fn


class _Emitter:
    """One code generation: the body lines, the globals, the free-after-last-use bookkeeping."""

    def __init__(self, codegen, nodes, root_module, namespace, verbose, include_stride, include_device):
        self.codegen, self.nodes, self.root_module, self.namespace = codegen, nodes, root_module, namespace
        self.verbose, self.include_stride, self.include_device = verbose, include_stride, include_device
        self.free_vars = []
        self.body = []
        self.globals = {}
        self.wrapped_fns = {}
        self.return_annotation = ""
        self.prev_summary = None
        for name, obj in _USABLE_BUILTINS.items():
            self.add_global(name, obj)
        self.user_to_last_uses = last_uses(nodes)

    # ---------------------------------------------------------- globals
    def add_global(self, name_hint, obj):
        """A name by which generated code reaches `obj`: its torch spelling, or a new global."""
        if is_from_torch(obj) and obj is not _device_class and obj is not TORCH:
            return qualified_name(obj)
        name = self.namespace.create_name(name_hint, obj)
        if self.globals.setdefault(name, obj) is not obj:
            raise AssertionError(f"Global name {name} already assigned to different object")
        return name

    def type_repr(self, o):
        if o == ():
            return "()"
        origin = getattr(o, "__origin__", None)
        if origin is not None:
            origin_name = self.add_global(type_repr(origin), origin)
            args = typing.get_args(o)
            return f"{origin_name}[{','.join(self.type_repr(a) for a in args)}]" if args else origin_name
        return self.add_global(type_repr(o), o)

    # ---------------------------------------------------------- values
    def repr_arg(self, arg):
        if isinstance(arg, Node):
            return repr(arg)
        if isinstance(arg, tuple) and hasattr(arg, "_fields"):
            name = self.add_global(qualified_name(type(arg)), type(arg))
            return f"{name}{repr(tuple(arg))}"
        if isinstance(arg, (OpOverload, OpOverloadPacket)):
            return self.add_global(qualified_name(arg), arg)
        if isinstance(arg, enum.Enum):
            cls = self.add_global(arg.__class__.__name__, arg.__class__)
            return f"{cls}.{arg.name}"
        if isinstance(arg, type):  # a class argument (dtype=float) is a name, not "<class 'float'>"
            return self.type_repr(arg)
        if isinstance(arg, Tensor):
            dtype = str(arg.dtype).split(".")[-1]
            return f"torch.Tensor(size={list(arg.size())}, dtype={dtype})"
        if isinstance(arg, (tuple, list)):
            items = ", ".join(self.repr_arg(a) for a in arg)
            return f"[{items}]" if isinstance(arg, list) else f"({items}{',' if len(arg) == 1 else ''})"
        if isinstance(arg, slice):
            return f"slice({self.repr_arg(arg.start)}, {self.repr_arg(arg.stop)}, {self.repr_arg(arg.step)})"
        if isinstance(arg, np.generic):  # (a user's numpy int, a constant: its Python value, no `np` in the code)
            return self.repr_arg(arg.item())
        return repr(arg)

    def format_args(self, args, kwargs):
        parts = [self.repr_arg(a) for a in args]
        parts.extend(f"{k} = {self.repr_arg(v)}" for k, v in kwargs.items())
        return ", ".join(parts)

    # ---------------------------------------------------------- frees
    def delete_unused_values(self, user):
        if user.op == "placeholder":
            return
        if user.op == "output":
            self.body.append("\n")
            return
        to_delete = list(self.user_to_last_uses.get(user, []))
        if len(user.users) == 0:
            to_delete.append(user)  # unused yet kept (e.g. a side effect): free it at once
        self.body.append(f";  {' = '.join([repr(n) for n in to_delete] + ['None'])}\n" if to_delete else "\n")

    # ---------------------------------------------------------- nodes
    def annotation(self, node):
        """` : torch.Tensor` from the node's type; verbose: `: "f32[3, 4]"` from its recorded value."""
        value = value_annotation(node, self.include_stride, self.include_device) if self.verbose else None
        return value if value is not None else "" if node.type is None else f" : {self.type_repr(node.type)}"

    def stack_trace_summary(self, node):
        """verbose: a comment naming the source line of the nodes below it, when it changes."""
        line = stack_trace_comment(node)
        if line is not None and line != self.prev_summary:
            self.prev_summary = line
            self.body.append(line)

    def emit(self, node):
        name = repr(node)
        annotation = self.annotation(node)
        if node.op == "placeholder":
            default = "" if not node.args else f" = {self.repr_arg(node.args[0])}"
            self.free_vars.append(f"{node.target}{annotation}{default}")
            raw_name = node.target.replace("*", "")
            if raw_name != name:
                self.body.append(f"{name} = {raw_name}\n")
        elif node.op == "call_method":
            receiver = _format_target(self.repr_arg(node.args[0]), node.target)
            self.body.append(f"{name}{annotation} = {receiver}({self.format_args(node.args[1:], node.kwargs)})")
        elif node.op == "call_function":
            self.emit_call_function(node, name, annotation)
        elif node.op == "call_module":
            module = _format_target(self.root_module, node.target)
            self.body.append(f"{name}{annotation} = {module}({self.format_args(node.args, node.kwargs)})")
        elif node.op == "get_attr":
            self.body.append(f"{name}{annotation} = {_format_target(self.root_module, node.target)}")
        elif node.op == "output":
            if node.type is not None:
                self.return_annotation = f" -> {self.type_repr(node.type)}"
            self.body.append(self.codegen.generate_output(node.args[0], repr_fn=self.repr_arg))
        else:
            raise NotImplementedError(f"node: {node.op} {node.target}")

    def emit_call_function(self, node, name, annotation):
        target = node.target
        operator_name = getattr(target, "__name__", None) if getattr(target, "__module__", "") == "_operator" else None
        if operator_name in magic_methods:
            expression = magic_methods[operator_name].format(*(self.repr_arg(a) for a in node.args))
            self.body.append(f"{name}{annotation} = {expression}")
            return
        if operator_name in inplace_methods:
            statement = inplace_methods[operator_name].format(*(self.repr_arg(a) for a in node.args))
            self.body.append(f"{statement};  {name}{annotation} = {self.repr_arg(node.args[0])}")
            return
        global_name = self.add_global(qualified_name(target), target)
        args = node.args
        if global_name == "getattr" and len(args) == 2 and isinstance(args[1], str) and args[1].isidentifier():
            self.body.append(f"{name}{annotation} = {_format_target(self.repr_arg(args[0]), args[1])}")
            return
        self.body.append(f"{name}{annotation} = {global_name}({self.format_args(node.args, node.kwargs)})")
        if node.meta.get("is_wrapped", False):
            self.wrapped_fns.setdefault(global_name)

    # ---------------------------------------------------------- assembly
    def run(self):
        for node in self.nodes:
            if self.verbose:
                self.stack_trace_summary(node)
            self.emit(node)
            self.delete_unused_values(node)
        if not self.body:
            self.body.append("pass\n")
        wrap_stmts = ""
        if self.wrapped_fns:
            # deferred: _symbolic_trace imports graph, which imports this module
            from ._symbolic_trace import wrap

            wrap_name = self.add_global("wrap", wrap)
            wrap_stmts = "\n".join(f'{wrap_name}("{name}")' for name in self.wrapped_fns)
        for name, value in self.codegen.additional_globals():
            self.globals[name] = value  # named by the codegen itself (e.g. fx_pytree, pytree)
        prologue = self.codegen.gen_fn_def(self.free_vars, self.return_annotation)
        code = "".join(self.body).lstrip("\n")
        code = "\n".join("    " + line for line in code.split("\n"))
        src = f"\n{wrap_stmts}\n\n{prologue}\n{code}"
        return PythonCode(src, self.globals)

