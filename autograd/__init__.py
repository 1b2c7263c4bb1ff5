"""autograd: the ahead-of-time joint forward+backward tracer (plays `torch._functorch.aot_autograd`).

make_fx, functionalization, decompositions and the joint graph. Not built yet:
see the project's autograd/ issue.
"""
