"""Programs of real projects' shapes around dataclasses, class attributes and in-place view methods.

A config dataclass read (or built) in forward as nanoGPT's GPTConfig, an output dataclass returned as HF's
ModelOutput, dataclasses.fields/astuple/asdict/replace, frozen dataclasses and default factories; a registry class
attribute counting calls (a side effect Dynamo replays after the graph); `x.t_()`, `unsqueeze_`, `squeeze_`,
`transpose_` and `as_strided_` on intermediates and inputs; ChainMap.new_child, operator.attrgetter over a dotted
path, namedtuple.count over tensors and an attribute set on a function made in the frame.

Each is a function of two (3,) float tensors `a`, `b`, run by test_corpus_dataclasses.py through torch.compile and
minitorch2.compile under a CompileCounter (values, frame_count, op_count and graph breaks compared). The names are
those of `torch` (minitorch2 or torch), `nn`, `F` and `dynamo` (torch._dynamo or frontend) given to exec.
"""

DATACLASS_SRC = r'''
import collections, dataclasses, operator, typing

@dataclasses.dataclass
class GPTConfig:
    block_size: int = 8
    n_embd: int = 3
    dropout: float = 0.0
    bias: bool = True
@dataclasses.dataclass
class ModelOutput:
    logits: typing.Any = None
    loss: typing.Any = None
@dataclasses.dataclass(frozen=True)
class FrozenCfg:
    k: int
    name: str = "f"
@dataclasses.dataclass
class Batch:
    xs: list = dataclasses.field(default_factory=list)
    tag: str = "train"
@dataclasses.dataclass
class Scaled:
    base: float
    double: float = dataclasses.field(init=False)
    def __post_init__(self):
        self.double = self.base * 2
@dataclasses.dataclass
class LlamaConfig(GPTConfig):
    n_kv_heads: int = 1
    @property
    def head_dim(self):
        return self.n_embd // self.n_kv_heads
CFG = GPTConfig(block_size=4, n_embd=3, dropout=0.0, bias=False)

class Counter:
    calls = 0
    def __init__(self):
        self.seen = Counter.calls
class Registry:
    names = []
    @classmethod
    def register(cls, name):
        cls.names.append(name)
        return len(cls.names)
class Tally:
    n = 0
    @classmethod
    def bump(cls):
        cls.n = cls.n + 1
        return cls.n

# ---- a config dataclass read or made in forward
def dc_global_config_read(a, b):
    h = a * CFG.n_embd
    return h + b if CFG.bias else h - b * CFG.block_size
def dc_config_made_in_frame(a, b):
    cfg = GPTConfig(n_embd=4)
    return a * cfg.n_embd + b * cfg.block_size
def dc_config_subclass_property(a, b):
    cfg = LlamaConfig(n_embd=6, n_kv_heads=2)
    return a * cfg.head_dim + b * cfg.block_size
def dc_post_init_field(a, b):
    s = Scaled(1.5)
    return a * s.double + b * s.base
def dc_frozen_config(a, b):
    f = FrozenCfg(3)
    return a * f.k + b * len(f.name)
def dc_frozen_hash_in_set(a, b):
    s = {FrozenCfg(1), FrozenCfg(1), FrozenCfg(2)}
    return a * len(s) + b
def dc_default_factory_list(a, b):
    batch = Batch()
    batch.xs.append(a)
    batch.xs.append(b * 2)
    return sum(batch.xs)
def dc_fields_names(a, b):
    names = [f.name for f in dataclasses.fields(GPTConfig)]
    return a * len(names) + b
def dc_astuple_asdict(a, b):
    cfg = GPTConfig(2, 5)
    return a * sum(dataclasses.astuple(cfg)) + b * len(dataclasses.asdict(cfg))
def dc_replace(a, b):
    cfg = dataclasses.replace(CFG, n_embd=7)
    return a * cfg.n_embd + b * CFG.n_embd
def dc_eq(a, b):
    return a * 2 if GPTConfig(4) == GPTConfig(4) else b
def dc_repr_len(a, b):
    return a * len(repr(FrozenCfg(1)))
def dc_is_dataclass(a, b):
    return a + b if dataclasses.is_dataclass(CFG) and not dataclasses.is_dataclass(a) else a - b

# ---- an output dataclass returned
def dc_output_returned(a, b):
    logits = a * 2 + b
    return ModelOutput(logits=logits, loss=(logits - b).pow(2).mean())
def dc_output_default_none(a, b):
    return ModelOutput(logits=a.relu() + b)
def dc_output_field_updated(a, b):
    out = ModelOutput(a + 1)
    out.loss = out.logits.sum() * 0.5
    return out
def dc_output_frozen_in_tuple(a, b):
    out = ModelOutput(a * b)
    return FrozenCfg(3, "out"), out, out.logits.sum()

# ---- class attributes written in the frame
def ca_counter_calls(a, b):
    Counter.calls += 1
    return a * Counter.calls + b
def ca_instance_sees_pending_class_write(a, b):
    Counter.calls += 1
    c = Counter()
    return a * c.seen + b * Counter.calls
def ca_classmethod_bump(a, b):
    n = Tally.bump()
    return a * n + b * Tally.n
def ca_instance_reads_pending_class_write(a, b):
    Tally.n = 5
    t = Tally()
    return a * t.n + b * type(t).n
def ca_registry_list_append(a, b):
    n = Registry.register("block")
    return a * n + b

# ---- in-place view (metadata) methods
def ip_t_intermediate(a, b):
    m = (a + 1).view(1, 3)
    m.t_()
    return m * b.view(3, 1)
def ip_unsqueeze_squeeze_intermediate(a, b):
    m = a * 2
    m.unsqueeze_(0)
    m.unsqueeze_(-1)
    m.squeeze_(0)
    return m + b.view(3, 1)
def ip_transpose_intermediate(a, b):
    m = torch.outer(a, b)
    m.transpose_(0, 1)
    return m.sum(0)
def ip_as_strided_intermediate(a, b):
    m = (a * b).clone()
    m.as_strided_((2,), (1,))
    return m + 1

# ---- stdlib odds and ends
def co_chainmap_new_child(a, b):
    base = collections.ChainMap({"x": a})
    child = base.new_child({"y": b})
    return child["x"] + child["y"] * len(child.maps)
def co_chainmap_new_child_constants_and_parents(a, b):
    defaults = collections.ChainMap({"lr": 0.1, "wd": 0.0})
    run = defaults.new_child({"lr": 0.5})
    empty = run.new_child()
    empty["wd"] = 2.0
    return a * run["lr"] + b * empty["wd"] + a * empty.parents["wd"] + len(empty.maps)
def mo_attrgetter_dotted_config(a, b):
    out = ModelOutput(logits=CFG)
    return a * operator.attrgetter("logits.n_embd")(out) + b
def nt_count_over_tensors(a, b):
    Pair = collections.namedtuple("Pair", ["left", "right"])
    p = Pair(a, None)
    return p.left * (p.count(None) + 1) + b
def fn_attribute_set_in_frame(a, b):
    def f(t):
        return t * 2
    f.scale = 4
    return f(a) * f.scale + b
def fn_attribute_kept_across_a_break(a, b):
    def f(t):
        return t * f.scale
    f.scale = 3
    c = f(a)
    dynamo.graph_break()
    f.scale = f.scale + 1
    return c + f(b) + len(f.__name__)
'''
