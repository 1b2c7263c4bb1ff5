"""ExportedProgram: an exported graph with its signature and the tensors it was lifted from.

torch.export layer (coverage surface), what export() returns. It prints as torch's (the graph module's
readable code with each node's source line, then the signature, then the range constraints of the
dynamic sizes, dynamic_shapes.py) and offers:

    graph, graph_module, graph_signature, state_dict, constants
    module()               a callable nn.Module computing what the exported module computed, with the
                           parameters and buffers put back as its attributes
    run_decompositions()   the same program over core ATen: the graph run again under make_fx with
                           the composite ops split into their parts and the ops outside the core set
                           decomposed (aten.linear becomes aten.permute + aten.addmm), and made
                           functional (x.add_(1) becomes add, x's final value an extra output)

The graph runs through fx's Interpreter: its composite ops (preserved_ops.py) are no rows of the op
table, so generated code cannot reach them through `torch.ops.aten`.
"""
from .. import nn, ops
from ..autograd.grad_mode import no_grad
from .._tensor import Tensor
from ..fx import Interpreter
from ..utils import _pytree as pytree
from . import _compiler, decompositions, dynamic_shapes
from .graph_signature import InputKind, InputSpec, OutputKind, OutputSpec, TensorArgument


class ExportedProgram:
    def __init__(self, graph_module, graph_signature, state_dict, constants, in_spec, out_spec):
        graph_module.__class__.__name__ = "GraphModule"  # (not the traced function's: torch's program makes its own)
        self.graph_module = graph_module
        self.graph_signature = graph_signature
        self.state_dict = state_dict
        self.constants = constants
        self.range_constraints = {}  # {symbol: VR[low, high]} with dynamic shapes (dynamic_shapes.py)
        self._input_guards = []  # [(check(flat user inputs), message)] module() runs first
        self._in_spec, self._out_spec = in_spec, out_spec

    @property
    def graph(self):
        return self.graph_module.graph

    def __str__(self):
        readable = self.graph_module.print_readable(print_output=False, colored=False).replace("\n", "\n    ")
        signature = str(self.graph_signature).replace("\n", "\n    ")
        return (f"ExportedProgram:\n    {readable}\nGraph signature: {signature}\n"
                f"Range constraints: {self.range_constraints}\n")

    def _run_flat(self, lifted, user_leaves):
        """The user outputs of one run; each mutated input's final value (a decomposed graph's first outputs)
        is copied into that input."""
        inputs = [*lifted, *[leaf for leaf in user_leaves if leaf is not None]]
        outputs = Interpreter(self.graph_module).run(*inputs)
        mutated = {spec.target: i for i, spec in enumerate(self.graph_signature.input_specs)
                   if spec.kind == InputKind.BUFFER}
        mutated.update({spec.arg.name: i for i, spec in enumerate(self.graph_signature.input_specs)
                        if spec.kind == InputKind.USER_INPUT})
        results = []
        for spec, value in zip(self.graph_signature.output_specs, outputs):
            if spec.kind in (OutputKind.BUFFER_MUTATION, OutputKind.USER_INPUT_MUTATION):
                with no_grad():
                    inputs[mutated[spec.target]].copy_(value)
            else:
                results.append(value)
        return results

    def module(self):
        """An nn.Module whose forward runs the graph, with the parameters and buffers as its own (state_dict() keys
        are the exported module's)."""
        return _UnliftedModule(self)

    def run_decompositions(self, decomp_table=None):
        """Traced again with the table's ops decomposed; then, where ops mutate (x.add_(1), a decomposed
        batch_norm's running statistics), made functional (each mutated input's final value an extra first
        output, as torch's) and traced once more to decompose the functional forms (addcdiv_ -> addcdiv ->
        its parts)."""
        table = core_aten_decomposition_table() if decomp_table is None else decomp_table
        placeholders = [n for n in self.graph.nodes if n.op == "placeholder"]
        retraced = _retrace(self.graph_module, placeholders, table)
        functional, mutated = _compiler.functionalize_graph()(retraced)
        if mutated or functional is not retraced:
            retraced = _retrace(functional, placeholders, table)
        outputs = retraced.graph.output_node().args[0]
        specs = [self._mutation_spec(i) for i in mutated] + list(self.graph_signature.output_specs)
        output_specs = [OutputSpec(spec.kind, TensorArgument(node.name), spec.target)
                        for spec, node in zip(specs, outputs)]
        retraced.graph.eliminate_dead_code()  # the parts' outputs nothing reads (native_layer_norm's mean and rstd)
        if self.range_constraints:
            dynamic_shapes.sizes_read_after_placeholders(retraced)
        retraced.recompile()
        signature = type(self.graph_signature)(
            [InputSpec(s.kind, s.arg, s.target, s.persistent) for s in self.graph_signature.input_specs], output_specs)
        program = ExportedProgram(retraced, signature, self.state_dict, self.constants, self._in_spec, self._out_spec)
        program.range_constraints, program._input_guards = self.range_constraints, self._input_guards
        return program

    def _mutation_spec(self, position):
        """The output spec of the input at `position`'s final value: a buffer's or a user input's mutation."""
        spec = self.graph_signature.input_specs[position]
        if spec.kind == InputKind.BUFFER:
            return OutputSpec(OutputKind.BUFFER_MUTATION, spec.arg, spec.target)
        return OutputSpec(OutputKind.USER_INPUT_MUTATION, spec.arg, spec.arg.name)


