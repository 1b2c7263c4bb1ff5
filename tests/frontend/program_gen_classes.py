"""Hypothesis strategies for the program classes added late to the frontend (a companion to program_gen.py).

`class_programs()` draws the source of a module whose `f(x, y)` (two same-shaped float tensors that need grad)
mixes, among plain tensor ops: a custom autograd.Function (ctx.save_for_backward, a ctx attribute,
ctx.needs_input_grad in backward), dataclass and namedtuple values built, read, replaced (dataclasses.replace,
_replace) and returned, `torch.tensor([t.shape[0], n])` of sizes, a deque / bytearray / array / list / dict / set
changed then read in the frame, a global, a class attribute and a global object's attribute written then read, a
closure that writes a nonlocal, a generator, no_grad / enable_grad / autocast blocks, and breaks placed between
them (print, .item(), a branch on data, dynamo.graph_break()). CLASS_PRELUDE defines what the statements use;
every value stays a tensor of the inputs' shape or a Python int.

`train_programs()` draws the source of a compiled training step `step(x)` over a small nn.Linear model with
SGD or Adam (momentum, weight decay drawn), zero_grad / backward / step and an lr scheduler, sometimes a break
in the step; the test runs it several times and compares losses, weights and the learning rate.

The text is written against `torch` and `dynamo`, as program_gen.py's is, so the test runs one source on
minitorch2 (frontend as dynamo) and on torch (torch._dynamo).
"""
from hypothesis import strategies as st

from .program_gen import ProgramWriter, Scope

CLASS_PRELUDE = '''import array
import collections
import dataclasses


@dataclasses.dataclass
class Box:
    t: object
    k: int = 2


Pair = collections.namedtuple("Pair", ["left", "right"])


class Cfg:
    k = 1


class State:
    def __init__(self):
        self.k = 1


STATE = State()


G = 1


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.k = 3
        return a * b * ctx.k

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad_a = grad * b * ctx.k if ctx.needs_input_grad[0] else None
        grad_b = grad * a * ctx.k if ctx.needs_input_grad[1] else None
        return grad_a, grad_b


class Squash(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        out = a.tanh()
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * (1 - out * out)


def halves(t, n):
    for i in range(n):
        yield t * (0.5 ** i)
'''

CONTAINERS = {
    "deque": ["{c} = collections.deque([{a}])", "{c}.appendleft({b} * 0.5)", "{c}.append({c}.popleft() + 1)",
              "{v} = {c}[0] + {c}[-1] * len({c})"],
    "bytearray": ["{c} = bytearray(b'ab')", "{c}.append({n} % 200)", "{c}.extend(b'c')",
                  "{v} = {a} * len({c}) + {c}[-1] % 7"],
    "array": ["{c} = array.array('i', [1, {n}])", "{c}.append(len({c}))", "{c}[0] = {c}[0] + 2",
              "{v} = {a} * {c}[0] + sum({c}) % 5"],
    "list": ["{c} = [{a}, {b}]", "{c}.insert(0, {a} * 2)", "{c}.pop(1)", "{v} = {c}[0] - {c}[-1] * len({c})"],
    "dict": ["{c} = {{'p': {a}}}", "{c}['q'] = {b} + 1", "{c}.update(r={c}.pop('p') * 0.5)",
             "{v} = {c}['q'] + {c}['r'] * len({c})"],
    "set": ["{c} = {{1, {n}}}", "{c}.add(7)", "{c}.discard(1)", "{v} = {a} * len({c}) + max({c}) % 3"],
}


