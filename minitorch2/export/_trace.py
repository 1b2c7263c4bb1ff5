"""export(): one fake-tensor trace of a module into an ExportedProgram, as torch's non-strict export.

torch.export layer (coverage surface). The module's forward runs once under make_fx (the compiler's
tracer, autograd/proxy_tensor.py) on fake tensors, with grad off and the composite ops of
preserved_ops.py recorded whole, as a function of every tensor it reads:

    parameters   p_<path>   named_parameters() order      PARAMETER        target: 'fc.weight'
    buffers      b_<path>   named_buffers() order         BUFFER           persistent or not
    constants    c_<path>   order of first use            CONSTANT_TENSOR  a tensor attribute ('scale'),
                 c_lifted_tensor_<k>                                        or one made inside forward
    user inputs  the forward's argument names             USER_INPUT       (x, bias; xs_0, xs_1 for a list)

With dynamic_shapes=, the user inputs are faked first by dynamic_shapes.py, each dynamic size a symbol, and
make_fx traces them as they come. The outputs are the flattened results, as a tuple. Each node records the
user's stack as torch's does: the frames of `forward` methods, innermost last, so print(exported) says where
each op came from.

The one idea to hold: the tracer sees tensors, never Python values; where a tensor's value would
decide the control flow (`if x.sum() > 0`), fake tensors have none, and export fails as torch's does.
"""
import contextlib
import inspect
import sys
import traceback

import minitorch2

from .._tensor import DataDependentOutputException, Tensor
from ..nn.modules.module import Module
from ..utils import _pytree as pytree
from . import _compiler, dynamic_shapes as shapes
from .exported_program import ExportedProgram
from .graph_signature import (ConstantArgument, ExportGraphSignature, InputKind, InputSpec, OutputKind, OutputSpec,
                              TensorArgument)
from .preserved_ops import preserving_ops


class GuardOnDataDependentSymNode(RuntimeError):
    """A tensor's value decides Python control flow during export (torch.fx.experimental.symbolic_shapes')."""


class UserError(RuntimeError):
    """A call export refuses before tracing (torch._dynamo.exc.UserError)."""


_DRAFT_EXPORT_HINT = ("\n\nThe error above occurred when calling torch.export.export. If you would like to view some "
                      "more information about this error, and get a list of all other errors that may occur in your "
                      "export call, you can replace your `export()` call with `draft_export()`.")


def export(mod, args, kwargs=None, *, dynamic_shapes=None, strict=False, preserve_module_call_signature=()):
    """torch.export.export: trace `mod(*args, **kwargs)` into an ExportedProgram (strict=True traces the same way)."""
    if not isinstance(mod, Module):
        raise ValueError(f"Expected `mod` to be an instance of `torch.nn.Module`, got {type(mod)}.")
    if not isinstance(args, tuple):
        raise UserError(f"Expecting `args` to be a tuple of example positional inputs, got {type(args)}"
                        + _DRAFT_EXPORT_HINT)
    if preserve_module_call_signature:
        raise NotImplementedError("torch.export.export(preserve_module_call_signature=...) is not supported by "
                                  "minitorch2")
    return _Export(mod, args, kwargs or {}, dynamic_shapes).run()


