"""frontend: Dynamo in pure Python (plays `torch._dynamo`).

Bytecode capture with dis, guards, graph breaks and recompiles. Not built yet:
see the project's frontend issue.
"""