class ClassWriter(ProgramWriter):
    """Statements of f(x, y) from the late classes, over ProgramWriter's tensor ops."""

    def __init__(self, draw, max_statements):
        super().__init__(draw, [], max_statements)
        self.uses_global = False

    def statement(self, depth, scope):
        kinds = ["op", "function", "dataclass", "namedtuple", "sizes", "container", "global", "class_attr",
                 "object_attr", "closure", "generator", "context", "print", "item", "data_if", "break"]
        getattr(self, "stmt_" + self.pick(kinds if depth < 2 else ["op", "function", "dataclass"]))(depth, scope)

    def two(self, scope):
        return self.pick(scope.tensors), self.pick(scope.tensors)

    def stmt_function(self, depth, scope):
        a = self.pick(scope.tensors)  # two different tensors: apply(t, t) is test_fuzz_new_classes.py's xfail
        b = self.pick([t for t in scope.tensors if t != a])
        self.assign(depth, scope, self.pick([f"Scale.apply({a}, {b})", f"Squash.apply({a})",
                                             f"Scale.apply({a}.detach(), {b})", f"Squash.apply({a} * 2) + {b}"]))

    def stmt_dataclass(self, depth, scope):
        a, b = self.two(scope)
        box = self.fresh("box")
        self.emit(depth, f"{box} = Box({a}, {self.pick(scope.ints)})")
        self.emit(depth, self.pick([f"{box} = dataclasses.replace({box}, t={box}.t * 0.5 + {b})",
                                    f"{box}.k = {box}.k + 1", f"{box}.t = {box}.t.sin()"]))
        self.assign(depth, scope, f"{box}.t * {box}.k")
        if depth == 1 and self.draw(st.booleans()):  # (a name bound in a branch may be unbound at return)
            self.returned.append(box)

    def stmt_namedtuple(self, depth, scope):
        a, b = self.two(scope)
        pair = self.fresh("pair")
        self.emit(depth, f"{pair} = Pair({a}, {b})")
        self.emit(depth, f"{pair} = {pair}._replace(left={pair}.left.tanh())")
        self.assign(depth, scope, self.pick([f"{pair}.left + {pair}[1]", f"sum({pair}) * len({pair})",
                                             f"{pair}.right * {pair}._fields.index('right')"]))
        if depth == 1 and self.draw(st.booleans()):  # (a name bound in a branch may be unbound at return)
            self.returned.append(pair)

    def stmt_sizes(self, depth, scope):
        a = self.pick(scope.tensors)
        sizes = f"torch.tensor([{a}.shape[0], {self.pick(scope.ints)}])"
        self.assign(depth, scope, self.pick([f"{a} + {sizes}.sum()", f"{a} * {sizes}[0]",
                                             f"{a} / ({sizes}.float().mean() + 1)"]))

    def stmt_container(self, depth, scope):
        a, b = self.two(scope)
        names = dict(c=self.fresh("c"), v=self.fresh(), a=a, b=b, n=self.pick(scope.ints))
        for line in CONTAINERS[self.pick(sorted(CONTAINERS))]:
            self.emit(depth, line.format(**names))
        scope.tensors.append(names["v"])

    def stmt_global(self, depth, scope):
        self.uses_global = True
        self.emit(depth, "G = G + 1")
        self.assign(depth, scope, f"{self.pick(scope.tensors)} * G")

    def stmt_class_attr(self, depth, scope):
        self.emit(depth, "Cfg.k = Cfg.k + 1")
        self.assign(depth, scope, f"{self.pick(scope.tensors)} + Cfg.k")

    def stmt_object_attr(self, depth, scope):
        self.emit(depth, "STATE.k = STATE.k * 2 % 7")
        self.assign(depth, scope, f"{self.pick(scope.tensors)} * STATE.k")

    def stmt_closure(self, depth, scope):
        count, inner = self.fresh("count"), self.fresh("bump")
        self.emit(depth, f"{count} = {self.pick(scope.ints)}")
        self.emit(depth, f"def {inner}(t):")
        self.emit(depth + 1, f"nonlocal {count}")
        self.emit(depth + 1, f"{count} += 1")
        self.emit(depth + 1, f"return t * {count}")
        self.assign(depth, scope, f"{inner}({self.pick(scope.tensors)}) + {count}")

    def stmt_generator(self, depth, scope):
        a = self.pick(scope.tensors)
        self.assign(depth, scope, self.pick([f"sum(halves({a}, {self.draw(st.integers(1, 3))}))",
                                             f"list(halves({a}, 2))[-1]", f"next(halves({a}, 1))"]))

    def stmt_context(self, depth, scope):
        a, b = self.two(scope)
        kind = self.pick(["no_grad", "enable_grad", "autocast"])
        target = self.fresh()
        if kind == "enable_grad":
            self.emit(depth, "with torch.no_grad():")
            self.emit(depth + 1, f"{target} = {a} * 2")
            self.emit(depth + 1, "with torch.enable_grad():")
            self.emit(depth + 2, f"{target} = {target} + {self.expr(scope)}")
        elif kind == "autocast":  # a matmul runs in bfloat16 under CPU autocast: the test's tolerance allows it
            self.emit(depth, "with torch.autocast('cpu', dtype=torch.bfloat16):")
            self.emit(depth + 1, f"{target} = (({a} @ {b}.t()) @ {a}).float().tanh()")
        else:
            self.emit(depth, "with torch.no_grad():")
            self.emit(depth + 1, f"{target} = {self.expr(scope)}")
        scope.tensors.append(target)

    def stmt_item(self, depth, scope):
        name = self.fresh("n")
        self.emit(depth, f"{name} = int({self.pick(scope.tensors)}.sum().item() > 0)")
        scope.ints.append(name)

    def result(self, scope):
        return "(" + ", ".join([self.pick(scope.tensors), *self.returned]) + ",)"


