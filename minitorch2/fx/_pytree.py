"""Pytree calling conventions for generated code (as torch.fx._pytree and fx's _PyTreeCodeGen).

FX layer. A graph traced from `joint(primals, tangents)` has one placeholder per tensor leaf, but its GraphModule is
called with the original nested arguments. `PyTreeCodeGen` generates exactly PyTorch's prologue and epilogue:

    def forward(self, primals, tangents):
        primals_1, primals_2, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        ...
        return pytree.tree_unflatten([sum_1, None, mm_1], self._out_spec)
"""
import types

from ..utils import _pytree as pytree
from ._codegen import CodeGen


def tree_flatten_spec(args, spec):
    leaves, actual = pytree.tree_flatten(args)
    if actual.num_leaves != spec.num_leaves:
        raise RuntimeError(f"expected inputs shaped like {spec}, got {actual}")
    return leaves


_FxPytreeNamespace = types.SimpleNamespace(tree_flatten_spec=tree_flatten_spec)  # `fx_pytree` in generated code


class PyTreeCodeGen(CodeGen):
    def __init__(self, orig_args, in_spec, out_spec):
        self.orig_args = list(orig_args)
        self.in_spec = in_spec
        self.out_spec = out_spec

    def gen_fn_def(self, free_vars, maybe_return_annotation):
        definition = super().gen_fn_def(["self"] + self.orig_args, maybe_return_annotation)
        names = [v.split(":")[0].strip() for v in free_vars if v != "self"]
        annotated = "".join(f"{v}; " for v in free_vars if ":" in v)  # (a statement of their own, as torch's)
        if names:
            definition += f"\n    {annotated}\n" if annotated else ""
            definition += (f"\n    {', '.join(names)}, = fx_pytree.tree_flatten_spec("
                           f"[{', '.join(self.orig_args)}], self._in_spec)")
        return definition

    def generate_output(self, output_args, repr_fn=repr):
        flat, _ = pytree.tree_flatten(output_args)
        return f"return pytree.tree_unflatten({repr_fn(flat)}, self._out_spec)"

    def additional_globals(self):
        return [("fx_pytree", _FxPytreeNamespace), ("pytree", pytree)]
