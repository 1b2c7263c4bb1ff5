"""The functions a compiled frame calls to talk to the compiler, recognised by the translator by identity (frontend
layer; they play torch._dynamo.graph_break and torch.compiler.is_compiling).

graph_break() does nothing eagerly; the translator stops there with reason "graph_break". is_compiling() is False
when it runs; in a frame being captured the translator makes it the constant True, so code can branch on it.
"""


def graph_break():
    pass


def is_compiling():
    return False
