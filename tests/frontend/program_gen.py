"""Hypothesis strategies that write small Python programs, as source text, for fuzzing the frontend.

`programs()` draws the source of a module defining `f(x[, y[, z]])` over same-shaped
float tensors, plus up to two helper functions `h0`, `h1` that f calls. The
statements mix what capture must get right: straight-line tensor ops, for loops
over range(k) and counted while loops, `with torch.no_grad()` blocks, branches on
shapes (`if x.shape[0] > 2`, guarded and specialized) and on data (`if a.sum() > 0`,
a graph break), calls to the helpers (inlined, sometimes with a value on the stack),
lists, tuples and dicts built and unpacked, in-place updates of local tensors,
print calls (their output must match eager's) and `dynamo.graph_break()`.

`trust_programs()` draws `f(m, a, x[, y[, z]])`: the same statements, plus Python
floats that print badly (`float('nan')`, `float('inf')`, `-0.0`, the argument `a`,
the global `G0`, the module attribute `getattr(m, "my-scale")`, whose name is not
an identifier) scaling tensors and deciding branches, and tensors made at the
default dtype (`torch.ones(x.shape)`). The test changes those values, the default
dtype and grad mode between calls, so every guard on them is exercised.

`aliasing_programs()` draws `f(x, y[, z])` whose statements change some arguments in
place (add_, mul_, copy_, zero_, relu_, slice assignment, also through a view of the
argument or under no_grad) and read others; `alias_calls()` draws how each call's
arguments share memory (PATTERNS: one tensor twice, overlapping, interleaved,
transposed or expanded views of one base, a view and its base) and whether the base
needs grad, and `alias_inputs()` builds those arguments on minitorch2 or torch alike.

`adversarial_programs()` draws `f(x, k, nt, lst, d=..., *, kw=..., **extra)` reading
numbers from a global, a module's and a class's attribute, a closure cell, a namedtuple
field, defaults and an odd **kwargs key, which the test changes before every call
(ADVERSARIAL_PRELUDE's set_slots), among raises, appends, generator expressions and
no_grad blocks.

The late classes (custom autograd.Function, dataclasses and namedtuples, sizes in torch.tensor, mutated
deque/bytearray/array/set, global, class-attribute and nonlocal writes, generators, autocast, optimizer steps with
lr schedulers) have their grammar in program_gen_classes.py, built on ProgramWriter (test_fuzz_new_classes.py).

The text is written against the names `torch` and `dynamo`, so test_program_fuzz.py
runs the same source on minitorch2 (with frontend as dynamo) and on torch (with
torch._dynamo). Every value stays a tensor of the input shape or a Python int,
so any generated program is valid; ops are bounded (tanh, sin, sigmoid, relu,
scaling by 0.5) so values stay finite through loops.
"""
from dataclasses import dataclass, field

import numpy as np
from hypothesis import strategies as st

UNARY = ["torch.relu({a})", "{a}.sin()", "{a}.tanh()", "torch.sigmoid({a})", "-{a}", "{a}.abs()", "{a} * 0.5",
         "({a} + 1) / 2", "torch.clamp({a}, -1.0, 1.0)", "{a}.neg().exp().tanh()"]
BINARY = ["{a} + {b}", "{a} - {b}", "{a} * {b}", "torch.maximum({a}, {b})", "torch.where({a} > {b}, {a}, {b})",
          "({a} * 0.5 + {b} * 0.25)"]
SCALAR = ["{a} + {s}", "{a} * {s}", "{s} - {a}", "{a} / ({s} + 1)"]
FLOAT = ["{a} * {f}", "{a} + {f}", "{f} - {a}", "torch.where({a} > 0, {a}, {a} * {f})", "{a} + torch.ones({a}.shape)"]
FLOAT_SOURCES = ["a", "G0", "float('nan')", "float('inf')", "-0.0", 'getattr(m, "my-scale")']


@dataclass
class Scope:
    """Names visible at a point of the program: tensor variables and Python int expressions."""
    tensors: list
    ints: list = field(default_factory=lambda: ["1", "2", "3"])
    floats: list = field(default_factory=list)  # Python float expressions (trust_programs only)

    def child(self):
        return Scope(list(self.tensors), list(self.ints), list(self.floats))


