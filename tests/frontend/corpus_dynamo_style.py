"""Corpus programs in the style of Dynamo's own test functions (test_functions.py, test_misc.py): small
functions over builtins, the standard library and tensor attributes, each captured in one graph by Dynamo.

Kept apart from corpus.CORPUS_SRC as corpus_numpy.py is; corpus.build() execs the texts together. Every program
takes one (4, 4) float tensor and is called twice (the second call runs the cached entry behind its guards).
"""

DYNAMO_STYLE_SRC = r'''
import operator

def c_dict_items_sorted(x):
    d = {"a": x, "bb": x + 1}
    total = 0
    for k, v in sorted(d.items()):
        total = total + v * len(k)
    return total
def c_enumerate_zip_stack(x):
    out = []
    for i, (a, b) in enumerate(zip(x, x.flip(0))):
        out.append(a * i + b)
    return torch.stack(out)
def c_functools_reduce(x):
    return functools.reduce(operator.add, [x, x * 2, x * 3])
def c_ordered_dict(x):
    od = collections.OrderedDict()
    od["x"] = x
    od["y"] = x.sin()
    return od["x"] + od["y"]
def c_string_building(x):
    name = "layer_" + str(3)
    return x + len(name) if name.startswith("layer") else x
def c_star_unpack_split(x):
    a, *rest = x.split(1)
    return a + sum(rest)
def c_all_any_of_flags(x):
    flags = [x.shape[0] > 1, x.dim() == 2]
    return x * 2 if all(flags) and any(flags) else x
def c_itertools_product(x):
    for a, b in itertools.product([1, 2], [3]):
        x = x + a * b
    return x
def c_tensor_attribute_views(x):
    return x.T @ x + x.mT.sum() + x.real.sum() + torch.tensor(x.ndim)
def c_slice_assign_inplace(x):
    y = x.clone()
    y[:, 0] = 0
    y[1:] *= 2
    return y
def c_isinstance_filter(x):
    items = [x, 1, 2.0]
    return sum(i for i in items if isinstance(i, (int, float))) + x
def c_nested_config(x):
    cfg = {"layers": [{"scale": 2}, {"scale": 3}]}
    for layer in cfg["layers"]:
        x = x * layer["scale"]
    return x
def c_inplace_method_chain(x):
    y = x.clone()
    y.add_(1).mul_(2).clamp_(max=5)
    return y
def c_where_masked_fill(x):
    return torch.where(x > 0, x, torch.zeros_like(x)).masked_fill(x < -1, -1.0)
'''

DYNAMO_STYLE_PROGRAMS = tuple(line[4:line.index("(")] for line in DYNAMO_STYLE_SRC.splitlines()
                              if line.startswith("def "))