@st.composite
def class_programs(draw, max_statements=6):
    """Source of CLASS_PRELUDE plus `f(x, y)` drawing ClassWriter's statements."""
    writer = ClassWriter(draw, draw(st.integers(1, max_statements)))
    writer.returned = []
    scope = Scope(["x", "y"])
    writer.block(1, scope, writer.budget)
    header = ["def f(x, y):"] + (["    global G"] if writer.uses_global else [])
    lines = [*header, *writer.lines, f"    return {writer.result(scope)}"]
    return CLASS_PRELUDE + "\n\n" + "\n".join(lines) + "\n"


TRAIN_TEMPLATE = '''model = torch.nn.Linear(3, 2)
with torch.no_grad():
    model.weight.copy_(torch.arange(6.0).reshape(2, 3) / 10 - 0.2)
    model.bias.copy_(torch.tensor([0.1, -0.1]))
opt = {optimizer}
sched = {scheduler}


def step(x):
    opt.zero_grad({set_to_none})
    loss = {loss}
{middle}    loss.backward()
    opt.step()
    sched.step()
    return loss
'''
OPTIMIZERS = ["torch.optim.SGD(model.parameters(), lr=0.1)",
              "torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)",
              "torch.optim.SGD(model.parameters(), lr=0.05, weight_decay=0.01)",
              "torch.optim.Adam(model.parameters(), lr=0.01)",
              "torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=0.1, amsgrad=True)"]
SCHEDULERS = ["torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)",
              "torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)",
              "torch.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 1.0 / (epoch + 1))"]
LOSSES = ["model(x).pow(2).mean()", "model(x).tanh().sum()", "(model(x) - 1).abs().mean()"]
MIDDLES = ["", "    print('loss', loss.shape)\n", "    if loss.item() > 100:\n        loss = loss * 0.5\n",
           "    dynamo.graph_break()\n"]


@st.composite
def train_programs(draw):
    """Source of a module defining model, opt, sched and a training step `step(x)` (x of shape (n, 3))."""
    return TRAIN_TEMPLATE.format(optimizer=draw(st.sampled_from(OPTIMIZERS)),
                                 scheduler=draw(st.sampled_from(SCHEDULERS)),
                                 set_to_none=draw(st.sampled_from(["", "set_to_none=False"])),
                                 loss=draw(st.sampled_from(LOSSES)), middle=draw(st.sampled_from(MIDDLES)))