class ProgramWriter:
    """Writes one function body, statement by statement, drawing each choice from hypothesis."""

    def __init__(self, draw, helpers, max_statements, allow_effects=True):
        self.draw = draw
        self.helpers = helpers  # [(name, arity)] callable from this body
        self.lines = []
        self.counter = 0
        self.budget = max_statements
        self.allow_effects = allow_effects

    def fresh(self, prefix="v"):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, depth, text):
        self.lines.append("    " * depth + text)

    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def expr(self, scope):
        kind = self.pick(["unary", "binary", "scalar"] + (["float"] if scope.floats else []))
        a = self.pick(scope.tensors)
        if kind == "float":
            return self.pick(FLOAT).format(a=a, f=self.pick(scope.floats))
        if kind == "unary":
            return self.pick(UNARY).format(a=a)
        if kind == "binary":
            return self.pick(BINARY).format(a=a, b=self.pick(scope.tensors))
        return self.pick(SCALAR).format(a=a, s=self.pick(scope.ints))

    def assign(self, depth, scope, value):
        name = self.fresh()
        self.emit(depth, f"{name} = {value}")
        scope.tensors.append(name)
        return name

    def block(self, depth, scope, n):
        for _ in range(n):
            if self.budget <= 0:
                return
            self.budget -= 1
            self.statement(depth, scope)

    def statement(self, depth, scope):
        kinds = ["op", "op", "op", "loop", "while", "shape_if", "data_if", "containers", "inplace", "int", "no_grad"]
        if self.helpers:
            kinds.append("call")
        if self.allow_effects:
            kinds += ["print", "break"]
        if scope.floats:
            kinds += ["float", "float_if"]
        kind = self.pick(kinds if depth < 3 else ["op", "containers", "int"])
        getattr(self, "stmt_" + kind)(depth, scope)

    def stmt_op(self, depth, scope):
        self.assign(depth, scope, self.expr(scope))

    def stmt_int(self, depth, scope):
        name = self.fresh("n")
        tensor = self.pick(scope.tensors)
        value = self.pick([f"{tensor}.shape[0] + 1", f"{tensor}.dim()", f"len([{tensor}, {tensor}])",
                           f"{self.pick(scope.ints)} * 2 - 1", f"min({tensor}.shape)"])
        self.emit(depth, f"{name} = {value}")
        scope.ints.append(name)

    def stmt_loop(self, depth, scope):
        target = self.assign(depth, scope, self.expr(scope))
        var = self.fresh("i")
        self.emit(depth, f"for {var} in range({self.draw(st.integers(0, 3))}):")
        inner = scope.child()
        inner.ints.append(var)
        self.block(depth + 1, inner, self.draw(st.integers(0, 2)))
        self.emit(depth + 1, f"{target} = {target} * 0.5 + {self.expr(inner)}")

    def stmt_while(self, depth, scope):
        target = self.assign(depth, scope, self.expr(scope))
        counter = self.fresh("k")
        self.emit(depth, f"{counter} = 0")
        self.emit(depth, f"while {counter} < {self.draw(st.integers(0, 2))}:")
        inner = scope.child()
        inner.ints.append(counter)
        self.block(depth + 1, inner, self.draw(st.integers(0, 2)))
        self.emit(depth + 1, f"{target} = {target} * 0.5 + {self.expr(inner)}")
        self.emit(depth + 1, f"{counter} += 1")

    def stmt_no_grad(self, depth, scope):
        target = self.fresh()
        self.emit(depth, "with torch.no_grad():")
        inner = scope.child()
        self.block(depth + 1, inner, self.draw(st.integers(0, 2)))
        self.emit(depth + 1, f"{target} = {self.expr(inner)}")
        scope.tensors.append(target)

    def _branches(self, depth, scope, condition):
        target = self.fresh()
        self.emit(depth, f"if {condition}:")
        for header in (None, "else:"):
            if header:
                self.emit(depth, header)
            inner = scope.child()
            self.block(depth + 1, inner, self.draw(st.integers(0, 2)))
            self.emit(depth + 1, f"{target} = {self.expr(inner)}")
        scope.tensors.append(target)

    def stmt_shape_if(self, depth, scope):
        a = self.pick(scope.tensors)
        condition = self.pick([f"{a}.shape[0] > 2", f"{a}.shape[1] == {self.draw(st.integers(1, 4))}",
                               f"{a}.dim() == 2 and {a}.shape[0] < {a}.shape[1]", f"{a}.numel() % 2 == 0"])
        self._branches(depth, scope, condition)

    def stmt_data_if(self, depth, scope):
        a = self.pick(scope.tensors)
        self._branches(depth, scope, self.pick([f"{a}.sum() > 0", f"{a}.mean() < 0.1", f"({a} > 0).any()"]))

    def stmt_containers(self, depth, scope):
        a, b = self.pick(scope.tensors), self.pick(scope.tensors)
        kind = self.pick(["list", "tuple", "dict", "append"])
        name = self.fresh("c")
        if kind == "list":
            p, q = self.fresh(), self.fresh()
            self.emit(depth, f"{name} = [{a}, {b}]")
            self.emit(depth, f"{p}, {q} = {name}")
            scope.tensors += [p, q]
        elif kind == "tuple":
            self.emit(depth, f"{name} = ({a}, {b}, {self.expr(scope)})")
            self.assign(depth, scope, f"{name}[0] * {name}[-1] + {name}[1]")
        elif kind == "dict":
            self.emit(depth, f'{name} = {{"p": {a}, "q": {b}}}')
            self.assign(depth, scope, f'{name}["p"] - {name}["q"] * len({name})')
        else:
            self.emit(depth, f"{name} = []")
            self.emit(depth, f"{name}.append({a})")
            self.emit(depth, f"{name}.append({self.expr(scope)})")
            self.assign(depth, scope, f"{name}[0] + {name}[-1]")

    def stmt_inplace(self, depth, scope):
        name = self.assign(depth, scope, f"{self.pick(scope.tensors)}.clone()")
        self.emit(depth, self.pick([f"{name}.mul_(0.5)", f"{name}.add_({self.pick(scope.tensors)})",
                                    f"{name} += 1", f"{name}.clamp_(-1.0, 1.0)"]))

    def stmt_call(self, depth, scope):
        helper, arity = self.pick(self.helpers)
        args = ", ".join(self.pick(scope.tensors) for _ in range(arity))
        # In `a * 0.5 + h(...)` the partial sum is on the stack while h runs, so a break inside h
        # must carry it across.
        prefix = self.pick(["", f"{self.pick(scope.tensors)} * 0.5 + "])
        self.assign(depth, scope, f"{prefix}{helper}({args})")

    def stmt_float(self, depth, scope):
        name = self.fresh("q")
        f, g = self.pick(scope.floats), self.pick(scope.floats)
        self.emit(depth, f"{name} = {self.pick([f'{f} * 0.5', f'{f} + {g}', f'-{f}', f'max({f}, {g})'])}")
        scope.floats.append(name)

    def stmt_float_if(self, depth, scope):
        f = self.pick(scope.floats)
        self._branches(depth, scope, self.pick([f"{f} > 0", f"{f} == {f}", f"{f} < 1.0"]))

    def stmt_print(self, depth, scope):
        self.emit(depth, f'print("{self.fresh("p")}", {self.pick(scope.ints)}, {self.pick(scope.tensors)}.shape[0])')

    def stmt_break(self, depth, scope):
        self.emit(depth, "dynamo.graph_break()")

    def result(self, scope):
        kind = self.pick(["one", "tuple", "list", "dict"])
        a, b = self.pick(scope.tensors), self.pick(scope.tensors)
        return {"one": a, "tuple": f"({a}, {b})", "list": f"[{a}, {self.expr(scope)}]",
                "dict": f'{{"out": {a}, "n": {self.pick(scope.ints)}}}'}[kind]


