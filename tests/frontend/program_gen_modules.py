"""Hypothesis strategy for compiled module instances: one user nn.Module class, several instances, one call sequence.

`module_programs()` draws the source of a module defining `Net` (a user nn.Module) and `scenario(compile, x)`. Net's
members are drawn from Linear (bias=None sometimes), LayerNorm, Embedding, BatchNorm1d, a ModuleList (looped over,
or indexed), a ModuleDict and a Sequential (called, or sliced); its forward reads int / float / str / bool
attributes, a tensor attribute and a config object, counts its calls in an attribute, branches on `self.training`,
walks `self.parameters()`, and looks for members some instances add later (a buffer, a submodule named `a-b`).
scenario builds several instances that differ as users' instances do (another attribute value, another list length,
a tied weight, a forward hook, pre-hook or with_kwargs pre-hook on one instance or on its submodule, a hook that
counts calls in a module attribute, eval(), an odd member added with add_module, a buffer registered), compiles each
model (`compile(m)`, or in place, `m.compile()`) or one `lambda m, x: m(x)`, and calls them in a drawn order, on
batches of drawn sizes, changing instances between calls (a parameter replaced or frozen, the whole model frozen, a
submodule replaced, a layer appended or inserted, a head added, a buffer registered, an attribute or the shared
config written, a hook added or every hook removed through its handle, eval() / train()) and calling the first again
at the end. It returns the outputs and the instances, so the test compares values, the gradients of every parameter
and the buffers.

The text is written against `torch`, as program_gen_classes.py's is, so one source runs on minitorch2 and on
torch; `compile(fn, in_place=False)` is the harness's (torch.compile / minitorch2.compile with a counter, or
Module.compile in place, or the identity for eager).
"""
from hypothesis import strategies as st

PRELUDE = '''class Config:
    def __init__(self, k):
        self.k = k


SHARED = Config(2)


def seed(m, k):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_((torch.arange(p.numel(), dtype=torch.float32) * (0.37 + 0.11 * (i + k))).sin().reshape(p.shape))
    return m
'''

# member name -> (constructor line, forward lines); `{bias}` and the arguments are Net's __init__ parameters
MEMBERS = {
    "norm": ("self.norm = torch.nn.LayerNorm(4)", ["h = self.norm(h)"]),
    "emb": ("self.emb = torch.nn.Embedding(5, 4)", ["h = h + self.emb(torch.arange(h.shape[0]) % 5)"]),
    "layers": ("self.layers = torch.nn.ModuleList([torch.nn.Linear(4, 4) for _ in range(depth)])",
               ["for layer in self.layers:", "    h = layer(h).tanh()"]),
    "heads": ("self.heads = torch.nn.ModuleDict({name: torch.nn.Linear(4, 4, bias=bias) for name in heads})",
              ["h = sum(head(h) for head in self.heads.values()) / len(self.heads)"]),
    "seq": ("self.seq = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh(), torch.nn.Linear(4, 4))",
            ["h = self.seq(h)"]),
    "seq_slice": ("self.seq = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Tanh(), torch.nn.Linear(4, 4))",
                  ["h = self.seq[:2](h) + self.seq[-1](h)"]),
    "last_layer": ("self.layers = torch.nn.ModuleList([torch.nn.Linear(4, 4) for _ in range(depth)])",
                   ["if len(self.layers):", "    h = self.layers[-1](h) + self.layers[0](h)"]),
    "batch_norm": ("self.bn = torch.nn.BatchNorm1d(4)", ["h = self.bn(h) + h"]),  # (residual: no bias gradient of 0)
}
# members two choices build the same way (only one of them is drawn)
SAME_MEMBER = {"seq": "seq_slice", "seq_slice": "seq", "layers": "last_layer", "last_layer": "layers"}
# attribute reads of forward: (lines)
READS = {
    "scale": ["h = h * self.scale"],
    "k": ["h = h + self.k"],
    "mode": ["h = h.tanh() if self.mode == 'tanh' else h.sigmoid()"],
    "flag": ["if self.flag:", "    h = h - 1"],
    "cfg": ["h = h * self.cfg.k"],
    "training": ["h = h * 2 if self.training else h - 0.5"],
    "walk": ["h = h + sum(p.sum() for p in self.parameters()) * 0.01"],
    "shift": ["if hasattr(self, 'shift'):", "    h = h + self.shift"],
    "odd": ["if hasattr(self, 'a-b'):", "    h = getattr(self, 'a-b')(h)"],
    "calls": ["self.calls += 1", "h = h + self.calls * 0.1"],
    "temp": ["h = h / self.temp"],
}
# constructor arguments an instance may change, with the values drawn
ARGUMENTS = {"depth": [0, 1, 2, 3], "scale": [0.5, 1.0, 2.5], "k": [1, 2, 3], "mode": ["'tanh'", "'sigmoid'"],
             "flag": [True, False], "cfg": ["SHARED", "Config(2)", "Config(3)"], "bias": [True, False],
             "heads": ["('a', 'b')", "('a',)", "('b', 'a', 'c')"]}