class _Export:
    def __init__(self, mod, args, kwargs, dynamic_shapes):
        self.mod, self.args, self.kwargs, self.dynamic_shapes = mod, args, kwargs, dynamic_shapes
        self.parameters = list(mod.named_parameters())
        self.buffers = list(mod.named_buffers())
        self.non_persistent = {f"{path}.{name}".lstrip(".") for path, sub in mod.named_modules()
                               for name in sub._non_persistent_buffers_set}
        self.user_leaves, self.in_spec = pytree.tree_flatten((args, kwargs))
        self.user_names = _user_input_names(mod, args, kwargs)
        self.out_spec = None

    def run(self):
        make_fx, stack_trace_in_effect = _compiler.make_fx(), _compiler.stack_trace_in_effect()
        state = [t for _, t in self.parameters + self.buffers]
        leaves = self.user_leaves
        if self.dynamic_shapes is not None:  # the user inputs faked here, their dynamic dims symbols
            leaves, sources, shape_env, dims = shapes.fake_user_inputs(
                _argument_names(self.mod, self.args), self.args, self.kwargs, self.dynamic_shapes)
        try:
            with preserving_ops(), minitorch2.no_grad():
                traced = make_fx(self._flat_forward(stack_trace_in_effect), tracing_mode="fake")(*state, *leaves)
        except DataDependentOutputException as e:
            raise GuardOnDataDependentSymNode(_data_dependent_message(e)) from None
        if self.dynamic_shapes is not None:
            shapes.sizes_read_after_placeholders(traced)
        signature, constants = self._lift(traced)
        program = ExportedProgram(traced, signature, self._state_dict(), constants, self.in_spec, self.out_spec)
        if self.dynamic_shapes is not None:
            shapes.check_constraints(shape_env, dims)
            program.range_constraints = shapes.range_constraints(shape_env, dims)
            program._input_guards = shapes.input_guards(shape_env, dims, self.user_leaves, sources)
        return program

    def _flat_forward(self, stack_trace_in_effect):
        n_state = len(self.parameters) + len(self.buffers)
        paths = [path for path, _ in self.parameters + self.buffers]

        def flat_forward(*flat):
            args, kwargs = pytree.tree_unflatten(list(flat[n_state:]), self.in_spec)
            with _swapped(self.mod, dict(zip(paths, flat[:n_state]))), stack_trace_in_effect(_user_stack):
                out = self.mod(*args, **kwargs)
            leaves, self.out_spec = pytree.tree_flatten(out)
            return tuple(leaves)

        return flat_forward

    def _lift(self, traced):
        """Name the placeholders as torch does, turn constant get_attrs into inputs, and write the signature."""
        graph = traced.graph
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        n_params, n_state = len(self.parameters), len(self.parameters) + len(self.buffers)
        specs = []
        for i, ((path, _), node) in enumerate(zip(self.parameters + self.buffers, placeholders)):
            is_parameter = i < n_params
            _rename(node, ("p_" if is_parameter else "b_") + path.replace(".", "_"))
            specs.append(InputSpec(InputKind.PARAMETER, TensorArgument(node.name), path) if is_parameter else
                         InputSpec(InputKind.BUFFER, TensorArgument(node.name), path, path not in self.non_persistent))
        user_specs = []
        user_nodes = iter(placeholders[n_state:])
        for name, leaf in zip(self.user_names, self.user_leaves):
            if leaf is None:
                continue  # make_fx makes no placeholder for a None
            node = next(user_nodes)
            _rename(node, name)
            arg = TensorArgument(name) if isinstance(leaf, Tensor) else ConstantArgument(name, leaf)
            user_specs.append(InputSpec(InputKind.USER_INPUT, arg, None))
        constants = self._lift_constants(traced, placeholders[n_state] if n_state < len(placeholders) else None, specs)
        output = graph.output_node()
        output_specs = [OutputSpec(OutputKind.USER_OUTPUT, TensorArgument(a.name) if hasattr(a, "name")
                                   else ConstantArgument("", a), None) for a in output.args[0]]
        for node in graph.nodes:
            if node.op == "placeholder":
                node.meta.pop("stack_trace", None)
        traced.recompile()
        return ExportGraphSignature(specs + user_specs, output_specs), constants

    def _lift_constants(self, traced, first_user_input, specs):
        """get_attr nodes of tensors the trace met (module attributes, tensors made in forward) become inputs."""
        attribute_paths = {id(value): f"{path}.{name}".lstrip(".") for path, sub in self.mod.named_modules()
                           for name, value in vars(sub).items() if isinstance(value, Tensor)}
        constants = {}
        graph = traced.graph
        for node in [n for n in graph.nodes if n.op == "get_attr"]:
            value = getattr(traced, node.target)
            target = attribute_paths.get(id(value)) or f"lifted_tensor_{sum(t.startswith('lifted') for t in constants)}"
            with graph.inserting_before(first_user_input):
                placeholder = graph.placeholder("c_" + target.replace(".", "_"))
            _rename(placeholder, "c_" + target.replace(".", "_"))
            placeholder.meta.update({k: v for k, v in node.meta.items() if k in ("val", "tensor_meta")})
            node.replace_all_uses_with(placeholder)
            graph.erase_node(node)
            delattr(traced, node.target)
            constants[target] = value
            specs.append(InputSpec(InputKind.CONSTANT_TENSOR, TensorArgument(placeholder.name), target))
        for path in self.non_persistent:
            constants[path] = self.mod.get_buffer(path)
        return constants

    def _state_dict(self):
        return {**dict(self.parameters), **{path: t for path, t in self.buffers if path not in self.non_persistent}}


