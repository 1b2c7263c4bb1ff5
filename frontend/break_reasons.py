"""The table of graph-break reasons: code -> (what happened, what to do).

Frontend layer. Every `Unsupported` the translator raises names one row of
this table, so a reader can see in one place every way capture can stop, and
`explain()` can print a hint next to each break. In this slice a break makes
the whole frame run eagerly (no resume functions yet).
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
    "python_version": ("this Python's bytecode is not supported yet", "use Python 3.11"),
    "unsupported": ("the translator cannot model this construct", "see the message"),
}


def explain_reason(code):
    what, hint = REASONS.get(code, REASONS["unsupported"])
    return f"{what}; hint: {hint}"
