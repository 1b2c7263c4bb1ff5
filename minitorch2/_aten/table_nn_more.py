"""The op table's rows for the nn layers beyond the pipeline's core set (padding modes, transposed convolution, group and instance norms, pixel shuffle, more activations).

Runtime layer, part of THE operator table: table.py appends these rows to its
own (`rows(op, inplace)` is called with table.py's row makers, so a row here
reads exactly as one there).
"""


def rows(op, inplace):
    return []