@st.composite
def programs(draw, max_statements=6):
    """Source text of a module defining helpers h0, h1 and `f`; returns (source, number of tensor args)."""
    lines = []
    helpers = []
    for index in range(draw(st.integers(0, 2))):
        arity = draw(st.integers(1, 2))
        params = ["a", "b"][:arity]
        writer = ProgramWriter(draw, list(helpers), draw(st.integers(0, 3)))
        scope = Scope(list(params))
        writer.block(1, scope, writer.budget)
        lines.append(f"def h{index}({', '.join(params)}):")
        lines += writer.lines
        lines.append(f"    return {writer.expr(scope)}")
        helpers.append((f"h{index}", arity))
    n_args = draw(st.integers(1, 3))
    params = ["x", "y", "z"][:n_args]
    writer = ProgramWriter(draw, helpers, draw(st.integers(1, max_statements)))
    scope = Scope(list(params))
    writer.block(1, scope, writer.budget)
    lines.append(f"def f({', '.join(params)}):")
    lines += writer.lines
    lines.append(f"    return {writer.result(scope)}")
    return "\n".join(lines) + "\n", n_args


@st.composite
def trust_programs(draw, max_statements=6):
    """Source of `f(m, a, x[, y[, z]])` whose statements also use FLOAT_SOURCES; returns (source, tensor args)."""
    n_args = draw(st.integers(1, 3))
    params = ["x", "y", "z"][:n_args]
    writer = ProgramWriter(draw, [], draw(st.integers(1, max_statements)))
    scope = Scope(list(params), floats=list(FLOAT_SOURCES))
    writer.block(1, scope, writer.budget)
    last = writer.assign(1, scope, writer.pick(FLOAT).format(a=writer.pick(scope.tensors), f=writer.pick(scope.floats)))
    lines = [f"def f(m, a, {', '.join(params)}):", *writer.lines, f"    return ({writer.result(scope)}, {last})"]
    return "\n".join(lines) + "\n", n_args


