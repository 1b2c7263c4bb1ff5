"""torch.autograd.functional: vjp, jvp, vhp, hvp, jacobian and hessian of a Python function, over the eager engine.

Runtime layer, coverage surface. Every function here is a few calls of `autograd.grad` on a fresh graph: the inputs
are detached copies that require grad (or views of them, with create_graph=True, so the result stays connected to
the caller's graph), `func` runs once under enable_grad, and grad does the rest.

The one idea a reader must hold: there is no forward-mode AD here, as torch's own versions of these functions
do without it. A Jacobian-vector product J·v comes from reverse mode twice (the "double-backward trick"):
g(u) = uᵀJ is linear in a dummy cotangent u, so the gradient of g(u)·v with respect to u is J·v. jvp and hvp are
that trick; jacobian is one vjp per output element (or, with strategy="forward-mode", one jvp per input element).
`vectorize=True` gives the same numbers by the same loop (torch batches it with vmap; there is no vmap of grads).

Results nest as torch's: a tuple level for each argument that was given as a tuple, outputs before inputs.
"""
from .._ops import ops
from .._tensor import Tensor
from .engine import grad as _engine_grad
from .grad_mode import enable_grad, is_grad_enabled, set_grad_enabled

aten = ops.aten

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]

_STRATEGIES = ("forward-mode", "reverse-mode")


# ---------------------------------------------------------------- arguments in, results out
def _tensor_tuple(value, what, fn_name):
    """(was it a tuple, the tensors as a tuple); torch's TypeError for anything that is not a tensor."""
    was_tuple = isinstance(value, tuple)
    tensors = value if was_tuple else (value,)
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            where = f"the value at index {i}" if was_tuple else f"the given {what}"
            raise TypeError(f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                            f"{where} has type {type(t)}.")
    return was_tuple, tensors


def _fresh(tensors, create_graph, need_graph):
    """The tensors func is called with: connected to the caller's graph only when create_graph asks for it."""
    return tuple(t.view_as(t) if create_graph and t.requires_grad else t.detach().requires_grad_(need_graph)
                 for t in tensors)


def _detached(nested, create_graph):
    if create_graph:
        return nested
    if isinstance(nested[0], Tensor):
        return tuple(t.detach() for t in nested)
    return tuple(_detached(inner, create_graph) for inner in nested)


def _unpacked(result, was_tuple):
    return result if was_tuple else result[0]


def _unpacked2(result, outer_was_tuple, inner_was_tuple):
    if not inner_was_tuple:
        result = tuple(row[0] for row in result)
    return _unpacked(result, outer_was_tuple)


def _checked_v(v, like, like_was_tuple, fn_name, create_graph):
    _, v = _tensor_tuple(v, "v", fn_name)
    v = _fresh(v, create_graph, need_graph=False)
    if len(v) != len(like):
        if like_was_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (entry, ref) in enumerate(zip(v, like)):
        if entry.shape != ref.shape:
            prefix = f"Entry {i} in " if like_was_tuple else ""
            raise RuntimeError(f"{prefix}v has invalid size: should be {ref.shape} but got {entry.shape}.")
    return v


# ---------------------------------------------------------------- strict mode's checks
_NOT_REQUIRING_GRAD = {
    "outputs": "Output {i} of the user-provided function does not require gradients. The outputs must be computed "
               "in a differentiable manner from the input when running in strict mode.",
    "grad_inputs": "The gradient with respect to input {i} is independent of the inputs of the user-provided "
                   "function. This is not allowed in strict mode.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided function with respect to "
                "input {i} is independent of the input. This is not allowed in strict mode. You should ensure that "
                "your function is twice differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).",
    "hessian": "The hessian of the user-provided function with respect to input {i} is independent of the input. "
               "This is not allowed in strict mode. You should ensure that your function is thrice differentiable "
               "and that the hessian depends on the inputs.",
}

_INDEPENDENT = {  # a gradient that never arrived, by the stage that asked for it
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in strict "
            "mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
                  "using the double backward trick to compute forward mode gradients. This is not allowed in strict "
                  "mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed in "
                   "strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
                         "grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
                         "backward trick to replace forward mode AD.",
}


def _require_grad(tensors, kind, strict):
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode.")
        if not t.requires_grad:
            raise RuntimeError(_NOT_REQUIRING_GRAD[kind].format(i=i))


