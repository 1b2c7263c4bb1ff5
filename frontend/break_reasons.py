"""The table of graph-break reasons: code -> (what happened, what to do).

Frontend layer. Every `Unsupported` names one row, so every way capture can stop is in one place and `explain()`
prints a hint next to each break; the rows `graph_break_in_*` and `unresumable` make the whole frame run eagerly.
"""

REASONS = {
    "unsupported_opcode": ("the translator has no handler for this bytecode instruction",
                           "rewrite the construct or mark the function with frontend.disable"),
    "data_dependent_branch": ("a branch or bool() depends on a tensor's values, which are unknown while tracing",
                              "use torch.where, or move the branch outside the compiled function"),
    "data_dependent_value": ("a Python value (item(), tolist(), len of a tensor's contents) depends on tensor data",
                             "keep the computation in tensors"),
    "print": ("print() has a side effect that must happen at run time",
              "remove the print from the compiled region, or accept the eager fallback"),
    "graph_break": ("frontend.graph_break() was called", "remove the call to capture one graph"),
    "unsupported_call": ("a call to a function or object the translator cannot model",
                         "use minitorch2 functions, user functions or nn.Modules"),
    "unsupported_attr": ("an attribute read or write the translator cannot model",
                         "read plain attributes of modules and tensors only"),
    "side_effect": ("a mutation of a Python object that lives outside the frame",
                    "return new values instead of mutating inputs or attributes"),
    "generator": ("generators and coroutines cannot be captured", "call the function without compiling it"),
    "unsupported": ("the translator cannot model this construct", "see the message"),
    "graph_break_in_loop": ("a graph break inside a for/while loop: the frame runs eagerly, as Dynamo skips it",
                            "move the break out of the loop, or set frontend.config.resume_inside_loops"),
    "graph_break_in_try": ("a graph break inside a try/except block cannot resume; the frame runs eagerly",
                           "move the break out of the try block"),
    "graph_break_in_with": ("a graph break inside a `with` block (other than no_grad/enable_grad) cannot "
                            "resume; the frame runs eagerly", "move the break out of the with block"),
    "uncaught_exception": ("the frame raises an exception that no `except` in it catches: the frame runs eagerly "
                           "(Dynamo's \"Observed exception\")", "catch the exception in the frame, or fix the error"),
    "unresumable": ("the frame's state at the break cannot be rebuilt (closure cells, values the "
                    "translator cannot reconstruct); the frame runs eagerly",
                    "move the break, or mark the function with frontend.disable"),
}


def explain_reason(code):
    what, hint = REASONS.get(code, REASONS["unsupported"])
    return f"{what}; hint: {hint}"