shapes = st.tuples(st.integers(1, 4), st.integers(1, 4))


# ---- aliasing programs ------------------------------------------------------------------------
# aliasing_programs() draws `f(x, y[, z])` whose statements change some arguments in place (add_, mul_, copy_,
# zero_, relu_, slice assignment, through a view of the argument too) and read the others, and returns
# arguments, views of them and locals. alias_calls() draws how each call's arguments share memory (PATTERNS);
# alias_inputs() builds them, on minitorch2 or torch alike, from one seed.

ARG_INPLACE = ["{a}.add_({b})", "{a}.add_({b} * 0.5)", "{a}.add_(1.0)", "{a}.mul_(0.5)", "{a}.mul_({b})",
               "{a}.copy_({b})", "{a}.copy_({b} + 1)", "{a}.zero_()", "{a}.relu_()", "{a}.sub_({b}.sin())",
               "{a}[0] = {b}[-1]", "{a}[:, -1:] = {b}[:, :1] * 2", "{a}[0:1] += 1", "{a}[0].mul_(-1.0)",
               "{a}.t().mul_(2.0)", "{a}[:].add_({b}.tanh())"]
SAME_SHAPE_VIEWS = ["{a}[:]", "{a}.view_as({a})", "{a}.t().t()", "{a}.detach()", "{a}.expand({a}.shape)"]


class AliasingWriter(ProgramWriter):
    """A ProgramWriter over arguments that may alias: in-place changes to arguments and to views of them
    among the reads. Every tensor it names has the arguments' shape."""

    def __init__(self, draw, params, max_statements):
        super().__init__(draw, [], max_statements)
        self.params = params

    def statement(self, depth, scope):
        kind = self.pick(["arg_inplace", "arg_inplace", "op", "op", "view", "view_inplace", "inplace", "break",
                          "no_grad_inplace"])
        getattr(self, "stmt_" + kind)(depth, scope)

    def stmt_arg_inplace(self, depth, scope):
        self.emit(depth, self.pick(ARG_INPLACE).format(a=self.pick(self.params), b=self.pick(scope.tensors)))

    def stmt_view(self, depth, scope):
        self.assign(depth, scope, self.pick(SAME_SHAPE_VIEWS).format(a=self.pick(self.params)))

    def stmt_view_inplace(self, depth, scope):
        view = self.pick(SAME_SHAPE_VIEWS).format(a=self.pick(self.params))
        self.emit(depth, self.pick(ARG_INPLACE).format(a=f"({view})", b=self.pick(scope.tensors)))

    def stmt_no_grad_inplace(self, depth, scope):
        self.emit(depth, "with torch.no_grad():")
        self.stmt_arg_inplace(depth + 1, scope)


@st.composite
def aliasing_programs(draw, max_statements=5):
    """Source of `f(x, y[, z])` mixing in-place changes of arguments with reads; returns (source, args)."""
    n_args = draw(st.integers(2, 3))
    params = ["x", "y", "z"][:n_args]
    writer = AliasingWriter(draw, params, draw(st.integers(1, max_statements)))
    scope = Scope(list(params))
    writer.block(1, scope, writer.budget)
    if writer.draw(st.booleans()):  # a read after the last change, so values computed late are returned too
        writer.stmt_op(1, scope)
    returned = writer.draw(st.lists(st.sampled_from(scope.tensors), min_size=1, max_size=3))
    lines = [f"def f({', '.join(params)}):", *writer.lines, f"    return ({', '.join(returned)},)"]
    return "\n".join(lines) + "\n", n_args