def core_aten_decomposition_table():
    """What run_decompositions() decomposes by default: every op outside the core ATen set that has a decomposition
    (torch's default_decompositions), the rows' and export's own; the composite ops split into their parts by
    themselves once not recording."""
    table = {op: op.decomposition for op in ops.aten.overloads() if op.decomposition is not None
             and "core" not in op.tags and op.__name__ not in decompositions.INDUCTOR_ONLY}
    return {**table, **decompositions.EXPORT_ONLY}


def _retrace(graph_module, placeholders, table):
    """graph_module traced by make_fx on the placeholders' fake values, `table`'s ops decomposed; its
    placeholders keep their names."""
    make_fx = _compiler.make_fx()
    with no_grad():
        retraced = make_fx(lambda *flat: tuple(Interpreter(graph_module).run(*flat)), table,
                           tracing_mode="fake")(*[n.meta.get("val") for n in placeholders])
    for old, new in zip(placeholders, [n for n in retraced.graph.nodes if n.op == "placeholder"]):
        new.name = new.target = old.name
    return retraced


class _UnliftedModule(nn.Module):
    def __init__(self, program):
        super().__init__()
        self._program = program
        for path, tensor in program.state_dict.items():
            _set_at_path(self, path, tensor)

    def forward(self, *args, **kwargs):
        program = self._program
        user_leaves, spec = pytree.tree_flatten((args, kwargs))
        if spec.num_leaves != program._in_spec.num_leaves:  # (a keyword for a positional argument is fine)
            raise ValueError(f"Trying to flatten user inputs with exported input tree spec: \n{program._in_spec}\n"
                             f"but actually got inputs with tree spec of: \n{spec}.\nPlease check that the inputs "
                             "have the same number and type of args and kwargs as the ones you used when tracing.")
        for check, message in program._input_guards:
            if not check(user_leaves):
                raise AssertionError(message)
        lifted = [program.constants[s.target] if s.target in program.constants else
                  self.get_parameter(s.target) if s.kind == InputKind.PARAMETER else self.get_buffer(s.target)
                  for s in program.graph_signature.input_specs if s.kind != InputKind.USER_INPUT]
        outputs = program._run_flat(lifted, user_leaves)
        return pytree.tree_unflatten(list(outputs), program._out_spec)


def _set_at_path(root, path, tensor):
    *owners, name = path.split(".")
    module = root
    for owner in owners:
        if not hasattr(module, owner):
            module.add_module(owner, nn.Module())
        module = getattr(module, owner)
    if isinstance(tensor, nn.Parameter):
        module.register_parameter(name, tensor)
    elif isinstance(tensor, Tensor):
        module.register_buffer(name, tensor)
