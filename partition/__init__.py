"""partition: default and networkx min-cut partitioners (plays `torch._functorch.partitioners`).

Not built yet: see the project's partition/ issue.
"""