# How one call's arguments share memory. Two arguments, `pair` (i, j), are made from one base; the others are
# tensors of their own ("same" may take them all). Shapes are the call's (n, m) throughout.
PATTERNS = {
    "distinct": "every argument a tensor of its own",
    "same": "one tensor passed for the pair (or for every argument)",
    "shifted": "base[:-k] and base[k:] of an (n + k, m) base: overlapping rows, or (k = n) adjacent ones",
    "diagonal": "base[:-1, :-1] and base[1:, 1:]",
    "interleaved": "base[::2] and base[1::2] (or the columns'): one storage, no common element",
    "transposed": "base and base.t() of a square base",
    "expanded": "two expand()s of one (1, m) or (n, 1) base: in-place changes to them raise",
    "view_and_base": "base and base[:] (or base.view(n, m))",
    "twin_views": "base[:] and base[:]: two objects, one geometry",
}
# the base: plain; leaf * 1 with leaf.requires_grad (drawn twice as often); a leaf needing grad, which eager
# lets change in place only under no_grad
GRAD_MODES = ["none", "nonleaf", "nonleaf", "leaf"]


@dataclass
class AliasCall:
    pattern: str
    pair: tuple
    grad: str
    variant: bool  # each pattern's alternative (k = n, columns, (n, 1), view(), every argument)
    seed: int

    def __str__(self):
        return f"{self.pattern}{self.pair}{'*' if self.variant else ''} grad={self.grad}"


@st.composite
def alias_calls(draw, n_args, min_calls=3, max_calls=5):
    """The calls an example makes, in order: how each call's arguments alias."""
    calls = []
    for _ in range(draw(st.integers(min_calls, max_calls))):
        pair = tuple(draw(st.permutations(range(n_args)))[:2])
        calls.append(AliasCall(draw(st.sampled_from(sorted(PATTERNS))), pair, draw(st.sampled_from(GRAD_MODES)),
                               draw(st.booleans()), draw(st.integers(0, 2**16))))
    return calls


def alias_inputs(lib, call, shape, n_args):
    """(leaves that get gradients, bases, arguments) of one call, built on lib (minitorch2 or torch): the same
    values on either for one call."""
    rng = np.random.default_rng(call.seed)
    n, m = (shape[0], shape[0]) if call.pattern == "transposed" else shape
    leaves, bases = [], []

    def tensor(rows, cols):
        value = lib.tensor(rng.standard_normal((rows, cols)).astype(np.float32))
        if call.grad == "none":
            bases.append(value)
        else:
            leaves.append(value.requires_grad_())
            bases.append(value if call.grad == "leaf" else value * 1)
        return bases[-1]

    args = [None] * n_args
    i, j = call.pair
    k = n if call.variant else 1
    if call.pattern == "same":
        shared = tensor(n, m)
        args = [shared if call.variant or a in call.pair else None for a in range(n_args)]
    elif call.pattern == "shifted":
        base = tensor(n + k, m)
        args[i], args[j] = base[:-k], base[k:]
    elif call.pattern == "diagonal":
        base = tensor(n + 1, m + 1)
        args[i], args[j] = base[:-1, :-1], base[1:, 1:]
    elif call.pattern == "interleaved":
        base = tensor(n, 2 * m) if call.variant else tensor(2 * n, m)
        args[i], args[j] = (base[:, ::2], base[:, 1::2]) if call.variant else (base[::2], base[1::2])
    elif call.pattern == "transposed":
        base = tensor(n, n)
        args[i], args[j] = base, base.t()
    elif call.pattern == "expanded":
        base = tensor(n, 1) if call.variant else tensor(1, m)
        args[i], args[j] = base.expand(n, m), base.expand(n, m)
    elif call.pattern == "view_and_base":
        base = tensor(n, m)
        args[i], args[j] = base, (base.view(n, m) if call.variant else base[:])
    elif call.pattern == "twin_views":
        base = tensor(n, m)
        args[i], args[j] = base[:], base[:]
    return leaves, bases, [a if a is not None else tensor(n, m) for a in args]