DEFAULTS = {"depth": 2, "scale": 1.0, "k": 1, "mode": "'tanh'", "flag": True, "cfg": "SHARED", "bias": True,
            "heads": "('a', 'b')"}

# changes made to an instance before it is seeded (the structure) or between calls
BUILD_CHANGES = {
    "tie": "{m}.out.weight = {m}.inp.weight",
    "hook": "HANDLES.append({m}.register_forward_hook(lambda mod, args, out: out * 3))",
    "pre_hook": "HANDLES.append({m}.register_forward_pre_hook(lambda mod, args: (args[0] + 1,)))",
    "kw_pre_hook": "{m}.register_forward_pre_hook(lambda mod, args, kwargs: ((args[0] * 2,), kwargs), "
                   "with_kwargs=True)",
    "sub_hook": "HANDLES.append({m}.out.register_forward_hook(lambda mod, args, out: out - 2))",
    "eval": "{m}.eval()",
    "odd": "{m}.add_module('a-b', torch.nn.Linear(4, 4))",
    "shift": "{m}.register_buffer('shift', torch.full((4,), 0.5))",
    "count_hook": "{m}.register_forward_hook(lambda mod, args, out: setattr(mod, 'seen', getattr(mod, 'seen', 0) + 1))",
}
LATE_CHANGES = {
    "freeze": "{m}.inp.weight.requires_grad_(False)",
    "replace": "{m}.inp.weight = torch.nn.Parameter({m}.inp.weight.detach() * 2)",
    "shift": "{m}.register_buffer('shift', torch.full((4,), -1.0))",
    "scale": "{m}.scale = {m}.scale + 1",
    "hook": "{m}.register_forward_hook(lambda mod, args, out: out + 1)",
    "eval": "{m}.eval()",
    "train": "{m}.train()",
    "unhook": "[handle.remove() for handle in HANDLES]",
    "frozen": "{m}.requires_grad_(False)",
    "k": "{m}.k = {m}.k * 2",
    "mode": "{m}.mode = 'sigmoid'",
    "cfg": "{m}.cfg.k = {m}.cfg.k + 1",
    "swap": "{m}.inp = seed(torch.nn.Linear(4, 4, bias=False), 7)",
    "temp": "{m}.temp = torch.tensor(3.0)",
}
# changes between calls for the members that have them
MEMBER_CHANGES = {"layers": "{m}.layers.append(seed(torch.nn.Linear(4, 4), 8))",
                  "last_layer": "{m}.layers.insert(0, seed(torch.nn.Linear(4, 4), 9))",
                  "heads": "{m}.heads['z'] = seed(torch.nn.Linear(4, 4), 10)"}


# what a call passes: the input, or a batch of another size (a recompile, dynamic as Dynamo's automatic dynamic)
CALL_INPUTS = ["x", "x", "x", "x[:1]", "torch.cat([x, x])"]


