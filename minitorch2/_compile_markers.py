"""The functions a compiled frame calls to talk to the compiler, recognised by the frontend's translator by identity
(they play torch._dynamo.graph_break and torch.compiler.is_compiling). Runtime layer, so that the library's own
modules can ask too: TransformerEncoder takes torch's nested-tensor path only when not compiling.

graph_break() does nothing eagerly; the translator stops there with reason "graph_break". is_compiling() is False
when it runs; in a frame being captured the translator makes it the constant True, so code can branch on it.
"""


def graph_break():
    pass


def is_compiling():
    return False