# ---- adversarial programs --------------------------------------------------------------------
# adversarial_programs() draws `f(x, k, nt, lst, d=..., *, kw=..., **extra)` whose statements read numbers from
# every place a user keeps one: the global G, a module attribute (helpers.S), a class attribute (Config.S), a
# closure cell (`scale`, remade by make(c)), a positional argument, a namedtuple's field, a default, a
# keyword-only default and a **kwargs key that is not an identifier. The test assigns each of those a new value
# before every call (set_slots), drawn from ADVERSARIAL_VALUES: True, 1 and 1.0 (which must not share a cache
# entry), -0.0, numpy scalars, 2**70 (torch's OverflowError, where the int reaches an op), so every guard is
# exercised; statements also raise on some values, append to the list argument, use generator expressions,
# `with torch.no_grad()` and branch on the numbers.

ADVERSARIAL_SLOTS = {"G": "G", "module": "helpers.S", "class": "Config.S", "k": "k", "field": "nt.a",
                     "item": "nt[1]", "default": "d", "kw": "kw", "extra": 'extra["my key"]'}
ADVERSARIAL_VALUES = [2, 3, 1, 1.0, True, False, 0, -0.0, 1.5, np.float64(2.5), np.int64(3), 2**70]
ADVERSARIAL_PRELUDE = '''import collections
import types

NT = collections.namedtuple("NT", ["a", "b"])
helpers = types.ModuleType("helpers")


class Config:
    S = 1


G = 1


def make(c):
    def scale(t):
        return t * c
    return scale


scale = make(1)


def set_slots(s):
    global G, scale
    G, helpers.S, Config.S, scale = s["G"], s["module"], s["class"], make(s["cell"])
    f.__defaults__ = (s["default"],)
    f.__kwdefaults__ = {"kw": s["kw"]}


def arguments(x, s):
    return (x, s["k"], NT(s["field"], s["item"]), []), {"my key": s["extra"], "if": 1}
'''


class AdversarialWriter(ProgramWriter):
    """Statements over the one tensor y, reading ADVERSARIAL_SLOTS."""

    def number(self):
        return ADVERSARIAL_SLOTS[self.pick(sorted(ADVERSARIAL_SLOTS))]

    def statement(self, depth, scope):
        kind = self.pick(["scale", "scale", "cell", "no_grad", "branch", "genexpr", "raise", "append", "full"])
        getattr(self, "stmt_adv_" + kind)(depth, scope)

    def stmt_adv_scale(self, depth, scope):
        self.emit(depth, f"y = y * {self.number()} + {self.number()}")

    def stmt_adv_cell(self, depth, scope):
        self.emit(depth, "y = scale(y)")

    def stmt_adv_no_grad(self, depth, scope):
        self.emit(depth, "with torch.no_grad():")
        self.emit(depth + 1, f"y = y * {self.number()}")

    def stmt_adv_branch(self, depth, scope):
        self.emit(depth, f"if {self.number()} > 1:")
        self.emit(depth + 1, "y = y + 1")
        self.emit(depth, "else:")
        self.emit(depth + 1, f"y = y - {self.number()}")

    def stmt_adv_genexpr(self, depth, scope):
        self.emit(depth, f"y = y + sum(y * i for i in range({self.pick(['1', '2', '3'])}))")

    def stmt_adv_raise(self, depth, scope):
        source = self.number()
        self.emit(depth, f"if {source} == 0:")
        self.emit(depth + 1, f"raise ValueError({'zero from ' + source!r})")

    def stmt_adv_append(self, depth, scope):
        self.emit(depth, "lst.append(y.sum())")

    def stmt_adv_full(self, depth, scope):
        self.emit(depth, f"y = y + torch.full((1,), {self.number()})")


@st.composite
def adversarial_programs(draw, max_statements=5):
    """Source of a module defining f (see ADVERSARIAL_PRELUDE for set_slots and arguments)."""
    writer = AdversarialWriter(draw, [], draw(st.integers(1, max_statements)))
    writer.block(1, Scope(["y"]), writer.budget)
    lines = ["def f(x, k, nt, lst, d=1, *, kw=1, **extra):", "    y = x", *writer.lines,
             "    return y, type(k).__name__, lst"]
    return ADVERSARIAL_PRELUDE + "\n\n" + "\n".join(lines) + "\n"


adversarial_slot_values = st.fixed_dictionaries(
    {name: st.sampled_from(ADVERSARIAL_VALUES) for name in [*ADVERSARIAL_SLOTS, "cell"]})
