"""The aten operator library: kernels, meta functions, derivatives, decompositions.

Runtime layer. `table.py` is the one list of every registered op; the other modules hold the code its rows point at,
grouped by family (pointwise, reductions, views, ...).
"""
