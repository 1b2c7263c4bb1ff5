"""backend: the Inductor-like compiler (plays `torch._inductor`): loop IR, fusion, llvmlite/Triton codegen.

Not built yet: see the project's backend/ issue.
"""
