"""frontend.graph_break(): a call that ends capture on purpose (plays torch._dynamo.graph_break).

Eagerly it does nothing; the translator recognises it and stops with reason "graph_break".
"""


def graph_break():
    pass