def _net_class(members, reads):
    init = ["class Net(torch.nn.Module):",
            "    def __init__(self, " + ", ".join(f"{k}={v}" for k, v in DEFAULTS.items()) + "):",
            "        super().__init__()",
            "        self.inp = torch.nn.Linear(4, 4, bias=bias)",
            "        self.out = torch.nn.Linear(4, 4, bias=False)",
            "        self.scale, self.k, self.mode, self.flag, self.cfg = scale, k, mode, flag, cfg",
            "        self.calls, self.temp = 0, torch.tensor(scale)  # (a tensor attribute, not a buffer)"]
    init += ["        " + MEMBERS[name][0] for name in members]
    forward = ["    def forward(self, x):", "        h = self.inp(x)"]
    body = [line for name in members for line in MEMBERS[name][1]] + [line for name in reads for line in READS[name]]
    forward += ["        " + line for line in body] + ["        return self.out(h)"]
    return "\n".join(init) + "\n\n" + "\n".join(forward) + "\n"


@st.composite
def module_programs(draw, max_instances=4):
    """Source of PRELUDE, Net and `scenario(compile, x)` returning (outputs, instances)."""
    members = draw(st.lists(st.sampled_from(sorted(MEMBERS)), unique=True, max_size=3))
    members = [m for i, m in enumerate(members) if SAME_MEMBER.get(m) not in members[:i]]
    members.sort(key=lambda m: m != "batch_norm")  # (first: BatchNorm of saturated tanh features is ill-conditioned)
    reads = draw(st.lists(st.sampled_from(sorted(READS)), unique=True, min_size=1, max_size=4))
    count = draw(st.integers(2, max_instances))
    lines = ["def scenario(compile, x):", "    HANDLES = []"]
    mode = draw(st.sampled_from(["models", "function", "in_place"]))
    # (model.compile() of a hooked model: test_module_instance_fuzz_s39.py's strict xfail)
    build_changes = {k: v for k, v in BUILD_CHANGES.items() if mode != "in_place" or "hook" not in k}
    late_changes = {k: v for k, v in LATE_CHANGES.items() if mode != "in_place" or "hook" not in k}
    reads_late = set()
    for i in range(count):
        changed = {}
        if i:
            for name in draw(st.lists(st.sampled_from(sorted(ARGUMENTS)), unique=True, max_size=2)):
                changed[name] = draw(st.sampled_from(ARGUMENTS[name]))
        lines.append(f"    m{i} = Net(" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")")
        if i:
            for change in draw(st.lists(st.sampled_from(sorted(build_changes)), unique=True, max_size=2)):
                lines.append("    " + build_changes[change].format(m=f"m{i}"))
                reads_late.update({"odd", "shift"} & {change})
        lines.append(f"    seed(m{i}, {i})")
    if mode == "models":
        lines += ["    compiled = {}", "", "    def call(m, x):", "        if id(m) not in compiled:",
                  "            compiled[id(m)] = compile(m)", "        return compiled[id(m)](x)", ""]
    elif mode == "in_place":  # model.compile(): the model itself calls a compiled __call__
        lines += [f"    for m in ({', '.join(f'm{i}' for i in range(count))}):", "        compile(m, in_place=True)",
                  "    call = lambda m, x: m(x)  # noqa: E731"]
    else:
        lines.append("    call = compile(lambda m, x: m(x))")
    lines.append("    outs = []")
    calls = [0, *draw(st.permutations(range(1, count))), 0]
    for position, i in enumerate(calls):
        batch = draw(st.sampled_from([a for a in CALL_INPUTS if a != "x[:1]" or "batch_norm" not in members]))
        lines.append(f"    outs.append(call(m{i}, {batch}))")
        if 0 < position < len(calls) - 1 and draw(st.booleans()):
            changes = {**late_changes, **{k: v for k, v in MEMBER_CHANGES.items() if k in members}}
            change = draw(st.sampled_from(sorted(changes)))
            lines.append("    " + changes[change].format(m=f"m{draw(st.integers(0, count - 1))}"))
            reads_late.update({"shift"} & {change})
    lines.append("    return outs, [" + ", ".join(f"m{i}" for i in range(count)) + "]")
    reads = reads + sorted(reads_late - set(reads))
    return PRELUDE + "\n\n" + _net_class(members, reads) + "\n\n" + "\n".join(lines) + "\n"