def _rename(node, name):
    node.name = node.target = name


def _argument_names(mod, args):
    """The positional arguments' names: the forward's parameter names, then `rest_0`, `rest_1` for its *rest."""
    try:
        parameters = list(inspect.signature(mod.forward).parameters.values())
    except (TypeError, ValueError):
        parameters = []
    positional = [p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    rest = next((p.name for p in parameters if p.kind == p.VAR_POSITIONAL), "args")
    return [positional[i] if i < len(positional) else f"{rest}_{i - len(positional)}" for i in range(len(args))]


def _user_input_names(mod, args, kwargs):
    """The flattened user inputs' names: the arguments' names, `xs_0` inside a list or tuple, `d_key` inside a
    dict, as torch's export names them."""
    names = []
    for name, value in zip(_argument_names(mod, args) + list(kwargs), [*args, *kwargs.values()]):
        _leaf_names(name, value, names)
    return names


def _leaf_names(prefix, value, names):
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _leaf_names(f"{prefix}_{i}", item, names)
    elif isinstance(value, dict):
        for key, item in value.items():
            _leaf_names(f"{prefix}_{key}", item, names)
    else:
        names.append(prefix)


@contextlib.contextmanager
def _swapped(module, tensors):
    """module with each dotted-path parameter or buffer replaced by the traced tensor, restored after."""
    saved = []
    for path, value in tensors.items():
        owner_path, _, name = path.rpartition(".")
        owner = module.get_submodule(owner_path) if owner_path else module
        slots = owner._parameters if name in owner._parameters else owner._buffers
        saved.append((slots, name, slots[name]))
        slots[name] = value
    try:
        yield
    finally:
        for slots, name, value in reversed(saved):
            slots[name] = value


def _user_stack():
    """The stack trace the proxy mode stamps on each node it records during the trace (ops and size arithmetic):
    the user's `forward` frames, innermost last, as torch's export records node.stack_trace."""
    return _forward_frames_text(sys._getframe(1))


def _forward_frames_text(frame):
    frames = []
    while frame is not None:
        if frame.f_code.co_name == "forward" and not frame.f_code.co_filename.startswith("<"):
            frames.append(traceback.FrameSummary(frame.f_code.co_filename, frame.f_lineno, "forward"))
        frame = frame.f_back
    return "".join(traceback.StackSummary.from_list(frames[::-1]).format()).strip() or None


def _data_dependent_message(error):
    frames = [traceback.FrameSummary(f.filename, f.lineno, f.name)  # without columns, so no ^^^ marks
              for f in traceback.extract_tb(error.__traceback__) if f.name == "forward"]
    where = "".join(traceback.StackSummary.from_list(frames[-1:]).format()) if frames else ""
    return ("Could not guard on data-dependent expression: the Python control flow here depends on a tensor's "
            f"value ({error}), and export traces with fake tensors, which have none.\n\n"
            "The following call raised this error:\n" + where + _DRAFT_EXPORT_HINT)