def _zeros_where_missing(grads, like, strict, create_graph, stage):
    filled = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_INDEPENDENT[stage].format(i=i))
            g = aten.zeros_like.default(like[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if stage.startswith("double") else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode when create_graph=True.")
        filled.append(g)
    return tuple(filled)


def _grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """autograd.grad over the outputs that have a graph (None for every input when none has)."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    pairs = [(out, g) for out, g in zip(outputs, grad_outputs) if out is not None and out.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return _engine_grad([out for out, _ in pairs], inputs, [g for _, g in pairs], retain_graph=retain_graph,
                        create_graph=create_graph, allow_unused=True)


def _dummy_cotangents(outputs):
    return tuple(aten.zeros_like.default(out).requires_grad_(True) for out in outputs)


# ---------------------------------------------------------------- products
def vjp(func, inputs, v=None, create_graph=False, strict=False):
    with enable_grad():
        inputs_were_tuple, inputs = _tensor_tuple(inputs, "inputs", "vjp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        outputs_were_tuple, outputs = _tensor_tuple(func(*inputs), "outputs of the user-provided function", "vjp")
        _require_grad(outputs, "outputs", strict)
        if v is not None:
            v = _checked_v(v, outputs, outputs_were_tuple, "vjp", create_graph)
        elif len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the user-provided function returns a single Tensor "
                               "with a single element.")
    with set_grad_enabled(create_graph or is_grad_enabled()):
        product = _zeros_where_missing(_grad(outputs, inputs, v, create_graph), inputs, strict, create_graph, "back")
    return (_unpacked(_detached(outputs, create_graph), outputs_were_tuple),
            _unpacked(_detached(product, create_graph), inputs_were_tuple))


def _v_for_inputs(v, inputs, inputs_were_tuple, fn_name, create_graph):
    if v is not None:
        return _checked_v(v, inputs, inputs_were_tuple, fn_name, create_graph)
    if len(inputs) != 1 or inputs[0].numel() != 1:
        raise RuntimeError("The vector v can only be None if the input to the user-provided function is a single "
                           "Tensor with a single element.")
    return None


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    with enable_grad():
        inputs_were_tuple, inputs = _tensor_tuple(inputs, "inputs", "jvp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _v_for_inputs(v, inputs, inputs_were_tuple, "jvp", create_graph)
        outputs_were_tuple, outputs = _tensor_tuple(func(*inputs), "outputs of the user-provided function", "jvp")
        _require_grad(outputs, "outputs", strict)
        cotangents = _dummy_cotangents(outputs)
        vector_jacobian = _grad(outputs, inputs, cotangents, create_graph=True)  # linear in the cotangents
        _require_grad(vector_jacobian, "grad_inputs", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        product = _grad(vector_jacobian, cotangents, v, create_graph)
        product = _zeros_where_missing(product, outputs, strict, create_graph, "back_trick")
    return (_unpacked(_detached(outputs, create_graph), outputs_were_tuple),
            _unpacked(_detached(product, create_graph), outputs_were_tuple))


def _scalar_function_output(func, inputs, fn_name, strict):
    outputs_were_tuple, outputs = _tensor_tuple(func(*inputs), "outputs of the user-provided function", fn_name)
    _require_grad(outputs, "outputs", strict)
    if outputs_were_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single element")
    return outputs


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    with enable_grad():
        inputs_were_tuple, inputs = _tensor_tuple(inputs, "inputs", "vhp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _v_for_inputs(v, inputs, inputs_were_tuple, "vhp", create_graph)
        outputs = _scalar_function_output(func, inputs, "vhp", strict)
        gradient = _grad(outputs, inputs, create_graph=True)
        _require_grad(gradient, "jacobian", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        product = _grad(gradient, inputs, v, create_graph)
        product = _zeros_where_missing(product, inputs, strict, create_graph, "double_back")
    return _detached(outputs, create_graph)[0], _unpacked(_detached(product, create_graph), inputs_were_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    with enable_grad():
        inputs_were_tuple, inputs = _tensor_tuple(inputs, "inputs", "hvp")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        v = _v_for_inputs(v, inputs, inputs_were_tuple, "hvp", create_graph)
        outputs = _scalar_function_output(func, inputs, "hvp", strict)
        gradient = _grad(outputs, inputs, create_graph=True)
        _require_grad(gradient, "jacobian", strict)
        cotangents = _dummy_cotangents(inputs)
        vector_hessian = _grad(gradient, inputs, cotangents, create_graph=True)  # linear in the cotangents
        _require_grad(gradient, "hessian", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        product = _grad(vector_hessian, cotangents, v, create_graph)
        product = _zeros_where_missing(product, inputs, strict, create_graph, "double_back_trick")
    return _detached(outputs, create_graph)[0], _unpacked(_detached(product, create_graph), inputs_were_tuple)


# ---------------------------------------------------------------- jacobian and hessian
def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    if strategy not in _STRATEGIES:
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                             'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                             'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError("torch.autograd.functional.jacobian: `create_graph=True` and "
                                      '`strategy="forward-mode"` are not supported together (yet). Please either set '
                                      '`create_graph=False` or `strategy="reverse-mode"`.')
        return _jacobian_by_columns(func, inputs, strict, vectorize)
    with enable_grad():
        inputs_were_tuple, inputs = _tensor_tuple(inputs, "inputs", "jacobian")
        inputs = _fresh(inputs, create_graph, need_graph=True)
        outputs_were_tuple, outputs = _tensor_tuple(func(*inputs), "outputs of the user-provided function",
                                                    "jacobian")
        _require_grad(outputs, "outputs", strict)
        if vectorize and strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                               "supported together. Please either set `strict=False` or `vectorize=False`.")
        rows = tuple(_jacobian_rows(i, out, inputs, create_graph, strict) for i, out in enumerate(outputs))
    return _unpacked2(_detached(rows, create_graph), outputs_were_tuple, inputs_were_tuple)


def _jacobian_rows(index, output, inputs, create_graph, strict):
    """d output / d input for every input: one vjp per element of the output, stacked."""
    per_input = [[] for _ in inputs]
    flat = output.reshape(-1)
    for k in range(output.numel()):
        row = _grad((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
        for j, (g, inp) in enumerate(zip(row, inputs)):
            if g is None:
                if strict:
                    raise RuntimeError(f"Output {index} of the user-provided function is independent of input {j}. "
                                       "This is not allowed in strict mode.")
                g = aten.zeros_like.default(inp)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(f"The jacobian of the user-provided function is independent of input {index}. "
                                   "This is not allowed in strict mode when create_graph=True.")
            per_input[j].append(g)
    return tuple(_stacked(grads, list(output.shape) + list(inp.shape)) for grads, inp in zip(per_input, inputs))


def _stacked(tensors, shape):
    return aten.view.default(aten.stack.default(tensors, 0), shape)


def _jacobian_by_columns(func, inputs, strict, vectorize):
    """strategy="forward-mode": one Jacobian-vector product per input element (torch needs vectorize=True)."""
    if strict:
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not '
                           'supported together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.')
    inputs_were_tuple, inputs = _tensor_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly "
                                  "implemented for `vectorize=True`.")
    keep_graph = any(t.requires_grad for t in inputs)  # forward AD's tangents carry the graph of their primals
    columns, outputs, outputs_were_tuple = [], None, False
    for j, inp in enumerate(inputs):
        per_element = []
        for k in range(inp.numel()):
            basis = tuple(_unit(t, k) if i == j else aten.zeros_like.default(t) for i, t in enumerate(inputs))
            out, product = jvp(func, inputs, basis, create_graph=keep_graph)
            outputs_were_tuple = isinstance(out, tuple)
            outputs = out if outputs_were_tuple else (out,)
            per_element.append(product if outputs_were_tuple else (product,))
        columns.append(per_element)
    if outputs is None:  # every input empty: func still tells the outputs' shapes
        outputs_were_tuple, outputs = _tensor_tuple(func(*inputs), "outputs", "jacobian")
    rows = [[_columns_stacked([col[i] for col in columns[j]], list(out.shape) + list(inp.shape))
             for j, inp in enumerate(inputs)] for i, out in enumerate(outputs)]  # lists here, as torch's
    return _unpacked2(rows, outputs_were_tuple, inputs_were_tuple)


def _unit(like, k):
    flat = aten.zeros.default([like.numel()], dtype=like.dtype)
    flat[k] = 1
    return aten.view.default(flat, list(like.shape))


def _columns_stacked(tensors, shape):
    stacked = aten.stack.default(tensors, -1)  # (*out.shape, inp.numel())
    return aten.view.default(aten.clone.default(stacked, memory_format=None), shape)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    inputs_were_tuple, inputs = _tensor_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in _STRATEGIES:
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_func(*args):
        return _scalar_function_output(func, args, "hessian", strict)[0].squeeze()

    def gradient_func(*args):
        gradient = jacobian(scalar_func, args, create_graph=True)
        _require_grad(gradient, "jacobian", strict)
        return gradient

    if outer_jacobian_strategy == "forward-mode":  # torch's dual inputs require grad: its result has a graph
        inputs = tuple(t if t.requires_grad else t.detach().requires_grad_(True) for t in inputs)
    result = jacobian(gradient_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                      strategy=outer_jacobian_strategy)
    return _unpacked2(result, inputs_were_tuple, inputs_were_tuple)
